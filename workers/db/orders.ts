/**
 * Statements over the order references (which wallet holds an order code), the staff's
 * withdraw decisions, and the READ side of the order read models the wallets project
 * (deposit_orders_view, withdraw_orders_view).
 */
import { countWaitingUnmatchedStatement } from "./payments";
import { boundedCount, pageOfRows, prefixRange, type BoundedCount, type ListAsk, type ListPage } from "../core/keyset";
import { boundedCountSql, keysetSql, numberedParams } from "./keyset";

export type OrderOwner = { agencyId: string; playerId: string };

// ---- deposit_refs / withdraw_refs: order code -> the wallet holding it

/** Remembers which wallet holds a deposit order (the webhook finds it by code). */
export function depositRefStatement(db: D1Database, code: string, agencyId: string, playerId: string): D1PreparedStatement {
  return db.prepare(`INSERT OR IGNORE INTO deposit_refs (code, agency_id, player_id) VALUES (?1, ?2, ?3)`).bind(code, agencyId, playerId);
}

export async function insertDepositRef(db: D1Database, code: string, agencyId: string, playerId: string): Promise<void> {
  await depositRefStatement(db, code, agencyId, playerId).run();
}

/** A reference written with a pay amount for an order the wallet did not open (it had one open already). */
export function deleteDepositRefStatement(db: D1Database, code: string, agencyId: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM deposit_refs WHERE code = ?1 AND agency_id = ?2`).bind(code, agencyId);
}

/** Whose deposit order this is, as a statement (batched with the webhook's replay row); read it with depositOwnerOf. */
export function depositOwnerStatement(db: D1Database, code: string): D1PreparedStatement {
  return db.prepare(`SELECT agency_id, player_id FROM deposit_refs WHERE code = ?1`).bind(code);
}

export function depositOwnerOf(result: D1Result): OrderOwner | null {
  const row = (result.results as { agency_id: string; player_id: string }[])[0];
  return row ? { agencyId: row.agency_id, playerId: row.player_id } : null;
}

/** Remembers which wallet holds a withdraw order (payout callbacks and staff find it by code). */
export async function insertWithdrawRef(db: D1Database, code: string, agencyId: string, playerId: string): Promise<void> {
  await db.prepare(`INSERT OR IGNORE INTO withdraw_refs (code, agency_id, player_id) VALUES (?1, ?2, ?3)`).bind(code, agencyId, playerId).run();
}

export async function findWithdrawOwner(db: D1Database, code: string): Promise<OrderOwner | null> {
  const row = await db.prepare(`SELECT agency_id, player_id FROM withdraw_refs WHERE code = ?1`).bind(code).first<{ agency_id: string; player_id: string }>();
  return row ? { agencyId: row.agency_id, playerId: row.player_id } : null;
}

/** The player of a withdraw order of this agency (null: unknown code or another agency's). */
export async function findAgencyWithdrawPlayer(db: D1Database, agencyId: string, code: string): Promise<string | null> {
  const row = await db.prepare(`SELECT player_id FROM withdraw_refs WHERE code = ?1 AND agency_id = ?2`).bind(code, agencyId).first<{ player_id: string }>();
  return row?.player_id ?? null;
}

/**
 * The wallets that may have due work: non-final orders in the read models, plus references
 * created since `since` whose order was never projected. Each part reads through an index
 * (migration 0039): the non-final orders through partial indexes of them alone (their WHERE
 * clauses repeat the indexes' word for word, or SQLite would not use them), the references
 * through their creation time, so the rows read follow the open orders and the window, never
 * the agency's history (decision 075).
 */
export async function listWalletsWithOpenOrders(db: D1Database, since: string): Promise<OrderOwner[]> {
  const { results } = await db
    .prepare(
      `SELECT agency_id, player_id FROM deposit_orders_view WHERE status IN ('OPEN', 'PAID')
       UNION SELECT r.agency_id, r.player_id FROM deposit_refs r
        WHERE r.created_at >= ?1 AND NOT EXISTS (SELECT 1 FROM deposit_orders_view v WHERE v.code = r.code)
       UNION SELECT agency_id, player_id FROM withdraw_orders_view
        WHERE status IN ('PENDING', 'OPEN') OR (status = 'REJECTED' AND return_state = 'PENDING')
       UNION SELECT r.agency_id, r.player_id FROM withdraw_refs r
        WHERE r.created_at >= ?1 AND NOT EXISTS (SELECT 1 FROM withdraw_orders_view v WHERE v.code = r.code)`,
    )
    .bind(since)
    .all<{ agency_id: string; player_id: string }>();
  return results.map((r) => ({ agencyId: r.agency_id, playerId: r.player_id }));
}

// ---- withdraw_reviews: staff decisions (migration 0011)

export type WithdrawReviewDecision = {
  decision: "PAID" | "REJECTED";
  staffUsername: string | null;
  bankReference: string | null;
  reason: string | null;
  decidedAt: number;
};
type WithdrawReviewRow = {
  decision: "PAID" | "REJECTED";
  staff_username: string | null;
  bank_reference: string | null;
  reason: string | null;
  decided_at: number;
};

function toWithdrawReviewDecision(row: WithdrawReviewRow): WithdrawReviewDecision {
  return {
    decision: row.decision,
    staffUsername: row.staff_username ?? null,
    bankReference: row.bank_reference ?? null,
    reason: row.reason ?? null,
    decidedAt: Number(row.decided_at),
  };
}

export async function findWithdrawReviewDecision(db: D1Database, agencyId: string, code: string): Promise<WithdrawReviewDecision | null> {
  const row = await db
    .prepare(`SELECT decision, staff_username, bank_reference, reason, decided_at FROM withdraw_reviews WHERE code = ?1 AND agency_id = ?2 AND state = 'DONE'`)
    .bind(code, agencyId)
    .first<WithdrawReviewRow>();
  return row ? toWithdrawReviewDecision(row) : null;
}

/** A staff decision, DONE (hides the order from the queue before the wallet projects it). */
export function recordWithdrawReviewStatement(
  db: D1Database,
  review: {
    code: string;
    agencyId: string;
    decision: "PAID" | "REJECTED";
    staffId: string | null;
    staffUsername: string | null;
    bankReference: string | null;
    reason: string | null;
    decidedAt: number;
  },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO withdraw_reviews (code, agency_id, decision, state, staff_id, staff_username, bank_reference, reason, decided_at)
       VALUES (?1, ?2, ?3, 'DONE', ?4, ?5, ?6, ?7, ?8)
       ON CONFLICT(code) DO UPDATE SET decision = excluded.decision, state = 'DONE', staff_id = excluded.staff_id, staff_username = excluded.staff_username,
         bank_reference = excluded.bank_reference, reason = excluded.reason, decided_at = excluded.decided_at`,
    )
    .bind(review.code, review.agencyId, review.decision, review.staffId, review.staffUsername, review.bankReference, review.reason, review.decidedAt);
}

// ---- withdraw_orders_view: the manual review queue

/**
 * OPEN withdrawals above the automatic-payout threshold with no staff decision yet. The read
 * model is projected by the wallet's alarm, a moment after a decision; the decision row
 * (written before the redirect) hides a decided order from the queue at once.
 */
const MANUAL_QUEUE = `v.agency_id = ?1 AND v.status = 'OPEN' AND v.review = 'MANUAL'
  AND NOT EXISTS (SELECT 1 FROM withdraw_reviews r WHERE r.code = v.code AND r.state = 'DONE')`;

/** How many withdrawals wait in the manual queue (the queue's total, the dashboard's count, the back office menu's badge). */
export function countManualQueueStatement(db: D1Database, agencyId: string): D1PreparedStatement {
  return db.prepare(`SELECT COUNT(*) AS n FROM withdraw_orders_view v WHERE ${MANUAL_QUEUE}`).bind(agencyId);
}

export type ManualQueueItem = {
  code: string;
  playerId: string;
  username: string;
  displayName: string;
  provider: string;
  credit: string;
  received: string;
  createdAt: string;
  bankCode: string | null;
  accountName: string | null;
  accountNumber: string | null;
};

type ManualQueueRow = {
  code: string;
  player_id: string;
  username: string;
  display_name: string;
  provider: string;
  credit: string;
  received: string;
  created_at: string;
  bank_code: string | null;
  account_name: string | null;
  account_number: string | null;
};

function toManualQueueItem(r: ManualQueueRow): ManualQueueItem {
  return {
    code: r.code,
    playerId: r.player_id,
    username: r.username,
    displayName: r.display_name,
    provider: r.provider,
    credit: r.credit,
    received: r.received,
    createdAt: r.created_at,
    bankCode: r.bank_code,
    accountName: r.account_name,
    accountNumber: r.account_number,
  };
}

/**
 * A keyset page of the manual queue, oldest first (decision 077), with the player's bank
 * account to pay by hand, and the queue's whole count (the queue is short: its count is exact).
 */
export async function listManualQueue(db: D1Database, agencyId: string, ask: ListAsk): Promise<ListPage<ManualQueueItem> & { total: number }> {
  const { params, param } = numberedParams(agencyId);
  const page = keysetSql({ at: "v.created_at", id: "v.code" }, "ASC", ask, param);
  const [count, rows] = await db.batch<Record<string, unknown>>([
    countManualQueueStatement(db, agencyId),
    db
      .prepare(
        `SELECT v.code, v.player_id, p.username, p.display_name, v.provider, v.credit, v.received, v.created_at,
                b.bank_code, b.account_name, b.account_number
           FROM withdraw_orders_view v
           JOIN players p ON p.id = v.player_id AND p.agency_id = v.agency_id
           LEFT JOIN bank_accounts b ON b.player_id = v.player_id AND b.agency_id = v.agency_id
          WHERE ${MANUAL_QUEUE}${page.where ? ` AND ${page.where}` : ""}
          ${page.orderBy} LIMIT ${page.limit}`,
      )
      .bind(...params),
  ]);
  const listed = pageOfRows((rows.results as ManualQueueRow[]).map(toManualQueueItem), ask, (w) => ({ at: w.createdAt, id: w.code }));
  return { ...listed, total: countOf(count) };
}

function countOf(result: D1Result<Record<string, unknown>>): number {
  return Number((result.results[0] as { n: number } | undefined)?.n ?? 0);
}

// ---- deposit_orders_view: the back office's deposit list

export type DepositListFilter = {
  status: string | null;
  /** a flag, `PROVIDER_*` (any provider refusal) or `NONE` (no flag) */
  flag: string | null;
  provider: string | null;
  /** a username or the start of one, lower case */
  username: string | null;
  /** start of an order code, upper case */
  codePrefix: string | null;
  /** ISO instants: created at or after `from`, before `until` */
  from: string | null;
  until: string | null;
};

export type DepositListItem = {
  code: string;
  playerId: string;
  username: string;
  provider: string;
  amount: string;
  credit: string;
  status: string;
  flag: string | null;
  createdAt: string;
  updatedAt: string;
};

type DepositListRow = {
  code: string;
  player_id: string;
  username: string;
  provider: string;
  amount: string;
  credit: string;
  status: string;
  flag: string | null;
  created_at: string;
  updated_at: string;
};

function toDepositListItem(r: DepositListRow): DepositListItem {
  return {
    code: r.code,
    playerId: r.player_id,
    username: r.username,
    provider: r.provider,
    amount: r.amount,
    credit: r.credit,
    status: r.status,
    flag: r.flag,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * Players a username filter stands for: the one of exactly that name, else the first of those
 * whose name starts with it (through players_agency_username), so a one-letter filter reads a
 * bounded set, never the agency's history.
 */
const USERNAME_FILTER_PLAYERS = 50;
/** Codes a code filter stands for at most: its own, or the first of those that start with it. */
const CODE_FILTER_ORDERS = 200;

function usernameFilterSql(param: (value: unknown) => string, username: string): string {
  const { from, until } = prefixRange(username);
  return `v.player_id IN (SELECT id FROM players WHERE agency_id = ?1 AND username >= ${param(from)} AND username < ${param(until)}
    ORDER BY username LIMIT ${USERNAME_FILTER_PLAYERS})`;
}

function codeFilterSql(param: (value: unknown) => string, codePrefix: string): string {
  const { from, until } = prefixRange(codePrefix);
  return `v.code IN (SELECT code FROM deposit_orders_view WHERE code >= ${param(from)} AND code < ${param(until)} ORDER BY code LIMIT ${CODE_FILTER_ORDERS})`;
}

/**
 * Where a filtered list starts reading. Left to itself the planner walks the agency's newest
 * orders and tests each against a username's or a code's few matches (in the order the page
 * wants, but through the whole history when they are old): with either filter the read starts
 * from the matches instead, then sorts that bounded set. Usernames through the player index;
 * codes through the primary key, which the agency's own indexes would outrank, so the agency
 * term is kept out of index choice (`+`).
 */
function depositListSource(filter: DepositListFilter): { from: string; agency: string } {
  if (filter.username) return { from: "deposit_orders_view v INDEXED BY deposit_orders_view_player_provider", agency: "v.agency_id = ?1" };
  if (filter.codePrefix) return { from: "deposit_orders_view v", agency: "+v.agency_id = ?1" };
  return { from: "deposit_orders_view v", agency: "v.agency_id = ?1" };
}

/**
 * A keyset page of the agency's deposit orders, newest first (decision 077), and their count
 * up to COUNT_BOUND, in one batch. Every filter is a range of an index of migration 0038.
 */
export async function listDepositOrders(
  db: D1Database,
  agencyId: string,
  filter: DepositListFilter,
  ask: ListAsk,
): Promise<ListPage<DepositListItem> & { total: BoundedCount }> {
  const source = depositListSource(filter);
  const where = [source.agency];
  const { params, param } = numberedParams(agencyId);
  if (filter.status) where.push(`v.status = ${param(filter.status)}`);
  // the very term of deposit_orders_view_provider_flagged's WHERE, so that index serves it in order
  if (filter.flag === "PROVIDER_*") where.push(`substr(v.flag, 1, 9) = 'PROVIDER_'`);
  else if (filter.flag === "NONE") where.push("v.flag IS NULL");
  else if (filter.flag) where.push(`v.flag = ${param(filter.flag)}`);
  if (filter.provider) where.push(`v.provider = ${param(filter.provider)}`);
  if (filter.username) where.push(usernameFilterSql(param, filter.username));
  if (filter.codePrefix) where.push(codeFilterSql(param, filter.codePrefix));
  if (filter.from) where.push(`v.created_at >= ${param(filter.from)}`);
  if (filter.until) where.push(`v.created_at < ${param(filter.until)}`);
  const filtered = `FROM ${source.from} WHERE ${where.join(" AND ")}`;
  const countParams = [...params];
  const page = keysetSql({ at: "v.created_at", id: "v.code" }, "DESC", ask, param);
  const [count, rows] = await db.batch<Record<string, unknown>>([
    db.prepare(boundedCountSql(filtered)).bind(...countParams),
    db
      .prepare(
        `SELECT v.code, v.player_id, p.username, v.provider, v.amount, v.credit, v.status, v.flag, v.created_at, v.updated_at
           FROM ${source.from} JOIN players p ON p.id = v.player_id
          WHERE ${[...where, ...(page.where ? [page.where] : [])].join(" AND ")}
          ${page.orderBy} LIMIT ${page.limit}`,
      )
      .bind(...params),
  ]);
  const listed = pageOfRows((rows.results as DepositListRow[]).map(toDepositListItem), ask, (d) => ({ at: d.createdAt, id: d.code }));
  return { ...listed, total: boundedCount(countOf(count)) };
}

export type LocatedDeposit = DepositListItem & { displayName: string; playerStatus: string };

/** Where a deposit order code of this agency lives (null for an unknown code or another agency's). */
export async function findAgencyDepositOrder(db: D1Database, agencyId: string, code: string): Promise<LocatedDeposit | null> {
  const row = await db
    .prepare(
      `SELECT v.code, v.player_id, p.username, p.display_name, p.status AS player_status, v.provider, v.amount, v.credit, v.status, v.flag, v.created_at, v.updated_at
         FROM deposit_orders_view v JOIN players p ON p.id = v.player_id AND p.agency_id = v.agency_id
        WHERE v.code = ?1 AND v.agency_id = ?2`,
    )
    .bind(code, agencyId)
    .first<DepositListRow & { display_name: string; player_status: string }>();
  return row ? { ...toDepositListItem(row), displayName: row.display_name, playerStatus: row.player_status } : null;
}

/**
 * Flagged deposit orders (late payment, amount mismatch) created since `since` with no
 * unmatched payment recorded for them yet: the webhook did not report them (the player's Check
 * button or the wallet's reconciler found them). Read through deposit_orders_view_flagged, from
 * `since` on: the whole history of flags is never read again.
 */
export async function listUnrecordedFlaggedDeposits(
  db: D1Database,
  agencyId: string,
  since: string,
): Promise<{ code: string; playerId: string; flag: "LATE_PAYMENT" | "AMOUNT_MISMATCH"; amount: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT v.code, v.player_id, v.flag, v.amount FROM deposit_orders_view v
        WHERE v.agency_id = ?1 AND v.flag IN ('LATE_PAYMENT', 'AMOUNT_MISMATCH') AND v.created_at >= ?2
          AND NOT EXISTS (SELECT 1 FROM unmatched_payments u WHERE u.agency_id = v.agency_id AND u.reference = v.code AND u.kind = v.flag)`,
    )
    .bind(agencyId, since)
    .all<{ code: string; player_id: string; flag: "LATE_PAYMENT" | "AMOUNT_MISMATCH"; amount: string }>();
  return results.map((r) => ({ code: r.code, playerId: r.player_id, flag: r.flag, amount: r.amount }));
}

// ---- the dashboard's figures

export type DashboardFigures = {
  manualWithdrawals: number;
  flaggedDeposits: BoundedCount;
  failedDeposits: BoundedCount;
  unmatchedPayments: number;
  failedDepositsByProvider: { provider: string; count: number }[];
  failedWithdrawalsByProvider: { provider: string; count: number }[];
};

/** One agency's figures for [start, end), from the read models (and the waiting unmatched payments), in one batch. */
export async function loadDashboardFigures(db: D1Database, agencyId: string, day: { start: string; end: string }): Promise<DashboardFigures> {
  // today's money comes from the reports (workers/db/reports.ts), by paid time
  const [manual, flagged, failed, unmatched, depositErrors, withdrawErrors] = await db.batch<Record<string, unknown>>([
    countManualQueueStatement(db, agencyId),
    // every flagged or failed order the agency ever had: counted up to COUNT_BOUND (decision 077)
    db.prepare(boundedCountSql(`FROM deposit_orders_view WHERE agency_id = ?1 AND flag IS NOT NULL`)).bind(agencyId),
    db.prepare(boundedCountSql(`FROM deposit_orders_view WHERE agency_id = ?1 AND status = 'FAILED'`)).bind(agencyId),
    // money that matched no order, not yet credited or refunded by staff
    countWaitingUnmatchedStatement(db, agencyId),
    db
      .prepare(
        `SELECT provider, COUNT(*) AS n FROM deposit_orders_view WHERE agency_id = ?1 AND status = 'FAILED' AND created_at >= ?2 AND created_at < ?3 GROUP BY provider`,
      )
      .bind(agencyId, day.start, day.end),
    db
      .prepare(
        `SELECT provider, COUNT(*) AS n FROM withdraw_orders_view WHERE agency_id = ?1 AND status = 'FAILED' AND created_at >= ?2 AND created_at < ?3 GROUP BY provider`,
      )
      .bind(agencyId, day.start, day.end),
  ]);
  const byProvider = (r: D1Result<Record<string, unknown>>) =>
    (r.results as { provider: string; n: number }[]).map((e) => ({ provider: e.provider, count: Number(e.n) }));
  return {
    manualWithdrawals: countOf(manual),
    flaggedDeposits: boundedCount(countOf(flagged)),
    failedDeposits: boundedCount(countOf(failed)),
    unmatchedPayments: countOf(unmatched),
    failedDepositsByProvider: byProvider(depositErrors),
    failedWithdrawalsByProvider: byProvider(withdrawErrors),
  };
}

// ---- a player's newest orders and promotion usages (back office: player page, withdrawal detail)

export type RecentDeposit = { code: string; provider: string; amount: string; credit: string; status: string; flag: string | null; createdAt: string };
export type RecentWithdrawal = {
  code: string;
  provider: string;
  credit: string;
  received: string;
  status: string;
  review: string;
  reason: string | null;
  createdAt: string;
};

/** The newest deposit orders of one player (back office player page). */
export async function latestPlayerDeposits(db: D1Database, agencyId: string, playerId: string, limit: number): Promise<RecentDeposit[]> {
  const { results } = await db
    .prepare(
      // from the player's own orders: walking the agency's newest orders for theirs reads the history when they are old
      `SELECT code, provider, amount, credit, status, flag, created_at FROM deposit_orders_view INDEXED BY deposit_orders_view_player_provider
        WHERE agency_id = ?1 AND player_id = ?2 ORDER BY created_at DESC LIMIT ?3`,
    )
    .bind(agencyId, playerId, limit)
    .all<{ code: string; provider: string; amount: string; credit: string; status: string; flag: string | null; created_at: string }>();
  return results.map((d) => ({
    code: d.code,
    provider: d.provider,
    amount: d.amount,
    credit: d.credit,
    status: d.status,
    flag: d.flag,
    createdAt: d.created_at,
  }));
}

/** The newest withdraw orders of one player (back office player page). */
export async function latestPlayerWithdrawals(db: D1Database, agencyId: string, playerId: string, limit: number): Promise<RecentWithdrawal[]> {
  const { results } = await db
    .prepare(
      `SELECT code, provider, credit, received, status, review, reason, created_at FROM withdraw_orders_view WHERE agency_id = ?1 AND player_id = ?2 ORDER BY created_at DESC LIMIT ?3`,
    )
    .bind(agencyId, playerId, limit)
    .all<{ code: string; provider: string; credit: string; received: string; status: string; review: string; reason: string | null; created_at: string }>();
  return results.map((w) => ({
    code: w.code,
    provider: w.provider,
    credit: w.credit,
    received: w.received,
    status: w.status,
    review: w.review,
    reason: w.reason,
    createdAt: w.created_at,
  }));
}

/** The newest promotion usages of one player (back office player page). */
export async function latestPlayerPromotionUsages(db: D1Database, agencyId: string, playerId: string, limit: number) {
  const { results } = await db
    .prepare(
      `SELECT id, promotion_id, provider, status, deposit_code, bonus, reason, claimed_at FROM promotion_usages_view WHERE agency_id = ?1 AND player_id = ?2 ORDER BY claimed_at DESC LIMIT ?3`,
    )
    .bind(agencyId, playerId, limit)
    .all<{
      id: string;
      promotion_id: string;
      provider: string;
      status: string;
      deposit_code: string | null;
      bonus: string | null;
      reason: string | null;
      claimed_at: string;
    }>();
  return results.map((p) => ({
    id: p.id,
    promotionId: p.promotion_id,
    provider: p.provider,
    status: p.status,
    depositCode: p.deposit_code,
    bonus: p.bonus,
    reason: p.reason,
    claimedAt: p.claimed_at,
  }));
}
