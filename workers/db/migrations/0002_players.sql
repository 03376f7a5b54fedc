-- Players, their server-side sessions, login throttling and device fingerprints.
CREATE TABLE players (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  username TEXT NOT NULL,
  display_name TEXT NOT NULL,
  phone TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'SUSPENDED')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  password_changed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_login_at TEXT
);
-- A username is unique within its agency (the same name may exist at another agency).
CREATE UNIQUE INDEX players_agency_username ON players(agency_id, username);

-- The cookie holds a random 256-bit id; only its SHA-256 is stored, so a leaked table
-- cannot be replayed as cookies. Times are epoch milliseconds.
CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL REFERENCES players(id),
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  user_agent TEXT,
  ip TEXT
);
CREATE INDEX sessions_player ON sessions(agency_id, player_id);

-- Failure counters per throttle key (account+client, client, account, registration).
CREATE TABLE throttles (
  key TEXT PRIMARY KEY,
  failures INTEGER NOT NULL DEFAULT 0,
  window_started_at INTEGER NOT NULL,
  locked_until INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE fingerprints (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL REFERENCES players(id),
  fingerprint TEXT NOT NULL,
  payload TEXT NOT NULL,
  first_seen_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_seen_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  seen_count INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (agency_id, player_id, fingerprint)
);
