-- The bank's debit closes a withdrawal (decision 084).
--
-- The fee the owner declares per own-account channel: what the bank takes per transfer out and
-- shows inside the same debit (a payout of 100000 kip with a 2000 kip fee is a 102000 debit).
ALTER TABLE payment_channels ADD COLUMN debit_fee TEXT NOT NULL DEFAULT '0';

-- Each withdrawal a debit paid, tied to the report whose transfer paid it (reports are kept,
-- transfers derived, decision 069: a transfer's key may change, its reports stay). One row per
-- withdrawal (the primary key): a second debit for it is never a second payout.
CREATE TABLE bank_debit_payouts (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  withdraw_code TEXT NOT NULL,
  channel_code TEXT NOT NULL,
  source TEXT NOT NULL,
  witness_id TEXT NOT NULL,
  amount TEXT NOT NULL,
  fee TEXT NOT NULL,
  evidence TEXT NOT NULL CHECK (evidence IN ('account', 'name', 'amount')),
  paid_at INTEGER NOT NULL,
  PRIMARY KEY (agency_id, withdraw_code)
);
CREATE INDEX bank_debit_payouts_report ON bank_debit_payouts(agency_id, channel_code, source, witness_id);

-- A debit that could be the payout of several open withdrawals waits for the cashier: its
-- candidates, written by each derivation of its scope (derived, like the transfer itself).
CREATE TABLE bank_debit_candidates (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  channel_code TEXT NOT NULL,
  source TEXT NOT NULL,
  witness_id TEXT NOT NULL,
  withdraw_code TEXT NOT NULL,
  evidence TEXT NOT NULL CHECK (evidence IN ('account', 'name', 'amount')),
  found_at INTEGER NOT NULL,
  PRIMARY KEY (agency_id, channel_code, source, witness_id, withdraw_code)
);
CREATE INDEX bank_debit_candidates_withdrawal ON bank_debit_candidates(agency_id, withdraw_code);
