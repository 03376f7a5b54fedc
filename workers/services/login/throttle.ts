import { lockDurationMs, nextFailureCount, retryAfterSeconds, THROTTLE_POLICIES, type ThrottleKind } from "../../core/throttle";
import { countThrottleFailure, deleteThrottle, findThrottleCounter, latestLockedUntil } from "../../db/throttle";

/** `free`: this key's own allowance, when a setting overrides the policy's (the agency budget). */
export type ThrottleKey = { kind: ThrottleKind; id: string; free?: number };
export type ThrottleCheck = { locked: false } | { locked: true; retryAfterSeconds: number };

const keyOf = (key: ThrottleKey) => `${key.kind}:${key.id}`;

/** Is any of these keys locked right now? Locked attempts are refused before any password check. */
export async function checkThrottle(db: D1Database, keys: ThrottleKey[], now: number): Promise<ThrottleCheck> {
  if (keys.length === 0) return { locked: false };
  const until = await latestLockedUntil(db, keys.map(keyOf));
  return until > now ? { locked: true, retryAfterSeconds: retryAfterSeconds(until, now) } : { locked: false };
}

/** Count one failure on every key and lock those past their allowance. */
export async function recordFailure(db: D1Database, keys: ThrottleKey[], now: number): Promise<void> {
  for (const key of keys) {
    const base = THROTTLE_POLICIES[key.kind];
    const policy = key.free === undefined ? base : { ...base, freeFailures: key.free };
    const counter = await findThrottleCounter(db, keyOf(key));
    const next = counter ? nextFailureCount(counter.failures, counter.windowStartedAt, now, policy) : { failures: 1, windowStartedAt: now };
    const lockMs = lockDurationMs(policy, next.failures);
    await countThrottleFailure(db, keyOf(key), next, lockMs > 0 ? now + lockMs : 0);
  }
}

export async function clearThrottle(db: D1Database, keys: ThrottleKey[]): Promise<void> {
  for (const key of keys) await deleteThrottle(db, keyOf(key));
}
