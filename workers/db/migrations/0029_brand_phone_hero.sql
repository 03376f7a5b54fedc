-- Decision 038: a hero drawn for a phone. Optional: a phone shows it instead of the hero when
-- the agency has one (the landing's <picture>), so the landing stays inside its 50 KB budget
-- without Workers resizing anything. The slot joins the others in brand_assets; SQLite cannot
-- change a CHECK in place, so that table is rebuilt with the same rows (no other table
-- references it).
ALTER TABLE agency_brand ADD COLUMN hero_phone_name TEXT;

CREATE TABLE brand_assets_next (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  name TEXT NOT NULL,
  slot TEXT NOT NULL CHECK (slot IN ('logo', 'icon', 'hero', 'heroPhone', 'banner')),
  content_type TEXT NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp', 'image/avif')),
  byte_size INTEGER NOT NULL CHECK (byte_size > 0),
  width INTEGER NOT NULL CHECK (width > 0),
  height INTEGER NOT NULL CHECK (height > 0),
  sha256 TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (agency_id, name)
);
INSERT INTO brand_assets_next (agency_id, name, slot, content_type, byte_size, width, height, sha256, created_at)
  SELECT agency_id, name, slot, content_type, byte_size, width, height, sha256, created_at FROM brand_assets;
DROP TABLE brand_assets;
ALTER TABLE brand_assets_next RENAME TO brand_assets;
