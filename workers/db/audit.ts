/**
 * The append-only audit log of the back office (table audit_log; triggers refuse UPDATE
 * and DELETE). Every staff action writes one row: who (staff id + username, or the
 * operator API token), what (action + target), before/after as JSON, when, and from where
 * (CF-Connecting-IP, user agent). The one place audit rows are written and read.
 */
import { pageOfRows, prefixRange, type ListAsk, type ListPage } from "../core/keyset";

/** Who did something, and from where: what auditContext(request, staff) returns (app/lib/staff.server.ts). */
export type AuditActor = {
  agencyId: string;
  staffId: string | null;
  staffUsername: string | null;
  ip?: string | null;
  userAgent?: string | null;
};

/** What was done: the action, its target, and the state before and after (never a secret). */
export type AuditChange = { action: string; target?: string | null; before?: unknown; after?: unknown };

export type AuditRow = {
  id: number;
  staffId: string | null;
  staffUsername: string | null;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
};

const COLUMNS = `agency_id, staff_id, staff_username, action, target, before_json, after_json, ip, user_agent`;

/** No state (undefined or null) is stored as SQL NULL, anything else as JSON. */
const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

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

/** The INSERT as a prepared statement, to put in the same D1 batch as the change it records. */
export function auditStatement(db: D1Database, actor: AuditActor, change: AuditChange): D1PreparedStatement {
  return db.prepare(`INSERT INTO audit_log (${COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`).bind(...auditValues(actor, change));
}

/**
 * Written only when the statement just before it in the same batch changed a row
 * (`changes()`): a guarded UPDATE that lost the race leaves no audit row behind.
 */
export function auditIfChanged(db: D1Database, actor: AuditActor, change: AuditChange): D1PreparedStatement {
  return db.prepare(`INSERT INTO audit_log (${COLUMNS}) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 WHERE changes() > 0`).bind(...auditValues(actor, change));
}

/** One audit row on its own (an action with no other write to batch it with). */
export async function recordAudit(db: D1Database, actor: AuditActor, change: AuditChange): Promise<void> {
  await auditStatement(db, actor, change).run();
}

type Row = {
  id: number;
  staff_id: string | null;
  staff_username: string | null;
  action: string;
  target: string | null;
  before_json: string | null;
  after_json: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
};

const parse = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * A keyset page of the audit log, newest first (decision 077: by id, through audit_log_agency
 * or, for one action, audit_log_agency_action), one agency only; optionally one action (exact)
 * or an action prefix ("staff.").
 */
export async function listAudit(db: D1Database, agencyId: string, { action, ask }: { action?: string | null; ask: ListAsk }): Promise<ListPage<AuditRow>> {
  // a prefix is a range of audit_log_agency_action (?5: where it ends)
  const filter = action
    ? action.endsWith(".")
      ? `AND action >= ?2 AND action < ?5`
      : `AND action = ?2 AND ?5 IS NOT NULL`
    : `AND ?2 IS NULL AND ?5 IS NOT NULL`;
  const until = prefixRange(action ?? "").until;
  const after = ask.from ? Number(ask.from.id) : null;
  const backwards = ask.step === "previous";
  const cursor = after === null || !Number.isSafeInteger(after) ? "AND ?3 IS NULL" : `AND id ${backwards ? ">" : "<"} ?3`;
  const rows = await db
    .prepare(`SELECT * FROM audit_log WHERE agency_id = ?1 ${filter} ${cursor} ORDER BY id ${backwards ? "ASC" : "DESC"} LIMIT ?4`)
    .bind(agencyId, action ?? null, after !== null && Number.isSafeInteger(after) ? after : null, Math.floor(ask.pageSize) + 1, until)
    .all<Row>();
  return pageOfRows(rows.results.map(toAuditRow), ask, (entry) => ({ at: entry.createdAt, id: String(entry.id) }));
}

const toAuditRow = (r: Row): AuditRow => ({
  id: r.id,
  staffId: r.staff_id,
  staffUsername: r.staff_username,
  action: r.action,
  target: r.target,
  before: parse(r.before_json),
  after: parse(r.after_json),
  ip: r.ip,
  userAgent: r.user_agent,
  createdAt: r.created_at,
});

/**
 * Logins, API token changes, blocklist flags (decision 090), held claims and registration
 * bursts since `sinceIso`, oldest first: what the owner's security alerts read every minute
 * (decision 057). In time order, not id order: with the planner's statistics
 * an `ORDER BY id` took the agency's whole log in id order; the time index serves both the
 * range and the order (its rows end with the id), reading only the last minutes (decision 075).
 */
export async function recentSecurityAudit(db: D1Database, agencyId: string, sinceIso: string): Promise<AuditRow[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM audit_log WHERE agency_id = ?1 AND created_at >= ?2
          AND action IN ('auth.login', 'auth.login.recovery_code', 'api-token.created', 'api-token.rotated', 'api-token.revoked', 'player.blocklist-flag',
            'reward.held', 'player.registration-burst')
        ORDER BY created_at, id LIMIT 100`,
    )
    .bind(agencyId, sinceIso)
    .all<Row>();
  return results.map(toAuditRow);
}

/** The distinct actions of an agency's log (for the filter of the audit page). */
export async function auditActions(db: D1Database, agencyId: string): Promise<string[]> {
  // one index seek per distinct action (audit_log_agency_action), not a read of every entry
  const { results } = await db
    .prepare(
      `WITH RECURSIVE actions(action) AS (
         SELECT MIN(action) FROM audit_log WHERE agency_id = ?1
         UNION ALL
         SELECT (SELECT MIN(a.action) FROM audit_log a WHERE a.agency_id = ?1 AND a.action > actions.action) FROM actions WHERE actions.action IS NOT NULL
       )
       SELECT action FROM actions WHERE action IS NOT NULL`,
    )
    .bind(agencyId)
    .all<{ action: string }>();
  return results.map((r) => r.action);
}
