/** Statements over `throttles`: failure counters per throttle key (migration 0002). */

export type ThrottleCounter = { failures: number; windowStartedAt: number };

/** The latest lock over these keys (0 when none is locked or known). */
export async function latestLockedUntil(db: D1Database, keys: string[]): Promise<number> {
  if (keys.length === 0) return 0;
  const placeholders = keys.map((_, i) => `?${i + 1}`).join(",");
  const row = await db
    .prepare(`SELECT MAX(locked_until) AS until FROM throttles WHERE key IN (${placeholders})`)
    .bind(...keys)
    .first<{ until: number | null }>();
  return row?.until ?? 0;
}

export async function findThrottleCounter(db: D1Database, key: string): Promise<ThrottleCounter | null> {
  const row = await db
    .prepare(`SELECT failures, window_started_at FROM throttles WHERE key = ?1`)
    .bind(key)
    .first<{ failures: number; window_started_at: number }>();
  return row ? { failures: row.failures, windowStartedAt: row.window_started_at } : null;
}

/**
 * Counts one failure. Concurrent failures: the UPSERT adds on top of whatever another
 * request wrote, so a burst cannot reset the counter (the window start is only moved when
 * it had expired). `lockedUntil` only ever moves later.
 */
export async function countThrottleFailure(db: D1Database, key: string, next: ThrottleCounter, lockedUntil: number): Promise<void> {
  await db
    .prepare(
      `INSERT INTO throttles (key, failures, window_started_at, locked_until) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT(key) DO UPDATE SET
         failures = CASE WHEN throttles.window_started_at = ?3 THEN throttles.failures + 1 ELSE ?2 END,
         window_started_at = ?3,
         locked_until = MAX(throttles.locked_until, ?4)`,
    )
    .bind(key, next.failures, next.windowStartedAt, lockedUntil)
    .run();
}

export async function deleteThrottle(db: D1Database, key: string): Promise<void> {
  await db.prepare(`DELETE FROM throttles WHERE key = ?1`).bind(key).run();
}
