import { normalizeHost } from "../../core/host";
import { findActiveAgencyByHost, type Agency } from "../../db/agencies";

export type { Agency };

/**
 * How long an isolate keeps the agency it read for a host: its settings (limits, providers,
 * languages, social links) and brand (decision 076). Every request needs them before anything
 * else, and each read was one round trip to D1's primary, tens of ms away from Laos. The same
 * time as a provider setup (decision 033): a change saved through this isolate is seen at once
 * (forgetAgency), one saved through another isolate, or written behind the portal's back, at
 * most 30 s later.
 */
const AGENCY_KEPT_MS = 30_000;

/** Plain values only, never a pending promise (workerd cancels a promise with its request). Unknown hosts are not kept: a new agency is served at once. */
const keptAgencies = new Map<string, { agency: Agency; until: number }>();
/** Bumped by every forgetAgency: a read that began before a change must not keep what it read. */
let changes = 0;

/**
 * Resolves the agency a request is for, by its Host header. A host that is unknown, or
 * whose agency is disabled, resolves to null: the caller shows the "cannot log in" page.
 */
export async function findAgencyByHost(db: D1Database, hostHeader: string | null, now: number = Date.now()): Promise<Agency | null> {
  const host = normalizeHost(hostHeader);
  if (!host) return null;
  const kept = keptAgencies.get(host);
  if (kept && kept.until > now) return kept.agency;
  const changesBefore = changes;
  const agency = await findActiveAgencyByHost(db, host);
  if (agency && changes === changesBefore) keptAgencies.set(host, { agency, until: now + AGENCY_KEPT_MS });
  else keptAgencies.delete(host);
  return agency;
}

/** After a change to the agency's settings, brand or domains: this isolate reads it again at its next request. */
export function forgetAgency(agencyId: string): void {
  changes += 1;
  for (const [host, kept] of keptAgencies) if (kept.agency.id === agencyId) keptAgencies.delete(host);
}

/** The public shape of docs/product.md §7 `GET /v2/agency/info`. */
export function agencyInfo(agency: Agency) {
  return { agency: { id: agency.id, social: agency.social } };
}
