import { normalizeHost } from "../core/host";
import { isProvider, type Provider } from "../core/providers";
import { isLanguage, type Language } from "../core/languages";

export type SocialLinks = {
  telegram: string | null;
  whatsapp: string | null;
  facebook: string | null;
  twitter: string | null;
  line: string | null;
};

export type Agency = {
  id: string;
  name: string;
  fallbackLanguage: Language;
  social: SocialLinks;
  limits: { depositMin: string; depositMax: string; withdrawMin: string; withdrawMax: string; withdrawAutoMax: string };
  enabledProviders: Provider[];
};

type AgencyRow = {
  id: string;
  name: string;
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

/**
 * Resolves the agency a request is for, by its Host header. A host that is unknown, or
 * whose agency is disabled, resolves to null: the caller shows the "cannot log in" page.
 */
export async function findAgencyByHost(db: D1Database, hostHeader: string | null): Promise<Agency | null> {
  const host = normalizeHost(hostHeader);
  if (!host) return null;
  const row = await db
    .prepare(
      `SELECT a.id, a.name, s.fallback_language, s.social_telegram, s.social_whatsapp,
              s.social_facebook, s.social_twitter, s.social_line, s.deposit_min, s.deposit_max,
              s.withdraw_min, s.withdraw_max, s.withdraw_auto_max, s.enabled_providers
         FROM agency_domains d
         JOIN agencies a ON a.id = d.agency_id
         JOIN agency_settings s ON s.agency_id = a.id
        WHERE d.host = ?1 AND a.status = 'ACTIVE'`,
    )
    .bind(host)
    .first<AgencyRow>();
  return row ? toAgency(row) : null;
}

function toAgency(row: AgencyRow): Agency {
  return {
    id: row.id,
    name: row.name,
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

function parseProviders(json: string): Provider[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter(isProvider) : [];
  } catch {
    return [];
  }
}

/** The public shape of SPEC §7 `GET /v2/agency/info`. */
export function agencyInfo(agency: Agency) {
  return { agency: { id: agency.id, social: agency.social } };
}
