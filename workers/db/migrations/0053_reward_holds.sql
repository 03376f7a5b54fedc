-- Holds, not silent refusals (decision 094).
--
-- "The first claim wins", decided in D1 (each player's wallet is its own object, so no wallet
-- can see another's claims): one row per agency, reward and link key (a device, a phone, a bank
-- account or a receive QR's receiver, in the referral's normal forms). A claim writes a row for
-- each of its player's keys in one batch, INSERT ... ON CONFLICT DO NOTHING; a key already
-- written by another player (not unlinked from this one) holds the claim. `ref` is the claim's
-- own id (a promotion usage, a reward code), so a claim the wallet refuses or the player
-- cancels takes its rows back.
CREATE TABLE reward_firsts (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  reward_key TEXT NOT NULL,
  link_key TEXT NOT NULL,
  player_id TEXT NOT NULL REFERENCES players(id),
  ref TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (agency_id, reward_key, link_key)
) WITHOUT ROWID;
CREATE INDEX reward_firsts_ref ON reward_firsts(agency_id, ref);

-- A claim held for review: what (kind, the reward's key, the claim's ref and, for a reward,
-- the claim itself to credit on release), why (the players it is linked to, with the keys they
-- share), and what staff decided, by whom, when and why. One per player and reward: a second
-- claim of the same reward finds it.
CREATE TABLE reward_holds (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL REFERENCES players(id),
  kind TEXT NOT NULL CHECK (kind IN ('PROMOTION','CASHBACK','REFERRAL','CHECKIN','STREAK')),
  reward_key TEXT NOT NULL,
  ref TEXT NOT NULL,
  amount TEXT,
  claim_json TEXT,
  links_json TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL DEFAULT 'HELD' CHECK (status IN ('HELD','RELEASED','REFUSED')),
  decision_reason TEXT,
  decided_by TEXT,
  decided_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (agency_id, player_id, reward_key)
);
CREATE INDEX reward_holds_by_status ON reward_holds(agency_id, status, created_at, id);
CREATE INDEX reward_holds_by_player ON reward_holds(agency_id, player_id, status);

-- The owner's rules (decision 094); no row: the defaults (everything on, six registrations
-- a day from one device before the next waits, the third flagged).
CREATE TABLE hold_rules (
  agency_id TEXT PRIMARY KEY REFERENCES agencies(id),
  hold_promotions INTEGER NOT NULL DEFAULT 1,
  hold_rewards INTEGER NOT NULL DEFAULT 1,
  hold_withdrawals INTEGER NOT NULL DEFAULT 1,
  registrations_per_device INTEGER NOT NULL DEFAULT 6 CHECK (registrations_per_device BETWEEN 0 AND 100),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
