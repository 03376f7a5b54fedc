-- Transfers derived from every report (decision 069, superseding 046's links made once).
--
-- bank_witnesses becomes the list of every report as it arrived (staff "mark paid", a forwarded
-- message, a statement row): none is dropped any more. Which transfer a report belongs to
-- (transfer_id, link) is derived from all reports of the same channel, direction and amount,
-- and derived again whenever one arrives or the owner acts. So the unique index "one witness
-- per source per transfer" goes: the derivation keeps that rule, and a second statement row is
-- kept (as a second transfer) instead of being refused and lost.
DROP INDEX IF EXISTS bank_witnesses_one_per_source;
CREATE INDEX bank_witnesses_transfer ON bank_witnesses(agency_id, channel_code, transfer_id);
ALTER TABLE bank_witnesses ADD COLUMN direction TEXT NOT NULL DEFAULT 'credit' CHECK (direction IN ('credit', 'debit'));
UPDATE bank_witnesses SET direction = 'debit'
 WHERE EXISTS (SELECT 1 FROM bank_transactions t WHERE t.agency_id = bank_witnesses.agency_id AND t.channel_code = bank_witnesses.channel_code
                  AND t.bank_transaction_id = bank_witnesses.transfer_id AND t.direction = 'debit');
-- dated after it arrived (beyond the clock grace): kept and listed, never linked by time
ALTER TABLE bank_witnesses ADD COLUMN future INTEGER NOT NULL DEFAULT 0;
-- a derivation's scope: one channel, direction and amount around a time
CREATE INDEX bank_witnesses_scope ON bank_witnesses(agency_id, channel_code, direction, amount, bank_time);

-- Each credit a transfer caused, tied to the report whose transfer it paid: the order it paid
-- through the player's wallet ('order', code = the order), or a hand credit from the payments
-- queue ('hand', code = the MANUAL order). for_order: the order whose money it was (the order
-- paid; for a hand credit, the order whose unique pay amount the payment carried, unless the
-- owner said it was money of its own), so a later report of that order is known as the same
-- payment. A derived transfer with two unsettled credits was credited twice; the owner settles
-- the surplus (reversed at the provider, or a recorded loss).
CREATE TABLE bank_credits (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  code TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('order', 'hand')),
  channel_code TEXT NOT NULL,
  source TEXT NOT NULL,
  witness_id TEXT NOT NULL,
  player_id TEXT,
  amount TEXT NOT NULL,
  for_order TEXT,
  credited_at INTEGER NOT NULL,
  settled TEXT CHECK (settled IN ('reversed', 'loss')),
  settled_by TEXT,
  settled_reason TEXT,
  settled_at INTEGER,
  PRIMARY KEY (agency_id, code)
);
CREATE INDEX bank_credits_report ON bank_credits(agency_id, channel_code, source, witness_id);
INSERT OR IGNORE INTO bank_credits (agency_id, code, kind, channel_code, source, witness_id, player_id, amount, for_order, credited_at)
SELECT t.agency_id, t.order_code, 'order', t.channel_code, t.source, t.bank_transaction_id, t.player_id, t.amount, t.order_code, t.recorded_at
  FROM bank_transactions t WHERE t.direction = 'credit' AND t.outcome = 'APPLIED' AND t.order_code IS NOT NULL;
INSERT OR IGNORE INTO bank_credits (agency_id, code, kind, channel_code, source, witness_id, player_id, amount, credited_at)
SELECT u.agency_id, u.manual_code, 'hand', u.channel_code, t.source, t.bank_transaction_id, u.resolved_player_id, COALESCE(u.amount, t.amount), t.recorded_at
  FROM unmatched_payments u
  JOIN bank_transactions t ON t.agency_id = u.agency_id AND t.channel_code = u.channel_code
   AND u.transaction_id = u.agency_id || ':' || u.channel_code || ':' || t.bank_transaction_id
 WHERE u.status IN ('RESOLVING', 'CREDITED') AND u.manual_code IS NOT NULL;

-- What the derivation wrote on each transfer: its unsettled credits, and the payments-queue
-- item that speaks for it (one per transfer).
ALTER TABLE bank_transactions ADD COLUMN credits INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bank_transactions ADD COLUMN queue_id TEXT;
UPDATE bank_transactions SET credits = (SELECT COUNT(*) FROM bank_credits c WHERE c.agency_id = bank_transactions.agency_id
  AND c.channel_code = bank_transactions.channel_code AND c.witness_id = bank_transactions.bank_transaction_id);
UPDATE bank_transactions SET queue_id = (SELECT u.id FROM unmatched_payments u WHERE u.agency_id = bank_transactions.agency_id
  AND u.transaction_id = bank_transactions.agency_id || ':' || bank_transactions.channel_code || ':' || bank_transactions.bank_transaction_id);

-- One version per derivation scope: a derivation writes only if nobody derived the same scope
-- since it read (the CHECK makes a stale write fail, and the batch with it).
CREATE TABLE bank_derivations (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  channel_code TEXT NOT NULL,
  direction TEXT NOT NULL,
  amount TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version >= 0),
  PRIMARY KEY (agency_id, channel_code, direction, amount)
);
