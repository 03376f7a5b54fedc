-- Deposits: the agency's receiving channels, exchange rates, and the shared read model.
-- The money state itself lives in each player's PlayerWallet Durable Object.

-- Where players pay: one LAO QR receiving account per row (SPEC §3 currency list item:
-- code, mid, displayName, currency).
CREATE TABLE payment_channels (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  code TEXT NOT NULL,
  mid TEXT NOT NULL,
  display_name TEXT NOT NULL,
  currency TEXT NOT NULL CHECK (currency = 'LAK'),
  bank_code TEXT NOT NULL,
  iin TEXT NOT NULL,
  merchant_name TEXT NOT NULL,
  merchant_city TEXT NOT NULL,
  -- 'sandbox' = the sandbox bank Worker (local and tests only)
  gateway TEXT NOT NULL DEFAULT 'sandbox',
  active INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (agency_id, code)
);

-- SPEC §3 exchange rate item (currency, buy, sell): LAK per one unit of credit currency,
-- as decimal strings with up to 6 decimals. DEPOSIT = amount / sell, WITHDRAW = amount * buy.
CREATE TABLE exchange_rates (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  currency TEXT NOT NULL,
  buy TEXT NOT NULL,
  sell TEXT NOT NULL,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (agency_id, currency)
);

-- A payment reference (the order code in the QR) -> whose wallet holds the order.
-- Webhooks and the reconciler find the player's Durable Object through it.
CREATE TABLE deposit_refs (
  code TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL REFERENCES players(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Gateway transaction ids already applied: a replayed or duplicated webhook is a no-op.
CREATE TABLE gateway_events (
  transaction_id TEXT PRIMARY KEY,
  code TEXT NOT NULL,
  received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Read model of deposit orders for staff lists and reports (projected from the wallets).
CREATE TABLE deposit_orders_view (
  code TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL,
  player_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  amount TEXT NOT NULL,
  credit TEXT NOT NULL,
  status TEXT NOT NULL,
  flag TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX deposit_orders_view_agency ON deposit_orders_view(agency_id, status, created_at);
