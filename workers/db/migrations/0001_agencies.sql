-- Agencies, the domains that reach them, and their settings.
-- Every row that belongs to an agency carries agency_id; every query is scoped by it.
CREATE TABLE agencies (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'DISABLED')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- A host name (no port, lower case) belongs to exactly one agency.
CREATE TABLE agency_domains (
  host TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id)
);
CREATE INDEX agency_domains_agency ON agency_domains(agency_id);

CREATE TABLE agency_settings (
  agency_id TEXT PRIMARY KEY REFERENCES agencies(id),
  fallback_language TEXT NOT NULL DEFAULT 'lo' CHECK (fallback_language IN ('lo', 'cn', 'vn')),
  social_telegram TEXT,
  social_whatsapp TEXT,
  social_facebook TEXT,
  social_twitter TEXT,
  social_line TEXT,
  -- Limits as decimal strings (money is never a float): deposits in LAK (what the player
  -- pays), withdrawals in credit (what leaves the provider wallet).
  deposit_min TEXT NOT NULL DEFAULT '10000',
  deposit_max TEXT NOT NULL DEFAULT '50000000',
  withdraw_min TEXT NOT NULL DEFAULT '100',
  withdraw_max TEXT NOT NULL DEFAULT '50000',
  -- JSON array of provider codes this agency offers.
  enabled_providers TEXT NOT NULL DEFAULT '["askmebet","betflix","gclub","gclub_live","alphabet"]'
);
