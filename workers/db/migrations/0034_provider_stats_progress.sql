-- Issue 35 item 6 (decision 051): the hourly collection of the providers' figures works in
-- bounded batches of players with a cursor, so one scheduled run never holds the Worker for
-- all players at once and a pass over 100,000 players resumes across runs. One row per
-- provider-day of an agency: the pass in progress (done_at NULL) or the last one finished.
CREATE TABLE provider_stats_progress (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  provider TEXT NOT NULL,
  day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  -- the pass: when it started (the figures' collected_at), the last player id done (players
  -- are taken in id order; '' = none yet), the sums so far (credit minor units, agency side)
  started_at TEXT NOT NULL,
  cursor TEXT NOT NULL DEFAULT '',
  players INTEGER NOT NULL DEFAULT 0,
  turnover_minor INTEGER NOT NULL DEFAULT 0,
  win_loss_minor INTEGER NOT NULL DEFAULT 0,
  done_at TEXT,
  -- the reason the provider could not answer a batch (the day was recorded unavailable)
  failure TEXT,
  PRIMARY KEY (agency_id, provider, day)
);
CREATE INDEX provider_stats_progress_open ON provider_stats_progress (started_at) WHERE done_at IS NULL;
-- a page of an agency's players in id order, each with a successful deposit at the provider
CREATE INDEX players_agency_id ON players (agency_id, id);
CREATE INDEX deposit_orders_view_player_provider ON deposit_orders_view (player_id, provider, status);
