import { KIP } from "./money";

/**
 * The unique pay amount of an own-account channel (decision 016). A bank line or notification
 * may not carry our order code, so the amount itself must say which order it pays: the
 * player is asked to pay the amount they chose plus 1..999 kip, an amount no other order of
 * the channel holds (open, or ended less than PAY_AMOUNT_COOL_DOWN_MS ago). The credit follows
 * the amount the player asked for; the few kip added stay with the agency.
 *
 * Pure rules only: which amount to try, and whether a bank's time falls in an order's life.
 * The reservation itself is an INSERT guarded by a unique index in D1 (workers/db/pay-amounts.ts).
 */

/** The most kip added to an asked amount: 999 orders of one amount may be open at once per channel. */
export const MAX_EXTRA_KIP = 999;
/** An amount stays held this long after its order ended, so a late report cannot land on a new order. */
export const PAY_AMOUNT_COOL_DOWN_MS = 2 * 60 * 60 * 1000;
/** The bank's clock and ours may differ a little: an order's life is widened by this much at both ends. */
export const BANK_CLOCK_GRACE_MS = 2 * 60 * 1000;

/**
 * The pay amount to try: the smallest added kip not held by another order when `pick` is 0
 * (the first try), else the `pick`-th free one, so requests that collided spread out instead
 * of racing for the same next amount. null: every amount 1..999 kip above is held.
 */
export function choosePayAmount(askedMinor: bigint, heldMinor: readonly bigint[], pick: number): bigint | null {
  const held = new Set(heldMinor.map((m) => m.toString()));
  const free: bigint[] = [];
  for (let extra = 1; extra <= MAX_EXTRA_KIP; extra++) {
    const candidate = askedMinor + BigInt(extra) * KIP;
    if (!held.has(candidate.toString())) free.push(candidate);
  }
  if (free.length === 0) return null;
  return free[Math.min(Math.max(0, Math.floor(pick)), free.length - 1)];
}

/** The range of pay amounts an asked amount may get (for reading which are held). */
export function payAmountRange(askedMinor: bigint): { lowMinor: bigint; highMinor: bigint } {
  return { lowMinor: askedMinor + KIP, highMinor: askedMinor + BigInt(MAX_EXTRA_KIP) * KIP };
}

/** Which candidate a retry takes: the first free one at first, then a random one among the first few (spread grows with each attempt). */
export function retryPick(attempt: number, random: number): number {
  if (attempt <= 0) return 0;
  return Math.floor(random * Math.min(MAX_EXTRA_KIP, 4 * attempt));
}

/** Was money that the bank says arrived at `bankTime` paid within the order's life (created..expires, with the clock grace)? */
export function paidInTime(bankTime: number, order: { createdAt: number; expiresAt: number }): boolean {
  return bankTime >= order.createdAt - BANK_CLOCK_GRACE_MS && bankTime <= order.expiresAt + BANK_CLOCK_GRACE_MS;
}

/** Paid after the order's life, but while its amount was still held (cool-down): most likely that order's money, late. */
export function paidLate(bankTime: number, order: { expiresAt: number }): boolean {
  return bankTime > order.expiresAt + BANK_CLOCK_GRACE_MS && bankTime <= order.expiresAt + PAY_AMOUNT_COOL_DOWN_MS;
}

/** Is this reservation still holding its amount at `now` (order open, or ended less than a cool-down ago)? */
export function stillHeld(order: { expiresAt: number; endedAt: number | null }, now: number): boolean {
  const end = Math.min(order.expiresAt, order.endedAt ?? order.expiresAt);
  return now < end + PAY_AMOUNT_COOL_DOWN_MS;
}
