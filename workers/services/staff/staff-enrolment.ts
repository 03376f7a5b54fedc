import { systemClock, type Client, type Clock } from "../../core/session";
import { randomToken, sha256Hex } from "../../core/tokens";
import { auditStatement } from "../../db/audit";
import {
  deleteRecoveryCodesStatement,
  deleteStaffSessionsStatement,
  findStaffByEnrolToken,
  finishEnrolment,
  insertRecoveryCodeStatement,
  setTotpSecret,
  type StaffRecord,
} from "../../db/staff";
import { checkThrottle, hashPassword, recordFailure } from "../login";
import { staffLoginKeys } from "./staff-login";
import { newStaffSession, staffMember, type StaffMember } from "./staff-sessions";
import { acceptTotpCode, newRecoveryCode, newTotpSecret, RECOVERY_CODE_COUNT, recoveryCodeHash, totpAuthUri } from "./staff-totp";

/**
 * Enrolment through the one-time link (/admin/enrol?token=...): its owner scans a TOTP
 * secret, proves it with a first code and chooses a password, all in one step. The link
 * is returned once when made, stored hashed, and works once, for 72 hours.
 */

const ENROL_TOKEN_MS = 72 * 60 * 60 * 1000;
const TOTP_ISSUER_PREFIX = "Back office";

/** A new enrolment link: the token (shown once) and what is stored of it. */
export async function newEnrolLink(now: number): Promise<{ token: string; tokenHash: string; expiresAt: number }> {
  const token = randomToken();
  return { token, tokenHash: await sha256Hex(token), expiresAt: now + ENROL_TOKEN_MS };
}

/** An enrolment link still waits to be used. */
export const isEnrolPending = (staff: StaffRecord, now: number) => staff.enrolTokenHash !== null && (staff.enrolExpiresAt ?? 0) > now;

export type EnrolmentView = { staff: StaffMember; secret: string; otpauthUri: string };

async function findByEnrolToken(db: D1Database, agencyId: string, token: string, now: number): Promise<StaffRecord | null> {
  if (!token || token.length > 100) return null;
  const staff = await findStaffByEnrolToken(db, agencyId, await sha256Hex(token));
  return staff && (staff.enrolExpiresAt ?? 0) > now ? staff : null;
}

/**
 * The enrolment page: the secret to scan. It is created on the first visit and kept until
 * the first code is accepted, so reloading the page shows the same QR code.
 */
export async function openEnrolment(
  db: D1Database,
  agencyId: string,
  agencyName: string,
  token: string,
  now: Clock = systemClock,
): Promise<EnrolmentView | null> {
  const staff = await findByEnrolToken(db, agencyId, token, now());
  if (!staff) return null;
  let secret = staff.totpSecret;
  if (!secret || staff.totpLastStep > 0) {
    secret = await newTotpSecret();
    await setTotpSecret(db, staff.id, secret);
  }
  return { staff: staffMember(staff), secret, otpauthUri: totpAuthUri(secret, staff.username, `${agencyName} ${TOTP_ISSUER_PREFIX}`) };
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
): Promise<
  | { ok: true; sessionId: string; staff: StaffMember; recoveryCodes: string[] }
  | { ok: false; code: "LINK_INVALID" | "INVALID_CODE" | "TOO_MANY_ATTEMPTS"; retryAfterSeconds?: number }
> {
  const record = await findByEnrolToken(db, agencyId, token, now());
  if (!record || !record.totpSecret) return { ok: false, code: "LINK_INVALID" };
  const keys = staffLoginKeys(agencyId, record.username, client.ip);
  const throttle = await checkThrottle(db, keys, now());
  if (throttle.locked) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: throttle.retryAfterSeconds };
  if (!(await acceptTotpCode(db, record.id, record.totpSecret, input.code))) {
    await recordFailure(db, keys, now());
    return { ok: false, code: "INVALID_CODE" };
  }
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = await Promise.all(recoveryCodes.map(recoveryCodeHash));
  const staff = staffMember(record);
  const full = await newStaffSession(db, staff, "FULL", client, now());
  // Two submissions of the same link: only one sets the password.
  if (!(await finishEnrolment(db, record.id, record.enrolTokenHash, await hashPassword(input.password), new Date(now()).toISOString()))) {
    return { ok: false, code: "LINK_INVALID" };
  }
  await db.batch([
    deleteRecoveryCodesStatement(db, record.id),
    ...hashes.map((hash) => insertRecoveryCodeStatement(db, record.id, hash)),
    deleteStaffSessionsStatement(db, agencyId, record.id),
    full.statement,
    auditStatement(
      db,
      { agencyId, staffId: record.id, staffUsername: record.username, ip: client.ip, userAgent: client.userAgent },
      {
        action: "auth.enrol",
        target: `staff:${record.id}`,
        after: { enrolled: true, recoveryCodes: RECOVERY_CODE_COUNT },
      },
    ),
  ]);
  return { ok: true, sessionId: full.sessionId, staff, recoveryCodes };
}
