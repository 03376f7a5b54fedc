import { parseAmount } from "../../core/money";
import type { Localized } from "../../core/promotion";
import {
  firstOpenDay,
  moneyFiguresOf,
  planDays,
  playersFiguresOf,
  promotionActivityOf,
  readsByDay,
  runsOf,
  type DayKind,
  type DayRow,
  type MoneyFigures,
  type PlayersFigures,
  type PromotionActivity,
  type RefundRow,
} from "../../core/report-days";
import { periodsOf, utcBounds, type ReportRange } from "../../core/report-range";
import {
  liveDaysStatements,
  MONEY_KINDS,
  PLAYERS_KINDS,
  PROMOTION_KINDS,
  readDayRows,
  readRefunds,
  readRolledUpDay,
  readRolledUpDays,
  refundsStatement,
  rolledUpDaysStatement,
  rollUpDayStatements,
  type DaySpan,
} from "../../db/report-days";
import {
  agencyPromotionsStatement,
  loadMoneyFigures,
  loadPlayersFigures,
  loadPromotionFigures,
  readAgencyPromotions,
  type AgencyPromotion,
  type ReportWindow,
} from "../../db/reports";

/**
 * The back office's reports. Every metric is defined in
 * docs/decisions/019-reports.md; in short:
 *  - a deposit is a SUCCESS deposit order counted at its paid time, manual credits apart;
 *  - a withdrawal is a SUCCESS withdraw order counted at its payout time;
 *  - amounts are integer minor units as JS numbers: kip = LAK minor (1/100 kip), credit and
 *    bonus = THB minor (satang);
 *  - periods are Asia/Vientiane days or hours (workers/core/report-range.ts), in order, every
 *    period of the range present (zeros included).
 *
 * Where the figures come from (decision 078): a range grouped by day reads each closed day's
 * rollup (report_days) and the open days live, rolling up at most ROLL_UP_PER_REQUEST missing
 * days itself (the scheduled roll-up, report-days.ts, does the rest); an hourly day and a range
 * longer than the rollup's histograms read the read models live. Both end in the same figures,
 * composed below.
 */

export type MoneyRow = {
  period: string;
  depositCount: number;
  /** LAK minor the bank received for those deposits (the unique pay amount on own-account channels). */
  depositKip: number;
  /** THB minor credited for them. */
  depositCredit: number;
  withdrawCount: number;
  /** THB minor taken from the provider (deductions included). */
  withdrawCredit: number;
  /** LAK minor paid out. */
  withdrawKipPaid: number;
  /** depositKip + manualCreditKip - withdrawKipPaid. */
  netKip: number;
  /** THB minor of promotion bonuses credited, counted with their deposit. */
  bonusGiven: number;
  /** THB minor of promotion deductions taken back at paid withdrawals. */
  bonusDeducted: number;
  /** THB minor credited by staff from the unmatched-payments queue (MANUAL orders, SUCCESS). */
  manualCredit: number;
  /** LAK minor of those payments. */
  manualCreditKip: number;
  manualCount: number;
  /** LAK minor of unmatched payments marked refunded (not per provider: a refund has none). */
  refundKip: number;
  refundCount: number;
};

type PlayersRow = {
  period: string;
  registrations: number;
  firstDeposits: number;
  /** Of the players registered in the period, the share whose first deposit was in that same period; null without registrations. */
  conversion: number | null;
  activeDepositors: number;
  returningDepositors: number;
};

type PromotionRow = {
  promotionId: string;
  title: Localized;
  claims: number;
  completed: number;
  cancelled: number;
  /** THB minor: bonusGiven - bonusDeducted. */
  bonusCost: number;
  bonusGiven: number;
  bonusDeducted: number;
};

function windowOf(agencyId: string, range: ReportRange): ReportWindow {
  return { agencyId, grouping: range.grouping, ...utcBounds(range) };
}

/** How the whole range is named in `total` and `byProvider` rows: an ISO 8601 interval of days. */
function rangeLabel(range: ReportRange): string {
  return `${range.from}/${range.to}`;
}

function emptyMoney(period: string): MoneyRow {
  return {
    period,
    depositCount: 0,
    depositKip: 0,
    depositCredit: 0,
    withdrawCount: 0,
    withdrawCredit: 0,
    withdrawKipPaid: 0,
    netKip: 0,
    bonusGiven: 0,
    bonusDeducted: 0,
    manualCredit: 0,
    manualCreditKip: 0,
    manualCount: 0,
    refundKip: 0,
    refundCount: 0,
  };
}

const MONEY_SUMS = [
  "depositCount",
  "depositKip",
  "depositCredit",
  "withdrawCount",
  "withdrawCredit",
  "withdrawKipPaid",
  "bonusGiven",
  "bonusDeducted",
  "manualCredit",
  "manualCreditKip",
  "manualCount",
  "refundKip",
  "refundCount",
] as const;

function addMoney(into: MoneyRow, from: MoneyRow): void {
  for (const key of MONEY_SUMS) into[key] += from[key];
}

function withNet(row: MoneyRow): MoneyRow {
  row.netKip = row.depositKip + row.manualCreditKip - row.withdrawKipPaid;
  return row;
}

export type MoneyReport = { periods: MoneyRow[]; byProvider: (MoneyRow & { provider: string })[]; total: MoneyRow };
export type PlayersReport = { periods: PlayersRow[]; total: PlayersRow };
export type PromotionsReport = { promotions: PromotionRow[] };

function composeMoney(range: ReportRange, figures: MoneyFigures): MoneyReport {
  // One cell per (period, provider); refunds have no provider ("").
  const cells = new Map<string, MoneyRow & { provider: string }>();
  const cell = (period: string, provider: string) => {
    const key = `${period}\u0000${provider}`;
    let found = cells.get(key);
    if (!found) cells.set(key, (found = { ...emptyMoney(period), provider }));
    return found;
  };
  for (const d of figures.deposits) {
    const c = cell(d.period, d.provider);
    if (d.manual) {
      c.manualCount += d.n;
      c.manualCreditKip += d.kip;
      c.manualCredit += d.credit;
    } else {
      c.depositCount += d.n;
      c.depositKip += d.kip;
      c.depositCredit += d.credit;
    }
    c.bonusGiven += d.bonus;
  }
  for (const w of figures.withdrawals) {
    const c = cell(w.period, w.provider);
    c.withdrawCount += w.n;
    c.withdrawCredit += w.credit;
    c.withdrawKipPaid += w.kip;
    c.bonusDeducted += w.deducted;
  }
  for (const r of figures.refunds) {
    const c = cell(r.period, "");
    c.refundCount += 1;
    c.refundKip += Number(parseAmount(r.amount ?? "0", "LAK") ?? 0n);
  }

  const periods = new Map(periodsOf(range).map((p) => [p, emptyMoney(p)]));
  const providers = new Map<string, MoneyRow & { provider: string }>();
  const total = emptyMoney(rangeLabel(range));
  for (const c of cells.values()) {
    const p = periods.get(c.period);
    if (!p) continue; // cannot happen: the window is the range's
    addMoney(p, c);
    addMoney(total, c);
    if (c.provider === "") continue;
    let byProvider = providers.get(c.provider);
    if (!byProvider) providers.set(c.provider, (byProvider = { ...emptyMoney(rangeLabel(range)), provider: c.provider }));
    addMoney(byProvider, c);
  }
  return {
    periods: [...periods.values()].map(withNet),
    byProvider: [...providers.values()].map((row) => ({ ...withNet(row), provider: row.provider })).sort((a, b) => a.provider.localeCompare(b.provider)),
    total: withNet(total),
  };
}

function composePlayers(range: ReportRange, figures: PlayersFigures): PlayersReport {
  const rows = new Map(periodsOf(range).map((p) => [p, { period: p, registrations: 0, firstDeposits: 0, converted: 0, activeDepositors: 0 }]));
  for (const r of figures.registrations) {
    const row = rows.get(r.period);
    if (row) row.registrations += r.n;
  }
  for (const r of figures.firstDeposits) {
    const row = rows.get(r.period);
    if (!row) continue;
    row.firstDeposits += r.n;
    row.converted += r.converted;
  }
  for (const r of figures.active) {
    const row = rows.get(r.period);
    if (row) row.activeDepositors += r.n;
  }
  const finish = (r: { period: string; registrations: number; firstDeposits: number; converted: number; activeDepositors: number }): PlayersRow => ({
    period: r.period,
    registrations: r.registrations,
    firstDeposits: r.firstDeposits,
    conversion: r.registrations === 0 ? null : r.converted / r.registrations,
    activeDepositors: r.activeDepositors,
    // a first deposit in the period is also a deposit in it: the rest deposited before
    returningDepositors: r.activeDepositors - r.firstDeposits,
  });
  const periods = [...rows.values()];
  const sum = (key: "registrations" | "firstDeposits") => periods.reduce((n, r) => n + r[key], 0);
  return {
    periods: periods.map(finish),
    total: finish({
      period: rangeLabel(range),
      registrations: sum("registrations"),
      firstDeposits: sum("firstDeposits"),
      converted: figures.totals.converted,
      activeDepositors: figures.totals.activeDepositors,
    }),
  };
}

function decodeTitle(json: string): Localized {
  try {
    const parsed = JSON.parse(json) as Partial<Localized>;
    if (parsed && typeof parsed.lo === "string") return parsed as Localized;
  } catch {
    // a title that is no JSON is shown as it is
  }
  return { lo: json };
}

/**
 * Per promotion of the agency, over the whole range: every ACTIVE promotion, and any other
 * with activity in the range. Ordered by claims, then bonus cost, then id.
 */
function composePromotions(figures: PromotionActivity & { promotions: AgencyPromotion[] }): PromotionsReport {
  const rows = new Map<string, PromotionRow>();
  const known = new Map(figures.promotions.map((p) => [p.id, p]));
  const row = (id: string) => {
    let found = rows.get(id);
    if (!found) {
      const p = known.get(id);
      rows.set(
        id,
        (found = {
          promotionId: id,
          title: p ? decodeTitle(p.title) : { lo: id },
          claims: 0,
          completed: 0,
          cancelled: 0,
          bonusCost: 0,
          bonusGiven: 0,
          bonusDeducted: 0,
        }),
      );
    }
    return found;
  };
  for (const p of figures.promotions) if (p.status === "ACTIVE") row(p.id);
  for (const c of figures.claims) row(c.promotionId).claims += c.n;
  for (const e of figures.ended) {
    if (e.status === "SUCCESS") row(e.promotionId).completed += e.n;
    else row(e.promotionId).cancelled += e.n;
  }
  for (const b of figures.bonus) row(b.promotionId).bonusGiven += b.given;
  for (const d of figures.deducted) row(d.promotionId).bonusDeducted += d.deducted;
  const promotions = [...rows.values()].map((r) => ({ ...r, bonusCost: r.bonusGiven - r.bonusDeducted }));
  promotions.sort((a, b) => b.claims - a.claims || b.bonusCost - a.bonusCost || a.promotionId.localeCompare(b.promotionId));
  return { promotions };
}

// ---- where the figures come from ----

/**
 * Closed days one report rolls up itself at most (one batch each; about 70 ms of D1 for a day
 * of 7,000 deposits, decision 078); the other missing days are read live and left to the
 * scheduled roll-up.
 */
const ROLL_UP_PER_REQUEST = 3;
/** Days of orders one live statement reads at most, beyond the open days (up to about 0.7 s of D1 at 7,000 deposits a day). */
const LIVE_RUN_DAYS = 7;

export type ReportPart = "money" | "players" | "promotions";
const KINDS_OF: Record<ReportPart, readonly DayKind[]> = { money: MONEY_KINDS, players: PLAYERS_KINDS, promotions: PROMOTION_KINDS };

type Results = D1Result<Record<string, unknown>>[];

/** A D1 batch built in parts, each part reading its own results back by position. */
function batchOf() {
  const statements: D1PreparedStatement[] = [];
  return {
    statements,
    add(part: D1PreparedStatement[]): (results: Results) => Results {
      const start = statements.length;
      statements.push(...part);
      return (results) => results.slice(start, start + part.length);
    },
  };
}

/** The ISO bounds of the days from the first to the last of `days` (in order). */
function spanOf(days: readonly string[]): DaySpan {
  return utcBounds({ from: days[0]!, to: days[days.length - 1]!, grouping: "day" });
}

type DayFigures = { rows: DayRow[]; refunds: RefundRow[]; promotions: AgencyPromotion[] };

/**
 * Every day of a by-day range as day rows of the parts' kinds: one batch reads the rollup of the
 * closed days, the open days live, the refunds and the promotions; a second, only when closed days
 * are missing from the rollup, rolls up some of them and reads the others live a run of days at
 * a time (so no statement reads more than a week of orders, however cold the rollup).
 */
async function readDayFigures(db: D1Database, agencyId: string, range: ReportRange, parts: readonly ReportPart[], now: number): Promise<DayFigures> {
  const kinds = [...new Set(parts.flatMap((part) => KINDS_OF[part]))];
  const open = firstOpenDay(now);
  const days = periodsOf({ ...range, grouping: "day" });
  const closed = days.filter((day) => day < open);
  const opened = days.filter((day) => day >= open);

  const first = batchOf();
  const stored = closed.length > 0 ? first.add([rolledUpDaysStatement(db, agencyId, closed[0]!, closed[closed.length - 1]!)]) : null;
  const openLive = opened.length > 0 ? first.add(liveDaysStatements(db, agencyId, spanOf(opened), kinds)) : null;
  const refunds = parts.includes("money") ? first.add([refundsStatement(db, agencyId, spanOf(days))]) : null;
  const promotions = parts.includes("promotions") ? first.add([agencyPromotionsStatement(db, agencyId)]) : null;
  const results = await db.batch<Record<string, unknown>>(first.statements);

  const rolledUp = stored ? readRolledUpDays(stored(results)[0]!) : { rows: [], sealed: new Set<string>() };
  const rows = rolledUp.rows.filter((row) => rolledUp.sealed.has(row.day));
  if (openLive) rows.push(...openLive(results).flatMap(readDayRows));

  const plan = planDays(range, now, rolledUp.sealed, ROLL_UP_PER_REQUEST);
  const closedLive = plan.live.filter((day) => day < open);
  if (plan.fill.length > 0 || closedLive.length > 0) {
    const second = batchOf();
    const filled = plan.fill.map((day) => second.add(rollUpDayStatements(db, agencyId, day, spanOf([day]))));
    const missing = second.add(runsOf(closedLive, LIVE_RUN_DAYS).flatMap((run) => liveDaysStatements(db, agencyId, spanOf(run), kinds)));
    const more = await db.batch<Record<string, unknown>>(second.statements);
    for (const written of filled) rows.push(...readRolledUpDay(written(more)));
    rows.push(...missing(more).flatMap(readDayRows));
  }
  const asked = new Set(kinds);
  return {
    rows: rows.filter((row) => asked.has(row.kind)),
    refunds: refunds ? readRefunds(refunds(results)[0]!) : [],
    promotions: promotions ? readAgencyPromotions(promotions(results)[0]!) : [],
  };
}

export type Reports = { money: MoneyReport | null; players: PlayersReport | null; promotions: PromotionsReport | null };

/** The hourly day, or a range longer than the rollup's histograms: every figure live from the read models. */
async function liveReports(db: D1Database, agencyId: string, range: ReportRange, parts: readonly ReportPart[]): Promise<Reports> {
  const window = windowOf(agencyId, range);
  const [money, players, promotions] = await Promise.all([
    parts.includes("money") ? loadMoneyFigures(db, window) : null,
    parts.includes("players") ? loadPlayersFigures(db, window) : null,
    parts.includes("promotions") ? loadPromotionFigures(db, window) : null,
  ]);
  return {
    money: money && composeMoney(range, money),
    players: players && composePlayers(range, players),
    promotions: promotions && composePromotions(promotions),
  };
}

/** The asked parts of the reports for one range, read together. */
export async function reportsOf(
  db: D1Database,
  agencyId: string,
  range: ReportRange,
  parts: readonly ReportPart[],
  now: number = Date.now(),
): Promise<Reports> {
  if (!readsByDay(range)) return liveReports(db, agencyId, range, parts);
  const figures = await readDayFigures(db, agencyId, range, parts, now);
  return {
    money: parts.includes("money") ? composeMoney(range, moneyFiguresOf(figures.rows, figures.refunds)) : null,
    players: parts.includes("players") ? composePlayers(range, playersFiguresOf(figures.rows, range.from)) : null,
    promotions: parts.includes("promotions") ? composePromotions({ ...promotionActivityOf(figures.rows), promotions: figures.promotions }) : null,
  };
}

function asked<T>(part: T | null): T {
  if (part === null) throw new Error("report part not read");
  return part;
}

export async function moneyReport(db: D1Database, agencyId: string, range: ReportRange, now: number = Date.now()): Promise<MoneyReport> {
  return asked((await reportsOf(db, agencyId, range, ["money"], now)).money);
}

export async function playersReport(db: D1Database, agencyId: string, range: ReportRange, now: number = Date.now()): Promise<PlayersReport> {
  return asked((await reportsOf(db, agencyId, range, ["players"], now)).players);
}

export async function promotionsReport(db: D1Database, agencyId: string, range: ReportRange, now: number = Date.now()): Promise<PromotionsReport> {
  return asked((await reportsOf(db, agencyId, range, ["promotions"], now)).promotions);
}
