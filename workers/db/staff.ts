import type { SessionTimes } from "../core/session";

/**
 * Statements over `staff`, `staff_sessions` and `staff_recovery_codes` (migration 0008):
 * back-office accounts of one agency, their sessions (own table and cookie: a player
 * session id can never be a staff session) and their one-time recovery codes.
 */

export type StaffRole = "owner" | "cashier";
export type StaffStatus = "ACTIVE" | "DISABLED";

/** One staff account, as stored. Secrets stay hashed (password, enrolment link). */
export type StaffRecord = {
  id: string;
  agencyId: string;
  username: string;
  passwordHash: string;
  role: StaffRole;
  status: StaffStatus;
  totpSecret: string | null;
  /** The last accepted TOTP time step (0: no code accepted yet). */
  totpLastStep: number;
  enrolTokenHash: string | null;
  enrolExpiresAt: number | null;
  createdAt: string;
  lastLoginAt: string | null;
};

type StaffRow = {
  id: string;
  agency_id: string;
  username: string;
  password_hash: string;
  role: StaffRole;
  status: StaffStatus;
  totp_secret: string | null;
  totp_last_step: number;
  enrol_token_hash: string | null;
  enrol_expires_at: number | null;
  created_at: string;
  last_login_at: string | null;
};

const toStaff = (row: StaffRow): StaffRecord => ({
  id: row.id,
  agencyId: row.agency_id,
  username: row.username,
  passwordHash: row.password_hash,
  role: row.role,
  status: row.status,
  totpSecret: row.totp_secret,
  totpLastStep: row.totp_last_step,
  enrolTokenHash: row.enrol_token_hash,
  enrolExpiresAt: row.enrol_expires_at,
  createdAt: row.created_at,
  lastLoginAt: row.last_login_at,
});

// ---- staff --------------------------------------------------------------------------------

export async function findStaffByUsername(db: D1Database, agencyId: string, username: string): Promise<StaffRecord | null> {
  const row = await db.prepare(`SELECT * FROM staff WHERE agency_id = ?1 AND username = ?2`).bind(agencyId, username).first<StaffRow>();
  return row ? toStaff(row) : null;
}

export async function findStaff(db: D1Database, agencyId: string, staffId: string): Promise<StaffRecord | null> {
  const row = await db.prepare(`SELECT * FROM staff WHERE id = ?1 AND agency_id = ?2`).bind(staffId, agencyId).first<StaffRow>();
  return row ? toStaff(row) : null;
}

/** The ACTIVE account whose enrolment link has this hash (expiry is the caller's to check). */
export async function findStaffByEnrolToken(db: D1Database, agencyId: string, enrolTokenHash: string): Promise<StaffRecord | null> {
  const row = await db
    .prepare(`SELECT * FROM staff WHERE agency_id = ?1 AND enrol_token_hash = ?2 AND status = 'ACTIVE'`)
    .bind(agencyId, enrolTokenHash)
    .first<StaffRow>();
  return row ? toStaff(row) : null;
}

export async function agencyStaff(db: D1Database, agencyId: string): Promise<StaffRecord[]> {
  const { results } = await db.prepare(`SELECT * FROM staff WHERE agency_id = ?1 ORDER BY username`).bind(agencyId).all<StaffRow>();
  return results.map(toStaff);
}

/** Throws on the unique index (agency, username). */
export function insertStaffStatement(
  db: D1Database,
  staff: { id: string; agencyId: string; username: string; passwordHash: string; role: StaffRole; enrolTokenHash: string; enrolExpiresAt: number },
): D1PreparedStatement {
  return db
    .prepare(`INSERT INTO staff (id, agency_id, username, password_hash, role, enrol_token_hash, enrol_expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`)
    .bind(staff.id, staff.agencyId, staff.username, staff.passwordHash, staff.role, staff.enrolTokenHash, staff.enrolExpiresAt);
}

/** A stronger hash of the same password (login, when the stored parameters are outdated). */
export async function updateStaffPasswordHash(db: D1Database, staffId: string, passwordHash: string): Promise<void> {
  await db.prepare(`UPDATE staff SET password_hash = ?1 WHERE id = ?2`).bind(passwordHash, staffId).run();
}

export function markStaffLoggedInStatement(db: D1Database, staffId: string, at: string): D1PreparedStatement {
  return db.prepare(`UPDATE staff SET last_login_at = ?1 WHERE id = ?2`).bind(at, staffId);
}

export function setStaffStatusStatement(db: D1Database, agencyId: string, staffId: string, status: StaffStatus): D1PreparedStatement {
  return db.prepare(`UPDATE staff SET status = ?1 WHERE id = ?2 AND agency_id = ?3`).bind(status, staffId, agencyId);
}

/**
 * Claims a TOTP time step: changes the row only if the step is newer than the last
 * accepted one, so two requests carrying the same code cannot both pass.
 */
export async function claimTotpStep(db: D1Database, staffId: string, step: number): Promise<boolean> {
  const claimed = await db.prepare(`UPDATE staff SET totp_last_step = ?1 WHERE id = ?2 AND totp_last_step < ?1`).bind(step, staffId).run();
  return (claimed.meta.changes ?? 0) === 1;
}

/** A new secret to scan; no code of it accepted yet. */
export async function setTotpSecret(db: D1Database, staffId: string, secret: string): Promise<void> {
  await db.prepare(`UPDATE staff SET totp_secret = ?1, totp_last_step = 0 WHERE id = ?2`).bind(secret, staffId).run();
}

/** Lost phone: no second factor, and a new enrolment link. */
export function resetSecondFactorStatement(
  db: D1Database,
  agencyId: string,
  staffId: string,
  enrolTokenHash: string,
  enrolExpiresAt: number,
): D1PreparedStatement {
  return db
    .prepare(`UPDATE staff SET totp_secret = NULL, totp_last_step = 0, enrol_token_hash = ?1, enrol_expires_at = ?2 WHERE id = ?3 AND agency_id = ?4`)
    .bind(enrolTokenHash, enrolExpiresAt, staffId, agencyId);
}

/**
 * Sets the chosen password and burns the enrolment link, guarded by the link's hash: of
 * two submissions of the same link, only one changes the row (true).
 */
export async function finishEnrolment(db: D1Database, staffId: string, enrolTokenHash: string | null, passwordHash: string, at: string): Promise<boolean> {
  const burned = await db
    .prepare(
      `UPDATE staff SET password_hash = ?1, enrol_token_hash = NULL, enrol_expires_at = NULL, last_login_at = ?2 WHERE id = ?3 AND enrol_token_hash = ?4`,
    )
    .bind(passwordHash, at, staffId, enrolTokenHash)
    .run();
  return (burned.meta.changes ?? 0) === 1;
}

// ---- recovery codes ---------------------------------------------------------------------

/** Marks an unused code used; false when there is no such unused code. */
export async function useRecoveryCode(db: D1Database, staffId: string, codeHash: string, now: number): Promise<boolean> {
  const used = await db
    .prepare(`UPDATE staff_recovery_codes SET used_at = ?1 WHERE staff_id = ?2 AND code_hash = ?3 AND used_at IS NULL`)
    .bind(now, staffId, codeHash)
    .run();
  return (used.meta.changes ?? 0) === 1;
}

export async function countUnusedRecoveryCodes(db: D1Database, staffId: string): Promise<number> {
  const row = await db.prepare(`SELECT COUNT(*) AS n FROM staff_recovery_codes WHERE staff_id = ?1 AND used_at IS NULL`).bind(staffId).first<{ n: number }>();
  return row?.n ?? 0;
}

export function deleteRecoveryCodesStatement(db: D1Database, staffId: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM staff_recovery_codes WHERE staff_id = ?1`).bind(staffId);
}

export function insertRecoveryCodeStatement(db: D1Database, staffId: string, codeHash: string): D1PreparedStatement {
  return db.prepare(`INSERT INTO staff_recovery_codes (staff_id, code_hash) VALUES (?1, ?2)`).bind(staffId, codeHash);
}

// ---- staff sessions -----------------------------------------------------------------------

export type StaffSessionStage = "PASSWORD" | "ENROL" | "FULL";

/** A staff session of an ACTIVE account, with who it stands for. */
export type StaffSessionRecord = SessionTimes & { idHash: string; stage: StaffSessionStage; staffId: string; username: string; role: StaffRole };

type StaffSessionRow = {
  id_hash: string;
  stage: StaffSessionStage;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  staff_id: string;
  username: string;
  role: StaffRole;
};

const toStaffSession = (row: StaffSessionRow): StaffSessionRecord => ({
  idHash: row.id_hash,
  stage: row.stage,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  staffId: row.staff_id,
  username: row.username,
  role: row.role,
});

export function insertStaffSessionStatement(
  db: D1Database,
  session: { idHash: string; agencyId: string; staffId: string; stage: StaffSessionStage; times: SessionTimes; userAgent: string | null; ip: string },
): D1PreparedStatement {
  const { times } = session;
  return db
    .prepare(
      `INSERT INTO staff_sessions (id_hash, agency_id, staff_id, stage, created_at, last_seen_at, expires_at, user_agent, ip)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
    )
    .bind(session.idHash, session.agencyId, session.staffId, session.stage, times.createdAt, times.lastSeenAt, times.expiresAt, session.userAgent, session.ip);
}

export async function findActiveStaffSession(db: D1Database, agencyId: string, idHash: string): Promise<StaffSessionRecord | null> {
  const row = await db
    .prepare(
      `SELECT s.id_hash, s.stage, s.created_at, s.last_seen_at, s.expires_at, s.staff_id, t.username, t.role
         FROM staff_sessions s JOIN staff t ON t.id = s.staff_id AND t.agency_id = s.agency_id
        WHERE s.id_hash = ?1 AND s.agency_id = ?2 AND t.status = 'ACTIVE'`,
    )
    .bind(idHash, agencyId)
    .first<StaffSessionRow>();
  return row ? toStaffSession(row) : null;
}

/** The session was seen at `at`; never moved back (a late write after a newer one). */
export async function touchStaffSession(db: D1Database, idHash: string, at: number): Promise<void> {
  await db.prepare(`UPDATE staff_sessions SET last_seen_at = ?1 WHERE id_hash = ?2 AND last_seen_at < ?1`).bind(at, idHash).run();
}

/** One session, whichever agency (an expired one, or the half-open one a login replaces). */
export function deleteStaffSessionStatement(db: D1Database, idHash: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM staff_sessions WHERE id_hash = ?1`).bind(idHash);
}

export async function deleteStaffSession(db: D1Database, agencyId: string, idHash: string): Promise<void> {
  await db.prepare(`DELETE FROM staff_sessions WHERE id_hash = ?1 AND agency_id = ?2`).bind(idHash, agencyId).run();
}

/** Every session of one staff member. */
export function deleteStaffSessionsStatement(db: D1Database, agencyId: string, staffId: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM staff_sessions WHERE staff_id = ?1 AND agency_id = ?2`).bind(staffId, agencyId);
}

/** The cron's prune: up to `limit` staff sessions that expired at or before `before`, oldest expiry first, whatever the agency. Answers how many. */
export async function deleteExpiredStaffSessions(db: D1Database, before: number, limit: number): Promise<number> {
  const result = await db
    .prepare(`DELETE FROM staff_sessions WHERE id_hash IN (SELECT id_hash FROM staff_sessions WHERE expires_at <= ?1 ORDER BY expires_at LIMIT ?2)`)
    .bind(before, limit)
    .run();
  return result.meta.changes ?? 0;
}
