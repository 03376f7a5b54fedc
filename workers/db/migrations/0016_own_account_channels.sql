-- Issue 14: a payment channel can be the agency's own bank account (no gateway contract).
-- Such a channel has gateway = 'own_account'; its iin, mid (the bank's receiver token from
-- tag 38.03), merchant_name and merchant_city are read from the static LAO QR the bank app
-- gives the account holder, kept whole in static_qr. qr_mode says what a player is shown:
-- 'derived' = a dynamic QR per order (01 = 12, amount, order code in 62), 'static' = the
-- bank's QR as is, the player types the exact amount (decision 016).
ALTER TABLE payment_channels ADD COLUMN static_qr TEXT;
ALTER TABLE payment_channels ADD COLUMN qr_mode TEXT NOT NULL DEFAULT 'derived' CHECK (qr_mode IN ('derived', 'static'));
