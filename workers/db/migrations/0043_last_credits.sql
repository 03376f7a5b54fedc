-- The last credit the portal knows of each player at each provider (decision 081): written
-- after the answer whenever a provider's balance is read successfully, read with the time
-- played on every page so the header shows a figure without asking any provider. The amount
-- is the provider's answer as exact decimal text (no floats, workers/core/money.ts); seen_at
-- is when it was read (ms), and an older read never overwrites a newer one.
CREATE TABLE last_credits (
  agency_id TEXT NOT NULL,
  player_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  amount TEXT NOT NULL,
  currency TEXT NOT NULL,
  seen_at INTEGER NOT NULL,
  PRIMARY KEY (agency_id, player_id, provider)
) WITHOUT ROWID;
