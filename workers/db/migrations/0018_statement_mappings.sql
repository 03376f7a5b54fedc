-- Issue 14 (1.b), statement import. No bank publishes the columns of its CSV statement
-- export, so staff map them on a channel's first import; the mapping (JSON of
-- workers/core/statement.ts StatementMapping: columns named by header text, date format,
-- number format, credit/debit mode) is kept per own-account channel and reused, changeable.
CREATE TABLE statement_mappings (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  channel_code TEXT NOT NULL,
  mapping_json TEXT NOT NULL,
  updated_by TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (agency_id, channel_code)
);

-- An uploaded statement between its steps (map, preview, confirm), so a form without
-- JavaScript never sends the file twice. Kept 24 hours (older ones are deleted at the next
-- upload): a statement lists other transactions of the account too. result_json holds the
-- outcome per row once applied.
CREATE TABLE statement_uploads (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  channel_code TEXT NOT NULL,
  file_name TEXT NOT NULL,
  content TEXT NOT NULL,
  uploaded_by TEXT,
  created_at INTEGER NOT NULL,
  result_json TEXT
);
CREATE INDEX statement_uploads_agency_created ON statement_uploads (agency_id, created_at);
