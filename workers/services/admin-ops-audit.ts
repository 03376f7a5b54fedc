/**
 * The audit row of a back-office operation (table audit_log, append-only), as a prepared
 * statement so it can go in the same D1 batch as the change it records. The shape is the
 * one of recordAudit (workers/services/audit.ts): who (staff id + username), what (action,
 * target), before/after JSON, from where (ip, user agent).
 */
import { auditStatement as baseAuditStatement } from "./audit";

/** Exactly the shape auditContext(request, staff) returns (app/lib/staff.server.ts). */
export type AuditActor = {
  agencyId: string;
  staffId: string | null;
  staffUsername: string | null;
  ip?: string | null;
  userAgent?: string | null;
};

export type AuditChange = { action: string; target?: string | null; before?: unknown; after?: unknown };

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

const COLUMNS = `agency_id, staff_id, staff_username, action, target, before_json, after_json, ip, user_agent`;

/** The audit service's own statement (workers/services/audit.ts), from an actor and a change. */
export function auditStatement(db: D1Database, actor: AuditActor, change: AuditChange): D1PreparedStatement {
  return baseAuditStatement(db, { ...actor, ...change });
}

/**
 * Written only when the statement just before it in the same batch changed a row
 * (`changes()`): a guarded UPDATE that lost the race leaves no audit row behind.
 */
export function auditIfChanged(db: D1Database, actor: AuditActor, change: AuditChange): D1PreparedStatement {
  return db
    .prepare(`INSERT INTO audit_log (${COLUMNS}) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 WHERE changes() > 0`)
    .bind(...auditValues(actor, change));
}

export async function writeAudit(db: D1Database, actor: AuditActor, change: AuditChange): Promise<void> {
  await auditStatement(db, actor, change).run();
}

function auditValues(actor: AuditActor, change: AuditChange) {
  return [
    actor.agencyId,
    actor.staffId,
    actor.staffUsername,
    change.action,
    change.target ?? null,
    json(change.before),
    json(change.after),
    actor.ip ?? null,
    actor.userAgent?.slice(0, 300) ?? null,
  ] as const;
}
