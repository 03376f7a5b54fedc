-- Linked accounts (decision 093).
--
-- A pair of players staff said is not one person (a family on one phone, a couple with one
-- account holder's name): the pair in one order (the smaller id first), why, who and when.
-- The pair is still shown on both players' pages, marked, and left out of their scores.
CREATE TABLE player_unlinks (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_a TEXT NOT NULL REFERENCES players(id),
  player_b TEXT NOT NULL REFERENCES players(id),
  reason TEXT NOT NULL,
  staff_id TEXT,
  staff_username TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (agency_id, player_a, player_b),
  CHECK (player_a < player_b)
);
CREATE INDEX player_unlinks_b ON player_unlinks(agency_id, player_b);

-- The holder's name in its compared form (core/referral.ts holderKey: case, spaces, punctuation
-- and Latin accents left out), written with the account, so the players sharing a name are
-- found through an index rather than every account of the agency read. Accounts added before
-- this migration get the nearest SQL can do (upper/lower case, spaces and the usual punctuation);
-- a Latin accent in an old name is the one thing it misses.
ALTER TABLE bank_accounts ADD COLUMN holder_key TEXT;
UPDATE bank_accounts SET holder_key =
  lower(replace(replace(replace(replace(replace(replace(replace(account_name, ' ', ''), '.', ''), '-', ''), ',', ''), '''', ''), '(', ''), ')', ''));
CREATE INDEX bank_accounts_holder_key ON bank_accounts(agency_id, holder_key) WHERE holder_key IS NOT NULL AND holder_key <> '';

-- The sessions from one address: the players who signed in from it, and when.
CREATE INDEX sessions_agency_ip ON sessions(agency_id, ip, created_at) WHERE ip IS NOT NULL;
