-- Issue 14: deposits straight into the agency's own bank account (decision 016).
--
-- pay_amount_reservations: the amount a player is asked to pay on an own-account channel is
-- unique among the channel's orders that are open or ended less than a cool-down ago, across
-- every player (their orders live in their own wallets, so D1 is the one place that sees all).
-- A row is reserved when the order opens (held = 1); ended_at is set when the order ends early
-- (paid, cancelled); the amount stays held until the order's end (ended_at, else expires_at) plus
-- a cool-down has passed. A new reservation of that amount first lets go of such a row (held =
-- NULL, the row stays as history for the matcher) in the same batch as its INSERT. The partial
-- unique index is the guard: two orders opened at once with the same amount cannot both hold it.
-- The row is also how the matcher finds an order from a bank line: channel + pay amount + the
-- bank's time within created_at..expires_at.
CREATE TABLE pay_amount_reservations (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  channel_code TEXT NOT NULL,
  pay_amount TEXT NOT NULL,            -- LAK, canonical decimal string ("100037.00")
  order_code TEXT NOT NULL,
  player_id TEXT NOT NULL,
  asked_amount TEXT NOT NULL,          -- LAK the player asked for (the credit follows it)
  created_at INTEGER NOT NULL,         -- ms: the order's life starts
  expires_at INTEGER NOT NULL,         -- ms: the order's life ends (bank time after it is late)
  ended_at INTEGER,                    -- ms: when the order ended before its expiry (NULL: open or expired)
  held INTEGER DEFAULT 1 CHECK (held = 1),  -- 1: this order holds the amount; NULL: let go (history)
  PRIMARY KEY (agency_id, order_code)
);
CREATE UNIQUE INDEX pay_amount_reservations_held ON pay_amount_reservations(agency_id, channel_code, pay_amount) WHERE held = 1;
CREATE INDEX pay_amount_reservations_amount ON pay_amount_reservations(agency_id, channel_code, pay_amount, created_at);
CREATE INDEX pay_amount_reservations_open ON pay_amount_reservations(agency_id, channel_code, expires_at);

-- bank_transactions: every bank transaction the matcher saw (staff "mark paid", statement
-- import, notification forwarder), applied at most once: unique per agency + channel + the
-- bank's transaction id. outcome says what became of it.
CREATE TABLE bank_transactions (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  channel_code TEXT NOT NULL,
  bank_transaction_id TEXT NOT NULL,
  amount TEXT NOT NULL,                -- LAK, canonical decimal string
  bank_time INTEGER NOT NULL,          -- ms: when the bank says the money arrived
  reference TEXT,
  source TEXT NOT NULL CHECK (source IN ('staff', 'statement', 'forwarder')),
  raw TEXT,
  outcome TEXT NOT NULL DEFAULT 'PENDING' CHECK (outcome IN ('PENDING', 'APPLIED', 'NO_ORDER', 'AMBIGUOUS', 'LATE')),
  order_code TEXT,
  player_id TEXT,
  staff_username TEXT,
  recorded_at INTEGER NOT NULL,
  PRIMARY KEY (agency_id, channel_code, bank_transaction_id)
);
CREATE INDEX bank_transactions_order ON bank_transactions(agency_id, order_code);

-- unmatched_payments admits the own-account kinds (the CHECK cannot be altered in SQLite, so
-- the table is rebuilt with every row and index kept):
--   NO_ORDER    a bank transaction no open order's pay amount and time match
--   AMBIGUOUS   several orders match it
--   UNREADABLE  a notification or statement text no pattern could read (raw kept for staff)
-- and keeps what staff need to judge them: channel, source, the bank's time and the raw text.
CREATE TABLE unmatched_payments_new (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  kind TEXT NOT NULL CHECK (kind IN ('UNKNOWN_REFERENCE', 'AMOUNT_MISMATCH', 'LATE_PAYMENT', 'NO_ORDER', 'AMBIGUOUS', 'UNREADABLE')),
  reference TEXT NOT NULL,
  transaction_id TEXT,
  amount TEXT,
  currency TEXT NOT NULL DEFAULT 'LAK',
  order_player_id TEXT,
  received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  status TEXT NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'RESOLVING', 'CREDITED', 'REFUNDED')),
  resolved_player_id TEXT,
  resolved_provider TEXT,
  credit TEXT,
  rate_sell TEXT,
  manual_code TEXT,
  note TEXT,
  resolved_by TEXT,
  claimed_at INTEGER,
  resolved_at TEXT,
  channel_code TEXT,
  source TEXT,
  bank_time INTEGER,
  raw TEXT
);
INSERT INTO unmatched_payments_new (id, agency_id, kind, reference, transaction_id, amount, currency, order_player_id, received_at, status,
  resolved_player_id, resolved_provider, credit, rate_sell, manual_code, note, resolved_by, claimed_at, resolved_at)
SELECT id, agency_id, kind, reference, transaction_id, amount, currency, order_player_id, received_at, status,
  resolved_player_id, resolved_provider, credit, rate_sell, manual_code, note, resolved_by, claimed_at, resolved_at
FROM unmatched_payments;
DROP TABLE unmatched_payments;
ALTER TABLE unmatched_payments_new RENAME TO unmatched_payments;
CREATE UNIQUE INDEX unmatched_payments_txn ON unmatched_payments(transaction_id) WHERE transaction_id IS NOT NULL;
CREATE UNIQUE INDEX unmatched_payments_order ON unmatched_payments(agency_id, kind, reference) WHERE kind <> 'UNKNOWN_REFERENCE' AND transaction_id IS NULL;
CREATE UNIQUE INDEX unmatched_payments_manual_code ON unmatched_payments(manual_code) WHERE manual_code IS NOT NULL;
CREATE INDEX unmatched_payments_agency ON unmatched_payments(agency_id, status, received_at);
