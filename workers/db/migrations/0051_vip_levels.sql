-- VIP levels by deposits in a period (decision 091).
--
-- The owner's levels: a player is at the highest level whose threshold their settled deposits
-- of the last `period_days` days reach (LAK minor units, what they paid). Each level brings its
-- own cashback percent (hundredths: 750 = 7.5 %) and cap per claim (THB minor units, 0: no cap)
-- and a limit on the credit withdrawn per Vientiane day (THB minor units, NULL: none).
CREATE TABLE vip_levels (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
  threshold_minor INTEGER NOT NULL CHECK (threshold_minor >= 0),
  cashback_hundredths INTEGER NOT NULL CHECK (cashback_hundredths BETWEEN 0 AND 10000),
  cashback_cap_minor INTEGER NOT NULL CHECK (cashback_cap_minor >= 0),
  withdraw_day_minor INTEGER CHECK (withdraw_day_minor IS NULL OR withdraw_day_minor > 0),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (agency_id, name),
  -- two levels at one threshold would make "the player's level" a coin toss
  UNIQUE (agency_id, threshold_minor)
);

-- The period the levels count deposits over, one row per agency (absent: 30 days).
CREATE TABLE vip_settings (
  agency_id TEXT PRIMARY KEY REFERENCES agencies(id),
  period_days INTEGER NOT NULL CHECK (period_days BETWEEN 1 AND 365),
  updated_at INTEGER NOT NULL
);
