-- Demo agency for local use (npm start) and tests. Idempotent: safe to run again.
INSERT OR IGNORE INTO agencies (id, name, status) VALUES ('demo', 'Demo Agency', 'ACTIVE');
INSERT OR IGNORE INTO agency_domains (host, agency_id) VALUES ('localhost', 'demo'), ('127.0.0.1', 'demo');
INSERT INTO agency_settings (agency_id, fallback_language, social_telegram, social_whatsapp, social_facebook, social_twitter, social_line, deposit_min, deposit_max, withdraw_min, withdraw_max)
VALUES ('demo', 'lo', 'https://t.me/demo_agency', 'https://wa.me/8562055555555', 'https://www.facebook.com/demo.agency', 'https://x.com/demo_agency', 'https://line.me/R/ti/p/@demo_agency', '10000', '50000000', '100', '50000')
ON CONFLICT(agency_id) DO UPDATE SET deposit_min = excluded.deposit_min, deposit_max = excluded.deposit_max, withdraw_min = excluded.withdraw_min, withdraw_max = excluded.withdraw_max;
-- Deposits in LAK go to the sandbox bank's demo merchant; 1 THB of credit = 600 LAK (sell), 580 LAK (buy back).
INSERT OR IGNORE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, gateway)
VALUES ('demo', 'BCEL-QR', 'DEMO0001', 'BCEL OnePay (LAO QR)', 'LAK', 'BCEL', '27710418', 'DEMO AGENCY', 'VIENTIANE', 'sandbox');
INSERT OR IGNORE INTO exchange_rates (agency_id, currency, buy, sell) VALUES ('demo', 'THB', '580', '600');
-- A disabled agency, reachable as disabled.localhost, to see the error page.
INSERT OR IGNORE INTO agencies (id, name, status) VALUES ('closed', 'Closed Agency', 'DISABLED');
INSERT OR IGNORE INTO agency_domains (host, agency_id) VALUES ('disabled.localhost', 'closed');
INSERT OR IGNORE INTO agency_settings (agency_id) VALUES ('closed');
