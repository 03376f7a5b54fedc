-- Operator API tokens, one set per agency (issue 12): created, rotated and revoked by an
-- owner in the back office. Only the SHA-256 of a token is kept; the token itself is shown
-- once. A token works only at its own agency's domain(s). Never deleted: a revoked token
-- stays listed (and its audit rows keep pointing at it).
CREATE TABLE api_tokens (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  -- the first characters of the token, so an owner can tell which one a system holds
  hint TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  rotated_at TEXT,
  last_used_at TEXT,
  revoked_at TEXT,
  revoked_by TEXT
);
CREATE INDEX api_tokens_agency ON api_tokens(agency_id, created_at);
