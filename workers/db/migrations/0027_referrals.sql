-- Issue 18 part 2, referral (decision 030).

-- Each player's referral code, created the first time it is needed (the player's referral
-- page, the back-office report): existing players get one lazily, no backfill. Unique per
-- agency, like usernames.
CREATE TABLE referral_codes (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL REFERENCES players(id),
  code TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (agency_id, player_id)
);
CREATE UNIQUE INDEX referral_codes_code ON referral_codes(agency_id, code);

-- One row per referred player (the primary key ties a player once). counts = 0 with a reason
-- ('same_device', 'same_bank') when the tie does not earn the referrer anything; reason_at
-- says when that was found (at registration, or later when a bank account or device showed up).
CREATE TABLE referrals (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  referred_player_id TEXT NOT NULL REFERENCES players(id),
  referrer_player_id TEXT NOT NULL REFERENCES players(id),
  code TEXT NOT NULL,
  registration_fingerprint TEXT,
  counts INTEGER NOT NULL DEFAULT 1 CHECK (counts IN (0, 1)),
  reason TEXT CHECK (reason IS NULL OR reason IN ('same_device', 'same_bank')),
  reason_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (agency_id, referred_player_id)
);
CREATE INDEX referrals_referrer ON referrals(agency_id, referrer_player_id);

-- The owner's settings (absent row: off). percent_bp in hundredths of a percent; the cap in
-- credit minor units (0: none).
CREATE TABLE referral_settings (
  agency_id TEXT PRIMARY KEY REFERENCES agencies(id),
  enabled INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
  mode TEXT NOT NULL DEFAULT 'net_loss' CHECK (mode IN ('net_loss', 'deposits')),
  percent_bp INTEGER NOT NULL DEFAULT 500 CHECK (percent_bp BETWEEN 1 AND 5000),
  weekly_cap_minor INTEGER NOT NULL DEFAULT 0 CHECK (weekly_cap_minor >= 0),
  turnover_multiplier INTEGER NOT NULL DEFAULT 1 CHECK (turnover_multiplier BETWEEN 0 AND 50),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Claims: once per referrer and week (the primary key decides between concurrent posts).
-- The figures are frozen at the claim (settings and basis), so the history reads as paid.
-- status follows the wallet's reward: PENDING (the row won; the provider is not credited yet:
-- the wallet retries an unknown outcome from its alarm, and a refused credit frees the
-- wallet's claim, so a repeated claim of the week asks the wallet again under the same claim
-- key), CREDITED (credited at the provider, in the wallet's ledger).
CREATE TABLE referral_claims (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  referrer_player_id TEXT NOT NULL REFERENCES players(id),
  week_start TEXT NOT NULL,
  provider TEXT NOT NULL,
  mode TEXT NOT NULL,
  percent_bp INTEGER NOT NULL,
  turnover_multiplier INTEGER NOT NULL,
  referred_count INTEGER NOT NULL,
  basis_minor INTEGER NOT NULL,
  amount_minor INTEGER NOT NULL,
  capped INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'CREDITED')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  credited_at TEXT,
  PRIMARY KEY (agency_id, referrer_player_id, week_start)
);
CREATE INDEX referral_claims_week ON referral_claims(agency_id, week_start);
