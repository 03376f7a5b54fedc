import { formatAmount } from "../core/money";
import type { PromotionError } from "../core/promotion";
import { isProvider } from "../core/providers";
import { debitPayoutTxn, judgeWithdrawDecision, manualPayoutTxn, type WithdrawDecision } from "../core/withdraw";
import { gatewayPort } from "../ports/gateway";
import { providerUsername } from "../ports/provider";
import { attemptedPort } from "./provider-attempts";
import { settlementDelayMs } from "./alarm";
import type { WalletContext } from "./context";
import { postLedgerEntry } from "./ledger";
import { markWithdrawForProjection } from "./projection";
import { endUsage, releaseUsageFromWithdraw } from "./promotion-usages";
import { toWithdrawOrder, type WithdrawOrderRow } from "./queries";
import type { OpenWithdrawInput, WithdrawDecisionResult, WithdrawOrder } from "./types";

/**
 * Withdrawals: PENDING until the provider's transfer-out answers (taken: OPEN; refused:
 * FAILED), OPEN until the payout is decided (paid: SUCCESS; rejected: REJECTED, and the
 * credit transferred back). Lost answers are resolved by asking about the reference, from
 * the alarm, never by sending again.
 */

/** A transfer-out whose answer was lost is asked about; "never seen" is final only after this. */
const TRANSFER_NOT_FOUND_GRACE_MS = 60_000;

/** Creates the PENDING order; a repeat of the same confirm (idempotency key) gets it back. */
export function openWithdraw(
  w: WalletContext,
  input: OpenWithdrawInput,
):
  | { kind: "created" | "existing"; order: WithdrawOrder }
  | { kind: "refused"; error: PromotionError | "PROMOTION_CHANGED" | "REWARD_HELD" | "LEVEL_WITHDRAW_LIMIT" } {
  const same = w.store.withdrawByIdempotencyKey(input.idempotencyKey);
  if (same) return { kind: "existing", order: toWithdrawOrder(same) };
  // the level's daily limit, counted here with no await before the insert: two confirms at once cannot both fit under it
  if (input.dayLimit && w.store.withdrawnCreditSince(input.dayLimit.since) + input.creditMinor > input.dayLimit.limitMinor)
    return { kind: "refused", error: "LEVEL_WITHDRAW_LIMIT" };
  // The quote was computed under the promotion then in use; it must still be the one.
  const usage = w.store.activeUsage();
  const governed = usage !== null && usage.status === "USED" && usage.provider === input.provider ? usage : null;
  if ((governed?.id ?? null) !== (input.promotion?.usageId ?? null)) return { kind: "refused", error: "PROMOTION_CHANGED" };
  if (governed?.withdraw_code) return { kind: "refused", error: "PROMOTION_WITHDRAW_OPEN" };
  if (usage && usage.provider === input.provider && w.store.hasBonusPendingFor(usage.id)) {
    return { kind: "refused", error: "PROMOTION_BONUS_PENDING" };
  }
  // a reward at this provider not credited yet, or with turnover still to play, holds it
  // (the service marks met requirements first, from the provider's counter)
  if (w.store.rewards.holdingWithdraw(input.provider).length > 0) return { kind: "refused", error: "REWARD_HELD" };
  if (governed) w.store.holdUsageForWithdraw(governed.id, input.code);
  w.store.insertPendingWithdraw(
    input,
    input.now + 5000,
    governed ? { usageId: governed.id, outcome: input.promotion!.outcome, deductions: input.promotion!.deductions } : null,
  );
  w.alarm.schedule(input.now + 5000);
  return { kind: "created", order: getWithdraw(w, input.code)! };
}

/** The answer of the transfer-out: taken (OPEN), refused (FAILED) or unknown (asked later). */
export function transferOutResult(w: WalletContext, code: string, outcome: "ok" | "refused" | "unknown", now: number, reason?: string): WithdrawOrder | null {
  const order = w.store.withdrawByCode(code);
  if (!order || order.status !== "PENDING") return order ? toWithdrawOrder(order) : null;
  if (outcome === "ok") {
    w.store.transitionWithdraw(code, "PENDING", "OPEN", { transferred_at: now, next_attempt_at: now });
    const credit = order.credit_minor;
    // the credit left the provider wallet; it is owed to the player until paid out
    postLedgerEntry(
      w.store,
      code,
      "taken",
      [
        [`provider:${order.provider}`, "THB", credit],
        ["player:withdraw-pending", "THB", -credit],
      ],
      now,
    );
    w.alarm.schedule(now);
  } else if (outcome === "refused") {
    w.store.transitionWithdraw(code, "PENDING", "FAILED", { completed_at: now, reason: reason ?? "REFUSED", next_attempt_at: null });
    releaseUsageFromWithdraw(w, code);
  } else {
    w.store.setWithdrawNextAttempt(code, now + 2000);
    w.alarm.schedule(now + 2000);
  }
  markWithdrawForProjection(w, code);
  return getWithdraw(w, code);
}

/**
 * The one decision path of an OPEN withdrawal's payout, for every caller: back-office
 * page, operator API, the gateway's callback and this wallet's own status queries. The
 * rule is `judgeWithdrawDecision` (core/withdraw.ts): staff decide only while the order
 * waits for review and no payout was ever requested; after that only the gateway does.
 * Judged and applied in one synchronous step, so no other command can slip in between.
 */
export function decideWithdraw(w: WalletContext, code: string, decision: WithdrawDecision, now: number): WithdrawDecisionResult {
  const order = w.store.withdrawByCode(code);
  if (!order) return { kind: "not-found", before: null, order: null };
  const before = toWithdrawOrder(order);
  const verdict = judgeWithdrawDecision(
    { status: order.status, review: order.review, payoutState: order.payout_state, payoutTxn: order.payout_txn, reason: order.reason },
    decision,
  );
  if (verdict === "duplicate") return { kind: "duplicate", before, order: before };
  if (verdict === "refuse") {
    // a gateway saying "paid" for an order it was never asked to pay, or paid otherwise:
    // money may have left twice; staff must see it
    if (decision.by === "gateway" && decision.action === "paid")
      console.error(`payout conflict: gateway paid ${code} (${decision.transactionId}) but the order is ${order.status}/${order.payout_txn ?? "-"}`);
    return { kind: "refused", before, order: before };
  }
  if (decision.action === "approve") {
    w.store.approveWithdraw(code, now);
    w.alarm.schedule(now);
  } else if (decision.action === "paid") {
    payOut(w, order, payoutTxnOf(decision), now);
  } else {
    rejectOpen(w, code, decision.reason, now);
  }
  markWithdrawForProjection(w, code);
  return { kind: "applied", before, order: getWithdraw(w, code) };
}

/** The transaction id a payout is recorded with: the cashier's bank reference, the debit that paid it, or the gateway's id. */
function payoutTxnOf(decision: Extract<WithdrawDecision, { action: "paid" }>): string {
  if (decision.by === "staff") return manualPayoutTxn(decision.bankReference);
  if (decision.by === "debit") return debitPayoutTxn(decision.report);
  return decision.transactionId;
}

function payOut(w: WalletContext, order: WithdrawOrderRow, transactionId: string, now: number): void {
  const code = order.code;
  w.store.transitionWithdraw(code, "OPEN", "SUCCESS", { completed_at: now, payout_txn: transactionId, next_attempt_at: null });
  const credit = order.credit_minor;
  const net = order.net_credit_minor;
  const lak = order.received_lak_minor;
  // deductions (bonus taken back, excess above the maximum received) stay with the agency
  postLedgerEntry(
    w.store,
    code,
    "paid-out",
    [
      ["player:withdraw-pending", "THB", credit],
      ...(credit > net ? ([["agency:promotion", "THB", -(credit - net)]] as [string, string, bigint][]) : []),
      ["fx:conversion", "THB", -net],
      ["fx:conversion", "LAK", lak],
      ["bank:payout", "LAK", -lak],
    ],
    now,
  );
  if (order.usage_id && order.usage_outcome)
    endUsage(w, order.usage_id, "USED", order.usage_outcome, order.usage_outcome === "SUCCESS" ? "WITHDRAWN" : "BONUS_DEDUCTED", now);
}

function rejectOpen(w: WalletContext, code: string, reason: string, now: number): void {
  w.store.transitionWithdraw(code, "OPEN", "REJECTED", { completed_at: now, reason, return_state: "PENDING", attempts: 0, next_attempt_at: now });
  // the whole credit goes back, so the promotion carries on as before the withdrawal
  releaseUsageFromWithdraw(w, code);
  w.alarm.schedule(now);
}

// ---- from the alarm ----

/** Withdrawals: resolve lost transfer-outs, request payouts, poll them, return rejected credit. */
export async function advanceDueWithdrawals(w: WalletContext, now: number): Promise<void> {
  for (const order of w.store.withdrawsDue(now)) {
    const attempt = order.attempts + 1;
    w.store.recordWithdrawAttempt(order.code, attempt, now + settlementDelayMs(attempt));
    if (order.status === "PENDING") await resolveTransferOut(w, order, now);
    else if (order.status === "OPEN") await advancePayout(w, order, now);
    else await returnCredit(w, order, now);
  }
}

/** A transfer-out without an answer: the provider's status by reference decides, never a resend. */
async function resolveTransferOut(w: WalletContext, order: WithdrawOrderRow, now: number): Promise<void> {
  if (!isProvider(order.provider)) return;
  const status = await attemptedPort(w, w.store.readMeta("agencyId") ?? "", order.provider, order.code).transferStatus(order.code);
  if (status.kind === "success") transferOutResult(w, order.code, "ok", now);
  else if (status.kind === "failed") transferOutResult(w, order.code, "refused", now, "PROVIDER_REFUSED");
  else if (status.kind === "not-found" && now - order.created_at >= TRANSFER_NOT_FOUND_GRACE_MS)
    transferOutResult(w, order.code, "refused", now, "NOT_APPLIED");
}

async function advancePayout(w: WalletContext, order: WithdrawOrderRow, now: number): Promise<void> {
  const gateway = gatewayPort(w.env);
  const code = order.code;
  const gatewaySays = (outcome: { paid: string } | { rejected: string }) =>
    void decideWithdraw(
      w,
      code,
      "paid" in outcome ? { by: "gateway", action: "paid", transactionId: outcome.paid } : { by: "gateway", action: "reject", reason: outcome.rejected },
      now,
    );
  if (order.payout_state === "UNKNOWN") {
    // an earlier request's answer was lost: ask before asking again (idempotent by reference anyway)
    const status = await gateway.payoutStatus(code);
    if (status.kind === "paid") return gatewaySays({ paid: status.transactionId });
    if (status.kind === "rejected") return gatewaySays({ rejected: status.reason });
    if (status.kind === "processing") return void w.store.markPayoutRequested(code);
    if (status.kind === "unavailable") return;
  } else if (order.payout_state === null) {
    // The payout is the gateway's from here on, BEFORE the request leaves: this row was
    // read before earlier awaits, so it is claimed only if staff have not decided since
    // (and a staff "paid" or "reject" arriving while we wait for the gateway is refused).
    if (!w.store.claimPayoutForGateway(code)) return;
    markWithdrawForProjection(w, code);
  } else {
    // REQUESTED: the callback normally arrives first; this is the reconciler for a lost one.
    const status = await gateway.payoutStatus(code);
    if (status.kind === "paid") gatewaySays({ paid: status.transactionId });
    else if (status.kind === "rejected") gatewaySays({ rejected: status.reason });
    return;
  }
  const origin = w.store.readMeta("origin");
  const answer = await gateway.requestPayout({
    reference: code,
    amount: formatAmount(order.received_lak_minor, "LAK"),
    bankCode: order.bank_code,
    accountNumber: order.account_number,
    accountName: order.account_name,
    callbackUrl: `${origin ?? "http://localhost"}/api/v2/payments/webhook`,
  });
  if (answer.kind === "accepted") w.store.markPayoutRequested(code);
  else if (answer.kind === "refused") gatewaySays({ rejected: `PAYOUT_${answer.code}` });
  // unavailable: stays UNKNOWN; the next attempt asks the status first
}

/** Rejected: transfer the credit back (its own reference), retried until it is back. */
async function returnCredit(w: WalletContext, order: WithdrawOrderRow, now: number): Promise<void> {
  if (!isProvider(order.provider)) return;
  const agencyId = w.store.readMeta("agencyId");
  const username = w.store.readMeta("username");
  if (!agencyId || !username) return;
  const reference = `${order.code}R`;
  const port = attemptedPort(w, agencyId, order.provider, order.code);
  if (order.attempts > 0) {
    const status = await port.transferStatus(reference);
    if (status.kind === "success") return finishReturn(w, order, now);
    if (status.kind === "unknown") return;
  }
  const outcome = await port.transfer({
    username: providerUsername(agencyId, username),
    amountMinor: order.credit_minor,
    direction: "in",
    reference,
  });
  if (outcome.kind === "ok") finishReturn(w, order, now);
}

function finishReturn(w: WalletContext, order: WithdrawOrderRow, now: number): void {
  if (!w.store.markCreditReturned(order.code)) return;
  const credit = order.credit_minor;
  postLedgerEntry(
    w.store,
    order.code,
    "returned",
    [
      ["player:withdraw-pending", "THB", credit],
      [`provider:${order.provider}`, "THB", -credit],
    ],
    now,
  );
  markWithdrawForProjection(w, order.code);
}

// ---- reads ----

export function getWithdraw(w: WalletContext, code: string): WithdrawOrder | null {
  const order = w.store.withdrawByCode(code);
  return order ? toWithdrawOrder(order) : null;
}

export function listWithdraws(w: WalletContext, page: number, pageSize: number): { items: WithdrawOrder[]; total: number } {
  const total = w.store.withdrawCount();
  const items = w.store.withdrawPage(page, pageSize).map(toWithdrawOrder);
  return { items, total };
}

export function withdrawByKey(w: WalletContext, key: string): WithdrawOrder | null {
  const order = w.store.withdrawByIdempotencyKey(key);
  return order ? toWithdrawOrder(order) : null;
}

export function openWithdraws(w: WalletContext): WithdrawOrder[] {
  return w.store.unfinishedWithdraws().map(toWithdrawOrder);
}

/** Withdrawals that ended (paid out, or rejected with the credit back) since the player last looked. */
export function takeWithdrawNotices(w: WalletContext): WithdrawOrder[] {
  return w.store.takeUnannouncedEndedWithdraws().map(toWithdrawOrder);
}
