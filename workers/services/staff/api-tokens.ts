import { auditStatement, type AuditActor } from "../../db/audit";
import { randomToken, sha256Hex } from "../../core/tokens";
import {
  agencyApiTokens,
  findApiToken,
  insertApiTokenStatement,
  revokeApiTokenStatement,
  rotateApiTokenStatement,
  useApiToken,
  type ApiToken,
} from "../../db/api-tokens";

/**
 * Operator API tokens (docs/decisions/010-payout-decisions.md): per agency,
 * created, rotated and revoked by an owner, stored as SHA-256 only, shown once. A token is
 * 32 random bytes (256 bits), so a plain hash is enough to store it and a lookup by hash
 * leaks nothing useful about timing. Every change is audited in the same D1 batch.
 */

export type { ApiToken };

/** The API caller a valid token stands for (audited as `api:<name>`). */
export type ApiCaller = { tokenId: string; name: string };

const API_TOKEN_PREFIX = "apt_";
const NAME_MAX = 60;

const newTokenSecret = () => `${API_TOKEN_PREFIX}${randomToken()}`;

const hintOf = (token: string) => token.slice(0, API_TOKEN_PREFIX.length + 6);

const view = (t: Pick<ApiToken, "name" | "hint"> & { revokedAt?: string | null }) => ({ name: t.name, hint: t.hint, revoked: Boolean(t.revokedAt) });

async function listApiTokens(db: D1Database, agencyId: string): Promise<ApiToken[]> {
  return agencyApiTokens(db, agencyId);
}

/**
 * The API tokens page: every token of the agency, and the live token a rotate or revoke
 * confirm step (`asked`) is about, if any.
 */
export async function apiTokensPage(db: D1Database, agencyId: string, asked: { intent: "rotate" | "revoke"; tokenId: string | null } | null) {
  const tokens = await listApiTokens(db, agencyId);
  const target = asked ? tokens.find((t) => t.id === asked.tokenId && !t.revokedAt) : undefined;
  return { tokens, confirm: asked && target ? { intent: asked.intent, tokenId: target.id, name: target.name } : null };
}

/** A new token: the only moment its value exists outside the caller's system. */
export async function createApiToken(db: D1Database, actor: AuditActor, name: string): Promise<{ token: string; apiToken: ApiToken }> {
  const { agencyId } = actor;
  const clean = name.trim().slice(0, NAME_MAX);
  const id = crypto.randomUUID();
  const token = newTokenSecret();
  await db.batch([
    insertApiTokenStatement(db, { id, agencyId, name: clean, tokenHash: await sha256Hex(token), hint: hintOf(token), createdBy: actor.staffUsername ?? "?" }),
    auditStatement(db, actor, { action: "api-token.created", target: `api-token:${id}`, after: view({ name: clean, hint: hintOf(token) }) }),
  ]);
  return { token, apiToken: (await findApiToken(db, agencyId, id))! };
}

/**
 * A new secret for the same token: the old value stops working at once. (For a change
 * without a gap: create a second token, switch the system to it, revoke the first.)
 */
export async function rotateApiToken(
  db: D1Database,
  actor: AuditActor,
  id: string,
): Promise<{ ok: true; token: string; apiToken: ApiToken } | { ok: false; code: "NOT_FOUND" | "REVOKED" }> {
  const { agencyId } = actor;
  const before = await findApiToken(db, agencyId, id);
  if (!before) return { ok: false, code: "NOT_FOUND" };
  if (before.revokedAt) return { ok: false, code: "REVOKED" };
  const token = newTokenSecret();
  const [updated] = await db.batch([
    rotateApiTokenStatement(db, agencyId, id, await sha256Hex(token), hintOf(token)),
    auditStatement(db, actor, {
      action: "api-token.rotated",
      target: `api-token:${id}`,
      before: view(before),
      after: view({ name: before.name, hint: hintOf(token) }),
    }),
  ]);
  if ((updated.meta.changes ?? 0) === 0) return { ok: false, code: "REVOKED" };
  return { ok: true, token, apiToken: (await findApiToken(db, agencyId, id))! };
}

/** Revoked for good: the token stays listed (and in the audit log), it no longer works. */
export async function revokeApiToken(
  db: D1Database,
  actor: AuditActor,
  id: string,
): Promise<{ ok: true; apiToken: ApiToken } | { ok: false; code: "NOT_FOUND" | "REVOKED" }> {
  const { agencyId } = actor;
  const before = await findApiToken(db, agencyId, id);
  if (!before) return { ok: false, code: "NOT_FOUND" };
  if (before.revokedAt) return { ok: false, code: "REVOKED" };
  const [updated] = await db.batch([
    revokeApiTokenStatement(db, agencyId, id, actor.staffUsername ?? "?"),
    auditStatement(db, actor, { action: "api-token.revoked", target: `api-token:${id}`, before: view(before), after: view({ ...before, revokedAt: "now" }) }),
  ]);
  if ((updated.meta.changes ?? 0) === 0) return { ok: false, code: "REVOKED" };
  return { ok: true, apiToken: (await findApiToken(db, agencyId, id))! };
}

/** The caller behind an `Authorization: Bearer apt_...` header at this agency, or null. */
export async function authenticateApiToken(db: D1Database, agencyId: string, authorization: string | null): Promise<ApiCaller | null> {
  const given = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  if (!given || !given.startsWith(API_TOKEN_PREFIX) || given.length > 100) return null;
  const used = await useApiToken(db, agencyId, await sha256Hex(given));
  return used ? { tokenId: used.id, name: used.name } : null;
}
