/**
 * The write side of the order read models (deposit_orders_view, withdraw_orders_view,
 * promotion_usages_view): each player's wallet copies its changed orders and promotion
 * usages here from its alarm (workers/wallet/projection.ts), so staff lists and reports
 * read D1 instead of every wallet. An upsert keeps the first row's identity (who, what,
 * amounts, when created) and moves only what changes. The read side is workers/db/orders.ts.
 */

export type DepositOrderView = {
  code: string;
  agencyId: string;
  playerId: string;
  provider: string;
  /** LAK, as shown ("60000.00"). */
  amount: string;
  /** THB, as shown. */
  credit: string;
  status: string;
  flag: string | null;
  createdAt: string;
  updatedAt: string;
};

export type WithdrawOrderView = {
  code: string;
  agencyId: string;
  playerId: string;
  provider: string;
  /** THB taken from the provider wallet, as shown. */
  credit: string;
  /** LAK paid out, as shown. */
  received: string;
  status: string;
  review: string;
  returnState: string | null;
  reason: string | null;
  createdAt: string;
  updatedAt: string;
};

export type PromotionUsageView = {
  id: string;
  agencyId: string;
  playerId: string;
  promotionId: string;
  provider: string;
  status: string;
  depositCode: string | null;
  /** THB, as shown; null until a deposit carries the promotion. */
  bonus: string | null;
  reason: string | null;
  claimedAt: string;
  updatedAt: string;
};

export function upsertDepositOrderViewStatement(db: D1Database, view: DepositOrderView): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
             ON CONFLICT(code) DO UPDATE SET status = excluded.status, flag = excluded.flag, updated_at = excluded.updated_at`,
    )
    .bind(view.code, view.agencyId, view.playerId, view.provider, view.amount, view.credit, view.status, view.flag, view.createdAt, view.updatedAt);
}

export function upsertWithdrawOrderViewStatement(db: D1Database, view: WithdrawOrderView): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, return_state, reason, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
             ON CONFLICT(code) DO UPDATE SET status = excluded.status, review = excluded.review, return_state = excluded.return_state, reason = excluded.reason, updated_at = excluded.updated_at`,
    )
    .bind(
      view.code,
      view.agencyId,
      view.playerId,
      view.provider,
      view.credit,
      view.received,
      view.status,
      view.review,
      view.returnState,
      view.reason,
      view.createdAt,
      view.updatedAt,
    );
}

export function upsertPromotionUsageViewStatement(db: D1Database, view: PromotionUsageView): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO promotion_usages_view (id, agency_id, player_id, promotion_id, provider, status, deposit_code, bonus, reason, claimed_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
             ON CONFLICT(id) DO UPDATE SET status = excluded.status, deposit_code = excluded.deposit_code, bonus = excluded.bonus, reason = excluded.reason, updated_at = excluded.updated_at`,
    )
    .bind(view.id, view.agencyId, view.playerId, view.promotionId, view.provider, view.status, view.depositCode, view.bonus, view.reason, view.claimedAt, view.updatedAt);
}
