-- Issue 34: staff alerts (Telegram first) delivered through a Cloudflare Queue.

-- The agency's primary domain: the host its alert links (and anything else that must name one
-- address) point at. At most one per agency; without one, the first host in name order.
ALTER TABLE agency_domains ADD COLUMN is_primary INTEGER NOT NULL DEFAULT 0 CHECK (is_primary IN (0, 1));
CREATE UNIQUE INDEX agency_domains_primary ON agency_domains(agency_id) WHERE is_primary = 1;

-- One alert setup per agency (owner only, /admin/settings/alerts). The bot token is sealed
-- like provider credentials (core/secret-box.ts, associated data "alerts:<agency>"), never
-- shown back: the screen shows the bot's name as Telegram answered it.
CREATE TABLE alert_settings (
  agency_id TEXT PRIMARY KEY REFERENCES agencies(id),
  channel TEXT NOT NULL DEFAULT 'telegram' CHECK (channel IN ('telegram')),
  bot_token_sealed TEXT,
  bot_name TEXT,
  -- JSON array of chat ids (strings: a group's id is a large negative number)
  chat_ids TEXT NOT NULL DEFAULT '[]',
  language TEXT NOT NULL DEFAULT 'lo' CHECK (language IN ('lo', 'cn', 'vn')),
  -- Vientiane clock "HH:MM"; both NULL: no quiet hours. start > end wraps midnight.
  quiet_start TEXT,
  quiet_end TEXT,
  -- JSON array of the event kinds to send (core/alerts.ts ALERT_KINDS)
  kinds TEXT NOT NULL DEFAULT '[]',
  withdrawal_reminder_minutes INTEGER NOT NULL DEFAULT 15 CHECK (withdrawal_reminder_minutes BETWEEN 1 AND 1440),
  deposit_wait_minutes INTEGER NOT NULL DEFAULT 10 CHECK (deposit_wait_minutes BETWEEN 1 AND 1440),
  -- hour of the daily summary, Vientiane clock; NULL: none
  summary_hour INTEGER CHECK (summary_hour BETWEEN 0 AND 23),
  updated_by TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Every event raised, once: `id` names the event itself (e.g. "withdrawal.waiting:W123"), so
-- raising it twice, or the queue delivering its message twice, sends nothing new.
--   queued    waiting in the queue (or for its retry)
--   held      raised in quiet hours: sent in one digest when they end
--   delivered every chat accepted it (delivered_to lists them as they accept)
--   failed    its retries ran out (the dead-letter queue) or the setup refused it:
--             the dashboard shows it under "alerts not delivered"
CREATE TABLE alert_events (
  id TEXT NOT NULL,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  kind TEXT NOT NULL,
  -- JSON facts for the message (amounts, codes, masked account): never a secret
  facts TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'held', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  delivered_to TEXT NOT NULL DEFAULT '[]',
  last_error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (agency_id, id)
);
CREATE INDEX alert_events_state ON alert_events(agency_id, state, created_at);
