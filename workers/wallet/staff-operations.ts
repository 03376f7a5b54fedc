import { isProvider } from "../core/providers";
import { attemptedPort } from "./provider-attempts";
import type { WalletContext } from "./context";
import { getDeposit } from "./deposits";
import { postLedgerEntry } from "./ledger";
import { markDepositForProjection, projectChanges } from "./projection";
import { toDepositOrder } from "./queries";
import { finishSettlement, settleDeposit, settlementReference } from "./settlement";
import type { DepositOrder, ManualCreditInput, StaffRetryResult } from "./types";

/**
 * Everything staff do to a wallet from the back office (decision 008). Each command claims its
 * change with a synchronous guarded write before any provider call, so two staff pressing
 * at once (or one pressing twice) get one outcome. Every staff command answers through
 * `answered` (PlayerWallet): staff read their own writes.
 */

/**
 * A staff command's answer, given only after the D1 copy of what it changed is written
 * (decision 069): the staff lists read D1, and the page that confirms the command must show
 * the new state, not the one before it until the alarm copies it. The copy is the alarm's
 * own (projectChanges: everything marked, one copy at a time), so the alarm's run after it
 * finds nothing left or writes the same row again. A copy that fails stays marked for the
 * alarm; the command's outcome stands either way.
 */
export async function answered<T>(w: WalletContext, result: T): Promise<T> {
  await projectChanges(w);
  return result;
}

/** How many times staff have retried this order's settlement (the retry form carries it). */
export function settlementRetries(w: WalletContext, code: string): number {
  return Number(w.store.readMeta(`retries:${code}`) ?? "0");
}

/**
 * Staff retry of a FAILED settlement (FAILED -> PAID, then the usual transfer-in saga).
 * The provider is asked about the reference last used first:
 *  - SUCCESS: it was applied after all -> the order is SUCCESS, nothing is sent again;
 *  - NOT_FOUND: it never arrived -> sent again under the same reference (the order code);
 *  - FAILED: recorded for good -> the next reference `<code>-<n>`;
 *  - no answer: nothing changes ("provider unavailable, try again").
 * `expectedRetries` is the count the staff member saw: a second press of the same form,
 * or a concurrent one, finds it moved on and does nothing.
 */
export async function retryFailedSettlement(w: WalletContext, code: string, expectedRetries: number, now: number): Promise<StaffRetryResult> {
  const before = w.store.depositByCode(code);
  if (!before) return { kind: "not-found" };
  if (before.status !== "FAILED") return { kind: "not-failed", order: toDepositOrder(before) };
  if (settlementRetries(w, code) !== expectedRetries) return { kind: "stale", order: toDepositOrder(before) };
  const provider = before.provider;
  if (!isProvider(provider)) return { kind: "unavailable", order: toDepositOrder(before) };
  const reference = settlementReference(w, code);
  const status = await attemptedPort(w, w.store.readMeta("agencyId") ?? "", provider, code).transferStatus(reference);
  if (status.kind === "unknown") return { kind: "unavailable", order: toDepositOrder(before) };
  // The claim: synchronous from here on; only the first press at this count gets past it.
  const order = w.store.depositByCode(code);
  if (!order || order.status !== "FAILED" || settlementRetries(w, code) !== expectedRetries || settlementReference(w, code) !== reference) {
    return { kind: order?.status === "FAILED" ? "stale" : "not-failed", order: order ? toDepositOrder(order) : null };
  }
  w.store.writeMeta(`retries:${code}`, String(expectedRetries + 1));
  if (status.kind === "success") {
    w.store.transitionDeposit(code, "FAILED", "PAID", { next_attempt_at: null });
    finishSettlement(w, code, "SUCCESS");
    return { kind: "already-applied", order: getDeposit(w, code)!, reference };
  }
  let next = reference;
  if (status.kind === "failed") {
    const generation = Number(w.store.readMeta(`settle-gen:${code}`) ?? "0") + 1;
    w.store.writeMeta(`settle-gen:${code}`, String(generation));
    next = `${code}-${generation}`;
  }
  w.store.transitionDeposit(code, "FAILED", "PAID", { attempts: 0, next_attempt_at: now, settled_at: null, flag: null });
  markDepositForProjection(w, code);
  // First attempt right away, so staff see its outcome; an unknown one continues from the alarm.
  await settleDeposit(w, w.store.depositByCode(code)!, now);
  return { kind: "retried", order: getDeposit(w, code)!, reference: next };
}

/**
 * Staff credit a payment that matched no order: a PAID order of its own (code `<ref>M`,
 * channel MANUAL) is created here and settled by the same saga as any deposit (transfer-in
 * under that code, status query after an unknown outcome, retried until known). The
 * idempotency key is the unmatched payment's id: asked twice, it is created once.
 */
export async function creditManualPayment(w: WalletContext, input: ManualCreditInput): Promise<{ kind: "created" | "existing"; order: DepositOrder }> {
  const same = w.store.depositByIdempotencyKey(input.idempotencyKey);
  if (same) return { kind: "existing", order: toDepositOrder(same) };
  w.store.insertManualDeposit(input);
  // the receiving account holds the kip; it is owed to this player until credited
  postLedgerEntry(
    w.store,
    input.code,
    "paid",
    [
      ["bank:receiving", "LAK", BigInt(input.amountMinor)],
      ["player:deposit-pending", "LAK", -BigInt(input.amountMinor)],
    ],
    input.now,
  );
  markDepositForProjection(w, input.code);
  await settleDeposit(w, w.store.depositByCode(input.code)!, input.now);
  return { kind: "created", order: getDeposit(w, input.code)! };
}

/**
 * A late payment booked here ("late-paid": the kip owed to this player) was resolved by
 * staff: credited by hand (possibly to another player, whose wallet books it anew) or
 * refunded outside the system. The booking is reversed once.
 */
export function releaseLatePayment(w: WalletContext, code: string, entry: "late-credited" | "late-refunded", now: number): boolean {
  const late = w.store.latePaymentAmount(code);
  if (late === null) return false;
  if (w.store.latePaymentReleased(code)) return false;
  const amount = BigInt(late);
  postLedgerEntry(
    w.store,
    code,
    entry,
    [
      ["player:deposit-pending", "LAK", amount],
      ["bank:receiving", "LAK", -amount],
    ],
    now,
  );
  return true;
}
