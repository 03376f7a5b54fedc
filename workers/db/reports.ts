/**
 * The SQL of the back office's reports (decision 019), over the read models the
 * wallets project (deposit_orders_view, withdraw_orders_view, promotion_usages_view, players,
 * unmatched_payments). Every sum is SUM() over INTEGER minor-unit columns (migration 0022),
 * which SQLite adds as integers, exactly (never TOTAL(), which is floating point); the one decimal-text amount (a refunded unmatched payment) is
 * returned row by row for the service to add as bigint. Times are the ISO strings the read
 * models store; periods are Vientiane days or hours (UTC+7), named as report-range's periodsOf.
 */
import type { MoneyFigures, PlayersFigures, PromotionActivity } from "../core/report-days";
import type { ReportGrouping } from "../core/report-range";

export type ReportWindow = { agencyId: string; fromIso: string; toIsoExclusive: string; grouping: ReportGrouping };

/** The Vientiane period ('YYYY-MM-DD' or 'YYYY-MM-DDTHH') of an ISO time column. */
function period(column: string, grouping: ReportGrouping): string {
  return grouping === "hour" ? `strftime('%Y-%m-%dT%H', ${column}, '+7 hours')` : `strftime('%Y-%m-%d', ${column}, '+7 hours')`;
}

/** A successful deposit of the agency paid within the window (?1 agency, ?2 from, ?3 to). */
const DEPOSIT_PAID = `agency_id = ?1 AND status = 'SUCCESS' AND paid_at >= ?2 AND paid_at < ?3`;
const WITHDRAW_PAID = `agency_id = ?1 AND status = 'SUCCESS' AND paid_at >= ?2 AND paid_at < ?3`;
const NOT_MANUAL = `channel_code IS NOT 'MANUAL'`;

export async function loadMoneyFigures(db: D1Database, w: ReportWindow): Promise<MoneyFigures> {
  const args = [w.agencyId, w.fromIso, w.toIsoExclusive];
  const [deposits, withdrawals, refunds] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT ${period("paid_at", w.grouping)} AS period, provider, (channel_code IS 'MANUAL') AS manual,
                COUNT(*) AS n, SUM(paid_minor) AS kip, SUM(credit_minor) AS credit, SUM(bonus_minor) AS bonus
           FROM deposit_orders_view WHERE ${DEPOSIT_PAID}
          GROUP BY 1, 2, 3`,
      )
      .bind(...args),
    db
      .prepare(
        `SELECT ${period("paid_at", w.grouping)} AS period, provider,
                COUNT(*) AS n, SUM(credit_minor) AS credit, SUM(paid_lak_minor) AS kip, SUM(deducted_minor) AS deducted
           FROM withdraw_orders_view WHERE ${WITHDRAW_PAID}
          GROUP BY 1, 2`,
      )
      .bind(...args),
    db
      .prepare(
        `SELECT ${period("resolved_at", w.grouping)} AS period, amount
           FROM unmatched_payments WHERE agency_id = ?1 AND status = 'REFUNDED' AND resolved_at >= ?2 AND resolved_at < ?3`,
      )
      .bind(...args),
  ]);
  return {
    deposits: (deposits.results as MoneyFigures["deposits"]).map((r) => ({
      ...r,
      manual: Number(r.manual),
      n: Number(r.n),
      kip: Number(r.kip),
      credit: Number(r.credit),
      bonus: Number(r.bonus),
    })),
    withdrawals: (withdrawals.results as MoneyFigures["withdrawals"]).map((r) => ({
      ...r,
      n: Number(r.n),
      credit: Number(r.credit),
      kip: Number(r.kip),
      deducted: Number(r.deducted),
    })),
    refunds: refunds.results as MoneyFigures["refunds"],
  };
}

export async function loadPlayersFigures(db: D1Database, w: ReportWindow): Promise<PlayersFigures> {
  const args = [w.agencyId, w.fromIso, w.toIsoExclusive];
  const [registrations, firsts, active, totals] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT ${period("created_at", w.grouping)} AS period, COUNT(*) AS n FROM players WHERE agency_id = ?1 AND created_at >= ?2 AND created_at < ?3 GROUP BY 1`,
      )
      .bind(...args),
    db
      .prepare(
        `SELECT ${period("first_deposit_at", w.grouping)} AS period, COUNT(*) AS n,
                SUM(${period("created_at", w.grouping)} = ${period("first_deposit_at", w.grouping)}) AS converted
           FROM players WHERE agency_id = ?1 AND first_deposit_at >= ?2 AND first_deposit_at < ?3 GROUP BY 1`,
      )
      .bind(...args),
    db
      .prepare(
        `SELECT ${period("paid_at", w.grouping)} AS period, COUNT(DISTINCT player_id) AS n FROM deposit_orders_view WHERE ${DEPOSIT_PAID} AND ${NOT_MANUAL} GROUP BY 1`,
      )
      .bind(...args),
    db
      .prepare(
        `SELECT (SELECT COUNT(DISTINCT player_id) FROM deposit_orders_view WHERE ${DEPOSIT_PAID} AND ${NOT_MANUAL}) AS active,
                (SELECT COUNT(*) FROM players WHERE agency_id = ?1 AND first_deposit_at >= ?2 AND first_deposit_at < ?3 AND created_at >= ?2) AS converted`,
      )
      .bind(...args),
  ]);
  const total = (totals.results[0] ?? {}) as { active?: number; converted?: number };
  return {
    registrations: (registrations.results as { period: string; n: number }[]).map((r) => ({ period: r.period, n: Number(r.n) })),
    firstDeposits: (firsts.results as { period: string; n: number; converted: number }[]).map((r) => ({
      period: r.period,
      n: Number(r.n),
      converted: Number(r.converted),
    })),
    active: (active.results as { period: string; n: number }[]).map((r) => ({ period: r.period, n: Number(r.n) })),
    totals: { activeDepositors: Number(total.active ?? 0), converted: Number(total.converted ?? 0) },
  };
}

export type AgencyPromotion = { id: string; title: string; status: string };

/** Every promotion of the agency (the promotions report lists the active ones even without activity). */
export function agencyPromotionsStatement(db: D1Database, agencyId: string): D1PreparedStatement {
  return db.prepare(`SELECT id, title, status FROM promotions WHERE agency_id = ?1`).bind(agencyId);
}

export function readAgencyPromotions(result: D1Result<Record<string, unknown>>): AgencyPromotion[] {
  return result.results as AgencyPromotion[];
}

export async function loadPromotionFigures(db: D1Database, w: Omit<ReportWindow, "grouping">): Promise<PromotionActivity & { promotions: AgencyPromotion[] }> {
  const args = [w.agencyId, w.fromIso, w.toIsoExclusive];
  const [promotions, claims, ended, bonus, deducted] = await db.batch<Record<string, unknown>>([
    agencyPromotionsStatement(db, w.agencyId),
    db
      .prepare(
        `SELECT promotion_id AS promotionId, COUNT(*) AS n FROM promotion_usages_view WHERE agency_id = ?1 AND claimed_at >= ?2 AND claimed_at < ?3 GROUP BY 1`,
      )
      .bind(...args),
    db
      .prepare(
        `SELECT promotion_id AS promotionId, status, COUNT(*) AS n FROM promotion_usages_view
          WHERE agency_id = ?1 AND ended_at >= ?2 AND ended_at < ?3 AND status IN ('SUCCESS', 'CANCELED') GROUP BY 1, 2`,
      )
      .bind(...args),
    db
      .prepare(
        `SELECT promotion_id AS promotionId, SUM(bonus_minor) AS given FROM deposit_orders_view WHERE ${DEPOSIT_PAID} AND promotion_id IS NOT NULL GROUP BY 1`,
      )
      .bind(...args),
    db
      .prepare(
        `SELECT promotion_id AS promotionId, SUM(deducted_minor) AS deducted FROM withdraw_orders_view WHERE ${WITHDRAW_PAID} AND promotion_id IS NOT NULL GROUP BY 1`,
      )
      .bind(...args),
  ]);
  const rows = (r: D1Result<Record<string, unknown>>, key: string) => r.results.map((row) => ({ ...row, [key]: Number(row[key] ?? 0) }));
  return {
    promotions: readAgencyPromotions(promotions),
    claims: rows(claims, "n") as { promotionId: string; n: number }[],
    ended: rows(ended, "n") as { promotionId: string; status: string; n: number }[],
    bonus: rows(bonus, "given") as { promotionId: string; given: number }[],
    deducted: rows(deducted, "deducted") as { promotionId: string; deducted: number }[],
  };
}

// ---- the backfill of rows written before migration 0022 ----

/**
 * Wallets with read-model rows not yet written by the current projection, in random order (a
 * few wallets that keep failing cannot hold the others back), drawn from the first
 * `limit * 5` wallets of each table in the partial indexes of those rows: reads bounded while
 * a backfill is under way, none once it is done (decision 075).
 */
export async function listWalletsToReproject(db: D1Database, limit: number): Promise<{ agencyId: string; playerId: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT agency_id AS agencyId, player_id AS playerId FROM (
         SELECT * FROM (SELECT DISTINCT agency_id, player_id FROM deposit_orders_view WHERE projection_version = 0 LIMIT ?2)
         UNION SELECT * FROM (SELECT DISTINCT agency_id, player_id FROM withdraw_orders_view WHERE projection_version = 0 LIMIT ?2)
         UNION SELECT * FROM (SELECT DISTINCT agency_id, player_id FROM promotion_usages_view WHERE projection_version = 0 LIMIT ?2))
       ORDER BY random() LIMIT ?1`,
    )
    .bind(limit, limit * 5)
    .all<{ agencyId: string; playerId: string }>();
  return results;
}

/**
 * After the wallet re-projected everything it owns: rows of that player still at version 0
 * are owned by no wallet (e.g. written by hand); -1 keeps the backfill from picking them again.
 */
export async function markUnownedRows(db: D1Database, agencyId: string, playerId: string): Promise<void> {
  await db.batch(
    ["deposit_orders_view", "withdraw_orders_view", "promotion_usages_view"].map((table) =>
      db.prepare(`UPDATE ${table} SET projection_version = -1 WHERE agency_id = ?1 AND player_id = ?2 AND projection_version = 0`).bind(agencyId, playerId),
    ),
  );
}
