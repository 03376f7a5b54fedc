/** Statements over `throttles`: failure counters per throttle key (migration 0002). */
import { rowsOf, type Read } from "./reads";

export type ThrottleCounter = { failures: number; windowStartedAt: number };

/** The latest lock over these keys (0 when none is locked or known, or no key is given). */
export function latestLockedUntilRead(db: D1Database, keys: string[]): Read<number> {
  const placeholders = keys.map((_, i) => `?${i + 1}`).join(",");
  return {
    statement: keys.length
      ? db.prepare(`SELECT MAX(locked_until) AS until FROM throttles WHERE key IN (${placeholders})`).bind(...keys)
      : db.prepare(`SELECT 0 AS until`),
    read: (result) => rowsOf<{ until: number | null }>(result)[0]?.until ?? 0,
  };
}

/** The failure counter of a key, null when it has none. */
export function throttleCounterRead(db: D1Database, key: string): Read<ThrottleCounter | null> {
  return {
    statement: db.prepare(`SELECT failures, window_started_at FROM throttles WHERE key = ?1`).bind(key),
    read: (result) => {
      const row = rowsOf<{ failures: number; window_started_at: number }>(result)[0];
      return row ? { failures: row.failures, windowStartedAt: row.window_started_at } : null;
    },
  };
}

/**
 * Counts one failure. Concurrent failures: the UPSERT adds on top of whatever another
 * request wrote, so a burst cannot reset the counter (the window start is only moved when
 * it had expired). `lockedUntil` only ever moves later. It returns the key's row as written
 * (`countedOf`): the count after this failure, concurrent ones included.
 */
export function countThrottleFailureStatement(db: D1Database, key: string, next: ThrottleCounter, lockedUntil: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO throttles (key, failures, window_started_at, locked_until) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT(key) DO UPDATE SET
         failures = CASE WHEN throttles.window_started_at = ?3 THEN throttles.failures + 1 ELSE ?2 END,
         window_started_at = ?3,
         locked_until = MAX(throttles.locked_until, ?4)
       RETURNING failures, locked_until`,
    )
    .bind(key, next.failures, next.windowStartedAt, lockedUntil);
}

/** A key's count and lock as countThrottleFailureStatement wrote them (null when the result has no row). */
export function countedOf(result: D1Result | undefined): { failures: number; lockedUntil: number } | null {
  const row = (result?.results as { failures: number; locked_until: number }[] | undefined)?.[0];
  return row ? { failures: row.failures, lockedUntil: row.locked_until } : null;
}

export function deleteThrottleStatement(db: D1Database, key: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM throttles WHERE key = ?1`).bind(key);
}
