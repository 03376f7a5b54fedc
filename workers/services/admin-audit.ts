import { auditActions, listAudit } from "../db/audit";

/**
 * Back office, the audit log page (owners): one page of entries, newest first, optionally
 * one action or an action prefix ("staff."), and the actions to filter by. Before/after
 * states are shown as indented JSON.
 */
export async function auditLogPage(db: D1Database, agencyId: string, query: { page: number; pageSize: number; action: string | null }) {
  const [{ items, total }, actions] = await Promise.all([listAudit(db, agencyId, query), auditActions(db, agencyId)]);
  const shown = (state: unknown) => (state === null ? null : JSON.stringify(state, null, 1));
  return { total, actions, items: items.map((entry) => ({ ...entry, before: shown(entry.before), after: shown(entry.after) })) };
}
