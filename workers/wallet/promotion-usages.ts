import { checkClaim, turnoverTarget, type PromotionError, type PromotionRules, type UsageStatus } from "../core/promotion";
import type { WalletContext } from "./context";
import { expireStaleDeposits } from "./deposit-expiry";
import { markUsageForProjection } from "./projection";
import { toPromotionUsage } from "./queries";
import type { ClaimInput, PromotionUsage } from "./types";

/**
 * Promotion usages: a claim (CLAIMED), used by the deposit that carries it (USED, its bonus
 * credited by the settlement), ended by a withdrawal or the player (SUCCESS or CANCELED).
 * One active at a time, enforced by the storage; the arrows are guarded by a trigger too.
 */

/** Claim: the rules the wallet owns (one at a time, used before, open order, first order) judged with the service's facts. */
export function claimPromotion(w: WalletContext, input: ClaimInput): { ok: true; usage: PromotionUsage } | { ok: false; error: PromotionError } {
  expireStaleDeposits(w, input.now);
  const verdict = checkClaim({
    ...input.facts,
    rules: input.rules,
    provider: input.provider,
    hasActiveUsage: w.store.activeUsage() !== null,
    hasOpenDeposit: w.store.hasUnsettledDeposit(),
    hasSettledDeposit: w.store.hasPaidDeposit(),
    usedBefore: w.store.promotionUsedBefore(input.promotionId),
  });
  if (!verdict.ok) return verdict;
  w.store.insertClaimedUsage(input);
  markUsageForProjection(w, input.usageId);
  return { ok: true, usage: getUsage(w, input.usageId)! };
}

/** The player cancels a claim before its deposit; a deposit waiting to be paid must be closed first. */
export function cancelPromotion(
  w: WalletContext,
  usageId: string,
  now: number,
): { ok: true; usage: PromotionUsage } | { ok: false; error: PromotionError | "NOT_CANCELABLE" } {
  expireStaleDeposits(w, now);
  const usage = w.store.usageById(usageId);
  if (!usage || usage.status !== "CLAIMED") return { ok: false, error: "NOT_CANCELABLE" };
  if (w.store.hasUnsettledDepositCarrying(usageId)) return { ok: false, error: "CANNOT_USE_PROMOTION_WHILE_ORDER_IS_OPEN" };
  endUsage(w, usageId, "CLAIMED", "CANCELED", "PLAYER", now);
  return { ok: true, usage: getUsage(w, usageId)! };
}

/** Ends a usage from the state it is expected in; false when it was no longer there. */
export function endUsage(w: WalletContext, id: string, from: UsageStatus, to: UsageStatus, reason: string, now: number): boolean {
  const changed = w.store.endUsage(id, from, to, reason, now);
  if (changed) markUsageForProjection(w, id);
  return changed;
}

/** A withdrawal that did not go through no longer holds the promotion. */
export function releaseUsageFromWithdraw(w: WalletContext, withdrawCode: string): void {
  w.store.releaseUsageFromWithdraw(withdrawCode);
}

/** The deposit carrying a claimed promotion landed: the promotion is in use; its bonus follows. */
export function startUsage(w: WalletContext, code: string, now: number): void {
  const deposit = w.store.depositByCode(code);
  if (!deposit?.usage_id) return;
  const usage = w.store.usageById(deposit.usage_id);
  if (!usage || usage.status !== "CLAIMED") return; // cancelled meanwhile: no bonus
  const rules = JSON.parse(usage.rules_json) as PromotionRules;
  const credit = deposit.credit_minor;
  const bonus = deposit.bonus_minor ?? 0n;
  w.store.markUsageUsed(usage.id, {
    now,
    depositCode: code,
    depositCreditMinor: credit,
    bonusMinor: bonus,
    turnoverTargetMinor: turnoverTarget(rules, credit, bonus),
    turnoverStartMinor: deposit.turnover_start_minor ?? "0",
  });
  markUsageForProjection(w, usage.id);
  // a held claim's bonus waits for staff (decision 094): the deposit itself is credited as usual
  if (bonus > 0n && usage.hold !== "HELD") {
    w.store.scheduleBonus(code, now);
    w.alarm.schedule(now);
  }
}

export type HoldDecision =
  | { ok: true; usage: PromotionUsage; bonus: "scheduled" | "on-deposit" | "none" }
  | { ok: false; error: "NOT_FOUND" | "DECIDED"; usage?: PromotionUsage };

/**
 * Staff decide a held claim (decision 094), once: released, its bonus follows now (the deposit
 * was credited) or with the deposit still to come; refused, the claim ends without a bonus
 * (CANCELED, reason HOLD_REFUSED), so no promotion rule binds the player's withdrawals any more.
 * A claim that ended meanwhile (cancelled, its deposit failed) is decided and pays nothing.
 */
export function decideHold(w: WalletContext, usageId: string, to: "RELEASED" | "REFUSED", now: number): HoldDecision {
  const usage = w.store.usageById(usageId);
  if (!usage) return { ok: false, error: "NOT_FOUND" };
  if (!w.store.decideUsageHold(usageId, to)) return { ok: false, error: "DECIDED", usage: toPromotionUsage(usage) };
  let bonus: "scheduled" | "on-deposit" | "none" = "none";
  if (to === "REFUSED") {
    if (usage.status === "CLAIMED" || usage.status === "USED") endUsage(w, usageId, usage.status, "CANCELED", "HOLD_REFUSED", now);
  } else if (usage.status === "CLAIMED") {
    bonus = "on-deposit";
  } else if (usage.status === "USED" && usage.deposit_code) {
    const deposit = w.store.depositByCode(usage.deposit_code);
    if (deposit && (deposit.bonus_minor ?? 0n) > 0n && deposit.bonus_state === null) {
      w.store.scheduleBonus(deposit.code, now);
      w.alarm.schedule(now);
      bonus = "scheduled";
    }
  }
  markUsageForProjection(w, usageId);
  return { ok: true, usage: getUsage(w, usageId)!, bonus };
}

export function getUsage(w: WalletContext, id: string): PromotionUsage | null {
  const usage = w.store.usageById(id);
  return usage ? toPromotionUsage(usage) : null;
}

/** The promotion claimed or in use (at most one). */
export function activeUsage(w: WalletContext, now: number): PromotionUsage | null {
  expireStaleDeposits(w, now);
  const usage = w.store.activeUsage();
  return usage ? toPromotionUsage(usage) : null;
}

export function listUsages(w: WalletContext, page: number, pageSize: number): { items: PromotionUsage[]; total: number } {
  const total = w.store.usageCount();
  const items = w.store.usagePage(page, pageSize).map(toPromotionUsage);
  return { items, total };
}
