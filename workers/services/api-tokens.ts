import { auditStatement, type AuditActor } from "../db/audit";
import { sha256Hex } from "./staff";

/**
 * Operator API tokens (issue 12, docs/decisions/010-payout-decisions.md): per agency,
 * created, rotated and revoked by an owner, stored as SHA-256 only, shown once. A token is
 * 32 random bytes (256 bits), so a plain hash is enough to store it and a lookup by hash
 * leaks nothing useful about timing. Every change is audited in the same D1 batch.
 */

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

/** The API caller a valid token stands for (audited as `api:<name>`). */
export type ApiCaller = { tokenId: string; name: string };

type Who = AuditActor;

export const API_TOKEN_PREFIX = "apt_";
const NAME_MAX = 60;

function newTokenSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const b64 = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${API_TOKEN_PREFIX}${b64}`;
}

const hintOf = (token: string) => token.slice(0, API_TOKEN_PREFIX.length + 6);

type Row = {
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

const toToken = (r: Row): ApiToken => ({
  id: r.id,
  name: r.name,
  hint: r.hint,
  createdBy: r.created_by,
  createdAt: r.created_at,
  rotatedAt: r.rotated_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
  revokedBy: r.revoked_by,
});

const view = (t: Pick<ApiToken, "name" | "hint"> & { revokedAt?: string | null }) => ({ name: t.name, hint: t.hint, revoked: Boolean(t.revokedAt) });

export async function listApiTokens(db: D1Database, agencyId: string): Promise<ApiToken[]> {
  const { results } = await db.prepare(`SELECT * FROM api_tokens WHERE agency_id = ?1 ORDER BY revoked_at IS NOT NULL, created_at DESC`).bind(agencyId).all<Row>();
  return results.map(toToken);
}

async function getToken(db: D1Database, agencyId: string, id: string): Promise<ApiToken | null> {
  const row = await db.prepare(`SELECT * FROM api_tokens WHERE id = ?1 AND agency_id = ?2`).bind(id, agencyId).first<Row>();
  return row ? toToken(row) : null;
}

/** A new token: the only moment its value exists outside the caller's system. */
export async function createApiToken(db: D1Database, agencyId: string, name: string, who: Who): Promise<{ token: string; apiToken: ApiToken }> {
  const clean = name.trim().slice(0, NAME_MAX);
  const id = crypto.randomUUID();
  const token = newTokenSecret();
  await db.batch([
    db
      .prepare(`INSERT INTO api_tokens (id, agency_id, name, token_hash, hint, created_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`)
      .bind(id, agencyId, clean, await sha256Hex(token), hintOf(token), who.staffUsername ?? "?"),
    auditStatement(db, who, { action: "api-token.created", target: `api-token:${id}`, after: view({ name: clean, hint: hintOf(token) }) }),
  ]);
  return { token, apiToken: (await getToken(db, agencyId, id))! };
}

/**
 * A new secret for the same token: the old value stops working at once. (For a change
 * without a gap: create a second token, switch the system to it, revoke the first.)
 */
export async function rotateApiToken(db: D1Database, agencyId: string, id: string, who: Who): Promise<{ ok: true; token: string; apiToken: ApiToken } | { ok: false; code: "NOT_FOUND" | "REVOKED" }> {
  const before = await getToken(db, agencyId, id);
  if (!before) return { ok: false, code: "NOT_FOUND" };
  if (before.revokedAt) return { ok: false, code: "REVOKED" };
  const token = newTokenSecret();
  const [updated] = await db.batch([
    db
      .prepare(`UPDATE api_tokens SET token_hash = ?1, hint = ?2, rotated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?3 AND agency_id = ?4 AND revoked_at IS NULL`)
      .bind(await sha256Hex(token), hintOf(token), id, agencyId),
    auditStatement(db, who, { action: "api-token.rotated", target: `api-token:${id}`, before: view(before), after: view({ name: before.name, hint: hintOf(token) }) }),
  ]);
  if ((updated.meta.changes ?? 0) === 0) return { ok: false, code: "REVOKED" };
  return { ok: true, token, apiToken: (await getToken(db, agencyId, id))! };
}

/** Revoked for good: the token stays listed (and in the audit log), it no longer works. */
export async function revokeApiToken(db: D1Database, agencyId: string, id: string, who: Who): Promise<{ ok: true; apiToken: ApiToken } | { ok: false; code: "NOT_FOUND" | "REVOKED" }> {
  const before = await getToken(db, agencyId, id);
  if (!before) return { ok: false, code: "NOT_FOUND" };
  if (before.revokedAt) return { ok: false, code: "REVOKED" };
  const [updated] = await db.batch([
    db
      .prepare(`UPDATE api_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), revoked_by = ?1 WHERE id = ?2 AND agency_id = ?3 AND revoked_at IS NULL`)
      .bind(who.staffUsername ?? "?", id, agencyId),
    auditStatement(db, who, { action: "api-token.revoked", target: `api-token:${id}`, before: view(before), after: view({ ...before, revokedAt: "now" }) }),
  ]);
  if ((updated.meta.changes ?? 0) === 0) return { ok: false, code: "REVOKED" };
  return { ok: true, apiToken: (await getToken(db, agencyId, id))! };
}

/** The caller behind an `Authorization: Bearer apt_...` header at this agency, or null. */
export async function authenticateApiToken(db: D1Database, agencyId: string, authorization: string | null): Promise<ApiCaller | null> {
  const given = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  if (!given || !given.startsWith(API_TOKEN_PREFIX) || given.length > 100) return null;
  const row = await db
    .prepare(
      `UPDATE api_tokens SET last_used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
        WHERE token_hash = ?1 AND agency_id = ?2 AND revoked_at IS NULL
        RETURNING id, name`,
    )
    .bind(await sha256Hex(given), agencyId)
    .first<{ id: string; name: string }>();
  return row ? { tokenId: row.id, name: row.name } : null;
}
