/** Statements over `api_tokens`: operator API tokens, stored as SHA-256 only (migration 0012). */

export type ApiToken = {
  id: string;
  name: string;
  hint: string;
  createdBy: string;
  createdAt: string;
  rotatedAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
};

type ApiTokenRow = {
  id: string;
  name: string;
  hint: string;
  created_by: string;
  created_at: string;
  rotated_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
};

const toApiToken = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  hint: row.hint,
  createdBy: row.created_by,
  createdAt: row.created_at,
  rotatedAt: row.rotated_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
  revokedBy: row.revoked_by,
});

const NOW_ISO = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** Live tokens first, newest first. */
export async function agencyApiTokens(db: D1Database, agencyId: string): Promise<ApiToken[]> {
  const { results } = await db
    .prepare(`SELECT * FROM api_tokens WHERE agency_id = ?1 ORDER BY revoked_at IS NOT NULL, created_at DESC`)
    .bind(agencyId)
    .all<ApiTokenRow>();
  return results.map(toApiToken);
}

export async function findApiToken(db: D1Database, agencyId: string, id: string): Promise<ApiToken | null> {
  const row = await db.prepare(`SELECT * FROM api_tokens WHERE id = ?1 AND agency_id = ?2`).bind(id, agencyId).first<ApiTokenRow>();
  return row ? toApiToken(row) : null;
}

export function insertApiTokenStatement(
  db: D1Database,
  token: { id: string; agencyId: string; name: string; tokenHash: string; hint: string; createdBy: string },
): D1PreparedStatement {
  return db
    .prepare(`INSERT INTO api_tokens (id, agency_id, name, token_hash, hint, created_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`)
    .bind(token.id, token.agencyId, token.name, token.tokenHash, token.hint, token.createdBy);
}

/** Guarded: a revoked token is not rotated (no row changes). */
export function rotateApiTokenStatement(db: D1Database, agencyId: string, id: string, tokenHash: string, hint: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE api_tokens SET token_hash = ?1, hint = ?2, rotated_at = ${NOW_ISO} WHERE id = ?3 AND agency_id = ?4 AND revoked_at IS NULL`)
    .bind(tokenHash, hint, id, agencyId);
}

/** Guarded: revoked once (no row changes the second time). */
export function revokeApiTokenStatement(db: D1Database, agencyId: string, id: string, revokedBy: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE api_tokens SET revoked_at = ${NOW_ISO}, revoked_by = ?1 WHERE id = ?2 AND agency_id = ?3 AND revoked_at IS NULL`)
    .bind(revokedBy, id, agencyId);
}

/** The live token with this hash at this agency, its last use stamped now; or null. */
export async function useApiToken(db: D1Database, agencyId: string, tokenHash: string): Promise<{ id: string; name: string } | null> {
  return db
    .prepare(
      `UPDATE api_tokens SET last_used_at = ${NOW_ISO}
        WHERE token_hash = ?1 AND agency_id = ?2 AND revoked_at IS NULL
        RETURNING id, name`,
    )
    .bind(tokenHash, agencyId)
    .first<{ id: string; name: string }>();
}
