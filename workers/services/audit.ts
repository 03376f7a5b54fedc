/**
 * The append-only audit log of the back office (table audit_log; triggers refuse UPDATE
 * and DELETE). Every staff action writes one row: who (staff id + username, or the
 * operator API token), what (action + target), before/after as JSON, when, and from where
 * (CF-Connecting-IP, user agent).
 */

export type AuditEntry = {
  agencyId: string;
  staffId: string | null;
  staffUsername: string | null;
  action: string;
  target?: string | null;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
  userAgent?: string | null;
};

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

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** The INSERT as a prepared statement, to put in the same D1 batch as the change it records. */
export function auditStatement(db: D1Database, entry: AuditEntry): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO audit_log (agency_id, staff_id, staff_username, action, target, before_json, after_json, ip, user_agent)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
    )
    .bind(
      entry.agencyId,
      entry.staffId,
      entry.staffUsername,
      entry.action,
      entry.target ?? null,
      json(entry.before),
      json(entry.after),
      entry.ip ?? null,
      entry.userAgent?.slice(0, 300) ?? null,
    );
}

export async function recordAudit(db: D1Database, entry: AuditEntry): Promise<void> {
  await auditStatement(db, entry).run();
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

/** Newest first, one agency only; optionally one action (exact) or an action prefix ("staff."). */
export async function listAudit(
  db: D1Database,
  agencyId: string,
  { page, pageSize, action }: { page: number; pageSize: number; action?: string | null },
): Promise<{ items: AuditRow[]; total: number }> {
  const filter = action ? (action.endsWith(".") ? `AND action LIKE ?2 || '%'` : `AND action = ?2`) : `AND ?2 IS NULL`;
  const [count, rows] = await db.batch<{ n: number } | Row>([
    db.prepare(`SELECT COUNT(*) AS n FROM audit_log WHERE agency_id = ?1 ${filter}`).bind(agencyId, action ?? null),
    db
      .prepare(`SELECT * FROM audit_log WHERE agency_id = ?1 ${filter} ORDER BY id DESC LIMIT ?3 OFFSET ?4`)
      .bind(agencyId, action ?? null, pageSize, (page - 1) * pageSize),
  ]);
  const total = (count.results[0] as { n: number } | undefined)?.n ?? 0;
  const items = (rows.results as Row[]).map((r) => ({
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
  }));
  return { items, total };
}

/** The distinct actions of an agency's log (for the filter of the audit page). */
export async function auditActions(db: D1Database, agencyId: string): Promise<string[]> {
  const { results } = await db.prepare(`SELECT DISTINCT action FROM audit_log WHERE agency_id = ?1 ORDER BY action`).bind(agencyId).all<{ action: string }>();
  return results.map((r) => r.action);
}
