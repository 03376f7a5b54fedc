import { lockDurationMs, nextFailureCount, retryAfterSeconds, THROTTLE_POLICIES, type ThrottleKind } from "../../core/throttle";
import { readTogether, type Read } from "../../db/reads";
import { countedOf, countThrottleFailureStatement, deleteThrottleStatement, latestLockedUntilRead, throttleCounterRead } from "../../db/throttle";

/** `free`: this key's own allowance, when a setting overrides the policy's (the agency budget). */
export type ThrottleKey = { kind: ThrottleKind; id: string; free?: number };
export type ThrottleCheck = { locked: false } | { locked: true; retryAfterSeconds: number };
/** A key once a failure was counted on it: its failures in the window and until when it is locked (0 or past: not locked). */
export type ThrottleCount = { failures: number; lockedUntil: number };

const keyOf = (key: ThrottleKey) => `${key.kind}:${key.id}`;

/** The latest lock over these keys, as a read to send with others (a login's gate and its account). */
export function lockedUntilRead(db: D1Database, keys: ThrottleKey[]): Read<number> {
  return latestLockedUntilRead(db, keys.map(keyOf));
}

/** The check of a lock read (lockedUntilRead). */
export function throttleCheck(lockedUntil: number, now: number): ThrottleCheck {
  return lockedUntil > now ? { locked: true, retryAfterSeconds: retryAfterSeconds(lockedUntil, now) } : { locked: false };
}

/** Is any of these keys locked right now? Locked attempts are refused before any password check. */
export async function checkThrottle(db: D1Database, keys: ThrottleKey[], now: number): Promise<ThrottleCheck> {
  if (keys.length === 0) return { locked: false };
  const [until] = await readTogether(db, [lockedUntilRead(db, keys)]);
  return throttleCheck(until, now);
}

/**
 * Count one failure on every key and lock those past their allowance: the counters read in
 * one batch, the new counts written in another (two round trips, whatever the number of keys;
 * each write is an UPSERT that adds on top of a concurrent one). Answers each key's count and
 * lock as written, in the keys' order (a registration flags a burst from them).
 */
export async function recordFailure(db: D1Database, keys: ThrottleKey[], now: number): Promise<ThrottleCount[]> {
  if (keys.length === 0) return [];
  const counters = await readTogether(
    db,
    keys.map((key) => throttleCounterRead(db, keyOf(key))),
  );
  const written = await db.batch(
    keys.map((key, i) => {
      const base = THROTTLE_POLICIES[key.kind];
      const policy = key.free === undefined ? base : { ...base, freeFailures: key.free };
      const counter = counters[i];
      const next = counter ? nextFailureCount(counter.failures, counter.windowStartedAt, now, policy) : { failures: 1, windowStartedAt: now };
      const lockMs = lockDurationMs(policy, next.failures);
      return countThrottleFailureStatement(db, keyOf(key), next, lockMs > 0 ? now + lockMs : 0);
    }),
  );
  return keys.map((_, i) => countedOf(written[i]) ?? { failures: 0, lockedUntil: 0 });
}

/** The statements that forget these keys' failures (sent alone, or with a login's other writes). */
export function clearThrottleStatements(db: D1Database, keys: ThrottleKey[]): D1PreparedStatement[] {
  return keys.map((key) => deleteThrottleStatement(db, keyOf(key)));
}

export async function clearThrottle(db: D1Database, keys: ThrottleKey[]): Promise<void> {
  if (keys.length) await db.batch(clearThrottleStatements(db, keys));
}
