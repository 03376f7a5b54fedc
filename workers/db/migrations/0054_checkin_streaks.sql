-- Daily check-in and deposit-streak rewards (decision 095).
--
-- reward_claims (the back office's copy of the wallets' rewards, 0026) takes the two new
-- kinds. SQLite cannot change a CHECK: the table is copied into one with the new list, every
-- row and column kept (retries came with 0028), and its index made again.
PRAGMA defer_foreign_keys = true;
CREATE TABLE reward_claims_new (
  code TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL REFERENCES players(id),
  kind TEXT NOT NULL CHECK (kind IN ('CASHBACK','REFERRAL','CHECKIN','STREAK')),
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
  updated_at TEXT NOT NULL,
  retries INTEGER NOT NULL DEFAULT 0
);
INSERT INTO reward_claims_new (code, agency_id, player_id, kind, period, provider, amount, amount_minor, status, reason, turnover_target, turnover_met, created_at, settled_at, updated_at, retries)
  SELECT code, agency_id, player_id, kind, period, provider, amount, amount_minor, status, reason, turnover_target, turnover_met, created_at, settled_at, updated_at, retries FROM reward_claims;
DROP TABLE reward_claims;
ALTER TABLE reward_claims_new RENAME TO reward_claims;
CREATE INDEX reward_claims_by_agency ON reward_claims (agency_id, kind, created_at);
PRAGMA defer_foreign_keys = false;

-- The owner's check-in and streak settings, one row per agency (absent: both off, decision
-- 095). Amounts in credit minor units (THB satang); turnover multiples as text with 2
-- decimals at most, like cashback's; a streak is 1 to 30 days in a row with a deposit.
CREATE TABLE checkin_settings (
  agency_id TEXT PRIMARY KEY REFERENCES agencies(id),
  checkin_enabled INTEGER NOT NULL DEFAULT 0 CHECK (checkin_enabled IN (0, 1)),
  checkin_amount_minor INTEGER NOT NULL CHECK (checkin_amount_minor >= 0),
  checkin_turnover_multiple TEXT NOT NULL,
  streak_enabled INTEGER NOT NULL DEFAULT 0 CHECK (streak_enabled IN (0, 1)),
  streak_days INTEGER NOT NULL CHECK (streak_days BETWEEN 1 AND 30),
  streak_amount_minor INTEGER NOT NULL CHECK (streak_amount_minor >= 0),
  streak_turnover_multiple TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
