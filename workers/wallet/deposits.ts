import { isLakAmount } from "../core/money";
import { paidInTime } from "../core/pay-amount";
import { checkDeposit, type PromotionRules } from "../core/promotion";
import type { Provider } from "../core/providers";
import { gatewayPort } from "../ports/gateway";
import { RECONCILE_EVERY_MS } from "./alarm";
import type { WalletContext } from "./context";
import { expireStaleDeposits } from "./deposit-expiry";
import { postLedgerEntry } from "./ledger";
import { markDepositForProjection } from "./projection";
import { endUsage } from "./promotion-usages";
import { toDepositOrder } from "./queries";
import type { DepositOrderRow } from "./queries";
import type { BankPaymentResult, DepositOrder, MarkPaidResult, OpenDepositInput, OpenDepositResult } from "./types";

/**
 * Deposit orders up to their payment: opened (one OPEN at a time, judged against the
 * promotion in use), given their QR, cancelled or expired, marked paid by the gateway's
 * word (webhook, check button or the reconciler below). The settlement that follows is
 * settlement.ts.
 */

export function openDeposit(w: WalletContext, input: OpenDepositInput): OpenDepositResult {
  expireStaleDeposits(w, input.now);
  const same = w.store.depositByIdempotencyKey(input.idempotencyKey);
  if (same) return { kind: "existing", order: toDepositOrder(same) };
  const open = w.store.openDeposit();
  if (open) return { kind: "open-exists", order: toDepositOrder(open) };
  // The promotion in use decides here, in the same step that creates the order.
  const usage = w.store.activeUsage();
  const verdict = checkDeposit({
    usage: usage
      ? {
          id: usage.id,
          status: usage.status as "CLAIMED" | "USED",
          provider: usage.provider as Provider,
          rules: JSON.parse(usage.rules_json) as PromotionRules,
        }
      : null,
    provider: input.provider,
    amountMinor: input.amountMinor,
    creditMinor: input.creditMinor,
    creditAtProviderMinor: input.creditAtProviderMinor,
  });
  if (!verdict.ok) return { kind: "refused", error: verdict.error, provider: verdict.provider };
  if (verdict.endUsedUp && usage) endUsage(w, usage.id, "USED", "SUCCESS", "CREDIT_USED_UP", input.now);
  w.store.insertOpenDeposit(input, verdict.attach);
  w.alarm.schedule(Math.min(input.expiresAt, input.now + RECONCILE_EVERY_MS));
  return { kind: "created", order: toDepositOrder(w.store.depositByCode(input.code)!) };
}

export function attachQr(w: WalletContext, code: string, payload: string): DepositOrder | null {
  w.store.attachQrPayload(code, payload);
  return getDeposit(w, code);
}

export function cancelDeposit(
  w: WalletContext,
  code: string,
  reason: "PLAYER" | "EXPIRED" | "GATEWAY",
  now: number,
): { ok: boolean; order: DepositOrder | null } {
  expireStaleDeposits(w, now);
  const changed = w.store.transitionDeposit(code, "OPEN", "CANCELED", { flag: reason === "PLAYER" ? null : reason });
  markDepositForProjection(w, code);
  return { ok: changed, order: getDeposit(w, code) };
}

/**
 * The gateway says this order was paid (webhook, check button or reconciler). Applied
 * once: a repeat with the same transaction id is a duplicate; a different amount is
 * refused and flagged for staff; a payment for an order no longer OPEN is flagged.
 */
export function markPaid(w: WalletContext, code: string, payment: { transactionId: string; amount: string }, now: number): MarkPaidResult {
  const order = w.store.depositByCode(code);
  if (!order) return { kind: "unknown-order" };
  if (order.gateway_txn === payment.transactionId) return { kind: "duplicate", order: toDepositOrder(order) };
  if (order.status !== "OPEN") {
    // Money arrived for an order no longer waiting (expired or cancelled): it is owed to
    // the player and flagged for staff; the order itself does not move.
    if (order.gateway_txn === null) {
      w.store.flagLatePayment(code, payment.transactionId);
      postLedgerEntry(w.store, code, "late-paid", receivedLines(order), now);
      markDepositForProjection(w, code);
    }
    return { kind: "late", order: getDeposit(w, code)! };
  }
  // the amount the player was asked to pay: the unique pay amount when the order has one
  if (!isLakAmount(payment.amount, order.pay_amount_minor ?? order.amount_minor)) {
    w.store.flagAmountMismatch(code);
    markDepositForProjection(w, code);
    return { kind: "amount-mismatch", order: getDeposit(w, code)! };
  }
  w.store.transitionDeposit(code, "OPEN", "PAID", { paid_at: now, gateway_txn: payment.transactionId, next_attempt_at: now, flag: null });
  // bank received the kip; it is owed to the player until credited
  postLedgerEntry(w.store, code, "paid", receivedLines(order), now);
  w.alarm.schedule(now);
  return { kind: "paid", order: getDeposit(w, code)! };
}

/**
 * What the bank received for an order: the amount asked is owed to the player until credited;
 * the few kip a unique pay amount adds (own-account channels) are the agency's.
 */
function receivedLines(order: DepositOrderRow): [string, string, bigint][] {
  const asked = order.amount_minor;
  const paid = order.pay_amount_minor ?? order.amount_minor;
  return [
    ["bank:receiving", "LAK", paid],
    ["player:deposit-pending", "LAK", -asked],
    ...(paid !== asked ? ([["agency:pay-amount-extra", "LAK", asked - paid]] as [string, string, bigint][]) : []),
  ];
}

/**
 * A bank transaction of an own-account channel, meant by the matcher for this order
 * (workers/services/bank-in/bank-transactions.ts). Checked against the pay amount; in time when the
 * BANK's time falls within the order's life, even if the wallet has expired (or the player
 * cancelled) the order since: then CANCELED -> PAID (schema v4). Paid after its life: flagged
 * LATE_PAYMENT and booked "late-paid" like a gateway's late payment, for staff to resolve.
 * Applied once: the same transaction again is a duplicate; another one for an order already
 * paid changes nothing (already-paid).
 */
export function applyBankPayment(
  w: WalletContext,
  code: string,
  payment: { transactionId: string; amount: string; bankTime: number; aliases?: readonly string[] },
  now: number,
): BankPaymentResult {
  expireStaleDeposits(w, now);
  const order = w.store.depositByCode(code);
  if (!order) return { kind: "unknown-order" };
  // the same transfer under another of its reports' ids (the transfer's key changed when a statement row joined it)
  if (order.gateway_txn !== null && (order.gateway_txn === payment.transactionId || payment.aliases?.includes(order.gateway_txn)))
    return { kind: "duplicate", order: toDepositOrder(order) };
  const due = order.pay_amount_minor ?? order.amount_minor;
  if (!isLakAmount(payment.amount, due)) return { kind: "amount-mismatch", order: toDepositOrder(order) };
  if (order.gateway_txn !== null || (order.status !== "OPEN" && order.status !== "CANCELED")) return { kind: "already-paid", order: toDepositOrder(order) };
  if (!paidInTime(payment.bankTime, { createdAt: order.created_at, expiresAt: order.expires_at })) {
    if (order.status === "CANCELED") {
      w.store.flagLatePayment(code, payment.transactionId);
      postLedgerEntry(w.store, code, "late-paid", receivedLines(order), now);
      markDepositForProjection(w, code);
    }
    return { kind: "late", order: getDeposit(w, code)! };
  }
  const set = { paid_at: now, gateway_txn: payment.transactionId, next_attempt_at: now };
  const moved =
    order.status === "OPEN" ? w.store.transitionDeposit(code, "OPEN", "PAID", { ...set, flag: null }) : w.store.payCanceledOwnAccountDeposit(code, set);
  if (!moved) return { kind: "already-paid", order: getDeposit(w, code)! };
  postLedgerEntry(w.store, code, "paid", receivedLines(order), now);
  markDepositForProjection(w, code);
  w.alarm.schedule(now);
  return { kind: "paid", order: getDeposit(w, code)! };
}

/** The reconciler: OPEN orders whose payment never arrived by webhook are looked up. */
export async function reconcileOpenDeposits(w: WalletContext, now: number): Promise<void> {
  for (const order of w.store.openDepositsToReconcile(now - RECONCILE_EVERY_MS)) {
    if (order.pay_amount_minor !== null) continue; // own-account: no gateway to ask; the bank's transactions come through the matcher
    w.store.recordPaymentLookup(order.code, now);
    const status = await gatewayPort(w.env).paymentStatus(order.code);
    if (status.kind === "paid") markPaid(w, order.code, { transactionId: status.transactionId, amount: status.amount }, Date.now());
  }
}

export function getDeposit(w: WalletContext, code: string): DepositOrder | null {
  const order = w.store.depositByCode(code);
  return order ? toDepositOrder(order) : null;
}

export function openDepositOrder(w: WalletContext, now: number): DepositOrder | null {
  expireStaleDeposits(w, now);
  const order = w.store.openDeposit();
  return order ? toDepositOrder(order) : null;
}

export function listDeposits(w: WalletContext, page: number, pageSize: number): { items: DepositOrder[]; total: number } {
  expireStaleDeposits(w, Date.now());
  const total = w.store.depositCount();
  const items = w.store.depositPage(page, pageSize).map(toDepositOrder);
  return { items, total };
}

/** Deposits that succeeded since the player last looked: each is announced once. */
export function takeSettledNotices(w: WalletContext): DepositOrder[] {
  return w.store.takeUnannouncedSettledDeposits().map(toDepositOrder);
}
