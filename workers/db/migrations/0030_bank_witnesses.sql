-- Issue 31: one payment, one credit (decision 046). A bank transfer is seen by up to three
-- witnesses (staff "mark paid", the statement import, the notification forwarder), often
-- under different ids or none. bank_transactions keeps one row per TRANSFER (its key is the
-- first witness's id); bank_witnesses keeps every witness of it, so a later witness under
-- another id is linked instead of becoming a second transfer (and a second credit).

-- bank_transactions is rebuilt (SQLite cannot alter a CHECK): debits are kept too (statement
-- debit rows, forwarded debit messages: reconciliation matches them to withdrawals paid), with
-- the outcome 'DEBIT' (nothing is applied for them).
CREATE TABLE bank_transactions_new (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  channel_code TEXT NOT NULL,
  bank_transaction_id TEXT NOT NULL,
  direction TEXT NOT NULL DEFAULT 'credit' CHECK (direction IN ('credit', 'debit')),
  amount TEXT NOT NULL,                -- LAK, canonical decimal string
  bank_time INTEGER NOT NULL,          -- ms: when the bank says the money moved
  reference TEXT,
  source TEXT NOT NULL CHECK (source IN ('staff', 'statement', 'forwarder')),
  raw TEXT,
  outcome TEXT NOT NULL DEFAULT 'PENDING' CHECK (outcome IN ('PENDING', 'APPLIED', 'NO_ORDER', 'AMBIGUOUS', 'LATE', 'DEBIT')),
  order_code TEXT,
  player_id TEXT,
  staff_username TEXT,
  recorded_at INTEGER NOT NULL,
  PRIMARY KEY (agency_id, channel_code, bank_transaction_id)
);
INSERT INTO bank_transactions_new (agency_id, channel_code, bank_transaction_id, direction, amount, bank_time, reference, source, raw, outcome, order_code, player_id, staff_username, recorded_at)
SELECT agency_id, channel_code, bank_transaction_id, 'credit', amount, bank_time, reference, source, raw, outcome, order_code, player_id, staff_username, recorded_at
FROM bank_transactions;
DROP TABLE bank_transactions;
ALTER TABLE bank_transactions_new RENAME TO bank_transactions;
CREATE INDEX bank_transactions_order ON bank_transactions(agency_id, order_code);
-- the window rule: the same amount on the same account within minutes of the bank's time
CREATE INDEX bank_transactions_amount ON bank_transactions(agency_id, channel_code, direction, amount, bank_time);
-- the reconciliation page: a bank day of every channel
CREATE INDEX bank_transactions_day ON bank_transactions(agency_id, bank_time);

-- Every witness of a transfer. The key witness has witness_id = transfer_id (link 'key');
-- others were linked by the same id ('id'), by amount and bank time on the account within the
-- channel's window ('window'), or because their text names the order the transfer paid
-- ('order'). At most one witness per source and transfer (the unique index is also what
-- settles two witnesses racing for one transfer): a second statement row or forwarded message
-- with another id is another transfer. A witness split off by staff (the player really paid
-- twice) becomes the key of a transfer of its own ('split', with who, when and why).
CREATE TABLE bank_witnesses (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  channel_code TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('staff', 'statement', 'forwarder')),
  witness_id TEXT NOT NULL,            -- the id this source reported (a bank id, or a digest when it had none)
  transfer_id TEXT NOT NULL,           -- bank_transactions.bank_transaction_id of the transfer
  amount TEXT NOT NULL,
  bank_time INTEGER NOT NULL,
  reference TEXT,
  raw TEXT,
  link TEXT NOT NULL CHECK (link IN ('key', 'id', 'window', 'order', 'split')),
  staff_username TEXT,
  recorded_at INTEGER NOT NULL,
  split_by TEXT,
  split_reason TEXT,
  split_at INTEGER,
  PRIMARY KEY (agency_id, channel_code, source, witness_id)
);
CREATE UNIQUE INDEX bank_witnesses_one_per_source ON bank_witnesses(agency_id, channel_code, transfer_id, source);
-- the id rule: an id seen by any source (a bank id learned later is an alias of the key)
CREATE INDEX bank_witnesses_id ON bank_witnesses(agency_id, channel_code, witness_id);
INSERT INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, reference, raw, link, staff_username, recorded_at)
SELECT agency_id, channel_code, source, bank_transaction_id, bank_transaction_id, amount, bank_time, reference, raw, 'key', staff_username, recorded_at
FROM bank_transactions;

-- The window of the amount+time rule, per channel (minutes; unique pay amounts make it strong).
ALTER TABLE payment_channels ADD COLUMN witness_window_minutes INTEGER NOT NULL DEFAULT 10 CHECK (witness_window_minutes BETWEEN 1 AND 1440);

-- Each statement import: its channel and the bank-time range its rows cover (a day is
-- "covered" for reconciliation once an import's range holds it). Uploads themselves are
-- still deleted after a day; their rows live on in bank_transactions / bank_witnesses.
CREATE TABLE statement_imports (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  channel_code TEXT NOT NULL,
  file_name TEXT NOT NULL,
  bank_time_from INTEGER NOT NULL,
  bank_time_to INTEGER NOT NULL,
  credit_rows INTEGER NOT NULL,
  debit_rows INTEGER NOT NULL,
  imported_by TEXT,
  imported_at INTEGER NOT NULL
);
CREATE INDEX statement_imports_range ON statement_imports(agency_id, bank_time_from, bank_time_to);

-- Staff notes on a bank day's differences (reconciliation page): a day is closed once a
-- statement covers it and every difference has a note.
CREATE TABLE reconciliation_notes (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  bank_day TEXT NOT NULL,              -- YYYY-MM-DD in Vientiane time (UTC+7)
  line_key TEXT NOT NULL,              -- the difference line's stable key
  note TEXT NOT NULL,
  staff_username TEXT,
  noted_at INTEGER NOT NULL,
  PRIMARY KEY (agency_id, bank_day, line_key)
);
