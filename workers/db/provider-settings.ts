/**
 * provider_settings (0020): which adapter reaches each game provider of an agency, and
 * whose transfer a provider reference is (deposit_refs / withdraw_refs + players), for the
 * providers whose status call needs the player. Credentials stay in provider_credentials
 * (db/agencies.ts).
 */
import type { ProviderAdapterKind, ProviderSetup } from "../core/provider-setup";
import { isProvider, type Provider } from "../core/providers";

type ProviderSettingsRow = {
  provider: string;
  adapter: ProviderAdapterKind;
  base_url: string | null;
  product_code: string | null;
  lobby_url: string | null;
  image_url: string | null;
  member_prefix: string | null;
  created_at: string;
};

function toSetup(row: ProviderSettingsRow): ProviderSetup | null {
  if (!isProvider(row.provider)) return null;
  return {
    provider: row.provider,
    adapter: row.adapter,
    baseUrl: row.base_url,
    productCode: row.product_code,
    lobbyUrl: row.lobby_url,
    imageUrl: row.image_url,
    memberPrefix: row.member_prefix ?? null,
    createdAt: row.created_at,
  };
}

export async function findProviderSetup(db: D1Database, agencyId: string, provider: Provider): Promise<ProviderSetup | null> {
  const row = await db.prepare(`SELECT * FROM provider_settings WHERE agency_id = ?1 AND provider = ?2`).bind(agencyId, provider).first<ProviderSettingsRow>();
  return row ? toSetup(row) : null;
}

export async function listProviderSetups(db: D1Database, agencyId: string): Promise<ProviderSetup[]> {
  const { results } = await db.prepare(`SELECT * FROM provider_settings WHERE agency_id = ?1 ORDER BY provider`).bind(agencyId).all<ProviderSettingsRow>();
  return results.map(toSetup).filter((s): s is ProviderSetup => s !== null);
}

/** The setups of the agency serving a host (for the Content-Security-Policy). */
export async function listProviderSetupsByHost(db: D1Database, host: string): Promise<ProviderSetup[]> {
  const { results } = await db
    .prepare(`SELECT s.* FROM provider_settings s JOIN agency_domains d ON d.agency_id = s.agency_id WHERE d.host = ?1 ORDER BY s.provider`)
    .bind(host)
    .all<ProviderSettingsRow>();
  return results.map(toSetup).filter((s): s is ProviderSetup => s !== null);
}

export function upsertProviderSetupStatement(db: D1Database, agencyId: string, setup: Omit<ProviderSetup, "createdAt">): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO provider_settings (agency_id, provider, adapter, base_url, product_code, lobby_url, image_url, member_prefix) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
       ON CONFLICT (agency_id, provider) DO UPDATE SET adapter = excluded.adapter, base_url = excluded.base_url, product_code = excluded.product_code,
         lobby_url = excluded.lobby_url, image_url = excluded.image_url, member_prefix = excluded.member_prefix, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(agencyId, setup.provider, setup.adapter, setup.baseUrl, setup.productCode, setup.lobbyUrl, setup.imageUrl, setup.memberPrefix);
}

/** The player (agency + username) holding an order code, or null when no order has it. */
export async function findOrderPlayer(
  db: D1Database,
  kind: "deposit" | "withdraw",
  code: string,
): Promise<{ agencyId: string; playerId: string; username: string } | null> {
  const table = kind === "deposit" ? "deposit_refs" : "withdraw_refs";
  const row = await db
    .prepare(`SELECT r.agency_id, r.player_id, p.username FROM ${table} r JOIN players p ON p.id = r.player_id AND p.agency_id = r.agency_id WHERE r.code = ?1`)
    .bind(code)
    .first<{ agency_id: string; player_id: string; username: string }>();
  return row ? { agencyId: row.agency_id, playerId: row.player_id, username: row.username } : null;
}
