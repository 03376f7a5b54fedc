import type { ListAsk } from "../../core/keyset";
import { auditActions, listAudit, recordAudit, type AuditActor } from "../../db/audit";

/**
 * Back office, the audit log page (owners): one page of entries, newest first, optionally
 * one action or an action prefix ("staff."), and the actions to filter by. Before/after
 * states are shown as indented JSON.
 */
export async function auditLogPage(db: D1Database, agencyId: string, query: { action: string | null; ask: ListAsk }) {
  const [{ items, next, previous }, actions] = await Promise.all([listAudit(db, agencyId, query), auditActions(db, agencyId)]);
  const shown = (state: unknown) => (state === null ? null : JSON.stringify(state, null, 1));
  return { next, previous, actions, items: items.map((entry) => ({ ...entry, before: shown(entry.before), after: shown(entry.after) })) };
}

/**
 * A report export (decision 059, /admin/reports/:table.csv): who took which table of which range,
 * and how many data rows it held. Written before the file is sent; an export is never
 * handed out without its row.
 */
export async function auditReportExport(
  db: D1Database,
  actor: AuditActor,
  exported: { table: string; range: { from: string; to: string; grouping: string }; rows: number },
): Promise<void> {
  await recordAudit(db, actor, {
    action: "report.export",
    target: exported.table,
    after: { from: exported.range.from, to: exported.range.to, grouping: exported.range.grouping, rows: exported.rows },
  });
}
