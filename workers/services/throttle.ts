import { lockDurationMs, nextFailureCount, retryAfterSeconds, THROTTLE_POLICIES, type ThrottleKind } from "../core/throttle";

/** `free`: this key's own allowance, when a setting overrides the policy's (the agency budget). */
export type ThrottleKey = { kind: ThrottleKind; id: string; free?: number };
export type ThrottleCheck = { locked: false } | { locked: true; retryAfterSeconds: number };

const keyOf = (key: ThrottleKey) => `${key.kind}:${key.id}`;

/** Is any of these keys locked right now? Locked attempts are refused before any password check. */
export async function checkThrottle(db: D1Database, keys: ThrottleKey[], now: number): Promise<ThrottleCheck> {
  if (keys.length === 0) return { locked: false };
  const placeholders = keys.map((_, i) => `?${i + 1}`).join(",");
  const row = await db
    .prepare(`SELECT MAX(locked_until) AS until FROM throttles WHERE key IN (${placeholders})`)
    .bind(...keys.map(keyOf))
    .first<{ until: number | null }>();
  const until = row?.until ?? 0;
  return until > now ? { locked: true, retryAfterSeconds: retryAfterSeconds(until, now) } : { locked: false };
}

/** Count one failure on every key and lock those past their allowance. */
export async function recordFailure(db: D1Database, keys: ThrottleKey[], now: number): Promise<void> {
  for (const key of keys) {
    const base = THROTTLE_POLICIES[key.kind];
    const policy = key.free === undefined ? base : { ...base, freeFailures: key.free };
    const row = await db
      .prepare(`SELECT failures, window_started_at FROM throttles WHERE key = ?1`)
      .bind(keyOf(key))
      .first<{ failures: number; window_started_at: number }>();
    const next = row ? nextFailureCount(row.failures, row.window_started_at, now, policy) : { failures: 1, windowStartedAt: now };
    const lockMs = lockDurationMs(policy, next.failures);
    // Concurrent failures: the UPSERT adds on top of whatever another request wrote, so a
    // burst cannot reset the counter (the window start is only moved when it had expired).
    await db
      .prepare(
        `INSERT INTO throttles (key, failures, window_started_at, locked_until) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(key) DO UPDATE SET
           failures = CASE WHEN throttles.window_started_at = ?3 THEN throttles.failures + 1 ELSE ?2 END,
           window_started_at = ?3,
           locked_until = MAX(throttles.locked_until, ?4)`,
      )
      .bind(keyOf(key), next.failures, next.windowStartedAt, lockMs > 0 ? now + lockMs : 0)
      .run();
  }
}

export async function clearThrottle(db: D1Database, keys: ThrottleKey[]): Promise<void> {
  for (const key of keys) await db.prepare(`DELETE FROM throttles WHERE key = ?1`).bind(keyOf(key)).run();
}
