import { newSessionTimes, sessionState, shouldTouch } from "../core/session";
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from "./password";
import { checkThrottle, clearThrottle, recordFailure, type ThrottleKey } from "./throttle";
import { loginFailed, loginSucceeded, openLoginGate, type LoginDevice } from "./login-guard";
import { addressKey, strangerKeys } from "../core/throttle";
import { listBankAccounts } from "./bank";
import { cleanName } from "../core/names";

/**
 * Player accounts of one agency: registration, login with throttling, server-side sessions
 * and password change. Every query is scoped by agency_id: a username, a session or a
 * player id of agency A means nothing at agency B.
 */

/** The browser: its address, and (for logins) the device cookie entries it showed, verified. */
export type Client = { ip: string; userAgent: string | null; device?: LoginDevice };
export type Clock = () => number;
const systemClock: Clock = () => Date.now();

/** mustChangePassword: staff reset the password; every /player page leads to /player/password until a new one is set. */
export type CurrentPlayer = { id: string; username: string; displayName: string; mustChangePassword?: boolean };
export type AuthFailure =
  | { ok: false; code: "INVALID_CREDENTIALS" }
  | { ok: false; code: "ACCOUNT_LOCKED" }
  | { ok: false; code: "USERNAME_EXISTS" }
  | { ok: false; code: "PASSWORD_INCORRECT" }
  | { ok: false; code: "TOO_MANY_ATTEMPTS"; retryAfterSeconds: number };

export type NewPlayer = { username: string; password: string; displayName?: string; phone: string };

const registrationKeys = (agencyId: string, client: Client): ThrottleKey[] => [{ kind: "reg", id: `${agencyId}:${client.ip}` }];

/** A signed-in player re-typing the password: the stranger keys without the agency budget. */
const loginKeys = (agencyId: string, username: string, client: Client): ThrottleKey[] =>
  strangerKeys({ realm: "player", agencyId, username, ip: client.ip, deviceNonce: null }).filter((k) => k.kind !== "agency");

/**
 * The live "is this name free?" check, throttled per address (IPv6 /64) like login: every
 * check counts, so it cannot be used to list which accounts exist and pick targets.
 */
export async function checkUsernameAvailability(
  db: D1Database,
  agencyId: string,
  username: string,
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true; available: boolean } | { ok: false; code: "TOO_MANY_ATTEMPTS"; retryAfterSeconds: number }> {
  const keys: ThrottleKey[] = [{ kind: "avail", id: `${agencyId}:${addressKey(client.ip)}` }];
  const throttle = await checkThrottle(db, keys, now());
  if (throttle.locked) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: throttle.retryAfterSeconds };
  await recordFailure(db, keys, now());
  return { ok: true, available: await isUsernameAvailable(db, agencyId, username) };
}

export async function isUsernameAvailable(db: D1Database, agencyId: string, username: string): Promise<boolean> {
  const row = await db.prepare(`SELECT 1 FROM players WHERE agency_id = ?1 AND username = ?2`).bind(agencyId, username).first();
  return row === null;
}

export async function registerPlayer(
  db: D1Database,
  agencyId: string,
  input: NewPlayer,
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true; playerId: string } | AuthFailure | { ok: false; code: "NAME_CHARACTERS" }> {
  // The name rule again here: the form, the JSON API and any other caller pass through.
  const displayName = cleanName(input.displayName ?? "");
  if (!displayName.ok) return { ok: false, code: "NAME_CHARACTERS" };
  const keys = registrationKeys(agencyId, client);
  const throttle = await checkThrottle(db, keys, now());
  if (throttle.locked) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: throttle.retryAfterSeconds };
  if (!(await isUsernameAvailable(db, agencyId, input.username))) return { ok: false, code: "USERNAME_EXISTS" };
  const id = crypto.randomUUID();
  const passwordHash = await hashPassword(input.password);
  try {
    await db
      .prepare(`INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`)
      .bind(id, agencyId, input.username, displayName.value || input.username, input.phone, passwordHash)
      .run();
  } catch (error) {
    // Two registrations racing for one name: the unique index decides.
    if (String(error).includes("UNIQUE")) return { ok: false, code: "USERNAME_EXISTS" };
    throw error;
  }
  // Every registration counts against the client's hourly allowance.
  await recordFailure(db, keys, now());
  return { ok: true, playerId: id };
}

type PlayerRow = { id: string; username: string; display_name: string; password_hash: string; status: string };

export async function login(
  db: D1Database,
  agencyId: string,
  credentials: { username: string; password: string },
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true; sessionId: string; player: CurrentPlayer } | AuthFailure> {
  const username = credentials.username.trim().toLowerCase();
  const opened = await openLoginGate(db, { realm: "player", agencyId, username, ip: client.ip }, client.device, now());
  if (!opened.ok) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: opened.retryAfterSeconds };

  const row = await db
    .prepare(`SELECT id, username, display_name, password_hash, status FROM players WHERE agency_id = ?1 AND username = ?2`)
    .bind(agencyId, username)
    .first<PlayerRow>();
  const valid = await verifyPassword(credentials.password, row?.password_hash ?? (await dummyPasswordHash()));
  if (!row || !valid || row.status !== "ACTIVE") {
    await loginFailed(db, opened.gate, now());
    // Locked by staff: said so only to someone who knows the password (no account probing).
    return { ok: false, code: row && valid ? "ACCOUNT_LOCKED" : "INVALID_CREDENTIALS" };
  }
  // The owner got in: forget this device's / address's failures on this account (not the others).
  await loginSucceeded(db, opened.gate);
  if (needsRehash(row.password_hash)) {
    await db.prepare(`UPDATE players SET password_hash = ?1 WHERE id = ?2`).bind(await hashPassword(credentials.password), row.id).run();
  }
  await db.prepare(`UPDATE players SET last_login_at = ?1 WHERE id = ?2`).bind(new Date(now()).toISOString(), row.id).run();
  const sessionId = await createSession(db, agencyId, row.id, client, now());
  return { ok: true, sessionId, player: { id: row.id, username: row.username, displayName: row.display_name } };
}

/** 256 random bits, base64url: the only copy of the raw id is the player's cookie. */
function newSessionId(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export async function hashSessionId(sessionId: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(sessionId));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function createSession(db: D1Database, agencyId: string, playerId: string, client: Client, now: number): Promise<string> {
  const sessionId = newSessionId();
  const times = newSessionTimes(now);
  await db
    .prepare(
      `INSERT INTO sessions (id_hash, agency_id, player_id, created_at, last_seen_at, expires_at, user_agent, ip)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
    )
    .bind(await hashSessionId(sessionId), agencyId, playerId, times.createdAt, times.lastSeenAt, times.expiresAt, client.userAgent?.slice(0, 300) ?? null, client.ip)
    .run();
  return sessionId;
}

type SessionRow = {
  must_change_password: number;
  id_hash: string;
  player_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  username: string;
  display_name: string;
};

/** The player behind a session cookie at this agency, or null (unknown, expired, other agency). */
export async function resolveSession(
  db: D1Database,
  agencyId: string,
  sessionId: string,
  now: Clock = systemClock,
): Promise<(CurrentPlayer & { sessionHash: string }) | null> {
  if (!sessionId || sessionId.length > 100) return null;
  const idHash = await hashSessionId(sessionId);
  const row = await db
    .prepare(
      `SELECT s.id_hash, s.player_id, s.created_at, s.last_seen_at, s.expires_at, p.username, p.display_name, p.must_change_password
         FROM sessions s JOIN players p ON p.id = s.player_id AND p.agency_id = s.agency_id
        WHERE s.id_hash = ?1 AND s.agency_id = ?2 AND p.status = 'ACTIVE'`,
    )
    .bind(idHash, agencyId)
    .first<SessionRow>();
  if (!row) return null;
  const times = { createdAt: row.created_at, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at };
  const t = now();
  if (sessionState(times, t) !== "valid") {
    await db.prepare(`DELETE FROM sessions WHERE id_hash = ?1`).bind(idHash).run();
    return null;
  }
  if (shouldTouch(times, t)) {
    await db.prepare(`UPDATE sessions SET last_seen_at = ?1 WHERE id_hash = ?2`).bind(t, idHash).run();
  }
  return { id: row.player_id, username: row.username, displayName: row.display_name, mustChangePassword: row.must_change_password === 1, sessionHash: idHash };
}

export async function logout(db: D1Database, agencyId: string, sessionId: string): Promise<void> {
  await db.prepare(`DELETE FROM sessions WHERE id_hash = ?1 AND agency_id = ?2`).bind(await hashSessionId(sessionId), agencyId).run();
}

export type SessionSummary = { idHash: string; createdAt: number; lastSeenAt: number; userAgent: string | null; ip: string | null; current: boolean };

export async function listSessions(db: D1Database, agencyId: string, playerId: string, currentHash: string, now: Clock = systemClock): Promise<SessionSummary[]> {
  const { results } = await db
    .prepare(
      `SELECT id_hash, created_at, last_seen_at, expires_at, user_agent, ip FROM sessions
        WHERE agency_id = ?1 AND player_id = ?2 ORDER BY last_seen_at DESC`,
    )
    .bind(agencyId, playerId)
    .all<{ id_hash: string; created_at: number; last_seen_at: number; expires_at: number; user_agent: string | null; ip: string | null }>();
  const t = now();
  return results
    .filter((r) => sessionState({ createdAt: r.created_at, lastSeenAt: r.last_seen_at, expiresAt: r.expires_at }, t) === "valid")
    .map((r) => ({ idHash: r.id_hash, createdAt: r.created_at, lastSeenAt: r.last_seen_at, userAgent: r.user_agent, ip: r.ip, current: r.id_hash === currentHash }));
}

/** End every session of this player except the one making the request. */
export async function endOtherSessions(db: D1Database, agencyId: string, playerId: string, currentHash: string): Promise<number> {
  const result = await db
    .prepare(`DELETE FROM sessions WHERE agency_id = ?1 AND player_id = ?2 AND id_hash <> ?3`)
    .bind(agencyId, playerId, currentHash)
    .run();
  return result.meta.changes ?? 0;
}

/**
 * Change the password after checking the current one. On success every session of the
 * player ends (this one too): they log in again with the new password (SPEC §4).
 * Wrong current passwords count against the same throttle as logins.
 */
export async function changePassword(
  db: D1Database,
  agencyId: string,
  player: CurrentPlayer,
  input: { currentPassword: string; newPassword: string },
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true } | AuthFailure> {
  const keys = loginKeys(agencyId, player.username, client);
  const throttle = await checkThrottle(db, keys, now());
  if (throttle.locked) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: throttle.retryAfterSeconds };
  const row = await db
    .prepare(`SELECT password_hash FROM players WHERE id = ?1 AND agency_id = ?2`)
    .bind(player.id, agencyId)
    .first<{ password_hash: string }>();
  if (!row || !(await verifyPassword(input.currentPassword, row.password_hash))) {
    await recordFailure(db, keys, now());
    return { ok: false, code: "PASSWORD_INCORRECT" };
  }
  const hash = await hashPassword(input.newPassword);
  await db.batch([
    db
      // a password the player chose (knowing the current one) also ends a staff-forced change
      .prepare(`UPDATE players SET password_hash = ?1, password_changed_at = ?2, must_change_password = 0 WHERE id = ?3 AND agency_id = ?4`)
      .bind(hash, new Date(now()).toISOString(), player.id, agencyId),
    db.prepare(`DELETE FROM sessions WHERE agency_id = ?1 AND player_id = ?2`).bind(agencyId, player.id),
  ]);
  return { ok: true };
}

/**
 * The new password after a staff reset (must_change_password = 1): no current password is
 * asked (the player just logged in with the temporary one), it must differ from it, and the
 * flag is cleared in the same guarded UPDATE. This session stays; every other one ends.
 */
export async function setForcedPassword(
  db: D1Database,
  agencyId: string,
  player: CurrentPlayer,
  sessionHash: string,
  newPassword: string,
  now: Clock = systemClock,
): Promise<{ ok: true } | { ok: false; code: "NOT_REQUIRED" | "SAME_PASSWORD" }> {
  const row = await db
    .prepare(`SELECT password_hash FROM players WHERE id = ?1 AND agency_id = ?2 AND must_change_password = 1`)
    .bind(player.id, agencyId)
    .first<{ password_hash: string }>();
  if (!row) return { ok: false, code: "NOT_REQUIRED" };
  if (await verifyPassword(newPassword, row.password_hash)) return { ok: false, code: "SAME_PASSWORD" };
  const [update] = await db.batch([
    db
      .prepare(`UPDATE players SET password_hash = ?1, password_changed_at = ?2, must_change_password = 0 WHERE id = ?3 AND agency_id = ?4 AND must_change_password = 1`)
      .bind(await hashPassword(newPassword), new Date(now()).toISOString(), player.id, agencyId),
    db.prepare(`DELETE FROM sessions WHERE agency_id = ?1 AND player_id = ?2 AND id_hash <> ?3`).bind(agencyId, player.id, sessionHash),
  ]);
  return (update.meta.changes ?? 0) > 0 ? { ok: true } : { ok: false, code: "NOT_REQUIRED" };
}

/** SPEC §7 `GET /v2/players/info`: player, credential, bankAccounts. */
export async function getPlayerInfo(db: D1Database, agencyId: string, playerId: string) {
  const row = await db
    .prepare(
      `SELECT id, username, display_name, phone, created_at, last_login_at, password_changed_at
         FROM players WHERE id = ?1 AND agency_id = ?2`,
    )
    .bind(playerId, agencyId)
    .first<{ id: string; username: string; display_name: string; phone: string; created_at: string; last_login_at: string | null; password_changed_at: string }>();
  if (!row) return null;
  return {
    player: { id: row.id, displayName: row.display_name, username: row.username, phone: row.phone, createdAt: row.created_at, lastLoginAt: row.last_login_at },
    credential: { username: row.username, passwordChangedAt: row.password_changed_at },
    bankAccounts: (await listBankAccounts(db, agencyId, playerId)).map((a) => ({
      id: a.id,
      bankCode: a.bankCode,
      accountNumber: a.maskedNumber,
      accountName: a.accountName,
      currency: a.currency,
      owner: a.owner,
    })),
  };
}

/**
 * The current password asked again before a sensitive change (replacing the bank account).
 * Wrong guesses count like wrong logins, as for a password change.
 */
export async function checkCurrentPassword(
  db: D1Database,
  agencyId: string,
  player: CurrentPlayer,
  password: string,
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true } | AuthFailure> {
  const keys = loginKeys(agencyId, player.username, client);
  const throttle = await checkThrottle(db, keys, now());
  if (throttle.locked) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: throttle.retryAfterSeconds };
  const row = await db.prepare(`SELECT password_hash FROM players WHERE id = ?1 AND agency_id = ?2`).bind(player.id, agencyId).first<{ password_hash: string }>();
  if (!row || !(await verifyPassword(password, row.password_hash))) {
    await recordFailure(db, keys, now());
    return { ok: false, code: "PASSWORD_INCORRECT" };
  }
  return { ok: true };
}
