-- Issue 18 part 4: the player's own limits and breaks (decision 025-responsible-gaming).
--
-- One row per player and limit kind. value NULL = no limit. Deposit limits are LAK minor
-- units (kip x 100) of the requested amounts of orders created in the Vientiane day, week
-- (Monday-Sunday) or month; play_day is minutes per Vientiane day. A raise waits 24 h:
-- pending_from is when it applies (pending_value NULL with pending_from set = the limit goes).
-- version: each change is UPDATE ... WHERE version = <read>, so two changes at once cannot
-- undo each other (a lowering is never lost under a raise).
CREATE TABLE player_limits (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL REFERENCES players(id),
  kind TEXT NOT NULL CHECK (kind IN ('deposit_day', 'deposit_week', 'deposit_month', 'play_day')),
  value INTEGER CHECK (value IS NULL OR value > 0),
  pending_value INTEGER CHECK (pending_value IS NULL OR pending_value > 0),
  pending_from INTEGER,
  version INTEGER NOT NULL DEFAULT 1,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (agency_id, player_id, kind),
  CHECK (pending_value IS NULL OR pending_from IS NOT NULL)
);

-- Cooling-off (1 to 42 days) and self-exclusion (6 months or more). Append-only: a break
-- is never changed nor deleted, by the player or by staff, so nobody can shorten one; a
-- longer one is a new row. The one in force is the row with starts_at <= now < ends_at
-- ending last.
CREATE TABLE player_breaks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL REFERENCES players(id),
  kind TEXT NOT NULL CHECK (kind IN ('cooling_off', 'self_exclusion')),
  starts_at INTEGER NOT NULL,
  ends_at INTEGER NOT NULL CHECK (ends_at > starts_at),
  created_at INTEGER NOT NULL
);
CREATE INDEX player_breaks_player ON player_breaks(agency_id, player_id, ends_at);
CREATE TRIGGER player_breaks_no_update BEFORE UPDATE ON player_breaks
BEGIN SELECT RAISE(ABORT, 'player_breaks is append-only'); END;
CREATE TRIGGER player_breaks_no_delete BEFORE DELETE ON player_breaks
BEGIN SELECT RAISE(ABORT, 'player_breaks is append-only'); END;
