import { randomToken } from "../../core/tokens";
import { systemClock, type Clock } from "../../core/session";
import { auditStatement, type AuditActor } from "../../db/audit";
import {
  agencyStaff,
  deleteRecoveryCodesStatement,
  deleteStaffSessionsStatement,
  findStaff,
  insertStaffStatement,
  resetSecondFactorStatement,
  setStaffStatusStatement,
  type StaffRecord,
  type StaffRole,
  type StaffStatus,
} from "../../db/staff";
import { hashPassword } from "../login";
import { isEnrolPending, newEnrolLink } from "./staff-enrolment";
import { isEnrolled } from "./staff-totp";

/**
 * Back-office staff accounts of one agency (never players), managed by an owner: the
 * list, a new account (with its one-time enrolment link), a second factor reset after a
 * lost phone, disable and enable. Every change is audited in the same D1 batch.
 */

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

const toListItem = (staff: StaffRecord, now: number): StaffListItem => ({
  id: staff.id,
  username: staff.username,
  role: staff.role,
  status: staff.status,
  enrolled: isEnrolled(staff),
  enrolPending: isEnrolPending(staff, now),
  createdAt: staff.createdAt,
  lastLoginAt: staff.lastLoginAt,
});

export async function listStaff(db: D1Database, agencyId: string, now: Clock = systemClock): Promise<StaffListItem[]> {
  const t = now();
  return (await agencyStaff(db, agencyId)).map((staff) => toListItem(staff, t));
}

/**
 * A new staff account with no usable password and no second factor: the one-time link
 * (returned once, stored hashed) lets its owner choose a password and enrol TOTP.
 */
export async function createStaffAccount(
  db: D1Database,
  actor: AuditActor,
  input: { username: string; role: StaffRole },
  now: Clock = systemClock,
): Promise<{ ok: true; staffId: string; enrolToken: string } | { ok: false; code: "USERNAME_EXISTS" }> {
  const username = input.username.trim().toLowerCase();
  const id = crypto.randomUUID();
  const link = await newEnrolLink(now());
  // Nobody knows this password: logging in is impossible until the link is used.
  const unusable = await hashPassword(randomToken());
  try {
    await db.batch([
      insertStaffStatement(db, {
        id,
        agencyId: actor.agencyId,
        username,
        passwordHash: unusable,
        role: input.role,
        enrolTokenHash: link.tokenHash,
        enrolExpiresAt: link.expiresAt,
      }),
      auditStatement(db, actor, { action: "staff.create", target: `staff:${id}`, before: null, after: { username, role: input.role, status: "ACTIVE" } }),
    ]);
  } catch (error) {
    if (String(error).includes("UNIQUE")) return { ok: false, code: "USERNAME_EXISTS" };
    throw error;
  }
  return { ok: true, staffId: id, enrolToken: link.token };
}

/**
 * Owner: a lost phone. The second factor and the recovery codes are cleared, every session
 * of that staff member ends, and a new one-time enrolment link is returned.
 */
export async function resetSecondFactor(
  db: D1Database,
  actor: AuditActor,
  staffId: string,
  now: Clock = systemClock,
): Promise<{ ok: true; enrolToken: string; username: string } | { ok: false }> {
  const { agencyId } = actor;
  const staff = await findStaff(db, agencyId, staffId);
  if (!staff) return { ok: false };
  const link = await newEnrolLink(now());
  await db.batch([
    resetSecondFactorStatement(db, agencyId, staffId, link.tokenHash, link.expiresAt),
    deleteRecoveryCodesStatement(db, staffId),
    deleteStaffSessionsStatement(db, agencyId, staffId),
    auditStatement(db, actor, {
      action: "staff.reset_second_factor",
      target: `staff:${staffId}`,
      before: { username: staff.username, enrolled: isEnrolled(staff) },
      after: { username: staff.username, enrolled: false, enrolPending: true },
    }),
  ]);
  return { ok: true, enrolToken: link.token, username: staff.username };
}

/** Owner: disable (every session ends at once) or enable again. An owner cannot disable themselves. */
export async function setStaffStatus(
  db: D1Database,
  actor: AuditActor,
  staffId: string,
  status: StaffStatus,
): Promise<{ ok: true; username: string } | { ok: false; code: "NOT_FOUND" | "SELF" | "UNCHANGED" }> {
  const { agencyId } = actor;
  if (actor.staffId === staffId && status === "DISABLED") return { ok: false, code: "SELF" };
  const staff = await findStaff(db, agencyId, staffId);
  if (!staff) return { ok: false, code: "NOT_FOUND" };
  if (staff.status === status) return { ok: false, code: "UNCHANGED" };
  await db.batch([
    setStaffStatusStatement(db, agencyId, staffId, status),
    ...(status === "DISABLED" ? [deleteStaffSessionsStatement(db, agencyId, staffId)] : []),
    auditStatement(db, actor, {
      action: status === "DISABLED" ? "staff.disable" : "staff.enable",
      target: `staff:${staffId}`,
      before: { username: staff.username, status: staff.status },
      after: { username: staff.username, status },
    }),
  ]);
  return { ok: true, username: staff.username };
}
