-- Decision 053: brand images no page has referred to for 30 days are deleted (R2 object and
-- record) by the hourly scheduled job. `unreferenced_since` (ms since the epoch) is set by the
-- job when it first finds the image unused by the agency's brand slots and promotions, and
-- cleared when a page uses it again; NULL for an image in use.
ALTER TABLE brand_assets ADD COLUMN unreferenced_since INTEGER;
CREATE INDEX brand_assets_unreferenced ON brand_assets(unreferenced_since) WHERE unreferenced_since IS NOT NULL;
