import type { SessionTimes } from "../core/session";
import { boundedCount, pageOfRows, prefixRange, type BoundedCount, type ListAsk, type ListPage } from "../core/keyset";
import { boundedCountSql, keysetSql, numberedParams } from "./keyset";
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
  /** Set by the back office's reads: an owner's "flag" blocklist entry matched the player (decision 090). */
  blocklistFlagged: boolean;
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
  blocklist_flagged?: number;
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
  blocklistFlagged: row.blocklist_flagged === 1,
});

const NOW_ISO = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

// ---- players -----------------------------------------------------------------------------

export async function isUsernameTaken(db: D1Database, agencyId: string, username: string): Promise<boolean> {
  return (await db.prepare(`SELECT 1 FROM players WHERE agency_id = ?1 AND username = ?2`).bind(agencyId, username).first()) !== null;
}

type NewPlayerRow = { id: string; agencyId: string; username: string; displayName: string; phone: string; passwordHash: string };

/**
 * The account as a statement, for the batch that writes a blocklist flag with it (decision 090).
 * Throws on the unique index (agency, username): two registrations racing for one name.
 */
export function insertPlayerStatement(db: D1Database, player: NewPlayerRow): D1PreparedStatement {
  return db
    .prepare(`INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`)
    .bind(player.id, player.agencyId, player.username, player.displayName, player.phone, player.passwordHash);
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
/** Whether an owner's "flag" entry matched the player (decision 090): one seek of blocklist_flags_player per row. */
const FLAGGED = `EXISTS (SELECT 1 FROM blocklist_flags f WHERE f.agency_id = p.agency_id AND f.player_id = p.id) AS blocklist_flagged`;

/** The player with the number of their bank account (back office). */
export async function findPlayerWithAccount(db: D1Database, agencyId: string, playerId: string): Promise<PlayerRecord | null> {
  const row = await db
    .prepare(`SELECT p.*, b.account_number, ${FLAGGED} ${WITH_ACCOUNT} WHERE p.id = ?1 AND p.agency_id = ?2`)
    .bind(playerId, agencyId)
    .first<PlayerRow>();
  return row ? toPlayer(row) : null;
}

/**
 * One box finds a player (decision 077, amending 050). What can be a username or a number is
 * looked up through an index: a username or its start, a phone or bank account number or its
 * start (spaces and dashes ignored). A part of a display name (a Lao name is typed in part) is
 * the one search that reads the agency's players table: asked when the box holds what no
 * username is (spaces, letters beyond a-z) or when the lookups found no one. Empty: the newest
 * players. A keyset page, newest first, and the count up to COUNT_BOUND.
 */
export async function searchPlayersWithAccount(
  db: D1Database,
  agencyId: string,
  query: string,
  ask: ListAsk,
): Promise<ListPage<PlayerRecord> & { total: BoundedCount }> {
  const q = query.trim().slice(0, 64);
  if (!q) return playersPage(db, agencyId, ask, null);
  // toLowerCase folds more than SQLite's ASCII lower(): "NGUYỄN" still finds "Nguyễn" (as before)
  const text = q.toLowerCase();
  const digits = q.replace(/[\s-]/g, "");
  const lookups: ((param: (value: unknown) => string) => string)[] = [];
  if (/^[a-z0-9_-]+$/.test(text)) {
    const name = prefixRange(text);
    lookups.push((param) => `SELECT id FROM players WHERE agency_id = ?1 AND username >= ${param(name.from)} AND username < ${param(name.until)}`);
  }
  if (/^\d+$/.test(digits)) {
    const number = prefixRange(digits);
    lookups.push((param) => `SELECT id FROM players WHERE agency_id = ?1 AND phone >= ${param(number.from)} AND phone < ${param(number.until)}`);
    lookups.push(
      (param) =>
        `SELECT player_id FROM bank_accounts WHERE agency_id = ?1 AND account_number >= ${param(number.from)} AND account_number < ${param(number.until)}`,
    );
  }
  if (lookups.length > 0) {
    const found = await playersPage(db, agencyId, ask, (param) => `p.id IN (${lookups.map((lookup) => lookup(param)).join(" UNION ")})`, true);
    if (found.items.length > 0 || ask.from || !/\p{L}/u.test(q)) return found;
  }
  return playersPage(db, agencyId, ask, (param) => containsText("p.display_name", param(text)));
}

/** A keyset page of the agency's players matching `condition` (null: all), newest first, with its bounded count, in one batch. */
async function playersPage(
  db: D1Database,
  agencyId: string,
  ask: ListAsk,
  condition: ((param: (value: unknown) => string) => string) | null,
  byLookup = false,
): Promise<ListPage<PlayerRecord> & { total: BoundedCount }> {
  const { params, param } = numberedParams(agencyId);
  // Found by lookups, the page is read from their few ids (the primary key) and sorted: left to
  // itself the planner walks the agency's newest players testing each against them (`+` keeps
  // the agency term out of index choice).
  const where = [byLookup ? "+p.agency_id = ?1" : "p.agency_id = ?1", ...(condition ? [condition(param)] : [])];
  const countParams = [...params];
  const page = keysetSql({ at: "p.created_at", id: "p.id" }, "DESC", ask, param);
  const [count, rows] = await db.batch<Record<string, unknown>>([
    db.prepare(boundedCountSql(`FROM players p WHERE ${where.join(" AND ")}`)).bind(...countParams),
    db
      .prepare(
        `SELECT p.*, b.account_number, ${FLAGGED} ${WITH_ACCOUNT} WHERE ${[...where, ...(page.where ? [page.where] : [])].join(" AND ")} ${page.orderBy} LIMIT ${page.limit}`,
      )
      .bind(...params),
  ]);
  const listed = pageOfRows((rows.results as PlayerRow[]).map(toPlayer), ask, (p) => ({ at: p.createdAt, id: p.id }));
  const seen = Number((count.results[0] as { n: number } | undefined)?.n ?? 0);
  return { ...listed, total: boundedCount(seen) };
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

/**
 * The cron's prune: up to `limit` sessions that expired at or before `before`, oldest expiry
 * first (an index on expires_at), deleted whatever the agency. The `sessions_keep_play_span`
 * trigger copies each one's span to play_spans as it goes, as for a logout. Answers how many
 * sessions went (counted by RETURNING: D1's `changes` counts the trigger's rows too).
 */
export async function deleteExpiredPlayerSessions(db: D1Database, before: number, limit: number): Promise<number> {
  const { results } = await db
    .prepare(`DELETE FROM sessions WHERE id_hash IN (SELECT id_hash FROM sessions WHERE expires_at <= ?1 ORDER BY expires_at LIMIT ?2) RETURNING 1 AS gone`)
    .bind(before, limit)
    .all();
  return results.length;
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

/**
 * First seen once, then last seen and counted at every report; and, in the same batch, the
 * device's group when two or more players of the agency were seen on it (the shared-devices
 * page reads the groups, decision 077), its count read through fingerprints_by_fingerprint.
 */
export async function upsertFingerprint(db: D1Database, agencyId: string, playerId: string, fingerprint: string, payloadJson: string): Promise<void> {
  await db.batch([
    db
      .prepare(
        `INSERT INTO fingerprints (agency_id, player_id, fingerprint, payload) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(agency_id, player_id, fingerprint) DO UPDATE SET
           payload = excluded.payload,
           last_seen_at = ${NOW_ISO},
           seen_count = fingerprints.seen_count + 1`,
      )
      .bind(agencyId, playerId, fingerprint, payloadJson),
    db
      .prepare(
        `INSERT INTO fingerprint_groups (agency_id, fingerprint, players, first_seen_at, last_seen_at)
         SELECT agency_id, fingerprint, COUNT(*), MIN(first_seen_at), MAX(last_seen_at) FROM fingerprints
          WHERE agency_id = ?1 AND fingerprint = ?2 GROUP BY agency_id, fingerprint HAVING COUNT(*) >= 2
         ON CONFLICT(agency_id, fingerprint) DO UPDATE SET
           players = excluded.players, first_seen_at = excluded.first_seen_at, last_seen_at = excluded.last_seen_at`,
      )
      .bind(agencyId, fingerprint),
  ]);
}

export async function listPlayerFingerprints(db: D1Database, agencyId: string, playerId: string): Promise<FingerprintRecord[]> {
  const { results } = await db
    .prepare(`SELECT fingerprint, first_seen_at, last_seen_at, seen_count FROM fingerprints WHERE agency_id = ?1 AND player_id = ?2 ORDER BY last_seen_at DESC`)
    .bind(agencyId, playerId)
    .all<FingerprintRow>();
  return results.map(toFingerprint);
}

/** For each fingerprint of the player, how many other players of the agency were seen on it (from the device's group). */
export async function fingerprintSharing(db: D1Database, agencyId: string, playerId: string): Promise<Map<string, number>> {
  const { results } = await db
    .prepare(
      `SELECT g.fingerprint, g.players - 1 AS n FROM fingerprints f
         JOIN fingerprint_groups g ON g.agency_id = f.agency_id AND g.fingerprint = f.fingerprint
        WHERE f.agency_id = ?1 AND f.player_id = ?2`,
    )
    .bind(agencyId, playerId)
    .all<{ fingerprint: string; n: number }>();
  return new Map(results.map((s) => [s.fingerprint, Number(s.n)]));
}

/** A fingerprint seen on two or more players of one agency. */
export type SharedFingerprintGroup = { fingerprint: string; players: number; firstSeenAt: string; lastSeenAt: string };
/** One player seen on a shared fingerprint. */
export type FingerprintAccount = FingerprintRecord & { playerId: string; username: string; displayName: string; status: string };

/**
 * A keyset page of the shared devices, newest activity first (decision 077), and their count up
 * to COUNT_BOUND, in one batch.
 */
export async function sharedFingerprintGroups(
  db: D1Database,
  agencyId: string,
  ask: ListAsk,
): Promise<ListPage<SharedFingerprintGroup> & { total: BoundedCount }> {
  const { params, param } = numberedParams(agencyId);
  const page = keysetSql({ at: "last_seen_at", id: "fingerprint" }, "DESC", ask, param);
  const [count, rows] = await db.batch<Record<string, unknown>>([
    db.prepare(boundedCountSql(`FROM fingerprint_groups WHERE agency_id = ?1`)).bind(agencyId),
    db
      .prepare(
        `SELECT fingerprint, players, first_seen_at, last_seen_at FROM fingerprint_groups
          WHERE agency_id = ?1${page.where ? ` AND ${page.where}` : ""} ${page.orderBy} LIMIT ${page.limit}`,
      )
      .bind(...params),
  ]);
  const groups = (rows.results as { fingerprint: string; players: number; first_seen_at: string; last_seen_at: string }[]).map((g) => ({
    fingerprint: g.fingerprint,
    players: Number(g.players),
    firstSeenAt: g.first_seen_at,
    lastSeenAt: g.last_seen_at,
  }));
  const listed = pageOfRows(groups, ask, (g) => ({ at: g.lastSeenAt, id: g.fingerprint }));
  return { ...listed, total: boundedCount(Number((count.results[0] as { n: number } | undefined)?.n ?? 0)) };
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
