-- One-scan payouts (decision 086).
--
-- The player's "receive money" LAO QR, kept with their bank account: the QR text as the bank
-- app encoded it, and its receiver (IIN and the bank's receiver token, tag 38.01 and 38.03)
-- that one player of an agency holds at most. NULL for an account added without a QR: that
-- player is paid as before, by account number.
ALTER TABLE bank_accounts ADD COLUMN receive_qr TEXT;
ALTER TABLE bank_accounts ADD COLUMN receive_qr_receiver TEXT;
CREATE UNIQUE INDEX bank_accounts_receive_qr ON bank_accounts(agency_id, receive_qr_receiver) WHERE receive_qr_receiver IS NOT NULL;

-- The player banks whose QR with the amount inserted (a derived QR) the agency's bank app on
-- this channel accepts, as the owner found by trying: bank codes separated by spaces. Empty
-- (the default): the cashier is shown the player's static QR and the amount beside it.
ALTER TABLE payment_channels ADD COLUMN payout_qr_banks TEXT NOT NULL DEFAULT '';
