// ---- added by people helper
/** The agency's budget of strangers' login failures per 10 minutes (agency_settings), null when unset. */
export async function loginFailureBudget(db: D1Database, agencyId: string): Promise<number | null> {
  const row = await db.prepare(`SELECT login_failure_budget AS budget FROM agency_settings WHERE agency_id = ?1`).bind(agencyId).first<{ budget: number | null }>();
  return row?.budget ?? null;
}
