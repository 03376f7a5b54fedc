-- Demo agency for local use (npm start) and tests. Idempotent: safe to run again.
INSERT OR IGNORE INTO agencies (id, name, status) VALUES ('demo', 'Demo Agency', 'ACTIVE');
INSERT OR IGNORE INTO agency_domains (host, agency_id) VALUES ('localhost', 'demo'), ('127.0.0.1', 'demo');
INSERT OR IGNORE INTO agency_settings (agency_id, fallback_language, social_telegram, social_whatsapp, social_facebook, social_twitter, social_line)
VALUES ('demo', 'lo', 'https://t.me/demo_agency', 'https://wa.me/8562055555555', 'https://www.facebook.com/demo.agency', 'https://x.com/demo_agency', 'https://line.me/R/ti/p/@demo_agency');
-- A disabled agency, reachable as disabled.localhost, to see the error page.
INSERT OR IGNORE INTO agencies (id, name, status) VALUES ('closed', 'Closed Agency', 'DISABLED');
INSERT OR IGNORE INTO agency_domains (host, agency_id) VALUES ('disabled.localhost', 'closed');
INSERT OR IGNORE INTO agency_settings (agency_id) VALUES ('closed');
