import { normalizeHost } from "../../core/host";
import { findActiveAgencyByHost, type Agency } from "../../db/agencies";

export type { Agency };

/**
 * Resolves the agency a request is for, by its Host header. A host that is unknown, or
 * whose agency is disabled, resolves to null: the caller shows the "cannot log in" page.
 */
export async function findAgencyByHost(db: D1Database, hostHeader: string | null): Promise<Agency | null> {
  const host = normalizeHost(hostHeader);
  if (!host) return null;
  return findActiveAgencyByHost(db, host);
}

/** The public shape of docs/product.md §7 `GET /v2/agency/info`. */
export function agencyInfo(agency: Agency) {
  return { agency: { id: agency.id, social: agency.social } };
}
