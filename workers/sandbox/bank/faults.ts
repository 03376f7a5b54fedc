/**
 * Fault injection, shaped like a real fault injector (Envoy, Toxiproxy): each fault has a
 * mode, an optional match (reference prefix), a rate (probability that a payment or payout
 * is affected) and an optional budget (`times`, after which the fault is used up).
 *
 * - Webhook faults are decided once per webhook (payment or payout callback), when it is
 *   enqueued.
 * - Payout faults are decided once per POST /api/payouts ("payout-error-before",
 *   "payout-error-after") or once per new payout ("payout-reject", "payout-hold").
 */
const WEBHOOK_FAULT_MODES = ["duplicate", "out-of-order", "delay", "drop", "stale-signature", "bad-signature"] as const;
const PAYOUT_FAULT_MODES = ["payout-reject", "payout-hold", "payout-error-before", "payout-error-after"] as const;
const FAULT_MODES = [...WEBHOOK_FAULT_MODES, ...PAYOUT_FAULT_MODES] as const;
export type WebhookFaultMode = (typeof WEBHOOK_FAULT_MODES)[number];
export type PayoutFaultMode = (typeof PAYOUT_FAULT_MODES)[number];
export type FaultMode = (typeof FAULT_MODES)[number];

export function isWebhookFault(mode: string): mode is WebhookFaultMode {
  return (WEBHOOK_FAULT_MODES as readonly string[]).includes(mode);
}

export function isPayoutFault(mode: string): mode is PayoutFaultMode {
  return (PAYOUT_FAULT_MODES as readonly string[]).includes(mode);
}

export type FaultSpec = {
  mode: FaultMode;
  /**
   * duplicate: deliveries per webhook (default 2); out-of-order: batch size to hold and
   * reverse (default 2). payout-*: the number of payouts affected, an alias of `times`.
   */
  count: number;
  /** Probability (0..1) that a payment is affected; default 1. */
  rate: number;
  /** How many payments this fault affects before it is used up; null = until cleared. */
  times: number | null;
  /** Only payments whose reference starts with this (tests scope their faults with it). */
  referencePrefix: string;
  /** delay: milliseconds before the first attempt (default 5000). */
  delayMs: number;
  /** out-of-order: release a batch that is not full after this long (default 10000). */
  holdMs: number;
};

export type Fault = FaultSpec & { id: number; applied: number; createdAt: string };

export type FaultParse = { ok: true; spec: FaultSpec } | { ok: false; message: string };

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

export function parseFaultSpec(input: unknown): FaultParse {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return { ok: false, message: "body must be a JSON object" };
  const body = input as Record<string, unknown>;
  const mode = body.mode;
  if (typeof mode !== "string" || !(FAULT_MODES as readonly string[]).includes(mode)) {
    return { ok: false, message: `mode must be one of ${FAULT_MODES.join(", ")}` };
  }
  const payout = isPayoutFault(mode);
  const count = body.count ?? (payout ? 1 : 2);
  if (payout) {
    // "the next N payouts": for payout faults count is the budget, like times.
    if (!isInt(count, 1, 1_000_000)) return { ok: false, message: "count must be a positive integer" };
  } else if (!isInt(count, 1, 20)) {
    return { ok: false, message: "count must be an integer from 1 to 20" };
  }
  const rate = body.rate ?? 1;
  if (typeof rate !== "number" || !(rate >= 0 && rate <= 1)) return { ok: false, message: "rate must be a number from 0 to 1" };
  const givenTimes = body.times ?? null;
  if (givenTimes !== null && !isInt(givenTimes, 1, 1_000_000)) return { ok: false, message: "times must be a positive integer or null" };
  const countGiven = body.count !== undefined && body.count !== null;
  if (payout && countGiven && givenTimes !== null && givenTimes !== count) {
    return { ok: false, message: "for payout faults count and times mean the same thing: give one, or the same value" };
  }
  const times: number | null = payout && countGiven ? count : givenTimes;
  const referencePrefix = body.referencePrefix ?? "";
  if (typeof referencePrefix !== "string" || referencePrefix.length > 25)
    return { ok: false, message: "referencePrefix must be a string of at most 25 characters" };
  const delayMs = body.delayMs ?? 5000;
  if (!isInt(delayMs, 0, 3_600_000)) return { ok: false, message: "delayMs must be an integer from 0 to 3600000" };
  const holdMs = body.holdMs ?? 10_000;
  if (!isInt(holdMs, 0, 3_600_000)) return { ok: false, message: "holdMs must be an integer from 0 to 3600000" };
  return { ok: true, spec: { mode: mode as FaultMode, count, rate, times, referencePrefix, delayMs, holdMs } };
}

/** What the faults that hit one payment do to its webhook. */
export type FaultEffect = {
  copies: number;
  delayMs: number;
  drop: boolean;
  /** The fault id holding this payment's deliveries for an out-of-order batch. */
  hold: { faultId: number; batch: number; holdMs: number } | null;
  signature: "ok" | "stale" | "bad";
  applied: FaultMode[];
};

export function noEffect(): FaultEffect {
  return { copies: 1, delayMs: 0, drop: false, hold: null, signature: "ok", applied: [] };
}

export function applyFault(effect: FaultEffect, fault: Fault): FaultEffect {
  const next = { ...effect, applied: [...effect.applied, fault.mode] };
  switch (fault.mode) {
    case "duplicate":
      next.copies = Math.max(next.copies, fault.count);
      break;
    case "out-of-order":
      next.hold ??= { faultId: fault.id, batch: fault.count, holdMs: fault.holdMs };
      break;
    case "delay":
      next.delayMs = Math.max(next.delayMs, fault.delayMs);
      break;
    case "drop":
      next.drop = true;
      break;
    case "stale-signature":
      next.signature = "stale";
      break;
    case "bad-signature":
      next.signature = "bad";
      break;
    default:
      // payout faults act on the payout itself, not on its callback (bank.ts)
      next.applied = effect.applied;
      break;
  }
  return next;
}
