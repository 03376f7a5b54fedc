-- Issue 14, part 1c: a notification forwarder per own-account channel. An Android app
-- (SmsForwarder) posts the bank's SMS / app notifications to /api/forwarder/{token}, signed
-- with a secret shown once to the owner.
-- * token_hash: SHA-256 of the URL token (the token itself is shown once, never stored).
-- * secret_sealed: the signing secret, AES-256-GCM with the CREDENTIALS_KEY Worker secret
--   (workers/core/secret-box.ts; associated data names agency + channel). It cannot be a hash:
--   SmsForwarder's HMAC needs the secret itself to verify.
-- * auto_cap: LAK; one message credits alone up to this amount, above it staff confirm
--   (the signature covers the timestamp, not the message).
-- * silence_minutes: open orders waiting and no message for this long -> the dashboard says so.
CREATE TABLE forwarders (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  channel_code TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  token_hint TEXT NOT NULL,
  secret_sealed TEXT NOT NULL,
  auto_cap TEXT NOT NULL DEFAULT '1000000',
  silence_minutes INTEGER NOT NULL DEFAULT 60 CHECK (silence_minutes BETWEEN 5 AND 10080),
  last_message_at INTEGER,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (agency_id, channel_code)
);

-- The owner's reading patterns per bank (JSON of BankPatterns, workers/core/notification-patterns.ts);
-- a bank without a row reads with the example defaults.
CREATE TABLE forwarder_patterns (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  bank_code TEXT NOT NULL,
  patterns_json TEXT NOT NULL,
  updated_by TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (agency_id, bank_code)
);

-- One row per verified post (timestamp + its signature): the same post again is answered
-- with what was recorded and applies nothing twice; the same signature with another message
-- is refused. outcome: NULL while being applied.
CREATE TABLE forwarder_deliveries (
  agency_id TEXT NOT NULL,
  channel_code TEXT NOT NULL,
  sent_at INTEGER NOT NULL,
  signature TEXT NOT NULL,
  message_sha256 TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  outcome TEXT,
  PRIMARY KEY (agency_id, channel_code, sent_at, signature)
);

-- A readable credit above the cap, waiting for staff: confirmed (applied through the matcher
-- with the staff actor) or rejected, once.
CREATE TABLE forwarder_holds (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL,
  channel_code TEXT NOT NULL,
  bank_transaction_id TEXT NOT NULL,
  amount TEXT NOT NULL,
  bank_time INTEGER NOT NULL,
  reference TEXT,
  sender TEXT NOT NULL,
  raw TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'WAITING' CHECK (status IN ('WAITING', 'CONFIRMED', 'REJECTED')),
  decided_by TEXT,
  decided_at INTEGER,
  outcome TEXT,
  UNIQUE (agency_id, channel_code, bank_transaction_id)
);
CREATE INDEX forwarder_holds_waiting ON forwarder_holds(agency_id, status, received_at);
