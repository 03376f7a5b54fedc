-- Payments staff must resolve by hand (back office, issue 7 item 3): money that reached a
-- receiving account with no order to apply it to. One row per gateway transaction.
--   UNKNOWN_REFERENCE  the reference is no order of ours (recorded by the payment webhook)
--   AMOUNT_MISMATCH    the order exists but another amount was paid (order flagged, not booked)
--   LATE_PAYMENT       the order had expired or been cancelled (order flagged, ledger "late-paid")
-- status: OPEN -> RESOLVING (one staff member claimed it) -> CREDITED | REFUNDED.
CREATE TABLE unmatched_payments (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  kind TEXT NOT NULL CHECK (kind IN ('UNKNOWN_REFERENCE', 'AMOUNT_MISMATCH', 'LATE_PAYMENT')),
  reference TEXT NOT NULL,
  -- the gateway's transaction id; NULL only for a flagged order whose payment was not seen by the webhook
  transaction_id TEXT,
  -- LAK as received, decimal string; NULL until known (asked from the gateway at resolution)
  amount TEXT,
  currency TEXT NOT NULL DEFAULT 'LAK',
  -- the order's player for AMOUNT_MISMATCH / LATE_PAYMENT
  order_player_id TEXT,
  received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  status TEXT NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'RESOLVING', 'CREDITED', 'REFUNDED')),
  resolved_player_id TEXT,
  resolved_provider TEXT,
  credit TEXT,
  rate_sell TEXT,
  -- the wallet order that carries the manual credit (reference <reference>M)
  manual_code TEXT,
  note TEXT,
  resolved_by TEXT,
  claimed_at INTEGER,
  resolved_at TEXT
);
CREATE UNIQUE INDEX unmatched_payments_txn ON unmatched_payments(transaction_id) WHERE transaction_id IS NOT NULL;
-- a flagged order found in the read model (no transaction id yet) is recorded once; a second
-- payment for the same order (another transaction id) is a row of its own
CREATE UNIQUE INDEX unmatched_payments_order ON unmatched_payments(agency_id, kind, reference) WHERE kind <> 'UNKNOWN_REFERENCE' AND transaction_id IS NULL;
-- one wallet order per resolution, never shared
CREATE UNIQUE INDEX unmatched_payments_manual_code ON unmatched_payments(manual_code) WHERE manual_code IS NOT NULL;
CREATE INDEX unmatched_payments_agency ON unmatched_payments(agency_id, status, received_at);
