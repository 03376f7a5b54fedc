-- Withdrawals: the payout threshold, the reference -> wallet map, and the staff read model.
-- Payouts of at most this much credit go out automatically; above it staff review them.
ALTER TABLE agency_settings ADD COLUMN withdraw_auto_max TEXT NOT NULL DEFAULT '5000';

CREATE TABLE withdraw_refs (
  code TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL REFERENCES players(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE withdraw_orders_view (
  code TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL,
  player_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  credit TEXT NOT NULL,
  received TEXT NOT NULL,
  status TEXT NOT NULL,
  review TEXT NOT NULL,
  return_state TEXT,
  reason TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX withdraw_orders_view_agency ON withdraw_orders_view(agency_id, status, created_at);
