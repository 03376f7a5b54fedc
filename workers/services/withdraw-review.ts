import { auditStatement, type AuditActor } from "../db/audit";
import { walletOf } from "./wallet";
import { awaitsStaffDecision } from "../core/withdraw";
import type { WithdrawOrder } from "../wallet/player-wallet";

/**
 * The back office's withdraw queue: OPEN withdrawals above the automatic-payout threshold
 * (review MANUAL), oldest first, with what staff need to pay them by hand, and the two
 * decisions: paid (with the bank's reference) or rejected (with a reason; the wallet's
 * saga returns the credit); the operator API may also approve (hand the payout to the
 * gateway). Everything is scoped by agency. Whether a decision may be taken is judged by
 * the player's wallet alone (`decideWithdraw`, docs/decisions/010-payout-decisions.md).
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

/** Is this order still waiting for a staff decision? (the wallet's own rule, for the page's forms) */
export function awaitsDecision(order: Pick<WithdrawOrder, "status" | "review" | "payoutState">): boolean {
  return awaitsStaffDecision(order);
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

export type StaffDecision = { action: "approve" } | { action: "paid"; bankReference: string } | { action: "reject"; reason: string };

/**
 * NOT_FOUND: no such order at this agency. CONFLICT: refused or already decided; `order`
 * is the order as it stands (the operator API answers it with 409).
 */
export type DecisionOutcome =
  | { ok: true; order: WithdrawOrder; repeated: boolean }
  | { ok: false; code: "NOT_FOUND" }
  | { ok: false; code: "CONFLICT"; order: WithdrawOrder };

/** Who decides: a staff member in the back office, or an operator API token of the agency. */
export type Decider = AuditActor & { via: "back-office" | "api" };

const AUDIT_ACTION: Record<StaffDecision["action"], string> = { approve: "withdrawal.approved", paid: "withdrawal.paid", reject: "withdrawal.rejected" };

/**
 * Every staff decision, from the back office or the operator API, takes this path: the
 * player's wallet judges and applies it in one step (two staff pressing at once get one
 * outcome; a decision after the gateway was asked to pay is refused). Applied decisions
 * are audited with the wallet's before/after; the API's refused and repeated calls are
 * audited too (every use of a token leaves a row).
 */
export async function decideWithdrawal(env: Env, agencyId: string, code: string, decision: StaffDecision, who: Decider): Promise<DecisionOutcome> {
  const ref = await refOf(env.DB, agencyId, code);
  if (!ref) return { ok: false, code: "NOT_FOUND" };
  const now = Date.now();
  const result = await walletOf(env, agencyId, ref.player_id).decideWithdraw(code, { by: "staff", ...decision }, now);
  if (result.kind === "not-found" || !result.order) return { ok: false, code: "NOT_FOUND" };
  const order = result.order as WithdrawOrder;
  const { via, ...actor } = who;
  const detail = decision.action === "paid" ? { bankReference: decision.bankReference } : decision.action === "reject" ? { requestedReason: decision.reason } : {};
  // (the operator API's rows keep the names they had: api.withdrawal.approve|reject|paid)
  const action = via === "api" ? `api.withdrawal.${decision.action}` : AUDIT_ACTION[decision.action];
  const audit = auditStatement(env.DB, actor, {
    action,
    target: `withdrawal:${code}`,
    before: auditView(result.before as WithdrawOrder),
    after: { ...auditView(order), ...detail, result: result.kind },
  });
  if (result.kind === "applied") {
    const record =
      decision.action === "approve"
        ? []
        : [
            // the decision row hides the order from the queue at once (before the wallet projects)
            env.DB.prepare(
              `INSERT INTO withdraw_reviews (code, agency_id, decision, state, staff_id, staff_username, bank_reference, reason, decided_at)
               VALUES (?1, ?2, ?3, 'DONE', ?4, ?5, ?6, ?7, ?8)
               ON CONFLICT(code) DO UPDATE SET decision = excluded.decision, state = 'DONE', staff_id = excluded.staff_id, staff_username = excluded.staff_username,
                 bank_reference = excluded.bank_reference, reason = excluded.reason, decided_at = excluded.decided_at`,
            ).bind(
              code,
              agencyId,
              decision.action === "paid" ? "PAID" : "REJECTED",
              actor.staffId,
              actor.staffUsername,
              decision.action === "paid" ? decision.bankReference : null,
              decision.action === "reject" ? decision.reason : null,
              now,
            ),
          ];
    await env.DB.batch([...record, audit]);
    return { ok: true, order, repeated: false };
  }
  if (via === "api") await audit.run();
  if (result.kind === "duplicate" && via === "api") return { ok: true, order, repeated: true };
  return { ok: false, code: "CONFLICT", order };
}

/** The order as the wallet holds it now (for the operator API's before/after). */
export async function currentWithdrawal(env: Env, agencyId: string, code: string): Promise<WithdrawOrder | null> {
  const ref = await refOf(env.DB, agencyId, code);
  return ref ? ((await walletOf(env, agencyId, ref.player_id).getWithdraw(code)) as WithdrawOrder | null) : null;
}
