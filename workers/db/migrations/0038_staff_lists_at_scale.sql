-- The back office's lists at a million orders (decision 077): each list is read a page at a
-- time by keyset through an index ending in its sort (time, id), and every filter is a range
-- of an index, so a page reads about its own rows however long the agency's history is.

-- deposits: newest first, by status, by flag (few orders have one). A player's orders (the
-- username filter) come through deposit_orders_view_player_provider (migration 0034), and one
-- provider's by walking the newest (a fifth of them match): an index for each measured 69 and
-- 46 MB at 800,000 orders, more than they save (docs/measurements.md).
DROP INDEX IF EXISTS deposit_orders_view_agency;
CREATE INDEX deposit_orders_view_agency_status ON deposit_orders_view(agency_id, status, created_at, code);
CREATE INDEX deposit_orders_view_agency_created ON deposit_orders_view(agency_id, created_at, code);
CREATE INDEX deposit_orders_view_flagged ON deposit_orders_view(agency_id, flag, created_at, code) WHERE flag IS NOT NULL;

-- a player's newest withdrawals (the back office's player page)
CREATE INDEX withdraw_orders_view_player ON withdraw_orders_view(agency_id, player_id, created_at);

-- players: newest first, found by the start of a phone or bank account number
DROP INDEX IF EXISTS players_agency_created;
CREATE INDEX players_agency_created ON players(agency_id, created_at, id);
CREATE INDEX players_agency_phone ON players(agency_id, phone);
CREATE INDEX bank_accounts_agency_number ON bank_accounts(agency_id, account_number);

-- unmatched payments: newest first within a status
DROP INDEX IF EXISTS unmatched_payments_agency;
CREATE INDEX unmatched_payments_agency ON unmatched_payments(agency_id, status, received_at, id);

-- the audit log by action (exact, or its distinct actions one index seek each)
CREATE INDEX audit_log_agency_action ON audit_log(agency_id, action, id);

-- deposits any provider refused (PROVIDER_*), newest first: the query names the same term
CREATE INDEX deposit_orders_view_provider_flagged ON deposit_orders_view(agency_id, created_at, code) WHERE substr(flag, 1, 9) = 'PROVIDER_';

-- devices seen on two or more players: kept with each sighting (workers/db/players.ts), so the
-- shared-devices page reads them newest first instead of grouping every sighting of the agency
CREATE INDEX fingerprints_by_fingerprint ON fingerprints(agency_id, fingerprint);
CREATE TABLE fingerprint_groups (
  agency_id TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  players INTEGER NOT NULL,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  PRIMARY KEY (agency_id, fingerprint)
);
CREATE INDEX fingerprint_groups_newest ON fingerprint_groups(agency_id, last_seen_at, fingerprint);
INSERT INTO fingerprint_groups (agency_id, fingerprint, players, first_seen_at, last_seen_at)
SELECT agency_id, fingerprint, COUNT(*), MIN(first_seen_at), MAX(last_seen_at) FROM fingerprints
 GROUP BY agency_id, fingerprint HAVING COUNT(*) >= 2;
