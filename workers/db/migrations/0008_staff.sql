-- The back office: staff accounts (never players), their sessions, second factor and
-- recovery codes, and an append-only audit log of everything they do.
CREATE TABLE staff (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  username TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'cashier')),
  status TEXT NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'DISABLED')),
  -- TOTP secret (base32) once enrolled; NULL until the first login enrols it.
  totp_secret TEXT,
  -- The last accepted TOTP time step: a code is never accepted twice (replay).
  totp_last_step INTEGER NOT NULL DEFAULT 0,
  -- One-time enrolment token's SHA-256 (printed by the create-agency command / staff screen).
  enrol_token_hash TEXT,
  enrol_expires_at INTEGER,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_login_at TEXT
);
CREATE UNIQUE INDEX staff_agency_username ON staff(agency_id, username);

CREATE TABLE staff_recovery_codes (
  staff_id TEXT NOT NULL REFERENCES staff(id),
  code_hash TEXT NOT NULL,
  used_at INTEGER,
  PRIMARY KEY (staff_id, code_hash)
);

-- Same shape as player sessions, separate table and cookie: a player session id can never
-- be a staff session. half_open = password checked, second factor still owed.
CREATE TABLE staff_sessions (
  id_hash TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  staff_id TEXT NOT NULL REFERENCES staff(id),
  stage TEXT NOT NULL CHECK (stage IN ('PASSWORD', 'ENROL', 'FULL')),
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  user_agent TEXT,
  ip TEXT
);
CREATE INDEX staff_sessions_staff ON staff_sessions(agency_id, staff_id);

-- Append-only: the database itself refuses UPDATE and DELETE.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  agency_id TEXT NOT NULL,
  staff_id TEXT,
  staff_username TEXT,
  action TEXT NOT NULL,
  target TEXT,
  before_json TEXT,
  after_json TEXT,
  ip TEXT,
  user_agent TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX audit_log_agency ON audit_log(agency_id, id);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

-- Players: staff can lock an account and force a new password at the next login.
ALTER TABLE players ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN locked_reason TEXT;

-- Exchange rate history: every change staff make is kept (the current row stays in exchange_rates).
CREATE TABLE exchange_rate_history (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  currency TEXT NOT NULL,
  buy TEXT NOT NULL,
  sell TEXT NOT NULL,
  changed_by TEXT,
  changed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX exchange_rate_history_agency ON exchange_rate_history(agency_id, currency, id);

-- Provider credentials per agency, write-only from the settings screen: the secret is
-- encrypted (AES-GCM) with the Worker secret CREDENTIALS_KEY and never shown back.
CREATE TABLE provider_credentials (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  provider TEXT NOT NULL,
  agent TEXT NOT NULL,
  secret_ciphertext TEXT NOT NULL,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (agency_id, provider)
);
