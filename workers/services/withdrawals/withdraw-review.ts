import type { ListAsk, ListPage } from "../../core/keyset";
import { auditStatement, type AuditActor } from "../../db/audit";
import {
  findAgencyWithdrawPlayer,
  findWithdrawReviewDecision,
  listManualQueue as listManualQueuePage,
  latestPlayerDeposits,
  latestPlayerWithdrawals,
  recordWithdrawReviewStatement,
  type ManualQueueItem,
  type RecentDeposit,
  type RecentWithdrawal,
  type WithdrawReviewDecision,
} from "../../db/orders";
import { findPlayerCard, type PlayerCard } from "../../db/players";
import { debitEvidenceOfWithdrawal, debitsOfWithdrawal } from "../bank-in";
import { walletOf } from "../wallets";
import { awaitsStaffDecision, withdrawDisplayStatus } from "../../core/withdraw";
import type { WithdrawOrder } from "../../wallet/player-wallet";
import { payoutQrOf } from "./payout-qr";

/**
 * The back office's withdraw queue: OPEN withdrawals above the automatic-payout threshold
 * (review MANUAL), oldest first, with what staff need to pay them by hand, and the two
 * decisions: paid (with the bank's reference) or rejected (with a reason; the wallet's
 * saga returns the credit); the operator API may also approve (hand the payout to the
 * gateway). Everything is scoped by agency. Whether a decision may be taken is judged by
 * the player's wallet alone (`decideWithdraw`, docs/decisions/010-payout-decisions.md).
 */

export type QueueItem = ManualQueueItem;

/** A page of the agency's manual queue, oldest first. */
export async function listManualQueue(db: D1Database, agencyId: string, ask: ListAsk): Promise<ListPage<QueueItem> & { total: number }> {
  return listManualQueuePage(db, agencyId, ask);
}

type Decision = WithdrawReviewDecision;

export type WithdrawalDetail = {
  playerId: string;
  order: WithdrawOrder;
  player: PlayerCard;
  decision: Decision | null;
  recentDeposits: RecentDeposit[];
  recentWithdrawals: RecentWithdrawal[];
};

/** The player of a withdrawal of this agency (null: malformed code, unknown, or another agency's). */
async function withdrawPlayerOf(db: D1Database, agencyId: string, code: string): Promise<string | null> {
  if (!code || code.length > 40) return null;
  return findAgencyWithdrawPlayer(db, agencyId, code);
}

/** One withdrawal of this agency with the player and their recent history (null: not ours). */
async function getWithdrawalDetail(env: Env, agencyId: string, code: string): Promise<WithdrawalDetail | null> {
  const playerId = await withdrawPlayerOf(env.DB, agencyId, code);
  if (!playerId) return null;
  const order = await walletOf(env, agencyId, playerId).getWithdraw(code);
  if (!order) return null;
  const [player, recentDeposits, recentWithdrawals, decision] = await Promise.all([
    findPlayerCard(env.DB, agencyId, playerId),
    latestPlayerDeposits(env.DB, agencyId, playerId, 10),
    latestPlayerWithdrawals(env.DB, agencyId, playerId, 10),
    findWithdrawReviewDecision(env.DB, agencyId, code),
  ]);
  if (!player) return null;
  return { playerId, order: order as WithdrawOrder, player, decision, recentDeposits, recentWithdrawals };
}

/**
 * The back office's withdrawal page: the order, whether it awaits a decision, the player and
 * their history, and the bank debits matched to it once marked paid (the
 * reconciliation's pairs, decision 047), the debit that marked it paid or the debits that
 * may be its payout (decision 084) (null: not ours).
 */
export async function withdrawalPage(env: Env, agencyId: string, code: string) {
  const detail = await getWithdrawalDetail(env, agencyId, code);
  if (!detail) return null;
  const { order } = detail;
  const paid = detail.decision?.decision === "PAID" ? detail.decision.decidedAt : null;
  const [bankDebits, debitEvidence, payoutQr] = await Promise.all([
    debitsOfWithdrawal(env.DB, agencyId, code, paid),
    debitEvidenceOfWithdrawal(env.DB, agencyId, code),
    payoutQrOf(env.DB, agencyId, detail.playerId, order),
  ]);
  return {
    order: {
      code: order.code,
      provider: order.provider,
      credit: order.credit,
      netCredit: order.netCredit,
      receivedLak: order.receivedLak,
      bankCode: order.bankCode,
      accountNumber: order.accountNumber,
      accountName: order.accountName,
      status: order.status,
      displayStatus: withdrawDisplayStatus(order.status),
      review: order.review,
      returnState: order.returnState,
      reason: order.reason,
      createdAt: new Date(order.createdAt).toISOString(),
      completedAt: order.completedAt ? new Date(order.completedAt).toISOString() : null,
    },
    awaitsDecision: awaitsDecision(order),
    player: detail.player,
    decision: detail.decision ? { ...detail.decision, decidedAt: new Date(detail.decision.decidedAt).toISOString() } : null,
    recentDeposits: detail.recentDeposits,
    recentWithdrawals: detail.recentWithdrawals,
    bankDebits: bankDebits.map((d) => ({ ...d, bankTime: new Date(d.bankTime).toISOString() })),
    /** the bank's debit that marked it paid (decision 084) */
    paidByDebit: debitEvidence.paidBy ? { ...debitEvidence.paidBy, paidAt: new Date(debitEvidence.paidBy.paidAt).toISOString() } : null,
    /** debits that may be its payout, waiting for the cashier (shown while it awaits a decision) */
    debitCandidates: awaitsDecision(order) ? debitEvidence.candidates.map((c) => ({ ...c, bankTime: new Date(c.bankTime).toISOString() })) : [],
    /** the player's receive QR to pay by one scan (decision 086): what it is, not its text (the picture route draws it) */
    payoutQr: payoutQr ? { mode: payoutQr.mode, channels: payoutQr.channels } : null,
  };
}

/** Is this order still waiting for a staff decision? (the wallet's own rule, for the page's forms) */
function awaitsDecision(order: Pick<WithdrawOrder, "status" | "review" | "payoutState">): boolean {
  return awaitsStaffDecision(order);
}

/** What the audit log keeps of an order, before and after a decision. */
function auditView(order: WithdrawOrder | null) {
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
  const playerId = await withdrawPlayerOf(env.DB, agencyId, code);
  if (!playerId) return { ok: false, code: "NOT_FOUND" };
  const now = Date.now();
  const result = await walletOf(env, agencyId, playerId).decideWithdraw(code, { by: "staff", ...decision }, now);
  if (result.kind === "not-found" || !result.order) return { ok: false, code: "NOT_FOUND" };
  const order = result.order as WithdrawOrder;
  const { via, ...actor } = who;
  const detail =
    decision.action === "paid" ? { bankReference: decision.bankReference } : decision.action === "reject" ? { requestedReason: decision.reason } : {};
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
            recordWithdrawReviewStatement(env.DB, {
              code,
              agencyId,
              decision: decision.action === "paid" ? "PAID" : "REJECTED",
              staffId: actor.staffId,
              staffUsername: actor.staffUsername,
              bankReference: decision.action === "paid" ? decision.bankReference : null,
              reason: decision.action === "reject" ? decision.reason : null,
              decidedAt: now,
            }),
          ];
    await env.DB.batch([...record, audit]);
    return { ok: true, order, repeated: false };
  }
  if (via === "api") await audit.run();
  if (result.kind === "duplicate" && via === "api") return { ok: true, order, repeated: true };
  return { ok: false, code: "CONFLICT", order };
}
