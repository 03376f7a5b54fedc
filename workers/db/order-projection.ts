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
  /** Reports (migration 0022): integer minor units, ISO times. */
  channelCode: string;
  amountMinor: number;
  /** LAK the bank received (the pay amount on own-account channels); null until paid. */
  paidMinor: number | null;
  creditMinor: number;
  /** THB bonus credited at the provider; 0 when none (yet). */
  bonusMinor: number;
  promotionId: string | null;
  paidAt: string | null;
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
  /** Reports (migration 0022): integer minor units, ISO times. */
  creditMinor: number;
  /** Promotion deductions (credit - net credit). */
  deductedMinor: number;
  paidLakMinor: number;
  promotionId: string | null;
  /** When the payout succeeded; null unless SUCCESS. */
  paidAt: string | null;
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
  usedAt: string | null;
  endedAt: string | null;
};

/**
 * Rows the current projection writes carry this; 0 = written before migration 0022 (the new
 * columns are NULL until the wallet re-projects them), -1 = no wallet owns the row any more.
 */
const PROJECTION_VERSION = 1;

export function upsertDepositOrderViewStatement(db: D1Database, view: DepositOrderView): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at,
               channel_code, amount_minor, paid_minor, credit_minor, bonus_minor, promotion_id, paid_at, projection_version)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ${PROJECTION_VERSION})
             ON CONFLICT(code) DO UPDATE SET status = excluded.status, flag = excluded.flag, updated_at = excluded.updated_at,
               channel_code = excluded.channel_code, amount_minor = excluded.amount_minor, paid_minor = excluded.paid_minor,
               credit_minor = excluded.credit_minor, bonus_minor = excluded.bonus_minor, promotion_id = excluded.promotion_id,
               paid_at = excluded.paid_at, projection_version = excluded.projection_version`,
    )
    .bind(
      view.code,
      view.agencyId,
      view.playerId,
      view.provider,
      view.amount,
      view.credit,
      view.status,
      view.flag,
      view.createdAt,
      view.updatedAt,
      view.channelCode,
      view.amountMinor,
      view.paidMinor,
      view.creditMinor,
      view.bonusMinor,
      view.promotionId,
      view.paidAt,
    );
}

export function upsertWithdrawOrderViewStatement(db: D1Database, view: WithdrawOrderView): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, return_state, reason, created_at, updated_at,
               credit_minor, deducted_minor, paid_lak_minor, promotion_id, paid_at, projection_version)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ${PROJECTION_VERSION})
             ON CONFLICT(code) DO UPDATE SET status = excluded.status, review = excluded.review, return_state = excluded.return_state, reason = excluded.reason, updated_at = excluded.updated_at,
               credit_minor = excluded.credit_minor, deducted_minor = excluded.deducted_minor, paid_lak_minor = excluded.paid_lak_minor,
               promotion_id = excluded.promotion_id, paid_at = excluded.paid_at, projection_version = excluded.projection_version`,
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
      view.creditMinor,
      view.deductedMinor,
      view.paidLakMinor,
      view.promotionId,
      view.paidAt,
    );
}

export function upsertPromotionUsageViewStatement(db: D1Database, view: PromotionUsageView): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO promotion_usages_view (id, agency_id, player_id, promotion_id, provider, status, deposit_code, bonus, reason, claimed_at, updated_at, used_at, ended_at, projection_version)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ${PROJECTION_VERSION})
             ON CONFLICT(id) DO UPDATE SET status = excluded.status, deposit_code = excluded.deposit_code, bonus = excluded.bonus, reason = excluded.reason, updated_at = excluded.updated_at,
               used_at = excluded.used_at, ended_at = excluded.ended_at, projection_version = excluded.projection_version`,
    )
    .bind(
      view.id,
      view.agencyId,
      view.playerId,
      view.promotionId,
      view.provider,
      view.status,
      view.depositCode,
      view.bonus,
      view.reason,
      view.claimedAt,
      view.updatedAt,
      view.usedAt,
      view.endedAt,
    );
}

/**
 * The paid time of the player's first successful deposit (manual credits excluded), as the
 * player's wallet knows it; written with its deposits (reports: first deposits, decision 019).
 */
export function setFirstDepositStatement(db: D1Database, agencyId: string, playerId: string, firstDepositAt: string | null): D1PreparedStatement {
  return db
    .prepare(`UPDATE players SET first_deposit_at = ?3 WHERE id = ?2 AND agency_id = ?1 AND first_deposit_at IS NOT ?3`)
    .bind(agencyId, playerId, firstDepositAt);
}
