import { isProvider, type Provider } from "../core/providers";
import { providerUsername } from "../ports/provider";
import { attemptedPort } from "./provider-attempts";
import { settlementDelayMs } from "./alarm";
import type { WalletContext } from "./context";
import { postLedgerEntry } from "./ledger";
import { markDepositForProjection, markUsageForProjection } from "./projection";
import { endUsage, startUsage } from "./promotion-usages";
import type { DepositOrderRow } from "./queries";

/**
 * The settlement saga of a PAID deposit, run from the alarm: transfer-in at the provider
 * with the order code as reference; an unknown outcome is resolved by asking the provider
 * about that reference before sending again, retried until the outcome is known. A
 * promotion's bonus follows as its own leg (reference `<code>B`, its own ledger entry).
 */

export async function settleDueDeposits(w: WalletContext, now: number): Promise<void> {
  for (const order of w.store.depositsDueForSettlement(now)) await settleDeposit(w, order, now);
}

/**
 * The provider reference of an order's settlement: the order code, or `<code>-<n>` once
 * the n-th staff retry found every earlier reference recorded FAILED at the provider (a
 * recorded ref is final there: sending it again only repeats the failure).
 */
export function settlementReference(w: WalletContext, code: string): string {
  const generation = Number(w.store.readMeta(`settle-gen:${code}`) ?? "0");
  return generation === 0 ? code : `${code}-${generation}`;
}

/** Transfer-in with the order code as reference; an unknown outcome is resolved by the status query. */
export async function settleDeposit(w: WalletContext, order: DepositOrderRow, now: number): Promise<void> {
  const provider = order.provider as Provider;
  const agencyId = w.store.readMeta("agencyId");
  const username = w.store.readMeta("username");
  if (!agencyId || !username || !isProvider(provider)) return;
  const attempt = order.attempts + 1;
  w.store.recordSettlementAttempt(order.code, attempt, now + settlementDelayMs(attempt));
  const port = attemptedPort(w, agencyId, provider, order.code); // each call stored with its outcome (decision 049)
  const reference = settlementReference(w, order.code); // the order code unless staff retried under a new one
  if (order.usage_id && order.turnover_start_minor === null) {
    // A promotion's turnover counts bets from here: read the provider's counter before
    // the credit lands, or try again at the next attempt.
    const turnover = await port.turnover(providerUsername(agencyId, username), now); // window providers: 0 from now on
    if (turnover.kind !== "ok") return;
    w.store.recordTurnoverStart(order.code, turnover.amountMinor);
  }
  if (order.attempts > 0) {
    // A previous attempt may have been applied: ask before sending again.
    const status = await port.transferStatus(reference);
    if (status.kind === "success") return finishSettlement(w, order.code, "SUCCESS");
    if (status.kind === "failed") return finishSettlement(w, order.code, "FAILED");
    if (status.kind === "unknown") return; // ask again at the next attempt
  }
  const outcome = await port.transfer({
    username: providerUsername(agencyId, username),
    amountMinor: order.credit_minor,
    direction: "in",
    reference,
  });
  if (outcome.kind === "ok") return finishSettlement(w, order.code, "SUCCESS");
  if (outcome.kind === "refused") return finishSettlement(w, order.code, "FAILED", outcome.code);
  // unknown: the next attempt starts with the status query
}

export function finishSettlement(w: WalletContext, code: string, to: "SUCCESS" | "FAILED", reason?: string): void {
  const order = w.store.depositByCode(code);
  if (!order || order.status !== "PAID") return;
  const now = Date.now();
  w.store.transitionDeposit(code, "PAID", to, { settled_at: now, next_attempt_at: null, flag: to === "FAILED" ? `PROVIDER_${reason ?? "FAILED"}` : null });
  if (to === "SUCCESS") {
    const lak = order.amount_minor;
    const credit = order.credit_minor;
    postLedgerEntry(
      w.store,
      code,
      "credited",
      [
        ["player:deposit-pending", "LAK", lak],
        ["fx:conversion", "LAK", -lak],
        ["fx:conversion", "THB", credit],
        [`provider:${order.provider}`, "THB", -credit],
      ],
      now,
    );
    startUsage(w, code, now);
  } else if (order.usage_id) {
    // the promotion never started: the player may claim again once staff sort the deposit out
    endUsage(w, order.usage_id, "CLAIMED", "CANCELED", "DEPOSIT_FAILED", now);
  }
  // FAILED: the kip stays owed to the player (deposit-pending), visible to staff.
  markDepositForProjection(w, code);
}

// ---- the bonus leg ----

/** The bonus leg of the settlement saga: its own transfer (reference <code>B), its own ledger entry. */
export async function creditDueBonuses(w: WalletContext, now: number): Promise<void> {
  for (const order of w.store.depositsDueForBonus(now)) await creditBonus(w, order, now);
}

async function creditBonus(w: WalletContext, order: DepositOrderRow, now: number): Promise<void> {
  const agencyId = w.store.readMeta("agencyId");
  const username = w.store.readMeta("username");
  if (!agencyId || !username || !isProvider(order.provider)) return;
  const attempt = order.bonus_attempts + 1;
  w.store.recordBonusAttempt(order.code, attempt, now + settlementDelayMs(attempt));
  const port = attemptedPort(w, agencyId, order.provider, order.code);
  const reference = `${order.code}B`;
  if (order.bonus_attempts > 0) {
    const status = await port.transferStatus(reference);
    if (status.kind === "success") return finishBonus(w, order.code, "DONE");
    if (status.kind === "failed") return finishBonus(w, order.code, "FAILED");
    if (status.kind === "unknown") return;
  }
  const outcome = await port.transfer({
    username: providerUsername(agencyId, username),
    amountMinor: order.bonus_minor ?? 0n,
    direction: "in",
    reference,
  });
  if (outcome.kind === "ok") return finishBonus(w, order.code, "DONE");
  if (outcome.kind === "refused") return finishBonus(w, order.code, "FAILED");
}

function finishBonus(w: WalletContext, code: string, to: "DONE" | "FAILED"): void {
  const now = Date.now();
  const order = w.store.depositByCode(code);
  if (!order || order.bonus_state !== "PENDING") return;
  w.store.finishBonus(code, to);
  if (to === "DONE") {
    const bonus = order.bonus_minor ?? 0n;
    // the agency gives the bonus credit; it lands in the provider wallet
    postLedgerEntry(
      w.store,
      code,
      "bonus",
      [
        ["agency:promotion", "THB", bonus],
        [`provider:${order.provider}`, "THB", -bonus],
      ],
      now,
    );
    if (order.usage_id) {
      w.store.markBonusCredited(order.usage_id);
      markUsageForProjection(w, order.usage_id);
    }
  } else if (order.usage_id) {
    // the provider refused the bonus: nothing to play through; flagged for staff
    w.store.flagBonusRefused(code);
    endUsage(w, order.usage_id, "USED", "CANCELED", "BONUS_REFUSED", now);
  }
  markDepositForProjection(w, code);
}
