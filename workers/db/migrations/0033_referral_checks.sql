-- Issue 35 item 3 (decision 049): self-referral caught without a fingerprint. A referral stops
-- counting for the referrer's phone at registration ('same_phone') or a bank account in the
-- referrer's name ('same_holder'), beside 'same_device' and 'same_bank' (decision 030); the
-- referrer's IP address at registration only flags it for staff (`flag` = 'same_ip': it still
-- counts). SQLite cannot change a CHECK: the table is copied into one with the new lists.
PRAGMA defer_foreign_keys = true;
CREATE TABLE referrals_new (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  referred_player_id TEXT NOT NULL REFERENCES players(id),
  referrer_player_id TEXT NOT NULL REFERENCES players(id),
  code TEXT NOT NULL,
  registration_fingerprint TEXT,
  counts INTEGER NOT NULL DEFAULT 1 CHECK (counts IN (0, 1)),
  reason TEXT CHECK (reason IS NULL OR reason IN ('same_device', 'same_bank', 'same_phone', 'same_holder')),
  reason_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  flag TEXT CHECK (flag IS NULL OR flag IN ('same_ip')),
  PRIMARY KEY (agency_id, referred_player_id)
);
INSERT INTO referrals_new (agency_id, referred_player_id, referrer_player_id, code, registration_fingerprint, counts, reason, reason_at, created_at)
  SELECT agency_id, referred_player_id, referrer_player_id, code, registration_fingerprint, counts, reason, reason_at, created_at FROM referrals;
DROP TABLE referrals;
ALTER TABLE referrals_new RENAME TO referrals;
CREATE INDEX referrals_referrer ON referrals(agency_id, referrer_player_id);
PRAGMA defer_foreign_keys = false;
