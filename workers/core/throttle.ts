/**
 * Login and registration throttling policy (pure). Each key counts failures in a window;
 * once a key passes its free allowance, every further failure locks it for a growing time,
 * capped so that an attacker cannot lock a real owner out for long.
 *
 * - account+client (`acct-ip`): the brute-force wall. 5 free failures, then 2 s doubling
 *   to at most 15 min. An attacker hammering one account from one address gets a few
 *   guesses an hour; the owner on another address is not affected at all.
 * - client (`ip`): credential stuffing across many accounts. 20 free, then 10 s doubling
 *   to at most 1 h.
 * - account (`acct`): a distributed attack on one account. OWASP/ASVS 2.2.1 allow at most
 *   100 failures per hour per account: 88 free, then a 5 min lock per failure, so at most
 *   88 + 12 = 100 guesses get checked in an hour, and the owner waits 5 min at worst.
 * - registration per client (`reg`): every registration counts; the 10th in an hour locks
 *   the address for an hour (so at most 10 accounts per address per hour).
 */
export type ThrottleKind = "acct-ip" | "ip" | "acct" | "reg";

export type ThrottlePolicy = {
  windowMs: number;
  freeFailures: number;
  baseLockMs: number;
  maxLockMs: number;
  /** "double": base * 2^(excess-1); "fixed": always base. */
  growth: "double" | "fixed";
};

const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;

export const THROTTLE_POLICIES: Record<ThrottleKind, ThrottlePolicy> = {
  "acct-ip": { windowMs: HOUR, freeFailures: 5, baseLockMs: 2000, maxLockMs: 15 * MINUTE, growth: "double" },
  ip: { windowMs: HOUR, freeFailures: 20, baseLockMs: 10_000, maxLockMs: HOUR, growth: "double" },
  acct: { windowMs: HOUR, freeFailures: 88, baseLockMs: 5 * MINUTE, maxLockMs: 5 * MINUTE, growth: "fixed" },
  reg: { windowMs: HOUR, freeFailures: 9, baseLockMs: HOUR, maxLockMs: HOUR, growth: "fixed" },
};

/** How long a key is locked after its `failures`-th failure in the window (0 = not locked). */
export function lockDurationMs(policy: ThrottlePolicy, failures: number): number {
  const excess = failures - policy.freeFailures;
  if (excess <= 0) return 0;
  if (policy.growth === "fixed") return policy.baseLockMs;
  // 2^(excess-1) overflows quickly: stop doubling once past the cap.
  const doublings = Math.min(excess - 1, 40);
  return Math.min(policy.baseLockMs * 2 ** doublings, policy.maxLockMs);
}

/** Failures older than the window are forgotten: the count restarts at this failure. */
export function nextFailureCount(previous: number, windowStartedAt: number, now: number, policy: ThrottlePolicy): { failures: number; windowStartedAt: number } {
  if (now - windowStartedAt >= policy.windowMs) return { failures: 1, windowStartedAt: now };
  return { failures: previous + 1, windowStartedAt };
}

/** Seconds to tell the player, rounded up, at least 1. */
export function retryAfterSeconds(lockedUntil: number, now: number): number {
  return Math.max(1, Math.ceil((lockedUntil - now) / 1000));
}
