import { sessionState } from "../core/session";
import { auditIfChanged, auditStatement, type AuditActor } from "../db/audit";
import { listBankAccounts, type BankAccount } from "./bank";
import { listFingerprints } from "./fingerprint";
import { hashPassword } from "./password";
import { clearThrottle } from "./throttle";

/**
 * Back office, players (issue 7 item 4): search, the whole picture of one player, and the
 * account actions staff take (lock/unlock, end sessions, reset password). Every query is
 * scoped by agency_id: a player id of another agency is "not found". Each action is one D1
 * batch with its audit row; the audit row is written only if the guarded change happened.
 */

export type PlayerSummary = {
  id: string;
  username: string;
  displayName: string;
  phone: string;
  status: "ACTIVE" | "SUSPENDED";
  mustChangePassword: boolean;
  createdAt: string;
  lastLoginAt: string | null;
  bankAccountNumber: string | null;
};

type PlayerRow = {
  id: string;
  username: string;
  display_name: string;
  phone: string;
  status: "ACTIVE" | "SUSPENDED";
  must_change_password: number;
  locked_reason: string | null;
  created_at: string;
  last_login_at: string | null;
  password_changed_at: string;
  account_number: string | null;
};

const toSummary = (r: PlayerRow): PlayerSummary => ({
  id: r.id,
  username: r.username,
  displayName: r.display_name,
  phone: r.phone,
  status: r.status,
  mustChangePassword: r.must_change_password === 1,
  createdAt: r.created_at,
  lastLoginAt: r.last_login_at,
  bankAccountNumber: r.account_number,
});

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One box finds a player by username, display name, phone or bank account number (spaces
 * and dashes ignored for the numbers). Empty: the newest players.
 */
export async function searchPlayers(db: D1Database, agencyId: string, query: string, paging: { page: number; pageSize: number }): Promise<{ items: PlayerSummary[]; total: number }> {
  const q = query.trim().slice(0, 64);
  const params: unknown[] = [agencyId];
  let where = "p.agency_id = ?1";
  if (q) {
    const text = `%${likeEscape(q.toLowerCase())}%`;
    const digits = q.replace(/[\s-]/g, "");
    params.push(text, `%${likeEscape(digits)}%`);
    where += ` AND (lower(p.username) LIKE ?2 ESCAPE '\\' OR lower(p.display_name) LIKE ?2 ESCAPE '\\' OR p.phone LIKE ?3 ESCAPE '\\' OR b.account_number LIKE ?3 ESCAPE '\\')`;
  }
  const from = `FROM players p LEFT JOIN bank_accounts b ON b.player_id = p.id AND b.agency_id = p.agency_id WHERE ${where}`;
  const total = (await db.prepare(`SELECT COUNT(*) AS n ${from}`).bind(...params).first<{ n: number }>())?.n ?? 0;
  const { results } = await db
    .prepare(
      `SELECT p.id, p.username, p.display_name, p.phone, p.status, p.must_change_password, p.locked_reason, p.created_at, p.last_login_at, p.password_changed_at, b.account_number
       ${from} ORDER BY p.created_at DESC, p.id LIMIT ${Math.floor(paging.pageSize)} OFFSET ${Math.floor((paging.page - 1) * paging.pageSize)}`,
    )
    .bind(...params)
    .all<PlayerRow>();
  return { total, items: results.map(toSummary) };
}

export type PlayerDetail = {
  player: PlayerSummary & { lockedReason: string | null; passwordChangedAt: string };
  bankAccounts: BankAccount[];
  deposits: { code: string; provider: string; amount: string; credit: string; status: string; flag: string | null; createdAt: string }[];
  withdrawals: { code: string; provider: string; credit: string; received: string; status: string; review: string; reason: string | null; createdAt: string }[];
  promotions: { id: string; promotionId: string; provider: string; status: string; depositCode: string | null; bonus: string | null; reason: string | null; claimedAt: string }[];
  sessions: { idHash: string; createdAt: number; lastSeenAt: number; userAgent: string | null; ip: string | null }[];
  fingerprints: { fingerprint: string; firstSeenAt: string; lastSeenAt: string; seenCount: number; sharedWith: number }[];
};

async function findPlayer(db: D1Database, agencyId: string, playerId: string): Promise<PlayerRow | null> {
  return db
    .prepare(
      `SELECT p.id, p.username, p.display_name, p.phone, p.status, p.must_change_password, p.locked_reason, p.created_at, p.last_login_at, p.password_changed_at, b.account_number
         FROM players p LEFT JOIN bank_accounts b ON b.player_id = p.id AND b.agency_id = p.agency_id
        WHERE p.id = ?1 AND p.agency_id = ?2`,
    )
    .bind(playerId, agencyId)
    .first<PlayerRow>();
}

/** Orders, promotions, sessions and devices of one player (the newest 20 of each list). */
export async function getPlayerDetail(db: D1Database, agencyId: string, playerId: string, now = Date.now()): Promise<PlayerDetail | null> {
  const row = await findPlayer(db, agencyId, playerId);
  if (!row) return null;
  const [bankAccounts, deposits, withdrawals, promotions, sessions, fingerprints, shared] = await Promise.all([
    listBankAccounts(db, agencyId, playerId),
    db.prepare(`SELECT code, provider, amount, credit, status, flag, created_at FROM deposit_orders_view WHERE agency_id = ?1 AND player_id = ?2 ORDER BY created_at DESC LIMIT 20`)
      .bind(agencyId, playerId)
      .all<{ code: string; provider: string; amount: string; credit: string; status: string; flag: string | null; created_at: string }>(),
    db.prepare(`SELECT code, provider, credit, received, status, review, reason, created_at FROM withdraw_orders_view WHERE agency_id = ?1 AND player_id = ?2 ORDER BY created_at DESC LIMIT 20`)
      .bind(agencyId, playerId)
      .all<{ code: string; provider: string; credit: string; received: string; status: string; review: string; reason: string | null; created_at: string }>(),
    db.prepare(`SELECT id, promotion_id, provider, status, deposit_code, bonus, reason, claimed_at FROM promotion_usages_view WHERE agency_id = ?1 AND player_id = ?2 ORDER BY claimed_at DESC LIMIT 20`)
      .bind(agencyId, playerId)
      .all<{ id: string; promotion_id: string; provider: string; status: string; deposit_code: string | null; bonus: string | null; reason: string | null; claimed_at: string }>(),
    db.prepare(`SELECT id_hash, created_at, last_seen_at, expires_at, user_agent, ip FROM sessions WHERE agency_id = ?1 AND player_id = ?2 ORDER BY last_seen_at DESC`)
      .bind(agencyId, playerId)
      .all<{ id_hash: string; created_at: number; last_seen_at: number; expires_at: number; user_agent: string | null; ip: string | null }>(),
    listFingerprints(db, agencyId, playerId),
    db.prepare(
      `SELECT f.fingerprint, COUNT(DISTINCT o.player_id) AS n FROM fingerprints f
         JOIN fingerprints o ON o.agency_id = f.agency_id AND o.fingerprint = f.fingerprint AND o.player_id <> f.player_id
        WHERE f.agency_id = ?1 AND f.player_id = ?2 GROUP BY f.fingerprint`,
    )
      .bind(agencyId, playerId)
      .all<{ fingerprint: string; n: number }>(),
  ]);
  const sharedWith = new Map(shared.results.map((s) => [s.fingerprint, s.n]));
  return {
    player: { ...toSummary(row), lockedReason: row.locked_reason, passwordChangedAt: row.password_changed_at },
    bankAccounts,
    deposits: deposits.results.map((d) => ({ code: d.code, provider: d.provider, amount: d.amount, credit: d.credit, status: d.status, flag: d.flag, createdAt: d.created_at })),
    withdrawals: withdrawals.results.map((w) => ({ code: w.code, provider: w.provider, credit: w.credit, received: w.received, status: w.status, review: w.review, reason: w.reason, createdAt: w.created_at })),
    promotions: promotions.results.map((p) => ({ id: p.id, promotionId: p.promotion_id, provider: p.provider, status: p.status, depositCode: p.deposit_code, bonus: p.bonus, reason: p.reason, claimedAt: p.claimed_at })),
    sessions: sessions.results
      .filter((s) => sessionState({ createdAt: s.created_at, lastSeenAt: s.last_seen_at, expiresAt: s.expires_at }, now) === "valid")
      .map((s) => ({ idHash: s.id_hash.slice(0, 12), createdAt: s.created_at, lastSeenAt: s.last_seen_at, userAgent: s.user_agent, ip: s.ip })),
    fingerprints: fingerprints.map((f) => ({ fingerprint: f.fingerprint, firstSeenAt: f.first_seen_at, lastSeenAt: f.last_seen_at, seenCount: f.seen_count, sharedWith: sharedWith.get(f.fingerprint) ?? 0 })),
  };
}

export type PlayerActionResult = { ok: true; changed: boolean; player: PlayerSummary } | { ok: false; error: "NOT_FOUND" };

const countSessions = (db: D1Database, agencyId: string, playerId: string) =>
  db.prepare(`SELECT COUNT(*) AS n FROM sessions WHERE agency_id = ?1 AND player_id = ?2`).bind(agencyId, playerId).first<{ n: number }>();

/** Lock: SUSPENDED with a reason; every session ends; login says "locked, contact staff". */
export async function lockPlayer(db: D1Database, actor: AuditActor, playerId: string, reason: string): Promise<PlayerActionResult> {
  const before = await findPlayer(db, actor.agencyId, playerId);
  if (!before) return { ok: false, error: "NOT_FOUND" };
  const text = reason.trim().slice(0, 300);
  const sessions = (await countSessions(db, actor.agencyId, playerId))?.n ?? 0;
  const [update] = await db.batch([
    db.prepare(`UPDATE players SET status = 'SUSPENDED', locked_reason = ?1 WHERE id = ?2 AND agency_id = ?3 AND status = 'ACTIVE'`).bind(text, playerId, actor.agencyId),
    auditIfChanged(db, actor, {
      action: "player.lock",
      target: playerId,
      before: { username: before.username, status: "ACTIVE", lockedReason: before.locked_reason, sessions },
      after: { status: "SUSPENDED", lockedReason: text, sessions: 0 },
    }),
    db.prepare(`DELETE FROM sessions WHERE agency_id = ?1 AND player_id = ?2`).bind(actor.agencyId, playerId),
  ]);
  return { ok: true, changed: (update.meta.changes ?? 0) > 0, player: toSummary((await findPlayer(db, actor.agencyId, playerId))!) };
}

export async function unlockPlayer(db: D1Database, actor: AuditActor, playerId: string): Promise<PlayerActionResult> {
  const before = await findPlayer(db, actor.agencyId, playerId);
  if (!before) return { ok: false, error: "NOT_FOUND" };
  const [update] = await db.batch([
    db.prepare(`UPDATE players SET status = 'ACTIVE', locked_reason = NULL WHERE id = ?1 AND agency_id = ?2 AND status = 'SUSPENDED'`).bind(playerId, actor.agencyId),
    auditIfChanged(db, actor, {
      action: "player.unlock",
      target: playerId,
      before: { username: before.username, status: "SUSPENDED", lockedReason: before.locked_reason },
      after: { status: "ACTIVE", lockedReason: null },
    }),
  ]);
  // Failed logins made while locked should not keep the player out once unlocked.
  if ((update.meta.changes ?? 0) > 0) await clearThrottle(db, [{ kind: "acct", id: `${actor.agencyId}:${before.username}` }]);
  return { ok: true, changed: (update.meta.changes ?? 0) > 0, player: toSummary((await findPlayer(db, actor.agencyId, playerId))!) };
}

/** Ends every session of the player (they log in again). */
export async function endPlayerSessions(db: D1Database, actor: AuditActor, playerId: string): Promise<PlayerActionResult & { ended?: number }> {
  const before = await findPlayer(db, actor.agencyId, playerId);
  if (!before) return { ok: false, error: "NOT_FOUND" };
  const [, deleted] = await db.batch([
    auditStatement(db, actor, { action: "player.end-sessions", target: playerId, before: { username: before.username, sessions: (await countSessions(db, actor.agencyId, playerId))?.n ?? 0 }, after: { sessions: 0 } }),
    db.prepare(`DELETE FROM sessions WHERE agency_id = ?1 AND player_id = ?2`).bind(actor.agencyId, playerId),
  ]);
  const ended = deleted.meta.changes ?? 0;
  return { ok: true, changed: ended > 0, ended, player: toSummary(before) };
}

/** Letters and digits that cannot be mistaken for one another when read out on the phone. */
const TEMP_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

export function temporaryPassword(length = 10): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => TEMP_ALPHABET[b % TEMP_ALPHABET.length]).join("");
}

/**
 * Reset: a one-time temporary password (shown to the staff member once, never stored in
 * clear nor audited), must_change_password = 1, every session ends. At the next login the
 * player is sent to /player/password and must choose their own before anything else.
 */
export async function resetPlayerPassword(db: D1Database, actor: AuditActor, playerId: string): Promise<{ ok: true; temporaryPassword: string; player: PlayerSummary } | { ok: false; error: "NOT_FOUND" }> {
  const before = await findPlayer(db, actor.agencyId, playerId);
  if (!before) return { ok: false, error: "NOT_FOUND" };
  const password = temporaryPassword();
  const hash = await hashPassword(password);
  const sessions = (await countSessions(db, actor.agencyId, playerId))?.n ?? 0;
  await db.batch([
    db.prepare(`UPDATE players SET password_hash = ?1, must_change_password = 1, password_changed_at = ?2 WHERE id = ?3 AND agency_id = ?4`)
      .bind(hash, new Date().toISOString(), playerId, actor.agencyId),
    auditStatement(db, actor, {
      action: "player.reset-password",
      target: playerId,
      before: { username: before.username, mustChangePassword: before.must_change_password === 1, sessions },
      after: { mustChangePassword: true, sessions: 0 },
    }),
    db.prepare(`DELETE FROM sessions WHERE agency_id = ?1 AND player_id = ?2`).bind(actor.agencyId, playerId),
  ]);
  await clearThrottle(db, [{ kind: "acct", id: `${actor.agencyId}:${before.username}` }]);
  return { ok: true, temporaryPassword: password, player: toSummary((await findPlayer(db, actor.agencyId, playerId))!) };
}
