-- The player's transfer slip (decision 087, issue 49).
--
-- A slip is a report of its own source ('slip': the player's, untrusted). It is kept here, not
-- in bank_witnesses: the derivation of transfers (decision 069) reads bank_witnesses, and a slip
-- must never take part in it (it never credits, never joins or splits a transfer). What a slip
-- says is its OneProof QR (the ticket and the bank's reference of the transfer); the picture is
-- in the BRAND_ASSETS bucket under slips/<agency>/<id>, served to staff only.
CREATE TABLE deposit_slips (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  order_code TEXT NOT NULL,
  player_id TEXT NOT NULL,
  channel_code TEXT NOT NULL,
  source TEXT NOT NULL DEFAULT 'slip' CHECK (source = 'slip'),
  ticket TEXT NOT NULL,
  reference TEXT NOT NULL,             -- the bank's reference (OneProof 33.04)
  qr_text TEXT NOT NULL,               -- the QR as read
  content_type TEXT NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  bytes INTEGER NOT NULL,
  -- 1 when the same slip (the same bank reference) was added to another order too: both flagged
  conflict INTEGER NOT NULL DEFAULT 0,
  received_at INTEGER NOT NULL,
  -- staff checked it and took it off the queue (who, when); the order's payment closes it too
  checked_by TEXT,
  checked_at INTEGER
);
-- one slip per order and reference: the same picture sent twice is one slip
CREATE UNIQUE INDEX deposit_slips_order_reference ON deposit_slips(agency_id, order_code, reference);
-- the same slip on another order (the conflict), and the slips of an order
CREATE INDEX deposit_slips_reference ON deposit_slips(agency_id, reference);
-- the cashier's queue: slips not checked yet, newest first
CREATE INDEX deposit_slips_waiting ON deposit_slips(agency_id, received_at) WHERE checked_at IS NULL;

-- The owner confirmed, from a real slip beside its SMS or statement row, that this channel's
-- bank reports the same reference as the slip's OneProof: a slip then links by that id to the
-- report of its transfer (shown, never credited). Default off: the slip is shown beside the
-- candidates instead. Changed on the channels page, audited.
ALTER TABLE payment_channels ADD COLUMN slip_reference_confirmed INTEGER NOT NULL DEFAULT 0 CHECK (slip_reference_confirmed IN (0, 1));
