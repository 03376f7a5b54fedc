/**
 * provider_members (0031, decision 048): the member name a game provider answered for a
 * player (Betflix puts its agent prefix before the name we register), kept the first time
 * and used for every later call. Rows are never updated; a new account at the provider
 * forgets them (services/providers/provider-setup.ts).
 */
import type { Provider } from "../core/providers";

export async function findProviderMember(db: D1Database, agencyId: string, provider: Provider, playerId: string): Promise<string | null> {
  const row = await db
    .prepare(`SELECT member FROM provider_members WHERE agency_id = ?1 AND provider = ?2 AND player_id = ?3`)
    .bind(agencyId, provider, playerId)
    .first<{ member: string }>();
  return row?.member ?? null;
}

/** Every kept member of an agency at one provider, by player id (the period report asks for all). */
export async function listProviderMembers(db: D1Database, agencyId: string, provider: Provider): Promise<Map<string, string>> {
  const { results } = await db
    .prepare(`SELECT player_id, member FROM provider_members WHERE agency_id = ?1 AND provider = ?2`)
    .bind(agencyId, provider)
    .all<{ player_id: string; member: string }>();
  return new Map(results.map((r) => [r.player_id, r.member]));
}

/**
 * Keeps a player's member name unless one is kept already. True when the player's kept name
 * is this member afterwards: false when the player holds another one, or another player
 * holds this member (the UNIQUE constraint: one member, one player).
 */
export async function keepProviderMember(
  db: D1Database,
  input: { agencyId: string; provider: Provider; playerId: string; username: string; member: string },
): Promise<boolean> {
  const [, kept] = await db.batch<{ member: string }>([
    db
      .prepare(`INSERT INTO provider_members (agency_id, provider, player_id, username, member) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING`)
      .bind(input.agencyId, input.provider, input.playerId, input.username, input.member),
    db
      .prepare(`SELECT member FROM provider_members WHERE agency_id = ?1 AND provider = ?2 AND player_id = ?3`)
      .bind(input.agencyId, input.provider, input.playerId),
  ]);
  return kept?.results[0]?.member === input.member;
}

/** Forgets a provider's kept members (the agency moved to another account there). */
export function forgetProviderMembersStatement(db: D1Database, agencyId: string, provider: Provider): D1PreparedStatement {
  return db.prepare(`DELETE FROM provider_members WHERE agency_id = ?1 AND provider = ?2`).bind(agencyId, provider);
}
