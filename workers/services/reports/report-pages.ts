import type { ReportRange } from "../../core/report-range";
import type { AuditActor } from "../../db/audit";
import { auditReportExport } from "../staff";
import { providersReport } from "./provider-stats";
import { moneyReport, playersReport, promotionsReport, reportsOf, type MoneyReport, type PlayersReport, type PromotionsReport } from "./reports";

/**
 * The back office's reports page and its CSV exports (decision 059): which parts a role may see,
 * and one call each for the page's loader and the export route. The figures come from the
 * report services (workers/services/reports/reports.ts, provider-stats.ts); this module only chooses
 * which of them a staff member gets, and audits every export.
 *
 * Roles: an owner sees money, players, promotions and providers; a cashier the money part
 * only. The page's loader asks for the cashier's part only (the owner's figures are never
 * computed for a cashier, let alone sent), and an export of an owner's table by a cashier is
 * refused here as well as in the route (403).
 */
export type StaffRole = "owner" | "cashier";

const REPORT_TABLES = ["money", "money-by-provider", "players", "promotions", "providers"] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

/** The tables a cashier may see and export; every other one is the owner's. */
const CASHIER_TABLES: ReadonlySet<ReportTable> = new Set(["money", "money-by-provider"]);

export function isReportTable(value: unknown): value is ReportTable {
  return typeof value === "string" && (REPORT_TABLES as readonly string[]).includes(value);
}

export function mayExport(role: StaffRole, table: ReportTable): boolean {
  return role === "owner" || CASHIER_TABLES.has(table);
}

export type { MoneyReport, PlayersReport, PromotionsReport };
export type ProvidersReport = Awaited<ReturnType<typeof providersReport>>;

export type ReportsPage = {
  range: ReportRange;
  money: MoneyReport;
  /** null for a cashier: the owner's parts are not computed. */
  players: PlayersReport | null;
  promotions: PromotionsReport | null;
  providers: ProvidersReport | null;
};

/** Every part the role may see, for one range (money, players and promotions read together). */
export async function reportsPage(db: D1Database, agencyId: string, role: StaffRole, range: ReportRange, now: number = Date.now()): Promise<ReportsPage> {
  const owner = role === "owner";
  const [reports, providers] = await Promise.all([
    reportsOf(db, agencyId, range, owner ? ["money", "players", "promotions"] : ["money"], now),
    owner ? providersReport(db, agencyId, range) : null,
  ]);
  if (!reports.money) throw new Error("the money report is every role's");
  return { range, money: reports.money, players: reports.players, promotions: reports.promotions, providers };
}

/** What one export carries: the report the table is drawn from (the page draws the same table from it). */
export type ReportExport =
  | { table: "money" | "money-by-provider"; money: MoneyReport }
  | { table: "players"; players: PlayersReport }
  | { table: "promotions"; promotions: PromotionsReport }
  | { table: "providers"; providers: ProvidersReport };

class ReportForbiddenError extends Error {
  constructor(table: ReportTable) {
    super(`report table ${table} is the owner's`);
  }
}

/**
 * One table's figures for a CSV export, audited (`report.export`: the table, the range and
 * the number of data rows) before they are handed out. A cashier asking for an owner's table
 * gets ReportForbiddenError and no audit row (nothing left the server).
 */
export async function reportExport(
  db: D1Database,
  actor: AuditActor,
  role: StaffRole,
  table: ReportTable,
  range: ReportRange,
  now: number = Date.now(),
): Promise<ReportExport> {
  if (!mayExport(role, table)) throw new ReportForbiddenError(table);
  const agencyId = actor.agencyId;
  let data: ReportExport;
  let rows: number;
  switch (table) {
    case "money":
    case "money-by-provider": {
      const money = await moneyReport(db, agencyId, range, now);
      data = { table, money };
      rows = table === "money" ? money.periods.length : money.byProvider.length;
      break;
    }
    case "players": {
      const players = await playersReport(db, agencyId, range, now);
      data = { table, players };
      rows = players.periods.length;
      break;
    }
    case "promotions": {
      const promotions = await promotionsReport(db, agencyId, range, now);
      data = { table, promotions };
      rows = promotions.promotions.length;
      break;
    }
    case "providers": {
      const providers = await providersReport(db, agencyId, range);
      data = { table, providers };
      rows = providers.periods.length;
      break;
    }
  }
  await auditReportExport(db, actor, { table, range, rows });
  return data;
}
