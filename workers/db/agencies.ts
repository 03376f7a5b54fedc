import { isLanguage, type Language } from "../core/languages";
import { PROVIDERS, type Provider } from "../core/providers";
import type { Brand } from "../core/brand";
import { BRAND_COLUMNS, BRAND_JOINS, toBrand, type BrandRow } from "./brand";
import { rowsOf, type Read } from "./reads";

/**
 * Statements over `agencies`, `agency_domains`, `agency_settings` (migration 0001 and
 * later columns) and `provider_credentials` (0008). Every statement is scoped by the agency.
 */

type SocialLinks = {
  telegram: string | null;
  whatsapp: string | null;
  facebook: string | null;
  twitter: string | null;
  line: string | null;
};

/** Deposits in kip (what the player pays), withdrawals in credit; decimal strings. */
export type AgencyLimits = { depositMin: string; depositMax: string; withdrawMin: string; withdrawMax: string; withdrawAutoMax: string };

/** An agency's settings row, as the rest of the code reads it. */
export type AgencySettings = {
  fallbackLanguage: Language;
  social: SocialLinks;
  limits: AgencyLimits;
  enabledProviders: Provider[];
};

/** The agency a request is for: its id, name, settings and brand. */
export type Agency = { id: string; name: string; brand: Brand } & AgencySettings;

type AgencySettingsRow = {
  fallback_language: string;
  social_telegram: string | null;
  social_whatsapp: string | null;
  social_facebook: string | null;
  social_twitter: string | null;
  social_line: string | null;
  deposit_min: string;
  deposit_max: string;
  withdraw_min: string;
  withdraw_max: string;
  withdraw_auto_max: string;
  enabled_providers: string;
};

const SETTINGS_COLUMNS = `s.fallback_language, s.social_telegram, s.social_whatsapp, s.social_facebook, s.social_twitter, s.social_line,
  s.deposit_min, s.deposit_max, s.withdraw_min, s.withdraw_max, s.withdraw_auto_max, s.enabled_providers`;

/** The JSON array of provider codes, in the product's order; anything unknown is left out. */
function parseProviders(json: string): Provider[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? PROVIDERS.filter((p) => value.includes(p)) : [];
  } catch {
    return [];
  }
}

function toAgencySettings(row: AgencySettingsRow): AgencySettings {
  return {
    fallbackLanguage: isLanguage(row.fallback_language) ? row.fallback_language : "lo",
    social: {
      telegram: row.social_telegram,
      whatsapp: row.social_whatsapp,
      facebook: row.social_facebook,
      twitter: row.social_twitter,
      line: row.social_line,
    },
    limits: {
      depositMin: row.deposit_min,
      depositMax: row.deposit_max,
      withdrawMin: row.withdraw_min,
      withdrawMax: row.withdraw_max,
      withdrawAutoMax: row.withdraw_auto_max,
    },
    enabledProviders: parseProviders(row.enabled_providers),
  };
}

/**
 * The ACTIVE agency a (normalized) host belongs to, with its brand in the same query (LEFT
 * JOINs of workers/db/brand.ts: every missing part is the neutral default's, never another
 * agency's); null for an unknown host or a disabled agency.
 */
export async function findActiveAgencyByHost(db: D1Database, host: string): Promise<Agency | null> {
  const row = await db
    .prepare(
      `SELECT a.id, a.name, ${SETTINGS_COLUMNS}, ${BRAND_COLUMNS}
         FROM agency_domains d
         JOIN agencies a ON a.id = d.agency_id
         JOIN agency_settings s ON s.agency_id = a.id
         ${BRAND_JOINS}
        WHERE d.host = ?1 AND a.status = 'ACTIVE'`,
    )
    .bind(host)
    .first<AgencySettingsRow & BrandRow & { id: string; name: string }>();
  return row ? { id: row.id, name: row.name, brand: toBrand(row), ...toAgencySettings(row) } : null;
}

/** An agency's settings; every agency has its row (created with the agency), so a missing one is a bug. */
export async function readAgencySettings(db: D1Database, agencyId: string): Promise<AgencySettings> {
  const row = await db.prepare(`SELECT ${SETTINGS_COLUMNS} FROM agency_settings s WHERE s.agency_id = ?1`).bind(agencyId).first<AgencySettingsRow>();
  if (!row) throw new Error(`agency ${agencyId} has no settings row`);
  return toAgencySettings(row);
}

/** The agency's budget of strangers' login failures per 10 minutes (agency_settings), null when unset. */
export function loginFailureBudgetRead(db: D1Database, agencyId: string): Read<number | null> {
  return {
    statement: db.prepare(`SELECT login_failure_budget AS budget FROM agency_settings WHERE agency_id = ?1`).bind(agencyId),
    read: (result) => rowsOf<{ budget: number | null }>(result)[0]?.budget ?? null,
  };
}

export function updateLimitsStatement(db: D1Database, agencyId: string, limits: AgencyLimits): D1PreparedStatement {
  return db
    .prepare(`UPDATE agency_settings SET deposit_min = ?2, deposit_max = ?3, withdraw_min = ?4, withdraw_max = ?5, withdraw_auto_max = ?6 WHERE agency_id = ?1`)
    .bind(agencyId, limits.depositMin, limits.depositMax, limits.withdrawMin, limits.withdrawMax, limits.withdrawAutoMax);
}

export function updateEnabledProvidersStatement(db: D1Database, agencyId: string, providers: readonly Provider[]): D1PreparedStatement {
  return db.prepare(`UPDATE agency_settings SET enabled_providers = ?2 WHERE agency_id = ?1`).bind(agencyId, JSON.stringify(providers));
}

export function updateProfileStatement(db: D1Database, agencyId: string, fallbackLanguage: Language, social: SocialLinks): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE agency_settings SET fallback_language = ?2, social_telegram = ?3, social_whatsapp = ?4, social_facebook = ?5, social_twitter = ?6, social_line = ?7
        WHERE agency_id = ?1`,
    )
    .bind(agencyId, fallbackLanguage, social.telegram, social.whatsapp, social.facebook, social.twitter, social.line);
}

// ---- provider_credentials: write-only from the settings screen (the secret is sealed by the service)

/** When each provider's credentials were last set (never the credentials themselves). */
export async function listCredentialDates(db: D1Database, agencyId: string): Promise<{ provider: string; setAt: string }[]> {
  const { results } = await db
    .prepare(`SELECT provider, updated_at FROM provider_credentials WHERE agency_id = ?1`)
    .bind(agencyId)
    .all<{ provider: string; updated_at: string }>();
  return results.map((r) => ({ provider: r.provider, setAt: r.updated_at }));
}

/** When a provider's credentials were set, or null when they are not. */
export async function credentialsSetAt(db: D1Database, agencyId: string, provider: string): Promise<string | null> {
  const row = await db
    .prepare(`SELECT updated_at FROM provider_credentials WHERE agency_id = ?1 AND provider = ?2`)
    .bind(agencyId, provider)
    .first<{ updated_at: string }>();
  return row?.updated_at ?? null;
}

/** The sealed credentials of a provider, or null when none are set. */
export async function readCredentialsCiphertext(db: D1Database, agencyId: string, provider: string): Promise<string | null> {
  const row = await db
    .prepare(`SELECT secret_ciphertext FROM provider_credentials WHERE agency_id = ?1 AND provider = ?2`)
    .bind(agencyId, provider)
    .first<{ secret_ciphertext: string }>();
  return row?.secret_ciphertext ?? null;
}

/** Sets (or replaces) a provider's credentials: the masked agent hint and the ciphertext. */
export function upsertCredentialsStatement(db: D1Database, agencyId: string, provider: string, agentHint: string, ciphertext: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO provider_credentials (agency_id, provider, agent, secret_ciphertext, updated_at) VALUES (?1, ?2, ?3, ?4, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
       ON CONFLICT (agency_id, provider) DO UPDATE SET agent = excluded.agent, secret_ciphertext = excluded.secret_ciphertext, updated_at = excluded.updated_at`,
    )
    .bind(agencyId, provider, agentHint, ciphertext);
}

export function deleteCredentialsStatement(db: D1Database, agencyId: string, provider: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM provider_credentials WHERE agency_id = ?1 AND provider = ?2`).bind(agencyId, provider);
}

/** The agency's domains, the primary one first (migration 0036), then by name. */
export async function listAgencyHosts(db: D1Database, agencyId: string): Promise<{ host: string; primary: boolean }[]> {
  const { results } = await db
    .prepare(`SELECT host, is_primary FROM agency_domains WHERE agency_id = ?1 ORDER BY is_primary DESC, host`)
    .bind(agencyId)
    .all<{ host: string; is_primary: number }>();
  return results.map((r) => ({ host: r.host, primary: r.is_primary === 1 }));
}

/** `host` (one of the agency's) becomes its primary domain, and no other. */
export function setPrimaryHostStatements(db: D1Database, agencyId: string, host: string): D1PreparedStatement[] {
  return [
    db.prepare(`UPDATE agency_domains SET is_primary = 0 WHERE agency_id = ?1 AND host <> ?2 AND is_primary = 1`).bind(agencyId, host),
    db.prepare(`UPDATE agency_domains SET is_primary = 1 WHERE agency_id = ?1 AND host = ?2`).bind(agencyId, host),
  ];
}
