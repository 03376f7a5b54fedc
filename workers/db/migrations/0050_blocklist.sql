-- The owner's blocklist (decision 090).
--
-- One row per listed value: its kind, its normal form as the match key ("phone:2055551234",
-- "bank:BCEL:0101200123456", "holder:somchaip", "device:<hex>"; workers/core/blocklist.ts), what
-- the owner typed (shown), the owner's choice (refuse or flag), a note, who added it and when.
-- The unique key makes a value listed once per agency and serves every check's lookup.
CREATE TABLE blocklist_entries (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  kind TEXT NOT NULL CHECK (kind IN ('bank', 'holder', 'phone', 'device')),
  match_key TEXT NOT NULL,
  shown TEXT NOT NULL,
  bank_code TEXT,
  action TEXT NOT NULL DEFAULT 'refuse' CHECK (action IN ('refuse', 'flag')),
  note TEXT NOT NULL DEFAULT '',
  added_by TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (agency_id, match_key)
);
-- The owner's page: newest first by keyset (decision 077), all kinds or one.
CREATE INDEX blocklist_entries_newest ON blocklist_entries(agency_id, created_at, id);
CREATE INDEX blocklist_entries_kind ON blocklist_entries(agency_id, kind, created_at, id);

-- A player a "flag" entry matched: which entry (a copy of what it said, as the entry may be
-- removed later), where (registration, bank add, bank replace) and when. Read per player
-- (the staff player page, the players list's mark).
CREATE TABLE blocklist_flags (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  shown TEXT NOT NULL,
  note TEXT NOT NULL,
  checkpoint TEXT NOT NULL CHECK (checkpoint IN ('registration', 'bank-add', 'bank-replace')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX blocklist_flags_player ON blocklist_flags(agency_id, player_id, created_at);
