/** Device fingerprints per player: first and last seen, and how often. */
export async function recordFingerprint(db: D1Database, agencyId: string, playerId: string, fingerprint: string, payload: unknown): Promise<void> {
  await db
    .prepare(
      `INSERT INTO fingerprints (agency_id, player_id, fingerprint, payload) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT(agency_id, player_id, fingerprint) DO UPDATE SET
         payload = excluded.payload,
         last_seen_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
         seen_count = fingerprints.seen_count + 1`,
    )
    .bind(agencyId, playerId, fingerprint, JSON.stringify(payload))
    .run();
}

export async function listFingerprints(db: D1Database, agencyId: string, playerId: string) {
  const { results } = await db
    .prepare(`SELECT fingerprint, first_seen_at, last_seen_at, seen_count FROM fingerprints WHERE agency_id = ?1 AND player_id = ?2 ORDER BY last_seen_at DESC`)
    .bind(agencyId, playerId)
    .all<{ fingerprint: string; first_seen_at: string; last_seen_at: string; seen_count: number }>();
  return results;
}
