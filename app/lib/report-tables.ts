import type { TFunction } from "i18next";
import { formatAmount } from "@workers/core/money";
import { localize } from "@workers/core/promotion";
import type { CsvCell } from "@workers/core/csv";
import type { MoneyReport, PlayersReport, PromotionsReport, ProvidersReport, ReportExport, ReportTable } from "@workers/services/reports";
import { formatMoney, formatNumber, roundDecimalString } from "./format";

/**
 * The report tables (decision 059), defined once for the screen and the CSV export so both show
 * the same figures: the page renders a table's cells with `screenCell`, the export route
 * writes the same cells with `csvCell`. Amounts arrive as integer minor units (kip in att,
 * credit in satang); both outputs go through the same decimal string (formatAmount) and the
 * same rounding (kip to whole kip, credit to 0.01), never through floating-point sums.
 * The screen groups digits the Lao way (1.234.567,50, app/lib/format.ts), the CSV writes
 * plain numbers (1234567.50).
 */
export type CellKind = "period" | "provider" | "text" | "count" | "kip" | "credit" | "percent";
export type ReportColumn = { key: string; kind: CellKind };
/** A period ('YYYY-MM-DD' or 'YYYY-MM-DDTHH'), TOTAL, a provider code, text, or a number (minor units for money, 0..1 for percent). */
export type ReportCell = string | number | null;
export type ReportTableData = { table: ReportTable; columns: ReportColumn[]; rows: ReportCell[][]; totals: ReportCell[][] };

/** The first cell of a total row. */
export const TOTAL = "__total__";

const MONEY_COLUMNS: ReportColumn[] = [
  { key: "depositCount", kind: "count" },
  { key: "depositKip", kind: "kip" },
  { key: "depositCredit", kind: "credit" },
  { key: "withdrawCount", kind: "count" },
  { key: "withdrawCredit", kind: "credit" },
  { key: "withdrawKipPaid", kind: "kip" },
  { key: "netKip", kind: "kip" },
  { key: "bonusGiven", kind: "credit" },
  { key: "bonusDeducted", kind: "credit" },
  { key: "manualCount", kind: "count" },
  { key: "manualCredit", kind: "credit" },
  { key: "manualCreditKip", kind: "kip" },
  { key: "refundCount", kind: "count" },
  { key: "refundKip", kind: "kip" },
];

type MoneyRow = MoneyReport["total"];
const moneyCells = (row: MoneyRow): ReportCell[] => MONEY_COLUMNS.map((c) => row[c.key as keyof MoneyRow] as number);

export function moneyTable(report: MoneyReport): ReportTableData {
  return {
    table: "money",
    columns: [{ key: "period", kind: "period" }, ...MONEY_COLUMNS],
    rows: report.periods.map((row) => [row.period, ...moneyCells(row)]),
    totals: [[TOTAL, ...moneyCells(report.total)]],
  };
}

/** Money per provider over the whole range (one row per provider, the sum of its periods when the service gives several). */
export function moneyByProviderTable(report: MoneyReport): ReportTableData {
  return {
    table: "money-by-provider",
    columns: [{ key: "provider", kind: "provider" }, ...MONEY_COLUMNS],
    rows: moneyByProvider(report).map((row) => [row.provider, ...moneyCells(row)]),
    totals: [[TOTAL, ...moneyCells(report.total)]],
  };
}

/** One row per provider (in the service's order of first appearance). */
export function moneyByProvider(report: MoneyReport): (MoneyRow & { provider: string })[] {
  const out = new Map<string, MoneyRow & { provider: string }>();
  for (const row of report.byProvider) {
    const seen = out.get(row.provider);
    if (!seen) {
      out.set(row.provider, { ...row });
      continue;
    }
    for (const c of MONEY_COLUMNS)
      (seen as Record<string, unknown>)[c.key] = (seen[c.key as keyof MoneyRow] as number) + (row[c.key as keyof MoneyRow] as number);
  }
  return [...out.values()];
}

const PLAYER_COLUMNS: ReportColumn[] = [
  { key: "registrations", kind: "count" },
  { key: "firstDeposits", kind: "count" },
  { key: "conversion", kind: "percent" },
  { key: "activeDepositors", kind: "count" },
  { key: "returningDepositors", kind: "count" },
];
type PlayersRow = PlayersReport["total"];
const playerCells = (row: PlayersRow): ReportCell[] => PLAYER_COLUMNS.map((c) => row[c.key as keyof PlayersRow] as number | null);

export function playersTable(report: PlayersReport): ReportTableData {
  return {
    table: "players",
    columns: [{ key: "period", kind: "period" }, ...PLAYER_COLUMNS],
    rows: report.periods.map((row) => [row.period, ...playerCells(row)]),
    totals: [[TOTAL, ...playerCells(report.total)]],
  };
}

export function promotionsTable(report: PromotionsReport, language: string): ReportTableData {
  const rows = report.promotions.map((p) => [localize(p.title, language), p.claims, p.completed, p.cancelled, p.bonusGiven, p.bonusDeducted, p.bonusCost]);
  const sum = (i: number) => rows.reduce((acc, row) => acc + (row[i] as number), 0);
  return {
    table: "promotions",
    columns: [
      { key: "promotion", kind: "text" },
      { key: "claims", kind: "count" },
      { key: "completed", kind: "count" },
      { key: "cancelled", kind: "count" },
      { key: "bonusGiven", kind: "credit" },
      { key: "bonusDeducted", kind: "credit" },
      { key: "bonusCost", kind: "credit" },
    ],
    rows,
    totals: rows.length ? [[TOTAL, sum(1), sum(2), sum(3), sum(4), sum(5), sum(6)]] : [],
  };
}

export function providersTable(report: ProvidersReport): ReportTableData {
  return {
    table: "providers",
    columns: [
      { key: "period", kind: "period" },
      { key: "provider", kind: "provider" },
      { key: "turnover", kind: "credit" },
      { key: "winLoss", kind: "credit" },
      { key: "missingDays", kind: "count" },
    ],
    rows: report.periods.map((row) => [row.period, row.provider, row.turnover, row.winLoss, null]),
    totals: report.total.map((row) => [TOTAL, row.provider, row.turnover, row.winLoss, row.missingDays]),
  };
}

/** The table an export carries, as the page draws it. */
export function exportTable(data: ReportExport, language: string): ReportTableData {
  switch (data.table) {
    case "money":
      return moneyTable(data.money);
    case "money-by-provider":
      return moneyByProviderTable(data.money);
    case "players":
      return playersTable(data.players);
    case "promotions":
      return promotionsTable(data.promotions, language);
    case "providers":
      return providersTable(data.providers);
  }
}

/* ---------------------------------------------------------------- periods */

const isHour = (period: string) => period.length === 13;

/** '2026-11-24' -> '24/11/2026'; '2026-11-24T14' -> '14:00' (an hourly report is one day). */
export function periodLabel(period: string): string {
  if (isHour(period)) return `${period.slice(11, 13)}:00`;
  return period.split("-").reverse().join("/");
}

/** The short axis label: '24/11' or '14'. */
export function periodTick(period: string): string {
  return isHour(period) ? period.slice(11, 13) : `${period.slice(8, 10)}/${period.slice(5, 7)}`;
}

/* ---------------------------------------------------------------- cells */

/** Minor units -> the decimal string shown: kip in whole kip, credit to 0.01 (the same rounding as formatMoney). */
function amountText(minor: number, kind: "kip" | "credit"): string {
  const currency = kind === "kip" ? "LAK" : "THB";
  return roundDecimalString(formatAmount(BigInt(Math.trunc(minor)), currency), kind === "kip" ? 0 : 2);
}

/** A money amount in minor units as the screen shows it: '₭60.000', '฿1.234,50'. */
export function moneyText(minor: number, kind: "kip" | "credit"): string {
  const currency = kind === "kip" ? "LAK" : "THB";
  return formatMoney(formatAmount(BigInt(Math.trunc(minor)), currency), currency);
}

/** A ratio 0..1 as a percentage with one decimal ('42.5'), or null. */
function percentText(ratio: number | null): string | null {
  return ratio === null || !Number.isFinite(ratio) ? null : (Math.round(ratio * 1000) / 10).toFixed(1);
}

type Translate = TFunction | ((key: string, options?: Record<string, unknown>) => string);

function labelCell(kind: CellKind, value: ReportCell, t: Translate, screen: boolean): string {
  if (value === TOTAL) return t("reports.total");
  if (kind === "period") return screen ? periodLabel(String(value)) : String(value).replace("T", " ") + (isHour(String(value)) ? ":00" : "");
  if (kind === "provider") return t(`common:providers.${value}`, { defaultValue: String(value) });
  return String(value ?? "");
}

/** A cell as the page shows it (Lao digit grouping). */
export function screenCell(kind: CellKind, value: ReportCell, t: Translate): string {
  if (kind === "period" || kind === "provider" || kind === "text") return labelCell(kind, value, t, true);
  if (value === null || typeof value !== "number") return t("common.none");
  if (kind === "kip" || kind === "credit") return moneyText(value, kind);
  if (kind === "percent") {
    const percent = percentText(value);
    return percent === null ? t("common.none") : `${formatNumber(percent)} %`;
  }
  return formatNumber(value);
}

/** The same cell for the CSV: plain numbers (no grouping, '.' decimal point, no currency sign). */
function csvCell(kind: CellKind, value: ReportCell, t: Translate): CsvCell {
  if (kind === "period" || kind === "provider" || kind === "text") return labelCell(kind, value, t, false);
  if (value === null || typeof value !== "number") return null;
  if (kind === "kip" || kind === "credit") return amountText(value, kind);
  if (kind === "percent") return percentText(value);
  return value;
}

/** The column headers, translated (under admin:reports.columns.*), with the unit for money columns. */
export function columnLabel(column: ReportColumn, t: Translate): string {
  return t(`reports.columns.${column.key}`);
}

/** Header + rows + total rows, as CSV cells. */
export function csvRows(data: ReportTableData, t: Translate): CsvCell[][] {
  const cells = (row: ReportCell[]) => row.map((value, i) => csvCell(data.columns[i].kind, value, t));
  return [data.columns.map((c) => columnLabel(c, t)), ...data.rows.map(cells), ...data.totals.map(cells)];
}
