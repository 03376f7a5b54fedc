-- Issue 17, reports (decision 019). What the read models lacked for reports: the paid time,
-- the kip actually received, every amount as INTEGER minor units (summing decimal text in
-- SQL is floating point), the bonus given and taken back, which promotion an order carried,
-- manual credits told apart, each player's first deposit; and indexes by paid time.
--
-- Rows written before this migration have NULL in the new columns and projection_version 0.
-- The wallets re-project them (PlayerWallet.reproject, driven over every wallet by the
-- scheduled job workers/services/report-backfill.ts, which finds them by projection_version
-- = 0); the new projection writes projection_version 1. A row no wallet owns any more is set
-- to -1 by that job so it is not picked again.

-- Deposits. channel_code 'MANUAL' = a payment staff credited from the unmatched-payments
-- queue. paid_minor = the kip the bank received (the unique pay amount on own-account
-- channels, else the amount asked), NULL until paid. bonus_minor = the promotion bonus
-- credited at the provider (0 when none or not credited).
ALTER TABLE deposit_orders_view ADD COLUMN channel_code TEXT;
ALTER TABLE deposit_orders_view ADD COLUMN amount_minor INTEGER;
ALTER TABLE deposit_orders_view ADD COLUMN paid_minor INTEGER;
ALTER TABLE deposit_orders_view ADD COLUMN credit_minor INTEGER;
ALTER TABLE deposit_orders_view ADD COLUMN bonus_minor INTEGER;
ALTER TABLE deposit_orders_view ADD COLUMN promotion_id TEXT;
ALTER TABLE deposit_orders_view ADD COLUMN paid_at TEXT;
ALTER TABLE deposit_orders_view ADD COLUMN projection_version INTEGER NOT NULL DEFAULT 0;

-- Withdrawals. paid_at = when the payout succeeded (NULL otherwise); credit_minor = the credit
-- taken from the provider; deducted_minor = promotion deductions (credit - net credit);
-- paid_lak_minor = the kip paid out.
ALTER TABLE withdraw_orders_view ADD COLUMN credit_minor INTEGER;
ALTER TABLE withdraw_orders_view ADD COLUMN deducted_minor INTEGER;
ALTER TABLE withdraw_orders_view ADD COLUMN paid_lak_minor INTEGER;
ALTER TABLE withdraw_orders_view ADD COLUMN promotion_id TEXT;
ALTER TABLE withdraw_orders_view ADD COLUMN paid_at TEXT;
ALTER TABLE withdraw_orders_view ADD COLUMN projection_version INTEGER NOT NULL DEFAULT 0;

-- Promotion usages: when it was used (its deposit landed) and when it ended.
ALTER TABLE promotion_usages_view ADD COLUMN used_at TEXT;
ALTER TABLE promotion_usages_view ADD COLUMN ended_at TEXT;
ALTER TABLE promotion_usages_view ADD COLUMN projection_version INTEGER NOT NULL DEFAULT 0;

-- The paid time of the player's first successful deposit (manual credits excluded), written
-- by the player's wallet with its deposits.
ALTER TABLE players ADD COLUMN first_deposit_at TEXT;

-- Reports: successful orders of an agency by paid time (covering what the money report reads).
-- (status is listed too, although the index holds SUCCESS rows only: SQLite reads a query as
-- covered only when every column it names is in the index.)
CREATE INDEX deposit_orders_view_paid ON deposit_orders_view(agency_id, paid_at, provider, channel_code, player_id, paid_minor, credit_minor, bonus_minor, promotion_id, status)
  WHERE status = 'SUCCESS';
CREATE INDEX withdraw_orders_view_paid ON withdraw_orders_view(agency_id, paid_at, provider, credit_minor, paid_lak_minor, deducted_minor, promotion_id, status)
  WHERE status = 'SUCCESS';
CREATE INDEX promotion_usages_view_claimed ON promotion_usages_view(agency_id, claimed_at, promotion_id);
CREATE INDEX promotion_usages_view_ended ON promotion_usages_view(agency_id, ended_at, promotion_id, status);
CREATE INDEX players_agency_created ON players(agency_id, created_at);
CREATE INDEX players_agency_first_deposit ON players(agency_id, first_deposit_at) WHERE first_deposit_at IS NOT NULL;
CREATE INDEX unmatched_payments_resolved ON unmatched_payments(agency_id, status, resolved_at);

-- The backfill finds the wallets whose rows are not yet re-projected.
CREATE INDEX deposit_orders_view_unprojected ON deposit_orders_view(agency_id, player_id) WHERE projection_version = 0;
CREATE INDEX withdraw_orders_view_unprojected ON withdraw_orders_view(agency_id, player_id) WHERE projection_version = 0;
CREATE INDEX promotion_usages_view_unprojected ON promotion_usages_view(agency_id, player_id) WHERE projection_version = 0;
