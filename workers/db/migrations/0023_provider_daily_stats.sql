-- Issue 17: game providers' daily figures for the reports (decision 058).
-- One row per agency, provider and Asia/Vientiane day, written by the scheduled job
-- (services/provider-stats.ts collectProviderStats) for yesterday and today, upserted
-- (a re-run replaces the figures, never adds to them).
-- Amounts are integers in credit minor units (THB satang):
--   turnover_minor  the sum of the day's valid bets of the agency's players;
--   win_loss_minor  the agency's result, stakes minus payouts: positive = the players lost.
-- status 'unavailable' = the provider could not be read (down, too slow, unreadable, or no
-- such report): the figures are NULL, never 0, and earlier 'ok' figures are kept.
CREATE TABLE provider_daily_stats (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  provider TEXT NOT NULL,
  day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  status TEXT NOT NULL CHECK (status IN ('ok', 'unavailable')),
  turnover_minor INTEGER,
  win_loss_minor INTEGER,
  reason TEXT,
  collected_at TEXT NOT NULL,
  PRIMARY KEY (agency_id, provider, day),
  CHECK ((status = 'ok' AND turnover_minor IS NOT NULL AND win_loss_minor IS NOT NULL) OR (status = 'unavailable' AND turnover_minor IS NULL AND win_loss_minor IS NULL))
);
