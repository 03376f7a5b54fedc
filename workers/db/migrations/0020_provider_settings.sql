-- Issue 14: which adapter reaches each game provider of an agency (decision 017).
-- adapter: 'sandbox' (our sandbox Worker, local environments only), 'amb' (AMB Super API),
-- 'betflix' (Betflix v4) or 'disabled'. base_url is the provider's API (https outside local);
-- product_code is AMB's productId or Betflix's brand list (comma separated); lobby_url is
-- Betflix's game entrance; image_url is where game pictures live (the CSP admits its host).
-- The credentials stay in provider_credentials (sealed with CREDENTIALS_KEY); a change of
-- base_url requires new credentials in the same change (the service enforces it).
-- No row = the default: the sandbox where its binding exists (npm start, tests), else not
-- configured (nothing is sent anywhere).
CREATE TABLE provider_settings (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  provider TEXT NOT NULL,
  adapter TEXT NOT NULL CHECK (adapter IN ('sandbox', 'amb', 'betflix', 'disabled')),
  base_url TEXT,
  product_code TEXT,
  lobby_url TEXT,
  image_url TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (agency_id, provider)
);
