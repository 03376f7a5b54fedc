import { auditStatement, recordAudit, type AuditEntry } from "./audit";
import { walletOf } from "./wallet";
import { markWithdrawalPaid, rejectWithdrawal } from "./withdraw";
import type { WithdrawOrder } from "../wallet/player-wallet";

/**
 * The back office's withdraw queue: OPEN withdrawals above the automatic-payout threshold
 * (review MANUAL), oldest first, with what staff need to pay them by hand, and the two
 * decisions: paid (with the bank's reference) or rejected (with a reason; the wallet's
 * saga returns the credit). Everything is scoped by agency.
 *
 * "Paid" calls the wallet's payoutResult directly. It must NOT approve first: approving
 * (review APPROVED) hands the order to the wallet's alarm, which asks the gateway for an
 * automatic payout, so "approve, then mark paid" would pay the player twice if the alarm
 * ran in between. payoutResult accepts any OPEN order and applies once.
 */

export type QueueItem = {
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

/**
 * The read model is projected by the wallet's alarm, a moment after a decision; the staff
 * decision row (written before the redirect) hides a decided order from the queue at once.
 */
export const UNDECIDED = `NOT EXISTS (SELECT 1 FROM withdraw_reviews r WHERE r.code = v.code AND r.state = 'DONE')`;

export async function listManualQueue(db: D1Database, agencyId: string, { page, pageSize }: { page: number; pageSize: number }): Promise<{ items: QueueItem[]; total: number }> {
  const [count, rows] = await db.batch<Record<string, unknown>>([
    db.prepare(`SELECT COUNT(*) AS n FROM withdraw_orders_view v WHERE v.agency_id = ?1 AND v.status = 'OPEN' AND v.review = 'MANUAL' AND ${UNDECIDED}`).bind(agencyId),
    db
      .prepare(
        `SELECT v.code, v.player_id, p.username, p.display_name, v.provider, v.credit, v.received, v.created_at,
                b.bank_code, b.account_name, b.account_number
           FROM withdraw_orders_view v
           JOIN players p ON p.id = v.player_id AND p.agency_id = v.agency_id
           LEFT JOIN bank_accounts b ON b.player_id = v.player_id AND b.agency_id = v.agency_id
          WHERE v.agency_id = ?1 AND v.status = 'OPEN' AND v.review = 'MANUAL' AND ${UNDECIDED}
          ORDER BY v.created_at ASC, v.code ASC
          LIMIT ?2 OFFSET ?3`,
      )
      .bind(agencyId, pageSize, (page - 1) * pageSize),
  ]);
  return {
    total: Number((count.results[0] as { n: number } | undefined)?.n ?? 0),
    items: (rows.results as Record<string, string | null>[]).map((r) => ({
      code: r.code!,
      playerId: r.player_id!,
      username: r.username!,
      displayName: r.display_name!,
      provider: r.provider!,
      credit: r.credit!,
      received: r.received!,
      createdAt: r.created_at!,
      bankCode: r.bank_code,
      accountName: r.account_name,
      accountNumber: r.account_number,
    })),
  };
}

async function refOf(db: D1Database, agencyId: string, code: string) {
  if (!code || code.length > 40) return null;
  return db.prepare(`SELECT player_id FROM withdraw_refs WHERE code = ?1 AND agency_id = ?2`).bind(code, agencyId).first<{ player_id: string }>();
}

export type Decision = { decision: "PAID" | "REJECTED"; staffUsername: string | null; bankReference: string | null; reason: string | null; decidedAt: number };

export type WithdrawalDetail = {
  order: WithdrawOrder;
  player: { id: string; username: string; displayName: string; phone: string; status: string; createdAt: string };
  decision: Decision | null;
  recentDeposits: { code: string; provider: string; amount: string; credit: string; status: string; flag: string | null; createdAt: string }[];
  recentWithdrawals: { code: string; provider: string; credit: string; received: string; status: string; createdAt: string }[];
};

/** One withdrawal of this agency with the player and their recent history (null: not ours). */
export async function getWithdrawalDetail(env: Env, agencyId: string, code: string): Promise<WithdrawalDetail | null> {
  const ref = await refOf(env.DB, agencyId, code);
  if (!ref) return null;
  const order = await walletOf(env, agencyId, ref.player_id).getWithdraw(code);
  if (!order) return null;
  const [player, deposits, withdrawals, decision] = await env.DB.batch<Record<string, unknown>>([
    env.DB.prepare(`SELECT id, username, display_name, phone, status, created_at FROM players WHERE id = ?1 AND agency_id = ?2`).bind(ref.player_id, agencyId),
    env.DB
      .prepare(`SELECT code, provider, amount, credit, status, flag, created_at FROM deposit_orders_view WHERE agency_id = ?1 AND player_id = ?2 ORDER BY created_at DESC LIMIT 10`)
      .bind(agencyId, ref.player_id),
    env.DB
      .prepare(`SELECT code, provider, credit, received, status, created_at FROM withdraw_orders_view WHERE agency_id = ?1 AND player_id = ?2 ORDER BY created_at DESC LIMIT 10`)
      .bind(agencyId, ref.player_id),
    env.DB.prepare(`SELECT decision, staff_username, bank_reference, reason, decided_at FROM withdraw_reviews WHERE code = ?1 AND agency_id = ?2 AND state = 'DONE'`).bind(code, agencyId),
  ]);
  const p = player.results[0] as Record<string, string> | undefined;
  if (!p) return null;
  const d = decision.results[0] as Record<string, string | number | null> | undefined;
  return {
    order: order as WithdrawOrder,
    player: { id: p.id, username: p.username, displayName: p.display_name, phone: p.phone, status: p.status, createdAt: p.created_at },
    decision: d
      ? {
          decision: d.decision as "PAID" | "REJECTED",
          staffUsername: (d.staff_username as string | null) ?? null,
          bankReference: (d.bank_reference as string | null) ?? null,
          reason: (d.reason as string | null) ?? null,
          decidedAt: Number(d.decided_at),
        }
      : null,
    recentDeposits: (deposits.results as Record<string, string | null>[]).map((r) => ({
      code: r.code!,
      provider: r.provider!,
      amount: r.amount!,
      credit: r.credit!,
      status: r.status!,
      flag: r.flag,
      createdAt: r.created_at!,
    })),
    recentWithdrawals: (withdrawals.results as Record<string, string>[]).map((r) => ({
      code: r.code,
      provider: r.provider,
      credit: r.credit,
      received: r.received,
      status: r.status,
      createdAt: r.created_at,
    })),
  };
}

/** Is this order still waiting for a staff decision? */
export function awaitsDecision(order: Pick<WithdrawOrder, "status" | "review" | "payoutState">): boolean {
  return order.status === "OPEN" && order.review === "MANUAL" && order.payoutState === null;
}

/** What the audit log keeps of an order, before and after a decision. */
export function auditView(order: WithdrawOrder | null) {
  if (!order) return null;
  return {
    status: order.status,
    review: order.review,
    provider: order.provider,
    credit: order.credit,
    receivedLak: order.receivedLak,
    bankCode: order.bankCode,
    accountNumber: order.accountNumber,
    accountName: order.accountName,
    payoutState: order.payoutState,
    returnState: order.returnState,
    reason: order.reason,
  };
}

export type DecisionOutcome = { ok: true; order: WithdrawOrder } | { ok: false; code: "NOT_FOUND" | "ALREADY_HANDLED" };
type Who = Omit<AuditEntry, "action" | "target" | "before" | "after">;

const CLAIM_STALE_MS = 2 * 60_000;

/**
 * Claims the decision for this order: one row per code, so of two staff pressing at once
 * only one goes on to the wallet. A claim left CLAIMED (the request died) is taken over
 * after two minutes.
 */
async function claim(db: D1Database, agencyId: string, code: string, decision: "PAID" | "REJECTED", who: Who, detail: { bankReference?: string; reason?: string }, now: number): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT INTO withdraw_reviews (code, agency_id, decision, state, staff_id, staff_username, bank_reference, reason, decided_at)
       VALUES (?1, ?2, ?3, 'CLAIMED', ?4, ?5, ?6, ?7, ?8)
       ON CONFLICT(code) DO UPDATE SET decision = excluded.decision, staff_id = excluded.staff_id, staff_username = excluded.staff_username,
         bank_reference = excluded.bank_reference, reason = excluded.reason, decided_at = excluded.decided_at
       WHERE withdraw_reviews.state = 'CLAIMED' AND withdraw_reviews.decided_at < ?9`,
    )
    .bind(code, agencyId, decision, who.staffId, who.staffUsername, detail.bankReference ?? null, detail.reason ?? null, now, now - CLAIM_STALE_MS)
    .run();
  return (result.meta.changes ?? 0) === 1;
}

async function release(db: D1Database, code: string, now: number): Promise<void> {
  await db.prepare(`DELETE FROM withdraw_reviews WHERE code = ?1 AND state = 'CLAIMED' AND decided_at = ?2`).bind(code, now).run();
}

/**
 * Staff paid the player by hand: the order becomes SUCCESS with the bank's reference.
 * Audited with the wallet's before/after, right after the wallet answers.
 */
export async function decidePaid(env: Env, agencyId: string, code: string, bankReference: string, who: Who): Promise<DecisionOutcome> {
  const ref = await refOf(env.DB, agencyId, code);
  if (!ref) return { ok: false, code: "NOT_FOUND" };
  const wallet = walletOf(env, agencyId, ref.player_id);
  const before = await wallet.getWithdraw(code);
  if (!before) return { ok: false, code: "NOT_FOUND" };
  if (!awaitsDecision(before)) return { ok: false, code: "ALREADY_HANDLED" };
  const now = Date.now();
  if (!(await claim(env.DB, agencyId, code, "PAID", who, { bankReference }, now))) return { ok: false, code: "ALREADY_HANDLED" };
  const result = await markWithdrawalPaid(env, code, bankReference);
  if (!result || result.kind !== "applied" || !result.order) {
    await release(env.DB, code, now);
    return { ok: false, code: "ALREADY_HANDLED" };
  }
  await env.DB.batch([
    env.DB.prepare(`UPDATE withdraw_reviews SET state = 'DONE' WHERE code = ?1`).bind(code),
    auditStatement(env.DB, { ...who, action: "withdrawal.paid", target: `withdrawal:${code}`, before: auditView(before as WithdrawOrder), after: { ...auditView(result.order as WithdrawOrder), bankReference } }),
  ]);
  return { ok: true, order: result.order as WithdrawOrder };
}

/** Staff refused the withdrawal: REJECTED with the reason; the wallet returns the credit. */
export async function decideRejected(env: Env, agencyId: string, code: string, reason: string, who: Who): Promise<DecisionOutcome> {
  const ref = await refOf(env.DB, agencyId, code);
  if (!ref) return { ok: false, code: "NOT_FOUND" };
  const wallet = walletOf(env, agencyId, ref.player_id);
  const before = await wallet.getWithdraw(code);
  if (!before) return { ok: false, code: "NOT_FOUND" };
  if (!awaitsDecision(before)) return { ok: false, code: "ALREADY_HANDLED" };
  const now = Date.now();
  if (!(await claim(env.DB, agencyId, code, "REJECTED", who, { reason }, now))) return { ok: false, code: "ALREADY_HANDLED" };
  const after = await rejectWithdrawal(env, code, reason);
  if (!after || after.status !== "REJECTED" || after.reason !== reason) {
    await release(env.DB, code, now);
    return { ok: false, code: "ALREADY_HANDLED" };
  }
  await env.DB.batch([
    env.DB.prepare(`UPDATE withdraw_reviews SET state = 'DONE' WHERE code = ?1`).bind(code),
    auditStatement(env.DB, { ...who, action: "withdrawal.rejected", target: `withdrawal:${code}`, before: auditView(before as WithdrawOrder), after: auditView(after as WithdrawOrder) }),
  ]);
  return { ok: true, order: after as WithdrawOrder };
}

/** The operator API's audit row (no staff account: the bearer token). */
export async function auditApiWithdrawal(env: Env, agencyId: string, code: string, op: string, before: WithdrawOrder | null, after: WithdrawOrder | null, request: Request, extra: Record<string, unknown>) {
  await recordAudit(env.DB, {
    agencyId,
    staffId: null,
    staffUsername: "api-token",
    action: `api.withdrawal.${op}`,
    target: `withdrawal:${code}`,
    before: auditView(before),
    after: after ? { ...auditView(after), ...extra } : extra,
    ip: request.headers.get("CF-Connecting-IP") ?? "local",
    userAgent: request.headers.get("User-Agent"),
  });
}

/** The order as the wallet holds it now (for the operator API's before/after). */
export async function currentWithdrawal(env: Env, agencyId: string, code: string): Promise<WithdrawOrder | null> {
  const ref = await refOf(env.DB, agencyId, code);
  return ref ? ((await walletOf(env, agencyId, ref.player_id).getWithdraw(code)) as WithdrawOrder | null) : null;
}
