import type { SessionTimes } from "../core/session";
import { containsText } from "./text-search";
import { readOne, rowsOf, type Read } from "./reads";

/**
 * Statements over `players`, their server-side `sessions` and device `fingerprints`
 * (migrations 0002 and 0008). Every statement is scoped by agency_id where the caller
 * has one: a username, a session or a player id of agency A means nothing at agency B.
 */

type PlayerStatus = "ACTIVE" | "SUSPENDED";

/** One player, as stored. `bankAccountNumber` is set by the reads that join the player's one bank account. */
export type PlayerRecord = {
  id: string;
  agencyId: string;
  username: string;
  displayName: string;
  phone: string;
  passwordHash: string;
  status: PlayerStatus;
  mustChangePassword: boolean;
  lockedReason: string | null;
  createdAt: string;
  passwordChangedAt: string;
  lastLoginAt: string | null;
  bankAccountNumber: string | null;
};

type PlayerRow = {
  id: string;
  agency_id: string;
  username: string;
  display_name: string;
  phone: string;
  password_hash: string;
  status: PlayerStatus;
  must_change_password: number;
  locked_reason: string | null;
  created_at: string;
  password_changed_at: string;
  last_login_at: string | null;
  account_number?: string | null;
};

const toPlayer = (row: PlayerRow): PlayerRecord => ({
  id: row.id,
  agencyId: row.agency_id,
  username: row.username,
  displayName: row.display_name,
  phone: row.phone,
  passwordHash: row.password_hash,
  status: row.status,
  mustChangePassword: row.must_change_password === 1,
  lockedReason: row.locked_reason,
  createdAt: row.created_at,
  passwordChangedAt: row.password_changed_at,
  lastLoginAt: row.last_login_at,
  bankAccountNumber: row.account_number ?? null,
});

const NOW_ISO = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

// ---- players -----------------------------------------------------------------------------

export async function isUsernameTaken(db: D1Database, agencyId: string, username: string): Promise<boolean> {
  return (await db.prepare(`SELECT 1 FROM players WHERE agency_id = ?1 AND username = ?2`).bind(agencyId, username).first()) !== null;
}

/** Throws on the unique index (agency, username): two registrations racing for one name. */
export async function insertPlayer(
  db: D1Database,
  player: { id: string; agencyId: string; username: string; displayName: string; phone: string; passwordHash: string },
): Promise<void> {
  await db
    .prepare(`INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`)
    .bind(player.id, player.agencyId, player.username, player.displayName, player.phone, player.passwordHash)
    .run();
}

export function playerByUsernameRead(db: D1Database, agencyId: string, username: string): Read<PlayerRecord | null> {
  return {
    statement: db.prepare(`SELECT * FROM players WHERE agency_id = ?1 AND username = ?2`).bind(agencyId, username),
    read: (result) => {
      const row = rowsOf<PlayerRow>(result)[0];
      return row ? toPlayer(row) : null;
    },
  };
}

export function findPlayerByUsername(db: D1Database, agencyId: string, username: string): Promise<PlayerRecord | null> {
  return readOne(playerByUsernameRead(db, agencyId, username));
}

export async function findPlayer(db: D1Database, agencyId: string, playerId: string): Promise<PlayerRecord | null> {
  const row = await db.prepare(`SELECT * FROM players WHERE id = ?1 AND agency_id = ?2`).bind(playerId, agencyId).first<PlayerRow>();
  return row ? toPlayer(row) : null;
}

const WITH_ACCOUNT = `FROM players p LEFT JOIN bank_accounts b ON b.player_id = p.id AND b.agency_id = p.agency_id`;

/** The player with the number of their bank account (back office). */
export async function findPlayerWithAccount(db: D1Database, agencyId: string, playerId: string): Promise<PlayerRecord | null> {
  const row = await db.prepare(`SELECT p.*, b.account_number ${WITH_ACCOUNT} WHERE p.id = ?1 AND p.agency_id = ?2`).bind(playerId, agencyId).first<PlayerRow>();
  return row ? toPlayer(row) : null;
}

/**
 * One box finds a player by username, display name, phone or bank account number (spaces
 * and dashes ignored for the numbers). Empty: the newest players.
 */
export async function searchPlayersWithAccount(
  db: D1Database,
  agencyId: string,
  query: string,
  paging: { page: number; pageSize: number },
): Promise<{ items: PlayerRecord[]; total: number }> {
  const q = query.trim().slice(0, 64);
  const params: unknown[] = [agencyId];
  let where = "p.agency_id = ?1";
  if (q) {
    // a query of only spaces and dashes has no digits: it matches no number (not every one)
    const digits = q.replace(/[\s-]/g, "") || null;
    // toLowerCase folds more than SQLite's ASCII lower(): "NGUYỄN" still finds "Nguyễn" (as before)
    params.push(q.toLowerCase(), digits);
    where += ` AND (${containsText("p.username", "?2")} OR ${containsText("p.display_name", "?2")} OR ${containsText("p.phone", "?3")} OR ${containsText("b.account_number", "?3")})`;
  }
  const from = `${WITH_ACCOUNT} WHERE ${where}`;
  const total =
    (
      await db
        .prepare(`SELECT COUNT(*) AS n ${from}`)
        .bind(...params)
        .first<{ n: number }>()
    )?.n ?? 0;
  const { results } = await db
    .prepare(
      `SELECT p.*, b.account_number
       ${from} ORDER BY p.created_at DESC, p.id LIMIT ${Math.floor(paging.pageSize)} OFFSET ${Math.floor((paging.page - 1) * paging.pageSize)}`,
    )
    .bind(...params)
    .all<PlayerRow>();
  return { total, items: results.map(toPlayer) };
}

/** A stronger hash of the same password (login, when the stored parameters are outdated). */
export function updatePlayerPasswordHashStatement(db: D1Database, playerId: string, passwordHash: string): D1PreparedStatement {
  return db.prepare(`UPDATE players SET password_hash = ?1 WHERE id = ?2`).bind(passwordHash, playerId);
}

export function markPlayerLoggedInStatement(db: D1Database, playerId: string, at: string): D1PreparedStatement {
  return db.prepare(`UPDATE players SET last_login_at = ?1 WHERE id = ?2`).bind(at, playerId);
}

/** A password the player chose (knowing the current one): it also ends a staff-forced change. */
export function setPlayerPasswordStatement(db: D1Database, agencyId: string, playerId: string, passwordHash: string, changedAt: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE players SET password_hash = ?1, password_changed_at = ?2, must_change_password = 0 WHERE id = ?3 AND agency_id = ?4`)
    .bind(passwordHash, changedAt, playerId, agencyId);
}

/** The new password after a staff reset: changes a row only while a change is still required. */
export function setForcedPasswordStatement(db: D1Database, agencyId: string, playerId: string, passwordHash: string, changedAt: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE players SET password_hash = ?1, password_changed_at = ?2, must_change_password = 0 WHERE id = ?3 AND agency_id = ?4 AND must_change_password = 1`,
    )
    .bind(passwordHash, changedAt, playerId, agencyId);
}

/** A temporary password set by staff: the player must choose their own at the next login. */
export function resetPlayerPasswordStatement(db: D1Database, agencyId: string, playerId: string, passwordHash: string, changedAt: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE players SET password_hash = ?1, must_change_password = 1, password_changed_at = ?2 WHERE id = ?3 AND agency_id = ?4`)
    .bind(passwordHash, changedAt, playerId, agencyId);
}

/** Guarded: changes a row only if the player was ACTIVE. */
export function lockPlayerStatement(db: D1Database, agencyId: string, playerId: string, reason: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE players SET status = 'SUSPENDED', locked_reason = ?1 WHERE id = ?2 AND agency_id = ?3 AND status = 'ACTIVE'`)
    .bind(reason, playerId, agencyId);
}

/** Guarded: changes a row only if the player was SUSPENDED. */
export function unlockPlayerStatement(db: D1Database, agencyId: string, playerId: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE players SET status = 'ACTIVE', locked_reason = NULL WHERE id = ?1 AND agency_id = ?2 AND status = 'SUSPENDED'`)
    .bind(playerId, agencyId);
}

// ---- sessions ------------------------------------------------------------------------------

/** A player session as stored (times in epoch ms); the raw id is only in the cookie. */
export type PlayerSessionRecord = SessionTimes & { idHash: string; playerId: string; userAgent: string | null; ip: string | null };

type SessionRow = {
  id_hash: string;
  player_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_agent: string | null;
  ip: string | null;
};

const toSession = (row: SessionRow): PlayerSessionRecord => ({
  idHash: row.id_hash,
  playerId: row.player_id,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  userAgent: row.user_agent,
  ip: row.ip,
});

export function insertPlayerSessionStatement(
  db: D1Database,
  session: { idHash: string; agencyId: string; playerId: string; times: SessionTimes; userAgent: string | null; ip: string },
): D1PreparedStatement {
  const { times } = session;
  return db
    .prepare(
      `INSERT INTO sessions (id_hash, agency_id, player_id, created_at, last_seen_at, expires_at, user_agent, ip)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
    )
    .bind(session.idHash, session.agencyId, session.playerId, times.createdAt, times.lastSeenAt, times.expiresAt, session.userAgent, session.ip);
}

/** A session of an ACTIVE player of this agency, with the player it stands for. */
export async function findActivePlayerSession(
  db: D1Database,
  agencyId: string,
  idHash: string,
): Promise<{ session: PlayerSessionRecord; username: string; displayName: string; mustChangePassword: boolean } | null> {
  const row = await db
    .prepare(
      `SELECT s.*, p.username, p.display_name, p.must_change_password
         FROM sessions s JOIN players p ON p.id = s.player_id AND p.agency_id = s.agency_id
        WHERE s.id_hash = ?1 AND s.agency_id = ?2 AND p.status = 'ACTIVE'`,
    )
    .bind(idHash, agencyId)
    .first<SessionRow & { username: string; display_name: string; must_change_password: number }>();
  if (!row) return null;
  return { session: toSession(row), username: row.username, displayName: row.display_name, mustChangePassword: row.must_change_password === 1 };
}

/** An expired session, whichever agency. */
export async function deleteExpiredPlayerSession(db: D1Database, idHash: string): Promise<void> {
  await db.prepare(`DELETE FROM sessions WHERE id_hash = ?1`).bind(idHash).run();
}

/** The session was seen at `at`; never moved back (a late write after a newer one, or after the logout's). */
export async function touchPlayerSession(db: D1Database, idHash: string, at: number): Promise<void> {
  await db.prepare(`UPDATE sessions SET last_seen_at = ?1 WHERE id_hash = ?2 AND last_seen_at < ?1`).bind(at, idHash).run();
}

/** Every stored session of the player (expired ones included), most recently seen first. */
export async function listPlayerSessions(db: D1Database, agencyId: string, playerId: string): Promise<PlayerSessionRecord[]> {
  const { results } = await db
    .prepare(`SELECT * FROM sessions WHERE agency_id = ?1 AND player_id = ?2 ORDER BY last_seen_at DESC`)
    .bind(agencyId, playerId)
    .all<SessionRow>();
  return results.map(toSession);
}

export async function countPlayerSessions(db: D1Database, agencyId: string, playerId: string): Promise<number> {
  return (
    (await db.prepare(`SELECT COUNT(*) AS n FROM sessions WHERE agency_id = ?1 AND player_id = ?2`).bind(agencyId, playerId).first<{ n: number }>())?.n ?? 0
  );
}

export function deletePlayerSessionsStatement(db: D1Database, agencyId: string, playerId: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM sessions WHERE agency_id = ?1 AND player_id = ?2`).bind(agencyId, playerId);
}

/** Every session of the player but the one kept (the request's own). */
export function deleteOtherPlayerSessionsStatement(db: D1Database, agencyId: string, playerId: string, keptHash: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM sessions WHERE agency_id = ?1 AND player_id = ?2 AND id_hash <> ?3`).bind(agencyId, playerId, keptHash);
}

// ---- fingerprints --------------------------------------------------------------------------

export type FingerprintRecord = { fingerprint: string; firstSeenAt: string; lastSeenAt: string; seenCount: number };

type FingerprintRow = { fingerprint: string; first_seen_at: string; last_seen_at: string; seen_count: number };

const toFingerprint = (row: FingerprintRow): FingerprintRecord => ({
  fingerprint: row.fingerprint,
  firstSeenAt: row.first_seen_at,
  lastSeenAt: row.last_seen_at,
  seenCount: row.seen_count,
});

/** First seen once, then last seen and counted at every report. */
export async function upsertFingerprint(db: D1Database, agencyId: string, playerId: string, fingerprint: string, payloadJson: string): Promise<void> {
  await db
    .prepare(
      `INSERT INTO fingerprints (agency_id, player_id, fingerprint, payload) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT(agency_id, player_id, fingerprint) DO UPDATE SET
         payload = excluded.payload,
         last_seen_at = ${NOW_ISO},
         seen_count = fingerprints.seen_count + 1`,
    )
    .bind(agencyId, playerId, fingerprint, payloadJson)
    .run();
}

export async function listPlayerFingerprints(db: D1Database, agencyId: string, playerId: string): Promise<FingerprintRecord[]> {
  const { results } = await db
    .prepare(`SELECT fingerprint, first_seen_at, last_seen_at, seen_count FROM fingerprints WHERE agency_id = ?1 AND player_id = ?2 ORDER BY last_seen_at DESC`)
    .bind(agencyId, playerId)
    .all<FingerprintRow>();
  return results.map(toFingerprint);
}

/** For each fingerprint of the player, how many other players of the agency were seen on it. */
export async function fingerprintSharing(db: D1Database, agencyId: string, playerId: string): Promise<Map<string, number>> {
  const { results } = await db
    .prepare(
      `SELECT f.fingerprint, COUNT(DISTINCT o.player_id) AS n FROM fingerprints f
         JOIN fingerprints o ON o.agency_id = f.agency_id AND o.fingerprint = f.fingerprint AND o.player_id <> f.player_id
        WHERE f.agency_id = ?1 AND f.player_id = ?2 GROUP BY f.fingerprint`,
    )
    .bind(agencyId, playerId)
    .all<{ fingerprint: string; n: number }>();
  return new Map(results.map((s) => [s.fingerprint, s.n]));
}

/** A fingerprint seen on two or more players of one agency. */
export type SharedFingerprintGroup = { fingerprint: string; players: number; firstSeenAt: string; lastSeenAt: string };
/** One player seen on a shared fingerprint. */
export type FingerprintAccount = FingerprintRecord & { playerId: string; username: string; displayName: string; status: string };

const SHARED_GROUPS = `SELECT f.fingerprint, COUNT(DISTINCT f.player_id) AS players, MIN(f.first_seen_at) AS first_seen_at, MAX(f.last_seen_at) AS last_seen_at
      FROM fingerprints f JOIN players p ON p.id = f.player_id AND p.agency_id = f.agency_id
     WHERE f.agency_id = ?1 GROUP BY f.fingerprint HAVING COUNT(DISTINCT f.player_id) >= 2`;

/** Shared fingerprints, newest activity first, one page. */
export async function sharedFingerprintGroups(
  db: D1Database,
  agencyId: string,
  paging: { page: number; pageSize: number },
): Promise<{ items: SharedFingerprintGroup[]; total: number }> {
  const total = (await db.prepare(`SELECT COUNT(*) AS n FROM (${SHARED_GROUPS})`).bind(agencyId).first<{ n: number }>())?.n ?? 0;
  const { results } = await db
    .prepare(
      `${SHARED_GROUPS} ORDER BY last_seen_at DESC, f.fingerprint LIMIT ${Math.floor(paging.pageSize)} OFFSET ${Math.floor((paging.page - 1) * paging.pageSize)}`,
    )
    .bind(agencyId)
    .all<{ fingerprint: string; players: number; first_seen_at: string; last_seen_at: string }>();
  return { total, items: results.map((g) => ({ fingerprint: g.fingerprint, players: g.players, firstSeenAt: g.first_seen_at, lastSeenAt: g.last_seen_at })) };
}

/** The players seen on these fingerprints, first seen first. */
export async function fingerprintAccounts(db: D1Database, agencyId: string, fingerprints: string[]): Promise<FingerprintAccount[]> {
  if (fingerprints.length === 0) return [];
  const marks = fingerprints.map((_, i) => `?${i + 2}`).join(", ");
  const { results } = await db
    .prepare(
      `SELECT f.fingerprint, p.id, p.username, p.display_name, p.status, f.first_seen_at, f.last_seen_at, f.seen_count
         FROM fingerprints f JOIN players p ON p.id = f.player_id AND p.agency_id = f.agency_id
        WHERE f.agency_id = ?1 AND f.fingerprint IN (${marks}) ORDER BY f.first_seen_at`,
    )
    .bind(agencyId, ...fingerprints)
    .all<FingerprintRow & { id: string; username: string; display_name: string; status: string }>();
  return results.map((r) => ({ ...toFingerprint(r), playerId: r.id, username: r.username, displayName: r.display_name, status: r.status }));
}

// ---- a player as the back office's money screens show them (never the password hash)

export type PlayerCard = Pick<PlayerRecord, "id" | "username" | "displayName" | "phone" | "status" | "createdAt">;

const toPlayerCard = ({ id, username, displayName, phone, status, createdAt }: PlayerRecord): PlayerCard => ({
  id,
  username,
  displayName,
  phone,
  status,
  createdAt,
});

export async function findPlayerCard(db: D1Database, agencyId: string, playerId: string): Promise<PlayerCard | null> {
  const player = await findPlayer(db, agencyId, playerId);
  return player && toPlayerCard(player);
}

/** By username (lower case, as stored). */
export async function findPlayerCardByUsername(db: D1Database, agencyId: string, username: string): Promise<PlayerCard | null> {
  const player = await findPlayerByUsername(db, agencyId, username);
  return player && toPlayerCard(player);
}
