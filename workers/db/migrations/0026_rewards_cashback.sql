-- Issue 18 (decision 029): rewards credited by the player's wallet (cashback, referral share)
-- copied to D1 by the wallet's projection, for the back office's claims reports; the wallet
-- (Durable Object) stays the only writer of the money state, this is a read model.
CREATE TABLE reward_claims (
  code TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL REFERENCES players(id),
  kind TEXT NOT NULL CHECK (kind IN ('CASHBACK','REFERRAL')),
  period TEXT NOT NULL,
  provider TEXT NOT NULL,
  amount TEXT NOT NULL,
  amount_minor INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('PENDING','SUCCESS','FAILED')),
  reason TEXT,
  turnover_target TEXT NOT NULL,
  turnover_met INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  settled_at TEXT,
  updated_at TEXT NOT NULL
);
CREATE INDEX reward_claims_by_agency ON reward_claims (agency_id, kind, created_at);

-- Cashback settings, one row per agency, set by the owner (audited like other settings).
-- percent_hundredths: 500 = 5.00 % of the week's net loss at a provider; cap and minimum per
-- claim in credit minor units (THB satang); turnover_multiple as text with 2 decimals at most.
CREATE TABLE cashback_settings (
  agency_id TEXT PRIMARY KEY REFERENCES agencies(id),
  enabled INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
  percent_hundredths INTEGER NOT NULL CHECK (percent_hundredths BETWEEN 0 AND 10000),
  cap_minor INTEGER NOT NULL CHECK (cap_minor >= 0),
  min_minor INTEGER NOT NULL CHECK (min_minor >= 0),
  turnover_multiple TEXT NOT NULL,
  combinable INTEGER NOT NULL DEFAULT 0 CHECK (combinable IN (0, 1)),
  updated_at TEXT NOT NULL
);
