-- Issue 18 (referral, cashback): each player's daily turnover and win/loss at each game
-- provider, collected by the scheduled job beside provider_daily_stats (one periodSummary
-- per player who holds an account at the provider). Cashback and the referral share of net
-- loss are computed from these rows, never from deposits.
-- Amounts are integers in credit minor units (THB satang); win_loss_minor is the AGENCY's
-- side like provider_daily_stats: positive = the player lost (the player's net loss).
-- Only 'ok' figures are stored; a day the provider could not answer has no row (a reward
-- for a period with a missing day waits: services say so instead of paying on a guess).
CREATE TABLE player_provider_daily (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL REFERENCES players(id),
  provider TEXT NOT NULL,
  day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  turnover_minor INTEGER NOT NULL,
  win_loss_minor INTEGER NOT NULL,
  collected_at TEXT NOT NULL,
  PRIMARY KEY (agency_id, player_id, provider, day)
);
CREATE INDEX player_provider_daily_by_day ON player_provider_daily (agency_id, day);
