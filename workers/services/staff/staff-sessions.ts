import {
  newSessionTimes,
  sessionState,
  shouldTouch,
  STAFF_HALF_OPEN_MS,
  STAFF_SESSION,
  storedUserAgent,
  systemClock,
  type Client,
  type Clock,
} from "../../core/session";
import { randomToken, sha256Hex } from "../../core/tokens";
import { recordAudit } from "../../db/audit";
import { writeAfterAnswer } from "../../db/metered";
import {
  deleteStaffSession,
  deleteStaffSessionStatement,
  findActiveStaffSession,
  insertStaffSessionStatement,
  touchStaffSession,
  type StaffRecord,
  type StaffRole,
  type StaffSessionStage,
} from "../../db/staff";

/**
 * Server-side sessions of back-office staff, on the shared session core
 * (workers/core/session.ts) with their own table, cookie and policy. Stages:
 * - PASSWORD: the password was right; the second factor is still owed (5 minutes).
 * - FULL: password and TOTP (or one recovery code) both checked.
 * - ENROL is allowed by the schema but not used: enrolment goes through the one-time link
 *   (/admin/enrol?token=...), which sets the password and the TOTP secret in one step.
 * A new session id is issued at every stage change (no session fixation).
 */

export type StaffMember = { id: string; agencyId: string; username: string; role: StaffRole };
export type StaffSession = { staff: StaffMember; stage: StaffSessionStage; idHash: string };

export const staffMember = (record: StaffRecord): StaffMember => ({ id: record.id, agencyId: record.agencyId, username: record.username, role: record.role });

/**
 * A new session for this staff member: the raw id (for the cookie) and the INSERT, to run
 * alone or in the batch that changes the stage.
 */
export async function newStaffSession(
  db: D1Database,
  staff: StaffMember,
  stage: StaffSessionStage,
  client: Client,
  now: number,
): Promise<{ sessionId: string; statement: D1PreparedStatement }> {
  const sessionId = randomToken();
  const times = newSessionTimes(now, stage === "FULL" ? STAFF_SESSION.absoluteMs : STAFF_HALF_OPEN_MS);
  const statement = insertStaffSessionStatement(db, {
    idHash: await sha256Hex(sessionId),
    agencyId: staff.agencyId,
    staffId: staff.id,
    stage,
    times,
    userAgent: storedUserAgent(client),
    ip: client.ip,
  });
  return { sessionId, statement };
}

/**
 * The staff member behind a staff session cookie at this agency, or null (unknown,
 * expired, idle for 15 minutes, other agency, disabled account). Activity is written back
 * at most once a minute, and only for FULL sessions.
 */
export async function resolveStaffSession(
  db: D1Database,
  agencyId: string,
  sessionId: string,
  options: { waitUntil?: (promise: Promise<unknown>) => void } = {},
  now: Clock = systemClock,
): Promise<StaffSession | null> {
  if (!sessionId || sessionId.length > 100) return null;
  const idHash = await sha256Hex(sessionId);
  const session = await findActiveStaffSession(db, agencyId, idHash);
  if (!session) return null;
  const t = now();
  if (sessionState(session, STAFF_SESSION, t) !== "valid") {
    await deleteStaffSessionStatement(db, idHash).run();
    return null;
  }
  // given the page's waitUntil, the last-seen write goes after the answer (decision 076)
  if (session.stage === "FULL" && shouldTouch(session, STAFF_SESSION, t))
    await writeAfterAnswer(db, options.waitUntil, (on) => touchStaffSession(on, idHash, t));
  return { staff: { id: session.staffId, agencyId, username: session.username, role: session.role }, stage: session.stage, idHash };
}

export async function endStaffSession(db: D1Database, agencyId: string, sessionId: string): Promise<void> {
  await deleteStaffSession(db, agencyId, await sha256Hex(sessionId));
}

/** Logout: the session ends; a FULL one (a real login) is audited. */
export async function staffLogout(db: D1Database, agencyId: string, sessionId: string, client: Client, now: Clock = systemClock): Promise<void> {
  const session = await resolveStaffSession(db, agencyId, sessionId, {}, now);
  await endStaffSession(db, agencyId, sessionId);
  if (session?.stage !== "FULL") return;
  const { staff } = session;
  await recordAudit(
    db,
    { agencyId: staff.agencyId, staffId: staff.id, staffUsername: staff.username, ip: client.ip, userAgent: client.userAgent },
    { action: "auth.logout", target: `staff:${staff.id}` },
  );
}
