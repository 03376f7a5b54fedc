// ---- added by people helper
/** The newest deposit orders of one player (back office player page). */
export async function latestPlayerDeposits(db: D1Database, agencyId: string, playerId: string, limit: number) {
  const { results } = await db
    .prepare(`SELECT code, provider, amount, credit, status, flag, created_at FROM deposit_orders_view WHERE agency_id = ?1 AND player_id = ?2 ORDER BY created_at DESC LIMIT ?3`)
    .bind(agencyId, playerId, limit)
    .all<{ code: string; provider: string; amount: string; credit: string; status: string; flag: string | null; created_at: string }>();
  return results.map((d) => ({ code: d.code, provider: d.provider, amount: d.amount, credit: d.credit, status: d.status, flag: d.flag, createdAt: d.created_at }));
}

/** The newest withdraw orders of one player (back office player page). */
export async function latestPlayerWithdrawals(db: D1Database, agencyId: string, playerId: string, limit: number) {
  const { results } = await db
    .prepare(`SELECT code, provider, credit, received, status, review, reason, created_at FROM withdraw_orders_view WHERE agency_id = ?1 AND player_id = ?2 ORDER BY created_at DESC LIMIT ?3`)
    .bind(agencyId, playerId, limit)
    .all<{ code: string; provider: string; credit: string; received: string; status: string; review: string; reason: string | null; created_at: string }>();
  return results.map((w) => ({ code: w.code, provider: w.provider, credit: w.credit, received: w.received, status: w.status, review: w.review, reason: w.reason, createdAt: w.created_at }));
}

/** The newest promotion usages of one player (back office player page). */
export async function latestPlayerPromotionUsages(db: D1Database, agencyId: string, playerId: string, limit: number) {
  const { results } = await db
    .prepare(`SELECT id, promotion_id, provider, status, deposit_code, bonus, reason, claimed_at FROM promotion_usages_view WHERE agency_id = ?1 AND player_id = ?2 ORDER BY claimed_at DESC LIMIT ?3`)
    .bind(agencyId, playerId, limit)
    .all<{ id: string; promotion_id: string; provider: string; status: string; deposit_code: string | null; bonus: string | null; reason: string | null; claimed_at: string }>();
  return results.map((p) => ({ id: p.id, promotionId: p.promotion_id, provider: p.provider, status: p.status, depositCode: p.deposit_code, bonus: p.bonus, reason: p.reason, claimedAt: p.claimed_at }));
}
