/**
 * Back office, fingerprint report (issue 7 item 8): device fingerprints seen on two or more
 * players of the same agency, the multi-account signal. Newest activity first, with the
 * players on each device and when each was first and last seen there.
 */
export type SharedFingerprint = {
  fingerprint: string;
  players: number;
  firstSeenAt: string;
  lastSeenAt: string;
  accounts: { playerId: string; username: string; displayName: string; status: string; firstSeenAt: string; lastSeenAt: string; seenCount: number }[];
};

export async function sharedFingerprints(db: D1Database, agencyId: string, paging: { page: number; pageSize: number }): Promise<{ items: SharedFingerprint[]; total: number }> {
  const grouped = `SELECT f.fingerprint, COUNT(DISTINCT f.player_id) AS players, MIN(f.first_seen_at) AS first_seen_at, MAX(f.last_seen_at) AS last_seen_at
      FROM fingerprints f JOIN players p ON p.id = f.player_id AND p.agency_id = f.agency_id
     WHERE f.agency_id = ?1 GROUP BY f.fingerprint HAVING COUNT(DISTINCT f.player_id) >= 2`;
  const total = (await db.prepare(`SELECT COUNT(*) AS n FROM (${grouped})`).bind(agencyId).first<{ n: number }>())?.n ?? 0;
  const { results: groups } = await db
    .prepare(`${grouped} ORDER BY last_seen_at DESC, f.fingerprint LIMIT ${Math.floor(paging.pageSize)} OFFSET ${Math.floor((paging.page - 1) * paging.pageSize)}`)
    .bind(agencyId)
    .all<{ fingerprint: string; players: number; first_seen_at: string; last_seen_at: string }>();
  if (groups.length === 0) return { items: [], total };
  const marks = groups.map((_, i) => `?${i + 2}`).join(", ");
  const { results: rows } = await db
    .prepare(
      `SELECT f.fingerprint, p.id, p.username, p.display_name, p.status, f.first_seen_at, f.last_seen_at, f.seen_count
         FROM fingerprints f JOIN players p ON p.id = f.player_id AND p.agency_id = f.agency_id
        WHERE f.agency_id = ?1 AND f.fingerprint IN (${marks}) ORDER BY f.first_seen_at`,
    )
    .bind(agencyId, ...groups.map((g) => g.fingerprint))
    .all<{ fingerprint: string; id: string; username: string; display_name: string; status: string; first_seen_at: string; last_seen_at: string; seen_count: number }>();
  return {
    total,
    items: groups.map((g) => ({
      fingerprint: g.fingerprint,
      players: g.players,
      firstSeenAt: g.first_seen_at,
      lastSeenAt: g.last_seen_at,
      accounts: rows
        .filter((r) => r.fingerprint === g.fingerprint)
        .map((r) => ({ playerId: r.id, username: r.username, displayName: r.display_name, status: r.status, firstSeenAt: r.first_seen_at, lastSeenAt: r.last_seen_at, seenCount: r.seen_count })),
    })),
  };
}
