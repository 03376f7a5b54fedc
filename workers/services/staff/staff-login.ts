import { strangerKeys } from "../../core/throttle";
import { systemClock, type Client, type Clock } from "../../core/session";
import { auditStatement } from "../../db/audit";
import { deleteStaffSessionStatement, findStaff, findStaffByUsername, markStaffLoggedInStatement, updateStaffPasswordHash } from "../../db/staff";
import { dummyPasswordHash, hashPassword, loginFailed, loginSucceeded, needsRehash, openLoginGate, verifyPassword, type ThrottleKey } from "../login";
import { endStaffSession, newStaffSession, resolveStaffSession, staffMember, type StaffMember } from "./staff-sessions";
import { acceptRecoveryCode, acceptTotpCode, isEnrolled, unusedRecoveryCodeCount } from "./staff-totp";

/**
 * Staff login in two steps: username + password opens a PASSWORD-stage session, then a
 * TOTP code (or one recovery code) turns it into a FULL session with a new id. Both steps
 * pass the same login gate (workers/services/login/login-guard.ts) on staff keys.
 */

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
/** `replacesSessionId`: the staff cookie the browser brought; a successful password step ends it (no session fixation). */
export type StaffLoginInput = { username: string; password: string; replacesSessionId?: string | null };

export function staffLoginKeys(agencyId: string, username: string, ip: string): ThrottleKey[] {
  return strangerKeys({ realm: "staff", agencyId, username, ip, deviceNonce: null }).filter((k) => k.kind !== "agency");
}

/**
 * Step 1: username + password. Success opens a PASSWORD-stage session (5 minutes to give
 * the second factor); the previous session of this browser, if any, ends.
 */
export async function staffPasswordLogin(
  db: D1Database,
  agencyId: string,
  credentials: StaffLoginInput,
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true; sessionId: string; staff: StaffMember } | StaffAuthFailure> {
  const username = credentials.username.trim().toLowerCase();
  const opened = await openLoginGate(db, { realm: "staff", agencyId, username, ip: client.ip }, client.device, now());
  if (!opened.ok) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: opened.retryAfterSeconds };
  const record = await findStaffByUsername(db, agencyId, username);
  const valid = await verifyPassword(credentials.password, record?.passwordHash ?? (await dummyPasswordHash()));
  if (!record || !valid || record.status !== "ACTIVE") {
    await loginFailed(db, opened.gate, now());
    return { ok: false, code: "INVALID_CREDENTIALS" };
  }
  if (!isEnrolled(record)) return { ok: false, code: "ENROL_REQUIRED" };
  if (needsRehash(record.passwordHash)) await updateStaffPasswordHash(db, record.id, await hashPassword(credentials.password));
  const staff = staffMember(record);
  const session = await newStaffSession(db, staff, "PASSWORD", client, now());
  await session.statement.run();
  if (credentials.replacesSessionId) await endStaffSession(db, agencyId, credentials.replacesSessionId);
  return { ok: true, sessionId: session.sessionId, staff };
}

/**
 * Step 2: a TOTP code (or one recovery code) for the PASSWORD-stage session. Success ends
 * that session and opens a FULL one with a new id; the login is audited. After a recovery
 * code, `recoveryCodesLeft` says how many unused ones remain.
 */
export async function staffSecondFactor(
  db: D1Database,
  agencyId: string,
  halfSessionId: string,
  input: { code?: string; recoveryCode?: string },
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true; sessionId: string; staff: StaffMember; usedRecoveryCode: boolean; recoveryCodesLeft: number | null } | StaffAuthFailure> {
  const session = await resolveStaffSession(db, agencyId, halfSessionId, {}, now);
  if (!session || session.stage !== "PASSWORD") return { ok: false, code: "SESSION_EXPIRED" };
  // wrong codes count on the same gate as wrong passwords (the device's own key when trusted)
  const opened = await openLoginGate(db, { realm: "staff", agencyId, username: session.staff.username, ip: client.ip }, client.device, now());
  if (!opened.ok) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: opened.retryAfterSeconds };
  const record = await findStaff(db, agencyId, session.staff.id);
  if (!record || record.status !== "ACTIVE" || !record.totpSecret) return { ok: false, code: "SESSION_EXPIRED" };
  const usedRecoveryCode = !input.code && !!input.recoveryCode;
  const accepted = input.code
    ? await acceptTotpCode(db, record.id, record.totpSecret, input.code)
    : input.recoveryCode
      ? await acceptRecoveryCode(db, record.id, input.recoveryCode, now())
      : false;
  if (!accepted) {
    await loginFailed(db, opened.gate, now());
    return { ok: false, code: "INVALID_CODE" };
  }
  await loginSucceeded(db, opened.gate);
  const staff = staffMember(record);
  const full = await newStaffSession(db, staff, "FULL", client, now());
  await db.batch([
    deleteStaffSessionStatement(db, session.idHash),
    full.statement,
    markStaffLoggedInStatement(db, record.id, new Date(now()).toISOString()),
    auditStatement(
      db,
      { agencyId, staffId: record.id, staffUsername: record.username, ip: client.ip, userAgent: client.userAgent },
      {
        action: usedRecoveryCode ? "auth.login.recovery_code" : "auth.login",
        target: `staff:${record.id}`,
        // a browser without this account's device cookie: the owner's alerts say so (decision 057)
        after: { newDevice: !client.device?.entries.some((e) => e.realm === "staff" && e.agencyId === agencyId && e.username === record.username) },
      },
    ),
  ]);
  const recoveryCodesLeft = usedRecoveryCode ? await unusedRecoveryCodeCount(db, record.id) : null;
  return { ok: true, sessionId: full.sessionId, staff, usedRecoveryCode, recoveryCodesLeft };
}
