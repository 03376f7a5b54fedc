/** Statements over `players` (owned by the people area; the lead merges the sections below). */

// ---- added by money helper
/** A player of the agency as the back office's money screens show them. */
export type PlayerCard = { id: string; username: string; displayName: string; phone: string; status: string; createdAt: string };

type PlayerCardRow = { id: string; username: string; display_name: string; phone: string; status: string; created_at: string };

function toPlayerCard(row: PlayerCardRow): PlayerCard {
  return { id: row.id, username: row.username, displayName: row.display_name, phone: row.phone, status: row.status, createdAt: row.created_at };
}

export async function findPlayerCard(db: D1Database, agencyId: string, playerId: string): Promise<PlayerCard | null> {
  const row = await db.prepare(`SELECT id, username, display_name, phone, status, created_at FROM players WHERE id = ?1 AND agency_id = ?2`).bind(playerId, agencyId).first<PlayerCardRow>();
  return row ? toPlayerCard(row) : null;
}

/** By username (lower case, as stored). */
export async function findPlayerCardByUsername(db: D1Database, agencyId: string, username: string): Promise<PlayerCard | null> {
  const row = await db.prepare(`SELECT id, username, display_name, phone, status, created_at FROM players WHERE agency_id = ?1 AND username = ?2`).bind(agencyId, username).first<PlayerCardRow>();
  return row ? toPlayerCard(row) : null;
}
