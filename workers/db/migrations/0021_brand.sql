-- Issue 15: each agency's brand (decision 018). One row per agency that set one; no row, or
-- a NULL column, is the neutral default of workers/core/brand.ts for that part (never
-- another agency's). Texts per language; colours as #rrggbb (each on-screen pair checked
-- for 4.5:1 by the service before saving); the current logo, icon and hero name a row of
-- brand_assets of the same agency.
CREATE TABLE agency_brand (
  agency_id TEXT PRIMARY KEY REFERENCES agencies(id),
  site_name_lo TEXT,
  site_name_cn TEXT,
  site_name_vn TEXT,
  hero_title_lo TEXT,
  hero_title_cn TEXT,
  hero_title_vn TEXT,
  hero_subtitle_lo TEXT,
  hero_subtitle_cn TEXT,
  hero_subtitle_vn TEXT,
  color_primary TEXT CHECK (color_primary GLOB '#[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
  color_primary_text TEXT CHECK (color_primary_text GLOB '#[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
  color_accent TEXT CHECK (color_accent GLOB '#[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
  color_accent_text TEXT CHECK (color_accent_text GLOB '#[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
  logo_name TEXT,
  icon_name TEXT,
  hero_name TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Every image an agency uploaded (brand slots and promotion banners): the object is in the
-- BRAND_ASSETS R2 bucket at agencies/<agency_id>/<name>; name = <slot>-<sha256 hex 12>.<ext>
-- (content-hashed: the same bytes are the same name, so a re-upload is a no-op). Objects are
-- never overwritten; a removed slot keeps its object (links shared with og:image stay whole).
CREATE TABLE brand_assets (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  name TEXT NOT NULL,
  slot TEXT NOT NULL CHECK (slot IN ('logo', 'icon', 'hero', 'banner')),
  content_type TEXT NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp', 'image/avif')),
  byte_size INTEGER NOT NULL CHECK (byte_size > 0),
  width INTEGER NOT NULL CHECK (width > 0),
  height INTEGER NOT NULL CHECK (height > 0),
  sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (agency_id, name)
);
