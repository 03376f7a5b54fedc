-- One bank account per player; an account number belongs to one player of an agency.
CREATE TABLE bank_accounts (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  player_id TEXT NOT NULL REFERENCES players(id),
  bank_code TEXT NOT NULL,
  account_number TEXT NOT NULL,
  account_name TEXT NOT NULL,
  currency TEXT NOT NULL CHECK (currency = 'LAK'),
  owner TEXT NOT NULL CHECK (owner = 'SELF'),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE UNIQUE INDEX bank_accounts_one_per_player ON bank_accounts(agency_id, player_id);
CREATE UNIQUE INDEX bank_accounts_number ON bank_accounts(agency_id, bank_code, account_number);
