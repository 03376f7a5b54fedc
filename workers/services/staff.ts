import { generateTOTP, getTOTPAuthUri, verifyTOTP } from "@epic-web/totp";
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from "./password";
import { checkThrottle, clearThrottle, recordFailure, type ThrottleKey } from "./throttle";
import { loginFailed, loginSucceeded, openLoginGate, type LoginDevice } from "./login-guard";
import { strangerKeys } from "../core/throttle";
import { auditStatement, recordAudit, type AuditActor } from "../db/audit";

/**
 * Back-office staff of one agency: accounts (never players), password + TOTP second
 * factor, recovery codes, server-side sessions with their own table and cookie, and the
 * one-time enrolment link. Every query is scoped by agency_id.
 *
 * Stages of a staff session:
 * - PASSWORD: the password was right; the second factor is still owed (5 minutes).
 * - FULL: password and TOTP (or one recovery code) both checked.
 * - ENROL is allowed by the schema but not used: enrolment goes through the one-time link
 *   (/admin/enrol?token=...), which sets the password and the TOTP secret in one step.
 * A new session id is issued at every stage change (no session fixation).
 */

export type StaffRole = "owner" | "cashier";
export const STAFF_ROLES: readonly StaffRole[] = ["owner", "cashier"];
export type StaffMember = { id: string; agencyId: string; username: string; role: StaffRole };
export type StaffStatus = "ACTIVE" | "DISABLED";
export type Client = { ip: string; userAgent: string | null; device?: LoginDevice };
export type Clock = () => number;
const systemClock: Clock = () => Date.now();

const MINUTE = 60_000;
/** Back office sessions are shorter than players': 15 min idle, 8 h after login (a shift). */
export const STAFF_IDLE_MS = 15 * MINUTE;
export const STAFF_ABSOLUTE_MS = 8 * 60 * MINUTE;
/** Time to type the TOTP code after the password. */
export const STAFF_HALF_OPEN_MS = 5 * MINUTE;
export const STAFF_TOUCH_INTERVAL_MS = MINUTE;
/** The enrolment link works once, for 72 hours. */
export const ENROL_TOKEN_MS = 72 * 60 * MINUTE;
export const TOTP_PERIOD = 30;
/** Codes of the previous, current and next 30 s step are accepted (clock drift). */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
export const TOTP_ISSUER_PREFIX = "Back office";

export type StaffAuthFailure =
  | { ok: false; code: "INVALID_CREDENTIALS" }
  | { ok: false; code: "ENROL_REQUIRED" }
  | { ok: false; code: "INVALID_CODE" }
  | { ok: false; code: "SESSION_EXPIRED" }
  | { ok: false; code: "TOO_MANY_ATTEMPTS"; retryAfterSeconds: number };

/**
 * Staff throttling reuses the player policy (workers/core/throttle.ts) on keys of their
 * own (`staff:` prefix), so a player's failures never lock a staff account and vice versa.
 * Wrong TOTP codes count on the same keys as wrong passwords.
 */
export function staffLoginKeys(agencyId: string, username: string, ip: string): ThrottleKey[] {
  return strangerKeys({ realm: "staff", agencyId, username, ip, deviceNonce: null }).filter((k) => k.kind !== "agency");
}

// ---- small crypto helpers --------------------------------------------------------------

function randomToken(bytes = 32): string {
  const raw = new Uint8Array(bytes);
  crypto.getRandomValues(raw);
  return btoa(String.fromCharCode(...raw)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** SHA-256 hex: session ids, enrolment tokens and recovery codes are stored only hashed. */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"; // no 0/o, 1/l/i

/** "xxxxx-xxxxx" (about 49 bits each): high entropy, so a plain SHA-256 is enough to store it. */
export function newRecoveryCode(): string {
  const raw = new Uint8Array(10);
  crypto.getRandomValues(raw);
  const chars = [...raw].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function currentStep(now: number): number {
  return Math.floor(now / 1000 / TOTP_PERIOD);
}

/** A fresh base32 TOTP secret (160 bits, as authenticator apps expect for SHA-1). */
export async function newTotpSecret(): Promise<string> {
  const raw = new Uint8Array(20);
  crypto.getRandomValues(raw);
  const { secret } = await generateTOTP({ secret: base32(raw), period: TOTP_PERIOD });
  return secret;
}

function base32(bytes: Uint8Array): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

export function totpAuthUri(secret: string, accountName: string, issuer: string): string {
  return getTOTPAuthUri({ secret, accountName, issuer, period: TOTP_PERIOD, digits: 6, algorithm: "SHA-1" });
}

/**
 * Checks a 6-digit code against the secret and refuses replays: the time step of the code
 * must be newer than the last accepted step of this staff member. The step is claimed
 * with a conditional UPDATE, so two requests carrying the same code cannot both pass.
 */
export async function acceptTotpCode(db: D1Database, staffId: string, secret: string, code: string): Promise<boolean> {
  const otp = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(otp)) return false;
  // verifyTOTP reads the clock synchronously when called: same step as here.
  const step = currentStep(Date.now());
  const match = await verifyTOTP({ otp, secret, period: TOTP_PERIOD, window: TOTP_WINDOW });
  if (!match) return false;
  const codeStep = step + match.delta;
  const claimed = await db
    .prepare(`UPDATE staff SET totp_last_step = ?1 WHERE id = ?2 AND totp_last_step < ?1`)
    .bind(codeStep, staffId)
    .run();
  return (claimed.meta.changes ?? 0) === 1;
}

/** A recovery code replaces one TOTP code, once. */
export async function acceptRecoveryCode(db: D1Database, staffId: string, code: string, now: number): Promise<boolean> {
  const normalized = normalizeRecoveryCode(code);
  if (normalized.length !== 10) return false;
  const used = await db
    .prepare(`UPDATE staff_recovery_codes SET used_at = ?1 WHERE staff_id = ?2 AND code_hash = ?3 AND used_at IS NULL`)
    .bind(now, staffId, await sha256Hex(normalized))
    .run();
  return (used.meta.changes ?? 0) === 1;
}

// ---- sessions --------------------------------------------------------------------------

type SessionStage = "PASSWORD" | "ENROL" | "FULL";

async function insertSession(db: D1Database, staff: StaffMember, stage: SessionStage, client: Client, now: number): Promise<{ sessionId: string; statement: D1PreparedStatement }> {
  const sessionId = randomToken();
  const expiresAt = now + (stage === "FULL" ? STAFF_ABSOLUTE_MS : STAFF_HALF_OPEN_MS);
  const statement = db
    .prepare(
      `INSERT INTO staff_sessions (id_hash, agency_id, staff_id, stage, created_at, last_seen_at, expires_at, user_agent, ip)
       VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?8)`,
    )
    .bind(await sha256Hex(sessionId), staff.agencyId, staff.id, stage, now, expiresAt, client.userAgent?.slice(0, 300) ?? null, client.ip);
  return { sessionId, statement };
}

type SessionJoinRow = {
  id_hash: string;
  stage: SessionStage;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  staff_id: string;
  username: string;
  role: StaffRole;
};

export type StaffSession = { staff: StaffMember; stage: SessionStage; idHash: string };

/**
 * The staff member behind a staff session cookie at this agency, or null (unknown,
 * expired, idle for 15 minutes, other agency, disabled account). Activity is written back
 * at most once a minute.
 */
export async function resolveStaffSession(db: D1Database, agencyId: string, sessionId: string, now: Clock = systemClock): Promise<StaffSession | null> {
  if (!sessionId || sessionId.length > 100) return null;
  const idHash = await sha256Hex(sessionId);
  const row = await db
    .prepare(
      `SELECT s.id_hash, s.stage, s.created_at, s.last_seen_at, s.expires_at, s.staff_id, t.username, t.role
         FROM staff_sessions s JOIN staff t ON t.id = s.staff_id AND t.agency_id = s.agency_id
        WHERE s.id_hash = ?1 AND s.agency_id = ?2 AND t.status = 'ACTIVE'`,
    )
    .bind(idHash, agencyId)
    .first<SessionJoinRow>();
  if (!row) return null;
  const t = now();
  const expired = t >= row.expires_at || t - row.created_at >= STAFF_ABSOLUTE_MS || t - row.last_seen_at >= STAFF_IDLE_MS;
  if (expired) {
    await db.prepare(`DELETE FROM staff_sessions WHERE id_hash = ?1`).bind(idHash).run();
    return null;
  }
  if (row.stage === "FULL" && t - row.last_seen_at >= STAFF_TOUCH_INTERVAL_MS) {
    await db.prepare(`UPDATE staff_sessions SET last_seen_at = ?1 WHERE id_hash = ?2`).bind(t, idHash).run();
  }
  return { staff: { id: row.staff_id, agencyId, username: row.username, role: row.role }, stage: row.stage, idHash };
}

export async function endStaffSession(db: D1Database, agencyId: string, sessionId: string): Promise<void> {
  await db.prepare(`DELETE FROM staff_sessions WHERE id_hash = ?1 AND agency_id = ?2`).bind(await sha256Hex(sessionId), agencyId).run();
}

// ---- login -----------------------------------------------------------------------------

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

const toMember = (row: StaffRow): StaffMember => ({ id: row.id, agencyId: row.agency_id, username: row.username, role: row.role });
/** Enrolled = a TOTP secret whose first code was accepted (step > 0). */
const isEnrolled = (row: StaffRow) => row.totp_secret !== null && row.totp_last_step > 0;

/**
 * Step 1: username + password. Success opens a PASSWORD-stage session (5 minutes to give
 * the second factor); the previous session of this browser, if any, is ended by the caller.
 */
export async function staffPasswordLogin(
  db: D1Database,
  agencyId: string,
  credentials: { username: string; password: string },
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true; sessionId: string; staff: StaffMember } | StaffAuthFailure> {
  const username = credentials.username.trim().toLowerCase();
  const opened = await openLoginGate(db, { realm: "staff", agencyId, username, ip: client.ip }, client.device, now());
  if (!opened.ok) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: opened.retryAfterSeconds };
  const row = await db.prepare(`SELECT * FROM staff WHERE agency_id = ?1 AND username = ?2`).bind(agencyId, username).first<StaffRow>();
  const valid = await verifyPassword(credentials.password, row?.password_hash ?? (await dummyPasswordHash()));
  if (!row || !valid || row.status !== "ACTIVE") {
    await loginFailed(db, opened.gate, now());
    return { ok: false, code: "INVALID_CREDENTIALS" };
  }
  if (!isEnrolled(row)) return { ok: false, code: "ENROL_REQUIRED" };
  if (needsRehash(row.password_hash)) {
    await db.prepare(`UPDATE staff SET password_hash = ?1 WHERE id = ?2`).bind(await hashPassword(credentials.password), row.id).run();
  }
  const staff = toMember(row);
  const session = await insertSession(db, staff, "PASSWORD", client, now());
  await session.statement.run();
  return { ok: true, sessionId: session.sessionId, staff };
}

/**
 * Step 2: a TOTP code (or one recovery code) for the PASSWORD-stage session. Success ends
 * that session and opens a FULL one with a new id; the login is audited.
 */
export async function staffSecondFactor(
  db: D1Database,
  agencyId: string,
  halfSessionId: string,
  input: { code?: string; recoveryCode?: string },
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true; sessionId: string; staff: StaffMember; usedRecoveryCode: boolean } | StaffAuthFailure> {
  const session = await resolveStaffSession(db, agencyId, halfSessionId, now);
  if (!session || session.stage !== "PASSWORD") return { ok: false, code: "SESSION_EXPIRED" };
  // wrong codes count on the same gate as wrong passwords (the device's own key when trusted)
  const opened = await openLoginGate(db, { realm: "staff", agencyId, username: session.staff.username, ip: client.ip }, client.device, now());
  if (!opened.ok) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: opened.retryAfterSeconds };
  const row = await db.prepare(`SELECT * FROM staff WHERE id = ?1 AND agency_id = ?2`).bind(session.staff.id, agencyId).first<StaffRow>();
  if (!row || row.status !== "ACTIVE" || !row.totp_secret) return { ok: false, code: "SESSION_EXPIRED" };
  const usedRecoveryCode = !input.code && !!input.recoveryCode;
  const accepted = input.code
    ? await acceptTotpCode(db, row.id, row.totp_secret, input.code)
    : input.recoveryCode
      ? await acceptRecoveryCode(db, row.id, input.recoveryCode, now())
      : false;
  if (!accepted) {
    await loginFailed(db, opened.gate, now());
    return { ok: false, code: "INVALID_CODE" };
  }
  await loginSucceeded(db, opened.gate);
  const staff = toMember(row);
  const full = await insertSession(db, staff, "FULL", client, now());
  await db.batch([
    db.prepare(`DELETE FROM staff_sessions WHERE id_hash = ?1`).bind(session.idHash),
    full.statement,
    db.prepare(`UPDATE staff SET last_login_at = ?1 WHERE id = ?2`).bind(new Date(now()).toISOString(), row.id),
    auditStatement(db, { agencyId, staffId: row.id, staffUsername: row.username, ip: client.ip, userAgent: client.userAgent }, {
      action: usedRecoveryCode ? "auth.login.recovery_code" : "auth.login",
      target: `staff:${row.id}`,
    }),
  ]);
  return { ok: true, sessionId: full.sessionId, staff, usedRecoveryCode };
}

// ---- accounts and enrolment --------------------------------------------------------------

export type StaffListItem = {
  id: string;
  username: string;
  role: StaffRole;
  status: StaffStatus;
  enrolled: boolean;
  enrolPending: boolean;
  createdAt: string;
  lastLoginAt: string | null;
};

export async function listStaff(db: D1Database, agencyId: string, now: Clock = systemClock): Promise<StaffListItem[]> {
  const { results } = await db.prepare(`SELECT * FROM staff WHERE agency_id = ?1 ORDER BY username`).bind(agencyId).all<StaffRow>();
  return results.map((r) => ({
    id: r.id,
    username: r.username,
    role: r.role,
    status: r.status,
    enrolled: isEnrolled(r),
    enrolPending: r.enrol_token_hash !== null && (r.enrol_expires_at ?? 0) > now(),
    createdAt: r.created_at,
    lastLoginAt: r.last_login_at,
  }));
}

export async function getStaffMember(db: D1Database, agencyId: string, staffId: string): Promise<StaffListItem | null> {
  const row = await db.prepare(`SELECT * FROM staff WHERE id = ?1 AND agency_id = ?2`).bind(staffId, agencyId).first<StaffRow>();
  if (!row) return null;
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    status: row.status,
    enrolled: isEnrolled(row),
    enrolPending: row.enrol_token_hash !== null && (row.enrol_expires_at ?? 0) > Date.now(),
    createdAt: row.created_at,
    lastLoginAt: row.last_login_at,
  };
}


/**
 * A new staff account with no usable password and no second factor: the one-time link
 * (returned once, stored hashed) lets its owner choose a password and enrol TOTP.
 */
export async function createStaffAccount(
  db: D1Database,
  input: { agencyId: string; username: string; role: StaffRole },
  who: AuditActor,
  now: Clock = systemClock,
): Promise<{ ok: true; staffId: string; enrolToken: string } | { ok: false; code: "USERNAME_EXISTS" }> {
  const username = input.username.trim().toLowerCase();
  const id = crypto.randomUUID();
  const enrolToken = randomToken();
  // Nobody knows this password: logging in is impossible until the link is used.
  const unusable = await hashPassword(randomToken());
  try {
    await db.batch([
      db
        .prepare(
          `INSERT INTO staff (id, agency_id, username, password_hash, role, enrol_token_hash, enrol_expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
        )
        .bind(id, input.agencyId, username, unusable, input.role, await sha256Hex(enrolToken), now() + ENROL_TOKEN_MS),
      auditStatement(db, who, { action: "staff.create", target: `staff:${id}`, before: null, after: { username, role: input.role, status: "ACTIVE" } }),
    ]);
  } catch (error) {
    if (String(error).includes("UNIQUE")) return { ok: false, code: "USERNAME_EXISTS" };
    throw error;
  }
  return { ok: true, staffId: id, enrolToken };
}

/**
 * Owner: a lost phone. The second factor and the recovery codes are cleared, every session
 * of that staff member ends, and a new one-time enrolment link is returned.
 */
export async function resetSecondFactor(db: D1Database, agencyId: string, staffId: string, who: AuditActor, now: Clock = systemClock): Promise<{ ok: true; enrolToken: string } | { ok: false }> {
  const row = await db.prepare(`SELECT * FROM staff WHERE id = ?1 AND agency_id = ?2`).bind(staffId, agencyId).first<StaffRow>();
  if (!row) return { ok: false };
  const enrolToken = randomToken();
  await db.batch([
    db
      .prepare(`UPDATE staff SET totp_secret = NULL, totp_last_step = 0, enrol_token_hash = ?1, enrol_expires_at = ?2 WHERE id = ?3 AND agency_id = ?4`)
      .bind(await sha256Hex(enrolToken), now() + ENROL_TOKEN_MS, staffId, agencyId),
    db.prepare(`DELETE FROM staff_recovery_codes WHERE staff_id = ?1`).bind(staffId),
    db.prepare(`DELETE FROM staff_sessions WHERE staff_id = ?1 AND agency_id = ?2`).bind(staffId, agencyId),
    auditStatement(db, who, {
      action: "staff.reset_second_factor",
      target: `staff:${staffId}`,
      before: { username: row.username, enrolled: isEnrolled(row) },
      after: { username: row.username, enrolled: false, enrolPending: true },
    }),
  ]);
  return { ok: true, enrolToken };
}

/** Owner: disable (every session ends at once) or enable again. An owner cannot disable themselves. */
export async function setStaffStatus(
  db: D1Database,
  agencyId: string,
  staffId: string,
  status: StaffStatus,
  who: AuditActor,
): Promise<{ ok: true } | { ok: false; code: "NOT_FOUND" | "SELF" | "UNCHANGED" }> {
  if (who.staffId === staffId && status === "DISABLED") return { ok: false, code: "SELF" };
  const row = await db.prepare(`SELECT * FROM staff WHERE id = ?1 AND agency_id = ?2`).bind(staffId, agencyId).first<StaffRow>();
  if (!row) return { ok: false, code: "NOT_FOUND" };
  if (row.status === status) return { ok: false, code: "UNCHANGED" };
  await db.batch([
    db.prepare(`UPDATE staff SET status = ?1 WHERE id = ?2 AND agency_id = ?3`).bind(status, staffId, agencyId),
    ...(status === "DISABLED" ? [db.prepare(`DELETE FROM staff_sessions WHERE staff_id = ?1 AND agency_id = ?2`).bind(staffId, agencyId)] : []),
    auditStatement(db, who, {
      action: status === "DISABLED" ? "staff.disable" : "staff.enable",
      target: `staff:${staffId}`,
      before: { username: row.username, status: row.status },
      after: { username: row.username, status },
    }),
  ]);
  return { ok: true };
}

export type EnrolmentView = { staff: StaffMember; secret: string; otpauthUri: string };

async function findByEnrolToken(db: D1Database, agencyId: string, token: string, now: number): Promise<StaffRow | null> {
  if (!token || token.length > 100) return null;
  const row = await db
    .prepare(`SELECT * FROM staff WHERE agency_id = ?1 AND enrol_token_hash = ?2 AND status = 'ACTIVE'`)
    .bind(agencyId, await sha256Hex(token))
    .first<StaffRow>();
  return row && (row.enrol_expires_at ?? 0) > now ? row : null;
}

/**
 * The enrolment page: the secret to scan. It is created on the first visit and kept until
 * the first code is accepted, so reloading the page shows the same QR code.
 */
export async function openEnrolment(db: D1Database, agencyId: string, agencyName: string, token: string, now: Clock = systemClock): Promise<EnrolmentView | null> {
  const row = await findByEnrolToken(db, agencyId, token, now());
  if (!row) return null;
  let secret = row.totp_secret;
  if (!secret || row.totp_last_step > 0) {
    secret = await newTotpSecret();
    await db.prepare(`UPDATE staff SET totp_secret = ?1, totp_last_step = 0 WHERE id = ?2`).bind(secret, row.id).run();
  }
  return { staff: toMember(row), secret, otpauthUri: totpAuthUri(secret, row.username, `${agencyName} ${TOTP_ISSUER_PREFIX}`) };
}

/**
 * Finishes enrolment: checks the first TOTP code, sets the chosen password, stores ten
 * recovery codes hashed (returned once, here), burns the link, ends any other session and
 * opens a FULL session.
 */
export async function completeEnrolment(
  db: D1Database,
  agencyId: string,
  token: string,
  input: { password: string; code: string },
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true; sessionId: string; staff: StaffMember; recoveryCodes: string[] } | { ok: false; code: "LINK_INVALID" | "INVALID_CODE" | "TOO_MANY_ATTEMPTS"; retryAfterSeconds?: number }> {
  const row = await findByEnrolToken(db, agencyId, token, now());
  if (!row || !row.totp_secret) return { ok: false, code: "LINK_INVALID" };
  const keys = staffLoginKeys(agencyId, row.username, client.ip);
  const throttle = await checkThrottle(db, keys, now());
  if (throttle.locked) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: throttle.retryAfterSeconds };
  if (!(await acceptTotpCode(db, row.id, row.totp_secret, input.code))) {
    await recordFailure(db, keys, now());
    return { ok: false, code: "INVALID_CODE" };
  }
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = await Promise.all(recoveryCodes.map((c) => sha256Hex(normalizeRecoveryCode(c))));
  const staff = toMember(row);
  const full = await insertSession(db, staff, "FULL", client, now());
  const burned = await db
    .prepare(`UPDATE staff SET password_hash = ?1, enrol_token_hash = NULL, enrol_expires_at = NULL, last_login_at = ?2 WHERE id = ?3 AND enrol_token_hash = ?4`)
    .bind(await hashPassword(input.password), new Date(now()).toISOString(), row.id, row.enrol_token_hash)
    .run();
  // Two submissions of the same link: only one sets the password.
  if ((burned.meta.changes ?? 0) !== 1) return { ok: false, code: "LINK_INVALID" };
  await db.batch([
    db.prepare(`DELETE FROM staff_recovery_codes WHERE staff_id = ?1`).bind(row.id),
    ...hashes.map((h) => db.prepare(`INSERT INTO staff_recovery_codes (staff_id, code_hash) VALUES (?1, ?2)`).bind(row.id, h)),
    db.prepare(`DELETE FROM staff_sessions WHERE staff_id = ?1 AND agency_id = ?2`).bind(row.id, agencyId),
    full.statement,
    auditStatement(db, { agencyId, staffId: row.id, staffUsername: row.username, ip: client.ip, userAgent: client.userAgent }, {
      action: "auth.enrol",
      target: `staff:${row.id}`,
      after: { enrolled: true, recoveryCodes: RECOVERY_CODE_COUNT },
    }),
  ]);
  return { ok: true, sessionId: full.sessionId, staff, recoveryCodes };
}

export async function recordLogout(db: D1Database, staff: StaffMember, client: Client): Promise<void> {
  await recordAudit(db, { agencyId: staff.agencyId, staffId: staff.id, staffUsername: staff.username, ip: client.ip, userAgent: client.userAgent }, { action: "auth.logout", target: `staff:${staff.id}` });
}

export async function unusedRecoveryCodeCount(db: D1Database, staffId: string): Promise<number> {
  const row = await db.prepare(`SELECT COUNT(*) AS n FROM staff_recovery_codes WHERE staff_id = ?1 AND used_at IS NULL`).bind(staffId).first<{ n: number }>();
  return row?.n ?? 0;
}
