-- Promotions: the agency's catalogue (staff edit it; players read it) and the read model
-- of each player's usages. The usage itself — its state and its money — lives in the
-- player's wallet Durable Object, next to the deposit and withdraw orders it guards.
CREATE TABLE promotions (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  status TEXT NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'INACTIVE')),
  -- JSON {"lo": "...", "cn": "...", "vn": "..."}; lo is required, the others fall back to it.
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  image_url TEXT,
  -- Bonus: FIXED = bonus_value credit; PERCENT = bonus_value % of the deposit's credit, at
  -- most bonus_cap credit. Amounts are decimal strings (credit, THB) — never floats.
  bonus_kind TEXT NOT NULL CHECK (bonus_kind IN ('FIXED', 'PERCENT')),
  bonus_value TEXT NOT NULL,
  bonus_cap TEXT,
  -- The deposit must equal this many kip (NULL: any amount within the agency's limits).
  set_amount TEXT,
  first_order_only INTEGER NOT NULL DEFAULT 0 CHECK (first_order_only IN (0, 1)),
  -- The player's credit at the provider must be below this to claim, and to deposit again
  -- while the promotion is in use (PROMOTION_CREDIT_USED). Credit, THB.
  credit_threshold TEXT NOT NULL DEFAULT '10',
  -- Turnover requirement: bets of at least multiple x (deposit credit + bonus).
  turnover_multiple TEXT NOT NULL DEFAULT '0',
  -- At most this much credit is received on a withdrawal; the excess is returned to the
  -- agency (NULL: no maximum).
  max_withdraw_credit TEXT,
  withdraw_all INTEGER NOT NULL DEFAULT 0 CHECK (withdraw_all IN (0, 1)),
  -- JSON array of provider codes the promotion applies to.
  providers TEXT NOT NULL DEFAULT '["askmebet","betflix","gclub","gclub_live","alphabet"]',
  sort_order INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX promotions_agency ON promotions(agency_id, status, sort_order);

-- Projected from the wallets (like deposit_orders_view) for staff lists and reports.
CREATE TABLE promotion_usages_view (
  id TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL,
  player_id TEXT NOT NULL,
  promotion_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  status TEXT NOT NULL,
  deposit_code TEXT,
  bonus TEXT,
  reason TEXT,
  claimed_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX promotion_usages_view_agency ON promotion_usages_view(agency_id, status, claimed_at);
CREATE INDEX promotion_usages_view_player ON promotion_usages_view(agency_id, player_id);
