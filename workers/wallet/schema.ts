/**
 * The wallet's own schema, versioned: each step runs once per object, in order (an object
 * created before a step gets it on its next start). Steps are never edited, only added.
 */
const SCHEMA_STEPS: string[][] = [];
const SCHEMA_V1 = [
  `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS deposit_orders (
     code TEXT PRIMARY KEY,
     idempotency_key TEXT NOT NULL UNIQUE,
     provider TEXT NOT NULL,
     channel_code TEXT NOT NULL,
     amount_minor TEXT NOT NULL,
     credit_minor TEXT NOT NULL,
     rate_sell TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('OPEN','CANCELED','PAID','SUCCESS','FAILED','REJECTED')),
     flag TEXT,
     qr_payload TEXT,
     expires_at INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     paid_at INTEGER,
     settled_at INTEGER,
     gateway_txn TEXT UNIQUE,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER,
     last_poll_at INTEGER,
     notified INTEGER NOT NULL DEFAULT 0,
     projected INTEGER NOT NULL DEFAULT 0
   )`,
  // one OPEN deposit order per player, enforced by the storage itself
  `CREATE UNIQUE INDEX IF NOT EXISTS one_open_deposit ON deposit_orders(status) WHERE status = 'OPEN'`,
  `CREATE TABLE IF NOT EXISTS withdraw_orders (
     code TEXT PRIMARY KEY,
     idempotency_key TEXT NOT NULL UNIQUE,
     provider TEXT NOT NULL,
     credit_minor TEXT NOT NULL,
     net_credit_minor TEXT NOT NULL,
     received_lak_minor TEXT NOT NULL,
     rate_buy TEXT NOT NULL,
     bank_code TEXT NOT NULL,
     account_number TEXT NOT NULL,
     account_name TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('PENDING','OPEN','SUCCESS','REJECTED','FAILED')),
     review TEXT NOT NULL CHECK (review IN ('AUTO','MANUAL','APPROVED')),
     payout_state TEXT CHECK (payout_state IN ('REQUESTED','UNKNOWN')),
     payout_txn TEXT,
     return_state TEXT CHECK (return_state IN ('PENDING','DONE')),
     reason TEXT,
     created_at INTEGER NOT NULL,
     transferred_at INTEGER,
     completed_at INTEGER,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER,
     projected INTEGER NOT NULL DEFAULT 0
   )`,
  `CREATE TABLE IF NOT EXISTS ledger (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     order_code TEXT NOT NULL,
     entry TEXT NOT NULL,
     account TEXT NOT NULL,
     currency TEXT NOT NULL,
     amount_minor TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     UNIQUE (order_code, entry, account, currency)
   )`,
];
SCHEMA_STEPS.push(SCHEMA_V1);
// v2: announce settled withdrawals once, like deposits
SCHEMA_STEPS.push([`ALTER TABLE withdraw_orders ADD COLUMN notified INTEGER NOT NULL DEFAULT 0`]);
// v3: promotion usages, the bonus leg of a deposit's settlement, deductions on withdrawals,
// and the state machines guarded by the storage itself (decisions 004 and 005).
SCHEMA_STEPS.push([
  `CREATE TABLE promotion_usages (
     id TEXT PRIMARY KEY,
     promotion_id TEXT NOT NULL,
     provider TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('CLAIMED','USED','SUCCESS','CANCELED')),
     rules_json TEXT NOT NULL,
     deposit_code TEXT,
     deposit_credit_minor TEXT,
     bonus_minor TEXT,
     turnover_target_minor TEXT,
     turnover_start_minor TEXT,
     withdraw_code TEXT,
     reason TEXT,
     claimed_at INTEGER NOT NULL,
     used_at INTEGER,
     ended_at INTEGER,
     bonus_credited INTEGER NOT NULL DEFAULT 0,
     projected INTEGER NOT NULL DEFAULT 0
   )`,
  // one active promotion per player, enforced by the storage itself
  `CREATE UNIQUE INDEX one_active_usage ON promotion_usages((status IN ('CLAIMED','USED'))) WHERE status IN ('CLAIMED','USED')`,
  `CREATE TRIGGER usage_arrows BEFORE UPDATE OF status ON promotion_usages
     WHEN OLD.status <> NEW.status AND NOT (
       (OLD.status = 'CLAIMED' AND NEW.status IN ('USED','CANCELED')) OR
       (OLD.status = 'USED' AND NEW.status IN ('SUCCESS','CANCELED')))
     BEGIN SELECT RAISE(ABORT, 'refused promotion usage transition'); END`,
  `CREATE TRIGGER deposit_arrows BEFORE UPDATE OF status ON deposit_orders
     WHEN OLD.status <> NEW.status AND NOT (
       (OLD.status = 'OPEN' AND NEW.status IN ('PAID','CANCELED')) OR
       (OLD.status = 'PAID' AND NEW.status IN ('SUCCESS','FAILED')) OR
       (OLD.status = 'FAILED' AND NEW.status = 'PAID'))
     BEGIN SELECT RAISE(ABORT, 'refused deposit transition'); END`,
  `CREATE TRIGGER withdraw_arrows BEFORE UPDATE OF status ON withdraw_orders
     WHEN OLD.status <> NEW.status AND NOT (
       (OLD.status = 'PENDING' AND NEW.status IN ('OPEN','FAILED')) OR
       (OLD.status = 'OPEN' AND NEW.status IN ('SUCCESS','REJECTED')))
     BEGIN SELECT RAISE(ABORT, 'refused withdraw transition'); END`,
  `ALTER TABLE deposit_orders ADD COLUMN usage_id TEXT`,
  `ALTER TABLE deposit_orders ADD COLUMN bonus_minor TEXT`,
  `ALTER TABLE deposit_orders ADD COLUMN bonus_state TEXT CHECK (bonus_state IN ('PENDING','DONE','FAILED'))`,
  `ALTER TABLE deposit_orders ADD COLUMN bonus_attempts INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE deposit_orders ADD COLUMN bonus_next_at INTEGER`,
  `ALTER TABLE deposit_orders ADD COLUMN turnover_start_minor TEXT`,
  `ALTER TABLE withdraw_orders ADD COLUMN usage_id TEXT`,
  `ALTER TABLE withdraw_orders ADD COLUMN usage_outcome TEXT CHECK (usage_outcome IN ('SUCCESS','CANCELED'))`,
  `ALTER TABLE withdraw_orders ADD COLUMN deductions_json TEXT NOT NULL DEFAULT '[]'`,
]);

// v4 (own-account channels, decision 016): an order keeps the amount the player
// must pay (unique per channel) beside the amount asked; a payment the bank made within the
// order's life counts even when the wallet had already expired the order: CANCELED -> PAID.
SCHEMA_STEPS.push([
  `ALTER TABLE deposit_orders ADD COLUMN pay_amount_minor TEXT`,
  `DROP TRIGGER deposit_arrows`,
  `CREATE TRIGGER deposit_arrows BEFORE UPDATE OF status ON deposit_orders
     WHEN OLD.status <> NEW.status AND NOT (
       (OLD.status = 'OPEN' AND NEW.status IN ('PAID','CANCELED')) OR
       (OLD.status = 'PAID' AND NEW.status IN ('SUCCESS','FAILED')) OR
       (OLD.status = 'FAILED' AND NEW.status = 'PAID') OR
       (OLD.status = 'CANCELED' AND NEW.status = 'PAID' AND OLD.gateway_txn IS NULL AND NEW.pay_amount_minor IS NOT NULL))
     BEGIN SELECT RAISE(ABORT, 'refused deposit transition'); END`,
]);

// v5 (decision 029): rewards (cashback, referral share) credited at a provider the
// player chose. `claim_key` (kind:period[:provider]) makes a claim once per period, enforced
// by the storage; a FAILED credit gives its key up (NULL) so the player may claim again.
SCHEMA_STEPS.push([
  `CREATE TABLE rewards (
     code TEXT PRIMARY KEY,
     claim_key TEXT UNIQUE,
     kind TEXT NOT NULL CHECK (kind IN ('CASHBACK','REFERRAL')),
     period TEXT NOT NULL,
     provider TEXT NOT NULL,
     amount_minor TEXT NOT NULL,
     turnover_multiple TEXT NOT NULL,
     turnover_target_minor TEXT NOT NULL,
     turnover_start_minor TEXT,
     turnover_since INTEGER,
     turnover_met_at INTEGER,
     basis_json TEXT NOT NULL DEFAULT '{}',
     status TEXT NOT NULL CHECK (status IN ('PENDING','SUCCESS','FAILED')),
     reason TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER,
     created_at INTEGER NOT NULL,
     settled_at INTEGER,
     projected INTEGER NOT NULL DEFAULT 0
   )`,
  `CREATE TRIGGER reward_arrows BEFORE UPDATE OF status ON rewards
     WHEN OLD.status <> NEW.status AND NOT (OLD.status = 'PENDING' AND NEW.status IN ('SUCCESS','FAILED'))
     BEGIN SELECT RAISE(ABORT, 'refused reward transition'); END`,
]);

// v6 (decision 029): staff retry a FAILED reward. `released_key` keeps the
// claim key a FAILED reward gave up, so a retry can take it back (refused by the UNIQUE index
// if the player claimed again meanwhile); `reference` is the provider reference of the current
// attempt (NULL = the code); `retries` counts staff retries (a second press of one form does
// nothing). Rewards already FAILED get their key back from kind and period (cashback is per
// provider, the referral share per period: workers/services/promotions/cashback.ts, referral-reward.ts).
SCHEMA_STEPS.push([
  `ALTER TABLE rewards ADD COLUMN released_key TEXT`,
  `ALTER TABLE rewards ADD COLUMN reference TEXT`,
  `ALTER TABLE rewards ADD COLUMN retries INTEGER NOT NULL DEFAULT 0`,
  `UPDATE rewards SET released_key = kind || ':' || period || CASE WHEN kind = 'CASHBACK' THEN ':' || provider ELSE '' END WHERE status = 'FAILED'`,
  `DROP TRIGGER reward_arrows`,
  `CREATE TRIGGER reward_arrows BEFORE UPDATE OF status ON rewards
     WHEN OLD.status <> NEW.status AND NOT (
       (OLD.status = 'PENDING' AND NEW.status IN ('SUCCESS','FAILED')) OR
       (OLD.status = 'FAILED' AND NEW.status = 'PENDING'))
     BEGIN SELECT RAISE(ABORT, 'refused reward transition'); END`,
]);

// v7 (decision 049): the outbox of provider attempts, copied to D1's
// provider_attempts by the projection and deleted once copied (attempt-store.ts). AUTOINCREMENT:
// an id is never reused after a delete, so (player, id) stays unique in D1.
SCHEMA_STEPS.push([
  `CREATE TABLE provider_attempts (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     provider TEXT NOT NULL,
     order_code TEXT NOT NULL,
     reference TEXT NOT NULL,
     op TEXT NOT NULL,
     outcome TEXT NOT NULL,
     error_code TEXT,
     detail TEXT,
     at INTEGER NOT NULL
   )`,
]);

// v8 (decision 095): check-in and deposit-streak rewards. SQLite cannot change a CHECK, so
// the rewards table is copied into one that allows the two new kinds, every row and column
// kept, and its trigger made again (dropped with the old table).
SCHEMA_STEPS.push([
  `CREATE TABLE rewards_next (
     code TEXT PRIMARY KEY,
     claim_key TEXT UNIQUE,
     kind TEXT NOT NULL CHECK (kind IN ('CASHBACK','REFERRAL','CHECKIN','STREAK')),
     period TEXT NOT NULL,
     provider TEXT NOT NULL,
     amount_minor TEXT NOT NULL,
     turnover_multiple TEXT NOT NULL,
     turnover_target_minor TEXT NOT NULL,
     turnover_start_minor TEXT,
     turnover_since INTEGER,
     turnover_met_at INTEGER,
     basis_json TEXT NOT NULL DEFAULT '{}',
     status TEXT NOT NULL CHECK (status IN ('PENDING','SUCCESS','FAILED')),
     reason TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER,
     created_at INTEGER NOT NULL,
     settled_at INTEGER,
     projected INTEGER NOT NULL DEFAULT 0,
     released_key TEXT,
     reference TEXT,
     retries INTEGER NOT NULL DEFAULT 0
   )`,
  `INSERT INTO rewards_next (code, claim_key, kind, period, provider, amount_minor, turnover_multiple, turnover_target_minor, turnover_start_minor,
     turnover_since, turnover_met_at, basis_json, status, reason, attempts, next_attempt_at, created_at, settled_at, projected, released_key, reference, retries)
   SELECT code, claim_key, kind, period, provider, amount_minor, turnover_multiple, turnover_target_minor, turnover_start_minor,
     turnover_since, turnover_met_at, basis_json, status, reason, attempts, next_attempt_at, created_at, settled_at, projected, released_key, reference, retries
   FROM rewards`,
  `DROP TABLE rewards`,
  `ALTER TABLE rewards_next RENAME TO rewards`,
  `CREATE TRIGGER reward_arrows BEFORE UPDATE OF status ON rewards
     WHEN OLD.status <> NEW.status AND NOT (
       (OLD.status = 'PENDING' AND NEW.status IN ('SUCCESS','FAILED')) OR
       (OLD.status = 'FAILED' AND NEW.status = 'PENDING'))
     BEGIN SELECT RAISE(ABORT, 'refused reward transition'); END`,
]);

// v9 (decision 094): a promotion claim held for review (its player linked to an account that
// had the same promotion first). HELD: the deposit is credited, the bonus waits; RELEASED: staff
// let it go, the bonus follows; REFUSED: staff said no, the claim ends without a bonus.
SCHEMA_STEPS.push([`ALTER TABLE promotion_usages ADD COLUMN hold TEXT CHECK (hold IN ('HELD','RELEASED','REFUSED'))`]);

/**
 * Runs the steps this object has not run yet, each in its own transaction with the version
 * it reaches (`meta.schemaVersion`), so a crash leaves a whole step or none.
 */
export function migrateWalletSchema(storage: DurableObjectStorage): void {
  const sql = storage.sql;
  sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
  const row = sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = ?`, "schemaVersion").toArray()[0];
  const current = Number(row?.value ?? "0");
  SCHEMA_STEPS.forEach((steps, index) => {
    if (index + 1 <= current) return;
    storage.transactionSync(() => {
      for (const statement of steps) sql.exec(statement);
      sql.exec(`INSERT INTO meta (key, value) VALUES ('schemaVersion', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, String(index + 1));
    });
  });
}
