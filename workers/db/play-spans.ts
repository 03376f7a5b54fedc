import { rowsOf, type Read } from "./reads";

/**
 * The spans the time played today is made of (decision 025): the player's live sessions and
 * the spans of ended ones, which the `sessions_keep_play_span` trigger (migration 0028) copies
 * to `play_spans` whenever a session row is deleted.
 */

export type PlaySpan = { from: number; to: number; ended: boolean };

/** Spans still going on or ended at or after `since` (a live session's `to` is its last activity). */
export function playSpansRead(db: D1Database, agencyId: string, playerId: string, since: number): Read<PlaySpan[]> {
  return {
    statement: db
      .prepare(
        `SELECT created_at AS "from", last_seen_at AS "to", 0 AS ended FROM sessions WHERE agency_id = ?1 AND player_id = ?2 AND last_seen_at >= ?3
         UNION ALL
         SELECT started_at, ended_at, 1 FROM play_spans WHERE agency_id = ?1 AND player_id = ?2 AND ended_at >= ?3`,
      )
      .bind(agencyId, playerId, since),
    read: (result) => rowsOf<{ from: number; to: number; ended: number }>(result).map((r) => ({ from: r.from, to: r.to, ended: r.ended === 1 })),
  };
}

/**
 * Logout: the session was in use until now, but its last activity is written at most once a
 * minute, so it is first moved to `now` (only if the session was still alive: a session idle
 * past `idleMs` ended at its last activity, and its idle time is not play), then deleted;
 * the trigger keeps the span. One batch, so a concurrent request cannot touch it in between.
 */
export async function endPlayerSession(db: D1Database, agencyId: string, idHash: string, now: number, idleMs: number): Promise<void> {
  await db.batch(endPlayerSessionStatements(db, agencyId, idHash, now, idleMs));
}

/** endPlayerSession's statements, in order, for a batch that carries other writes too (a login replacing a session). */
export function endPlayerSessionStatements(db: D1Database, agencyId: string, idHash: string, now: number, idleMs: number): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE sessions SET last_seen_at = ?1 WHERE id_hash = ?2 AND agency_id = ?3 AND last_seen_at < ?1 AND ?1 - last_seen_at < ?4 AND expires_at > ?1`,
      )
      .bind(now, idHash, agencyId, idleMs),
    db.prepare(`DELETE FROM sessions WHERE id_hash = ?1 AND agency_id = ?2`).bind(idHash, agencyId),
  ];
}
