-- Issue 35 item 2 (decision 049): every call a player's wallet makes to a game provider in
-- its sagas (deposit settlement and its bonus leg, rewards, withdrawals: transfer-in,
-- transfer-out, the status query of an unknown outcome), with its outcome, so staff see an
-- outage while it happens (the dashboard: timeouts and errors per provider in the last 15
-- minutes) and the staff alerts can read them. Written by the wallet's projection only
-- (workers/wallet/projection.ts -> workers/db/provider-attempts.ts); `seq` is the row id of
-- the wallet's own outbox, so a copy sent twice is written once. Bounded: the 5-minute cron
-- deletes rows older than 7 days (ATTEMPT_RETENTION_MS, workers/core/provider-attempts.ts).
--   op       transfer_in | transfer_out | status
--   outcome  ok (the provider answered; for a status query any answer) | refused (the
--            provider said no: error_code is its code) | timeout (no answer in time) |
--            error (5xx, network, unreadable answer: error_code HTTP_5xx, NETWORK, ...)
CREATE TABLE provider_attempts (
  agency_id TEXT NOT NULL,
  player_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  provider TEXT NOT NULL,
  order_code TEXT NOT NULL,
  reference TEXT NOT NULL,
  op TEXT NOT NULL CHECK (op IN ('transfer_in', 'transfer_out', 'status')),
  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'refused', 'timeout', 'error')),
  error_code TEXT,
  detail TEXT,
  at TEXT NOT NULL,
  PRIMARY KEY (player_id, seq)
);
-- the dashboard (one agency, the last minutes) and the prune (by time)
CREATE INDEX provider_attempts_agency_at ON provider_attempts(agency_id, at);
CREATE INDEX provider_attempts_at ON provider_attempts(at);
CREATE INDEX provider_attempts_order ON provider_attempts(agency_id, order_code);
