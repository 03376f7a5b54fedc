import { DurableObject } from "cloudflare:workers";
import { canTransition, DEPOSIT_TRANSITIONS, type OrderStatus } from "../core/orders";
import { canWithdrawTransition, judgeWithdrawDecision, manualPayoutTxn, type WithdrawDecision, type WithdrawStatus } from "../core/withdraw";
import { formatAmount } from "../core/money";
import { isProvider, type Provider } from "../core/providers";
import { providerPort, providerUsername } from "../ports/provider";
import { gatewayPort } from "../ports/gateway";
import { canUsageTransition, checkClaim, checkDeposit, turnoverTarget, type ClaimFacts, type PromotionError, type PromotionRules, type UsageStatus } from "../core/promotion";
import type { Deduction } from "../core/withdraw";

/**
 * One Durable Object per player (agency + player id): the only writer of that player's
 * money state. Every command below reads and writes with ctx.storage.sql and no `await`
 * in between, so "check, then act" cannot race however many requests arrive at once.
 * Provider and gateway calls happen from the alarm, between commands, after the order is
 * marked PAID; retries and the D1 projection run from the alarm too, so nothing depends
 * on a request staying alive.
 */

export type DepositOrder = {
  code: string;
  provider: Provider;
  channelCode: string;
  amount: string; // LAK, decimal string
  credit: string; // THB, decimal string
  rateSell: string;
  status: OrderStatus;
  flag: string | null;
  qrPayload: string | null;
  expiresAt: number;
  createdAt: number;
  paidAt: number | null;
  settledAt: number | null;
  attempts: number;
  /** The promotion usage this deposit carries, and its bonus (credit). */
  usageId: string | null;
  bonus: string | null;
  bonusState: "PENDING" | "DONE" | "FAILED" | null;
};

type OrderRow = {
  code: string;
  provider: string;
  channel_code: string;
  amount_minor: string;
  credit_minor: string;
  rate_sell: string;
  status: OrderStatus;
  flag: string | null;
  qr_payload: string | null;
  expires_at: number;
  created_at: number;
  paid_at: number | null;
  settled_at: number | null;
  attempts: number;
  next_attempt_at: number | null;
  gateway_txn: string | null;
  last_poll_at: number | null;
  notified: number;
  usage_id: string | null;
  bonus_minor: string | null;
  bonus_state: "PENDING" | "DONE" | "FAILED" | null;
  bonus_attempts: number;
  bonus_next_at: number | null;
  turnover_start_minor: string | null;
};

export type WithdrawOrder = {
  code: string;
  provider: Provider;
  credit: string;
  netCredit: string;
  receivedLak: string;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  status: WithdrawStatus;
  review: "AUTO" | "MANUAL" | "APPROVED";
  payoutState: "REQUESTED" | "UNKNOWN" | null;
  returnState: "PENDING" | "DONE" | null;
  reason: string | null;
  createdAt: number;
  completedAt: number | null;
  usageId: string | null;
  /** Itemised deductions (promotion bonus taken back, excess above the maximum received). */
  deductions: { kind: Deduction["kind"]; credit: string }[];
};

type WithdrawRow = {
  code: string;
  provider: string;
  credit_minor: string;
  net_credit_minor: string;
  received_lak_minor: string;
  rate_buy: string;
  bank_code: string;
  account_number: string;
  account_name: string;
  status: WithdrawStatus;
  review: "AUTO" | "MANUAL" | "APPROVED";
  payout_state: "REQUESTED" | "UNKNOWN" | null;
  payout_txn: string | null;
  return_state: "PENDING" | "DONE" | null;
  reason: string | null;
  created_at: number;
  transferred_at: number | null;
  completed_at: number | null;
  attempts: number;
  next_attempt_at: number | null;
  projected: number;
  usage_id: string | null;
  usage_outcome: "SUCCESS" | "CANCELED" | null;
  deductions_json: string;
};

/** What a payout decision did: applied, a repeat of the one already taken, or refused (the order as it stands). */
export type WithdrawDecisionResult = {
  kind: "applied" | "duplicate" | "refused" | "not-found";
  before: WithdrawOrder | null;
  order: WithdrawOrder | null;
};

export type OpenWithdrawInput = {
  idempotencyKey: string;
  code: string;
  provider: Provider;
  creditMinor: string;
  netCreditMinor: string;
  receivedLakMinor: string;
  rateBuy: string;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  review: "AUTO" | "MANUAL";
  now: number;
  /** The promotion the quote was computed under (null: none applied), checked again here. */
  promotion: { usageId: string; outcome: "SUCCESS" | "CANCELED"; deductions: { kind: Deduction["kind"]; creditMinor: string }[] } | null;
};

/** A transfer-out whose answer was lost is asked about; "never seen" is final only after this. */
export const TRANSFER_NOT_FOUND_GRACE_MS = 60_000;

export type OpenDepositInput = {
  idempotencyKey: string;
  code: string;
  provider: Provider;
  channelCode: string;
  amountMinor: string;
  creditMinor: string;
  rateSell: string;
  expiresAt: number;
  now: number;
  /** The player's credit at that provider, when a promotion in use needs it (else null). */
  creditAtProviderMinor: string | null;
};

export type OpenDepositResult =
  | { kind: "created"; order: DepositOrder }
  | { kind: "existing"; order: DepositOrder }
  | { kind: "open-exists"; order: DepositOrder }
  | { kind: "refused"; error: PromotionError; provider?: Provider };

export type PromotionUsage = {
  id: string;
  promotionId: string;
  provider: Provider;
  status: UsageStatus;
  rules: PromotionRules;
  depositCode: string | null;
  depositCredit: string | null;
  bonus: string | null;
  bonusCredited: boolean;
  turnoverTarget: string | null;
  turnoverStart: string | null;
  withdrawCode: string | null;
  reason: string | null;
  claimedAt: number;
  usedAt: number | null;
  endedAt: number | null;
};

type UsageRow = {
  id: string;
  promotion_id: string;
  provider: string;
  status: UsageStatus;
  rules_json: string;
  deposit_code: string | null;
  deposit_credit_minor: string | null;
  bonus_minor: string | null;
  turnover_target_minor: string | null;
  turnover_start_minor: string | null;
  withdraw_code: string | null;
  reason: string | null;
  claimed_at: number;
  used_at: number | null;
  ended_at: number | null;
  bonus_credited: number;
  projected: number;
};

/** What the service knows from D1 and the provider; the wallet adds what it owns. */
export type ClaimInput = {
  usageId: string;
  promotionId: string;
  provider: Provider;
  rules: PromotionRules;
  facts: Pick<ClaimFacts, "promotionActive" | "enabledProviders" | "hasBankAccount" | "creditAtProviderMinor">;
  now: number;
};

export type MarkPaidResult =
  | { kind: "paid"; order: DepositOrder }
  | { kind: "duplicate"; order: DepositOrder }
  | { kind: "amount-mismatch"; order: DepositOrder }
  | { kind: "late"; order: DepositOrder }
  | { kind: "unknown-order" };

export type StaffRetryResult =
  | { kind: "retried"; order: DepositOrder; reference: string }
  | { kind: "already-applied"; order: DepositOrder; reference: string }
  | { kind: "not-failed"; order: DepositOrder | null }
  | { kind: "stale"; order: DepositOrder | null }
  | { kind: "unavailable"; order: DepositOrder }
  | { kind: "not-found" };

export type ManualCreditInput = {
  idempotencyKey: string;
  code: string;
  provider: Provider;
  amountMinor: string;
  creditMinor: string;
  rateSell: string;
  now: number;
};

/** Settlement retry: 1 s doubling to at most 5 minutes; it never gives up on a paid order. */
export function settlementDelayMs(attempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempts - 1), 5 * 60 * 1000);
}
/** An OPEN order's payment is looked up at the gateway at most this often (the reconciler). */
export const RECONCILE_EVERY_MS = 30_000;

/**
 * The wallet's own schema, versioned: each step runs once per object, in order (an object
 * created before a step gets it on its next start). Steps are never edited, only added.
 */
const MIGRATIONS: string[][] = [];
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
MIGRATIONS.push(SCHEMA_V1);
// v2: announce settled withdrawals once, like deposits
MIGRATIONS.push([`ALTER TABLE withdraw_orders ADD COLUMN notified INTEGER NOT NULL DEFAULT 0`]);
// v3: promotion usages, the bonus leg of a deposit's settlement, deductions on withdrawals,
// and the state machines guarded by the storage itself (DESIGN.md §5).
MIGRATIONS.push([
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

export class PlayerWallet extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => {
      this.migrate();
      await this.syncArmedAlarm();
    });
  }

  /**
   * What is armed, kept in `meta` (there is no synchronous getAlarm): read once when the
   * object starts, so a lost or deleted alarm is not believed armed after a restart.
   */
  private async syncArmedAlarm(): Promise<void> {
    const armed = await this.ctx.storage.getAlarm();
    if (armed === null) this.sql.exec(`DELETE FROM meta WHERE key = 'alarmAt'`);
    else this.setMeta("alarmAt", String(armed));
  }

  private migrate(): void {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    const current = Number(this.meta("schemaVersion") ?? "0");
    MIGRATIONS.forEach((steps, index) => {
      if (index + 1 <= current) return;
      this.ctx.storage.transactionSync(() => {
        for (const statement of steps) this.sql.exec(statement);
        this.sql.exec(`INSERT INTO meta (key, value) VALUES ('schemaVersion', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, String(index + 1));
      });
    });
  }

  /** Whose wallet this is; remembered for the alarm, which has no request to read it from. */
  identify(agencyId: string, playerId: string, username: string, origin?: string): void {
    const entries: [string, string][] = [["agencyId", agencyId], ["playerId", playerId], ["username", username]];
    if (origin) entries.push(["origin", origin]);
    for (const [key, value] of entries) {
      this.sql.exec(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value);
    }
  }

  private meta(key: string): string | null {
    const row = this.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = ?`, key).toArray()[0];
    return row?.value ?? null;
  }

  // ---- commands (atomic: no await inside) ------------------------------------------

  openDeposit(input: OpenDepositInput): OpenDepositResult {
    this.expireStale(input.now);
    const same = this.row(`SELECT * FROM deposit_orders WHERE idempotency_key = ?`, input.idempotencyKey);
    if (same) return { kind: "existing", order: toOrder(same) };
    const open = this.row(`SELECT * FROM deposit_orders WHERE status = 'OPEN'`);
    if (open) return { kind: "open-exists", order: toOrder(open) };
    // The promotion in use decides here, in the same step that creates the order.
    const usage = this.activeUsageRow();
    const verdict = checkDeposit({
      usage: usage ? { id: usage.id, status: usage.status as "CLAIMED" | "USED", provider: usage.provider as Provider, rules: JSON.parse(usage.rules_json) as PromotionRules } : null,
      provider: input.provider,
      amountMinor: BigInt(input.amountMinor),
      creditMinor: BigInt(input.creditMinor),
      creditAtProviderMinor: input.creditAtProviderMinor === null ? null : BigInt(input.creditAtProviderMinor),
    });
    if (!verdict.ok) return { kind: "refused", error: verdict.error, provider: verdict.provider };
    if (verdict.endUsedUp && usage) this.endUsage(usage.id, "USED", "SUCCESS", "CREDIT_USED_UP", input.now);
    this.sql.exec(
      `INSERT INTO deposit_orders (code, idempotency_key, provider, channel_code, amount_minor, credit_minor, rate_sell, status, expires_at, created_at, usage_id, bonus_minor)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'OPEN', ?, ?, ?, ?)`,
      input.code,
      input.idempotencyKey,
      input.provider,
      input.channelCode,
      input.amountMinor,
      input.creditMinor,
      input.rateSell,
      input.expiresAt,
      input.now,
      verdict.attach?.usageId ?? null,
      verdict.attach ? verdict.attach.bonusMinor.toString() : null,
    );
    this.scheduleAlarm(Math.min(input.expiresAt, input.now + RECONCILE_EVERY_MS));
    return { kind: "created", order: toOrder(this.row(`SELECT * FROM deposit_orders WHERE code = ?`, input.code)!) };
  }

  attachQr(code: string, payload: string): DepositOrder | null {
    this.sql.exec(`UPDATE deposit_orders SET qr_payload = ? WHERE code = ? AND status = 'OPEN' AND qr_payload IS NULL`, payload, code);
    return this.getDeposit(code);
  }

  cancelDeposit(code: string, reason: "PLAYER" | "EXPIRED" | "GATEWAY", now: number): { ok: boolean; order: DepositOrder | null } {
    this.expireStale(now);
    const changed = this.transition(code, "OPEN", "CANCELED", { flag: reason === "PLAYER" ? null : reason });
    this.markDirty(code);
    return { ok: changed, order: this.getDeposit(code) };
  }

  /**
   * The gateway says this order was paid (webhook, check button or reconciler). Applied
   * once: a repeat with the same transaction id is a duplicate; a different amount is
   * refused and flagged for staff; a payment for an order no longer OPEN is flagged.
   */
  markPaid(code: string, payment: { transactionId: string; amount: string }, now: number): MarkPaidResult {
    const row = this.row(`SELECT * FROM deposit_orders WHERE code = ?`, code);
    if (!row) return { kind: "unknown-order" };
    if (row.gateway_txn === payment.transactionId) return { kind: "duplicate", order: toOrder(row) };
    if (row.status !== "OPEN") {
      // Money arrived for an order no longer waiting (expired or cancelled): it is owed to
      // the player and flagged for staff; the order itself does not move.
      if (row.gateway_txn === null) {
        this.sql.exec(`UPDATE deposit_orders SET flag = 'LATE_PAYMENT', gateway_txn = ? WHERE code = ?`, payment.transactionId, code);
        this.post(code, "late-paid", [
          ["bank:receiving", "LAK", BigInt(row.amount_minor)],
          ["player:deposit-pending", "LAK", -BigInt(row.amount_minor)],
        ], now);
        this.markDirty(code);
      }
      return { kind: "late", order: this.getDeposit(code)! };
    }
    if (formatAmount(BigInt(row.amount_minor), "LAK") !== normalizeLak(payment.amount)) {
      this.sql.exec(`UPDATE deposit_orders SET flag = 'AMOUNT_MISMATCH' WHERE code = ?`, code);
      this.markDirty(code);
      return { kind: "amount-mismatch", order: this.getDeposit(code)! };
    }
    this.transition(code, "OPEN", "PAID", { paid_at: now, gateway_txn: payment.transactionId, next_attempt_at: now, flag: null });
    // bank received the kip; it is owed to the player until credited
    this.post(code, "paid", [
      ["bank:receiving", "LAK", BigInt(row.amount_minor)],
      ["player:deposit-pending", "LAK", -BigInt(row.amount_minor)],
    ], now);
    this.scheduleAlarm(now);
    return { kind: "paid", order: this.getDeposit(code)! };
  }

  // ---- withdrawals (commands) -------------------------------------------------------

  /** Creates the PENDING order; a repeat of the same confirm (idempotency key) gets it back. */
  openWithdraw(input: OpenWithdrawInput): { kind: "created" | "existing"; order: WithdrawOrder } | { kind: "refused"; error: PromotionError | "PROMOTION_CHANGED" } {
    const same = this.wrow(`SELECT * FROM withdraw_orders WHERE idempotency_key = ?`, input.idempotencyKey);
    if (same) return { kind: "existing", order: toWithdraw(same) };
    // The quote was computed under the promotion then in use; it must still be the one.
    const usage = this.activeUsageRow();
    const governed = usage !== null && usage.status === "USED" && usage.provider === input.provider ? usage : null;
    if ((governed?.id ?? null) !== (input.promotion?.usageId ?? null)) return { kind: "refused", error: "PROMOTION_CHANGED" };
    if (governed?.withdraw_code) return { kind: "refused", error: "PROMOTION_WITHDRAW_OPEN" };
    if (usage && usage.provider === input.provider && this.row(`SELECT * FROM deposit_orders WHERE usage_id = ? AND bonus_state = 'PENDING'`, usage.id)) {
      return { kind: "refused", error: "PROMOTION_BONUS_PENDING" };
    }
    if (governed) this.sql.exec(`UPDATE promotion_usages SET withdraw_code = ? WHERE id = ?`, input.code, governed.id);
    this.sql.exec(
      `INSERT INTO withdraw_orders (code, idempotency_key, provider, credit_minor, net_credit_minor, received_lak_minor, rate_buy, bank_code, account_number, account_name, status, review, created_at, next_attempt_at, usage_id, usage_outcome, deductions_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?, ?, ?, ?, ?)`,
      input.code,
      input.idempotencyKey,
      input.provider,
      input.creditMinor,
      input.netCreditMinor,
      input.receivedLakMinor,
      input.rateBuy,
      input.bankCode,
      input.accountNumber,
      input.accountName,
      input.review,
      input.now,
      input.now + 5000,
      governed?.id ?? null,
      governed ? input.promotion!.outcome : null,
      JSON.stringify(governed ? input.promotion!.deductions : []),
    );
    this.scheduleAlarm(input.now + 5000);
    return { kind: "created", order: this.getWithdraw(input.code)! };
  }

  /** The answer of the transfer-out: taken (OPEN), refused (FAILED) or unknown (asked later). */
  transferOutResult(code: string, outcome: "ok" | "refused" | "unknown", now: number, reason?: string): WithdrawOrder | null {
    const row = this.wrow(`SELECT * FROM withdraw_orders WHERE code = ?`, code);
    if (!row || row.status !== "PENDING") return row ? toWithdraw(row) : null;
    if (outcome === "ok") {
      this.wtransition(code, "PENDING", "OPEN", { transferred_at: now, next_attempt_at: now });
      const credit = BigInt(row.credit_minor);
      // the credit left the provider wallet; it is owed to the player until paid out
      this.post(code, "taken", [
        [`provider:${row.provider}`, "THB", credit],
        ["player:withdraw-pending", "THB", -credit],
      ], now);
      this.scheduleAlarm(now);
    } else if (outcome === "refused") {
      this.wtransition(code, "PENDING", "FAILED", { completed_at: now, reason: reason ?? "REFUSED", next_attempt_at: null });
      this.releaseUsage(code);
    } else {
      this.sql.exec(`UPDATE withdraw_orders SET next_attempt_at = ? WHERE code = ?`, now + 2000, code);
      this.scheduleAlarm(now + 2000);
    }
    this.wdirty(code);
    return this.getWithdraw(code);
  }

  /**
   * The one decision path of an OPEN withdrawal's payout, for every caller: back-office
   * page, operator API, the gateway's callback and this wallet's own status queries. The
   * rule is `judgeWithdrawDecision` (core/withdraw.ts): staff decide only while the order
   * waits for review and no payout was ever requested; after that only the gateway does.
   * Judged and applied in one synchronous step, so no other command can slip in between.
   */
  decideWithdraw(code: string, decision: WithdrawDecision, now: number): WithdrawDecisionResult {
    const row = this.wrow(`SELECT * FROM withdraw_orders WHERE code = ?`, code);
    if (!row) return { kind: "not-found", before: null, order: null };
    const before = toWithdraw(row);
    const verdict = judgeWithdrawDecision(
      { status: row.status, review: row.review, payoutState: row.payout_state, payoutTxn: row.payout_txn, reason: row.reason },
      decision,
    );
    if (verdict === "duplicate") return { kind: "duplicate", before, order: before };
    if (verdict === "refuse") {
      // a gateway saying "paid" for an order it was never asked to pay, or paid otherwise:
      // money may have left twice; staff must see it
      if (decision.by === "gateway" && decision.action === "paid") console.error(`payout conflict: gateway paid ${code} (${decision.transactionId}) but the order is ${row.status}/${row.payout_txn ?? "-"}`);
      return { kind: "refused", before, order: before };
    }
    if (decision.action === "approve") {
      this.sql.exec(`UPDATE withdraw_orders SET review = 'APPROVED', next_attempt_at = ? WHERE code = ?`, now, code);
      this.scheduleAlarm(now);
    } else if (decision.action === "paid") {
      this.payOut(row, decision.by === "staff" ? manualPayoutTxn(decision.bankReference) : decision.transactionId, now);
    } else {
      this.rejectOpen(code, decision.reason, now);
    }
    this.wdirty(code);
    return { kind: "applied", before, order: this.getWithdraw(code) };
  }

  private payOut(row: WithdrawRow, transactionId: string, now: number): void {
    const code = row.code;
    this.wtransition(code, "OPEN", "SUCCESS", { completed_at: now, payout_txn: transactionId, next_attempt_at: null });
    const credit = BigInt(row.credit_minor);
    const net = BigInt(row.net_credit_minor);
    const lak = BigInt(row.received_lak_minor);
    // deductions (bonus taken back, excess above the maximum received) stay with the agency
    this.post(code, "paid-out", [
      ["player:withdraw-pending", "THB", credit],
      ...(credit > net ? ([["agency:promotion", "THB", -(credit - net)]] as [string, string, bigint][]) : []),
      ["fx:conversion", "THB", -net],
      ["fx:conversion", "LAK", lak],
      ["bank:payout", "LAK", -lak],
    ], now);
    if (row.usage_id && row.usage_outcome) this.endUsage(row.usage_id, "USED", row.usage_outcome, row.usage_outcome === "SUCCESS" ? "WITHDRAWN" : "BONUS_DEDUCTED", now);
  }

  private rejectOpen(code: string, reason: string, now: number): void {
    this.wtransition(code, "OPEN", "REJECTED", { completed_at: now, reason, return_state: "PENDING", attempts: 0, next_attempt_at: now });
    // the whole credit goes back, so the promotion carries on as before the withdrawal
    this.releaseUsage(code);
    this.scheduleAlarm(now);
  }

  // ---- promotions (commands) --------------------------------------------------------

  /** Claim: the rules the wallet owns (one at a time, used before, open order, first order) judged with the service's facts. */
  claimPromotion(input: ClaimInput): { ok: true; usage: PromotionUsage } | { ok: false; error: PromotionError } {
    this.expireStale(input.now);
    const verdict = checkClaim({
      ...input.facts,
      rules: input.rules,
      provider: input.provider,
      hasActiveUsage: this.activeUsageRow() !== null,
      hasOpenDeposit: this.row(`SELECT * FROM deposit_orders WHERE status IN ('OPEN', 'PAID')`) !== null,
      hasSettledDeposit: this.row(`SELECT * FROM deposit_orders WHERE status IN ('PAID', 'SUCCESS', 'FAILED')`) !== null,
      usedBefore: this.sql.exec(`SELECT 1 FROM promotion_usages WHERE promotion_id = ? AND (status IN ('USED', 'SUCCESS') OR bonus_credited = 1 OR deposit_code IS NOT NULL)`, input.promotionId).toArray().length > 0,
    });
    if (!verdict.ok) return verdict;
    this.sql.exec(
      `INSERT INTO promotion_usages (id, promotion_id, provider, status, rules_json, claimed_at) VALUES (?, ?, ?, 'CLAIMED', ?, ?)`,
      input.usageId,
      input.promotionId,
      input.provider,
      JSON.stringify(input.rules),
      input.now,
    );
    this.udirty(input.usageId);
    return { ok: true, usage: this.getUsage(input.usageId)! };
  }

  /** The player cancels a claim before its deposit; a deposit waiting to be paid must be closed first. */
  cancelPromotion(usageId: string, now: number): { ok: true; usage: PromotionUsage } | { ok: false; error: PromotionError | "NOT_CANCELABLE" } {
    this.expireStale(now);
    const usage = this.urow(`SELECT * FROM promotion_usages WHERE id = ?`, usageId);
    if (!usage || usage.status !== "CLAIMED") return { ok: false, error: "NOT_CANCELABLE" };
    if (this.row(`SELECT * FROM deposit_orders WHERE usage_id = ? AND status IN ('OPEN', 'PAID')`, usageId)) return { ok: false, error: "CANNOT_USE_PROMOTION_WHILE_ORDER_IS_OPEN" };
    this.endUsage(usageId, "CLAIMED", "CANCELED", "PLAYER", now);
    return { ok: true, usage: this.getUsage(usageId)! };
  }

  private endUsage(id: string, from: UsageStatus, to: UsageStatus, reason: string, now: number): boolean {
    if (!canUsageTransition(from, to)) throw new Error(`refused usage transition ${from} -> ${to}`);
    const changed = this.sql.exec(`UPDATE promotion_usages SET status = ?, reason = ?, ended_at = ? WHERE id = ? AND status = ?`, to, reason, now, id, from).rowsWritten > 0;
    if (changed) this.udirty(id);
    return changed;
  }

  /** A withdrawal that did not go through no longer holds the promotion. */
  private releaseUsage(withdrawCode: string): void {
    this.sql.exec(`UPDATE promotion_usages SET withdraw_code = NULL WHERE withdraw_code = ?`, withdrawCode);
  }

  private activeUsageRow(): UsageRow | null {
    return this.urow(`SELECT * FROM promotion_usages WHERE status IN ('CLAIMED', 'USED')`);
  }

  // ---- the alarm: settlement saga, reconciler, expiry, projection -------------------

  async alarm(): Promise<void> {
    this.sql.exec(`DELETE FROM meta WHERE key = 'alarmAt'`); // this one has fired
    await this.work(Date.now());
  }

  /**
   * The cron's safety net (workers/services/wakeups.ts): arms the alarm from the wallet's
   * own state, whatever `meta` believes is armed, so due work is woken even if its alarm
   * was lost. Returns the time armed, or null when nothing is due.
   */
  rearm(): number | null {
    this.rescheduleFromState(Date.now());
    const at = this.meta("alarmAt");
    return at === null ? null : Number(at);
  }

  /**
   * The alarm's work, callable directly by tests and the bench with a clock of their own
   * (`now` in the future runs retries that are not yet due by the wall clock).
   */
  async runDueWork(now: number = Date.now()): Promise<void> {
    await this.work(now);
  }

  private async work(now: number): Promise<void> {
    this.expireStale(now);
    await this.settleDue(now);
    await this.reconcileOpen(now);
    await this.bonusDue(now);
    await this.withdrawDue(now);
    await this.project();
    await this.projectWithdrawals();
    await this.projectUsages();
    this.rescheduleFromState(Date.now());
  }

  private async settleDue(now: number): Promise<void> {
    const due = this.rows(`SELECT * FROM deposit_orders WHERE status = 'PAID' AND next_attempt_at <= ? ORDER BY paid_at`, now);
    for (const row of due) await this.settle(row, now);
  }

  /** Transfer-in with the order code as reference; an unknown outcome is resolved by the status query. */
  private async settle(row: OrderRow, now: number): Promise<void> {
    const provider = row.provider as Provider;
    const agencyId = this.meta("agencyId");
    const username = this.meta("username");
    if (!agencyId || !username || !isProvider(provider)) return;
    const attempt = row.attempts + 1;
    this.sql.exec(`UPDATE deposit_orders SET attempts = ?, next_attempt_at = ? WHERE code = ? AND status = 'PAID'`, attempt, now + settlementDelayMs(attempt), row.code);
    const port = providerPort(this.env, provider);
    const reference = this.settlementReference(row.code); // the order code unless staff retried under a new one
    if (row.usage_id && row.turnover_start_minor === null) {
      // A promotion's turnover counts bets from here: read the provider's counter before
      // the credit lands, or try again at the next attempt.
      const turnover = await port.turnover(providerUsername(agencyId, username));
      if (turnover.kind !== "ok") return;
      this.sql.exec(`UPDATE deposit_orders SET turnover_start_minor = ? WHERE code = ? AND turnover_start_minor IS NULL`, turnover.amountMinor.toString(), row.code);
    }
    if (row.attempts > 0) {
      // A previous attempt may have been applied: ask before sending again.
      const status = await port.transferStatus(reference);
      if (status.kind === "success") return this.finishSettlement(row.code, "SUCCESS");
      if (status.kind === "failed") return this.finishSettlement(row.code, "FAILED");
      if (status.kind === "unknown") return; // ask again at the next attempt
    }
    const outcome = await port.transfer({
      username: providerUsername(agencyId, username),
      amount: formatAmount(BigInt(row.credit_minor), "THB"),
      direction: "in",
      reference,
    });
    if (outcome.kind === "ok") return this.finishSettlement(row.code, "SUCCESS");
    if (outcome.kind === "refused") return this.finishSettlement(row.code, "FAILED", outcome.code);
    // unknown: the next attempt starts with the status query
  }

  private finishSettlement(code: string, to: "SUCCESS" | "FAILED", reason?: string): void {
    const row = this.row(`SELECT * FROM deposit_orders WHERE code = ?`, code);
    if (!row || row.status !== "PAID") return;
    const now = Date.now();
    this.transition(code, "PAID", to, { settled_at: now, next_attempt_at: null, flag: to === "FAILED" ? `PROVIDER_${reason ?? "FAILED"}` : null });
    if (to === "SUCCESS") {
      const lak = BigInt(row.amount_minor);
      const credit = BigInt(row.credit_minor);
      this.post(code, "credited", [
        ["player:deposit-pending", "LAK", lak],
        ["fx:conversion", "LAK", -lak],
        ["fx:conversion", "THB", credit],
        [`provider:${row.provider}`, "THB", -credit],
      ], now);
      this.startUsage(code, now);
    } else if (row.usage_id) {
      // the promotion never started: the player may claim again once staff sort the deposit out
      this.endUsage(row.usage_id, "CLAIMED", "CANCELED", "DEPOSIT_FAILED", now);
    }
    // FAILED: the kip stays owed to the player (deposit-pending), visible to staff.
    this.markDirty(code);
  }

  /** The deposit carrying a claimed promotion landed: the promotion is in use; its bonus follows. */
  private startUsage(code: string, now: number): void {
    const row = this.row(`SELECT * FROM deposit_orders WHERE code = ?`, code);
    if (!row?.usage_id) return;
    const usage = this.urow(`SELECT * FROM promotion_usages WHERE id = ?`, row.usage_id);
    if (!usage || usage.status !== "CLAIMED") return; // cancelled meanwhile: no bonus
    const rules = JSON.parse(usage.rules_json) as PromotionRules;
    const credit = BigInt(row.credit_minor);
    const bonus = BigInt(row.bonus_minor ?? "0");
    this.sql.exec(
      `UPDATE promotion_usages SET status = 'USED', used_at = ?, deposit_code = ?, deposit_credit_minor = ?, bonus_minor = ?, turnover_target_minor = ?, turnover_start_minor = ? WHERE id = ? AND status = 'CLAIMED'`,
      now,
      code,
      credit.toString(),
      bonus.toString(),
      turnoverTarget(rules, credit, bonus).toString(),
      row.turnover_start_minor ?? "0",
      usage.id,
    );
    this.udirty(usage.id);
    if (bonus > 0n) {
      this.sql.exec(`UPDATE deposit_orders SET bonus_state = 'PENDING', bonus_next_at = ? WHERE code = ?`, now, code);
      this.scheduleAlarm(now);
    }
  }

  /** The bonus leg of the settlement saga: its own transfer (reference <code>B), its own ledger entry. */
  private async bonusDue(now: number): Promise<void> {
    const due = this.rows(`SELECT * FROM deposit_orders WHERE bonus_state = 'PENDING' AND bonus_next_at <= ?`, now);
    for (const row of due) await this.creditBonus(row, now);
  }

  private async creditBonus(row: OrderRow, now: number): Promise<void> {
    const agencyId = this.meta("agencyId");
    const username = this.meta("username");
    if (!agencyId || !username || !isProvider(row.provider)) return;
    const attempt = row.bonus_attempts + 1;
    this.sql.exec(`UPDATE deposit_orders SET bonus_attempts = ?, bonus_next_at = ? WHERE code = ?`, attempt, now + settlementDelayMs(attempt), row.code);
    const port = providerPort(this.env, row.provider);
    const reference = `${row.code}B`;
    if (row.bonus_attempts > 0) {
      const status = await port.transferStatus(reference);
      if (status.kind === "success") return this.finishBonus(row.code, "DONE");
      if (status.kind === "failed") return this.finishBonus(row.code, "FAILED");
      if (status.kind === "unknown") return;
    }
    const outcome = await port.transfer({ username: providerUsername(agencyId, username), amount: formatAmount(BigInt(row.bonus_minor ?? "0"), "THB"), direction: "in", reference });
    if (outcome.kind === "ok") return this.finishBonus(row.code, "DONE");
    if (outcome.kind === "refused") return this.finishBonus(row.code, "FAILED");
  }

  private finishBonus(code: string, to: "DONE" | "FAILED"): void {
    const now = Date.now();
    const row = this.row(`SELECT * FROM deposit_orders WHERE code = ?`, code);
    if (!row || row.bonus_state !== "PENDING") return;
    this.sql.exec(`UPDATE deposit_orders SET bonus_state = ?, bonus_next_at = NULL WHERE code = ?`, to, code);
    if (to === "DONE") {
      const bonus = BigInt(row.bonus_minor ?? "0");
      // the agency gives the bonus credit; it lands in the provider wallet
      this.post(code, "bonus", [
        ["agency:promotion", "THB", bonus],
        [`provider:${row.provider}`, "THB", -bonus],
      ], now);
      if (row.usage_id) {
        this.sql.exec(`UPDATE promotion_usages SET bonus_credited = 1 WHERE id = ?`, row.usage_id);
        this.udirty(row.usage_id);
      }
    } else if (row.usage_id) {
      // the provider refused the bonus: nothing to play through; flagged for staff
      this.sql.exec(`UPDATE deposit_orders SET flag = 'BONUS_REFUSED' WHERE code = ?`, code);
      this.endUsage(row.usage_id, "USED", "CANCELED", "BONUS_REFUSED", now);
    }
    this.markDirty(code);
  }

  /** The reconciler: OPEN orders whose payment never arrived by webhook are looked up. */
  private async reconcileOpen(now: number): Promise<void> {
    const open = this.rows(
      `SELECT * FROM deposit_orders WHERE status = 'OPEN' AND qr_payload IS NOT NULL AND (last_poll_at IS NULL OR last_poll_at <= ?)`,
      now - RECONCILE_EVERY_MS,
    );
    for (const row of open) {
      this.sql.exec(`UPDATE deposit_orders SET last_poll_at = ? WHERE code = ?`, now, row.code);
      const status = await gatewayPort(this.env).paymentStatus(row.code);
      if (status.kind === "paid") this.markPaid(row.code, { transactionId: status.transactionId, amount: status.amount }, Date.now());
    }
  }

  /** Staff lists read D1: copy changed orders there (retried until it succeeds). */
  private async project(): Promise<void> {
    const agencyId = this.meta("agencyId");
    const playerId = this.meta("playerId");
    if (!agencyId || !playerId) return;
    const dirty = this.rows(`SELECT * FROM deposit_orders WHERE projected = 0`);
    if (dirty.length === 0) return;
    try {
      await this.env.DB.batch(
        dirty.map((row) =>
          this.env.DB.prepare(
            `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
             ON CONFLICT(code) DO UPDATE SET status = excluded.status, flag = excluded.flag, updated_at = excluded.updated_at`,
          ).bind(
            row.code,
            agencyId,
            playerId,
            row.provider,
            formatAmount(BigInt(row.amount_minor), "LAK"),
            formatAmount(BigInt(row.credit_minor), "THB"),
            row.status,
            row.flag,
            new Date(row.created_at).toISOString(),
            new Date().toISOString(),
          ),
        ),
      );
      for (const row of dirty) this.sql.exec(`UPDATE deposit_orders SET projected = 1 WHERE code = ? AND status = ? AND flag IS ?`, row.code, row.status, row.flag);
    } catch (error) {
      console.error("deposit projection failed; retried at the next alarm", error);
    }
  }

  /** Withdrawals: resolve lost transfer-outs, request payouts, poll them, return rejected credit. */
  private async withdrawDue(now: number): Promise<void> {
    const due = this.sql
      .exec<WithdrawRow>(
        `SELECT * FROM withdraw_orders WHERE next_attempt_at <= ? AND (status = 'PENDING' OR (status = 'OPEN' AND review != 'MANUAL') OR (status = 'REJECTED' AND return_state = 'PENDING')) ORDER BY created_at`,
        now,
      )
      .toArray() as WithdrawRow[];
    for (const row of due) {
      const attempt = row.attempts + 1;
      this.sql.exec(`UPDATE withdraw_orders SET attempts = ?, next_attempt_at = ? WHERE code = ?`, attempt, now + settlementDelayMs(attempt), row.code);
      if (row.status === "PENDING") await this.resolveTransferOut(row, now);
      else if (row.status === "OPEN") await this.advancePayout(row, now);
      else await this.returnCredit(row, now);
    }
  }

  /** A transfer-out without an answer: the provider's status by reference decides, never a resend. */
  private async resolveTransferOut(row: WithdrawRow, now: number): Promise<void> {
    if (!isProvider(row.provider)) return;
    const status = await providerPort(this.env, row.provider).transferStatus(row.code);
    if (status.kind === "success") this.transferOutResult(row.code, "ok", now);
    else if (status.kind === "failed") this.transferOutResult(row.code, "refused", now, "PROVIDER_REFUSED");
    else if (status.kind === "not-found" && now - row.created_at >= TRANSFER_NOT_FOUND_GRACE_MS) this.transferOutResult(row.code, "refused", now, "NOT_APPLIED");
  }

  private async advancePayout(row: WithdrawRow, now: number): Promise<void> {
    const gateway = gatewayPort(this.env);
    const code = row.code;
    const gatewaySays = (outcome: { paid: string } | { rejected: string }) =>
      void this.decideWithdraw(code, "paid" in outcome ? { by: "gateway", action: "paid", transactionId: outcome.paid } : { by: "gateway", action: "reject", reason: outcome.rejected }, now);
    if (row.payout_state === "UNKNOWN") {
      // an earlier request's answer was lost: ask before asking again (idempotent by reference anyway)
      const status = await gateway.payoutStatus(code);
      if (status.kind === "paid") return gatewaySays({ paid: status.transactionId });
      if (status.kind === "rejected") return gatewaySays({ rejected: status.reason });
      if (status.kind === "processing") return void this.sql.exec(`UPDATE withdraw_orders SET payout_state = 'REQUESTED' WHERE code = ? AND status = 'OPEN'`, code);
      if (status.kind === "unavailable") return;
    } else if (row.payout_state === null) {
      // The payout is the gateway's from here on, BEFORE the request leaves: this row was
      // read before earlier awaits, so it is claimed only if staff have not decided since
      // (and a staff "paid" or "reject" arriving while we wait for the gateway is refused).
      const claimed = this.sql.exec(
        `UPDATE withdraw_orders SET payout_state = 'UNKNOWN' WHERE code = ? AND status = 'OPEN' AND review != 'MANUAL' AND payout_state IS NULL`,
        code,
      ).rowsWritten;
      if (claimed === 0) return;
      this.wdirty(code);
    } else {
      // REQUESTED: the callback normally arrives first; this is the reconciler for a lost one.
      const status = await gateway.payoutStatus(code);
      if (status.kind === "paid") gatewaySays({ paid: status.transactionId });
      else if (status.kind === "rejected") gatewaySays({ rejected: status.reason });
      return;
    }
    const origin = this.meta("origin");
    const answer = await gateway.requestPayout({
      reference: code,
      amount: formatAmount(BigInt(row.received_lak_minor), "LAK"),
      bankCode: row.bank_code,
      accountNumber: row.account_number,
      accountName: row.account_name,
      callbackUrl: `${origin ?? "http://localhost"}/api/v2/payments/webhook`,
    });
    if (answer.kind === "accepted") this.sql.exec(`UPDATE withdraw_orders SET payout_state = 'REQUESTED' WHERE code = ? AND status = 'OPEN'`, code);
    else if (answer.kind === "refused") gatewaySays({ rejected: `PAYOUT_${answer.code}` });
    // unavailable: stays UNKNOWN; the next attempt asks the status first
  }

  /** Rejected: transfer the credit back (its own reference), retried until it is back. */
  private async returnCredit(row: WithdrawRow, now: number): Promise<void> {
    if (!isProvider(row.provider)) return;
    const agencyId = this.meta("agencyId");
    const username = this.meta("username");
    if (!agencyId || !username) return;
    const reference = `${row.code}R`;
    const port = providerPort(this.env, row.provider);
    if (row.attempts > 0) {
      const status = await port.transferStatus(reference);
      if (status.kind === "success") return this.finishReturn(row, now);
      if (status.kind === "unknown") return;
    }
    const outcome = await port.transfer({ username: providerUsername(agencyId, username), amount: formatAmount(BigInt(row.credit_minor), "THB"), direction: "in", reference });
    if (outcome.kind === "ok") this.finishReturn(row, now);
  }

  private finishReturn(row: WithdrawRow, now: number): void {
    const changed = this.sql.exec(`UPDATE withdraw_orders SET return_state = 'DONE', next_attempt_at = NULL WHERE code = ? AND return_state = 'PENDING'`, row.code).rowsWritten;
    if (changed === 0) return;
    const credit = BigInt(row.credit_minor);
    this.post(row.code, "returned", [
      ["player:withdraw-pending", "THB", credit],
      [`provider:${row.provider}`, "THB", -credit],
    ], now);
    this.wdirty(row.code);
  }

  private async projectWithdrawals(): Promise<void> {
    const agencyId = this.meta("agencyId");
    const playerId = this.meta("playerId");
    if (!agencyId || !playerId) return;
    const dirty = this.sql.exec<WithdrawRow>(`SELECT * FROM withdraw_orders WHERE projected = 0`).toArray() as WithdrawRow[];
    if (dirty.length === 0) return;
    try {
      await this.env.DB.batch(
        dirty.map((row) =>
          this.env.DB.prepare(
            `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, return_state, reason, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
             ON CONFLICT(code) DO UPDATE SET status = excluded.status, review = excluded.review, return_state = excluded.return_state, reason = excluded.reason, updated_at = excluded.updated_at`,
          ).bind(
            row.code,
            agencyId,
            playerId,
            row.provider,
            formatAmount(BigInt(row.credit_minor), "THB"),
            formatAmount(BigInt(row.received_lak_minor), "LAK"),
            row.status,
            row.review,
            row.return_state,
            row.reason,
            new Date(row.created_at).toISOString(),
            new Date().toISOString(),
          ),
        ),
      );
      for (const row of dirty) this.sql.exec(`UPDATE withdraw_orders SET projected = 1 WHERE code = ? AND status = ? AND review = ? AND return_state IS ?`, row.code, row.status, row.review, row.return_state);
    } catch (error) {
      console.error("withdraw projection failed; retried at the next alarm", error);
    }
  }

  // ---- queries ------------------------------------------------------------------------

  getWithdraw(code: string): WithdrawOrder | null {
    const row = this.wrow(`SELECT * FROM withdraw_orders WHERE code = ?`, code);
    return row ? toWithdraw(row) : null;
  }

  listWithdraws(page: number, pageSize: number): { items: WithdrawOrder[]; total: number } {
    const total = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM withdraw_orders`).one().n;
    const items = (this.sql.exec<WithdrawRow>(`SELECT * FROM withdraw_orders ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`, pageSize, (page - 1) * pageSize).toArray() as WithdrawRow[]).map(toWithdraw);
    return { items, total };
  }

  withdrawByKey(key: string): WithdrawOrder | null {
    const row = this.wrow(`SELECT * FROM withdraw_orders WHERE idempotency_key = ?`, key);
    return row ? toWithdraw(row) : null;
  }

  openWithdraws(): WithdrawOrder[] {
    return (this.sql.exec<WithdrawRow>(`SELECT * FROM withdraw_orders WHERE status IN ('PENDING', 'OPEN') ORDER BY created_at DESC`).toArray() as WithdrawRow[]).map(toWithdraw);
  }


  getDeposit(code: string): DepositOrder | null {
    const row = this.row(`SELECT * FROM deposit_orders WHERE code = ?`, code);
    return row ? toOrder(row) : null;
  }

  openDepositOrder(now: number): DepositOrder | null {
    this.expireStale(now);
    const row = this.row(`SELECT * FROM deposit_orders WHERE status = 'OPEN'`);
    return row ? toOrder(row) : null;
  }

  listDeposits(page: number, pageSize: number): { items: DepositOrder[]; total: number } {
    this.expireStale(Date.now());
    const total = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM deposit_orders`).one().n;
    const items = this.rows(`SELECT * FROM deposit_orders ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`, pageSize, (page - 1) * pageSize).map(toOrder);
    return { items, total };
  }

  /** Deposits that succeeded since the player last looked: each is announced once. */
  takeSettledNotices(): DepositOrder[] {
    const rows = this.rows(`SELECT * FROM deposit_orders WHERE status = 'SUCCESS' AND notified = 0`);
    this.sql.exec(`UPDATE deposit_orders SET notified = 1 WHERE status = 'SUCCESS' AND notified = 0`);
    return rows.map(toOrder);
  }

  /** Withdrawals that ended (paid out, or rejected with the credit back) since the player last looked. */
  takeWithdrawNotices(): WithdrawOrder[] {
    const rows = this.sql
      .exec<WithdrawRow>(`SELECT * FROM withdraw_orders WHERE notified = 0 AND (status = 'SUCCESS' OR (status = 'REJECTED' AND return_state = 'DONE'))`)
      .toArray() as WithdrawRow[];
    for (const row of rows) this.sql.exec(`UPDATE withdraw_orders SET notified = 1 WHERE code = ?`, row.code);
    return rows.map(toWithdraw);
  }

  /** Sum of ledger entries per currency: zero when every movement balances. */
  ledgerTotals(): Record<string, string> {
    const totals: Record<string, bigint> = {};
    for (const row of this.sql.exec<{ currency: string; amount_minor: string }>(`SELECT currency, amount_minor FROM ledger`)) {
      totals[row.currency] = (totals[row.currency] ?? 0n) + BigInt(row.amount_minor);
    }
    return Object.fromEntries(Object.entries(totals).map(([c, v]) => [c, v.toString()]));
  }

  ledgerFor(code: string): { entry: string; account: string; currency: string; amountMinor: string }[] {
    return this.sql
      .exec<{ entry: string; account: string; currency: string; amount_minor: string }>(`SELECT entry, account, currency, amount_minor FROM ledger WHERE order_code = ? ORDER BY id`, code)
      .toArray()
      .map((r) => ({ entry: r.entry, account: r.account, currency: r.currency, amountMinor: r.amount_minor }));
  }

  // ---- promotions (queries and projection) ------------------------------------------

  getUsage(id: string): PromotionUsage | null {
    const row = this.urow(`SELECT * FROM promotion_usages WHERE id = ?`, id);
    return row ? toUsage(row) : null;
  }

  /** The promotion claimed or in use (at most one). */
  activeUsage(now: number = Date.now()): PromotionUsage | null {
    this.expireStale(now);
    const row = this.activeUsageRow();
    return row ? toUsage(row) : null;
  }

  listUsages(page: number, pageSize: number): { items: PromotionUsage[]; total: number } {
    const total = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM promotion_usages`).one().n;
    const items = (this.sql.exec<UsageRow>(`SELECT * FROM promotion_usages ORDER BY claimed_at DESC, id DESC LIMIT ? OFFSET ?`, pageSize, (page - 1) * pageSize).toArray() as UsageRow[]).map(toUsage);
    return { items, total };
  }

  private async projectUsages(): Promise<void> {
    const agencyId = this.meta("agencyId");
    const playerId = this.meta("playerId");
    if (!agencyId || !playerId) return;
    const dirty = this.sql.exec<UsageRow>(`SELECT * FROM promotion_usages WHERE projected = 0`).toArray() as UsageRow[];
    if (dirty.length === 0) return;
    try {
      await this.env.DB.batch(
        dirty.map((row) =>
          this.env.DB.prepare(
            `INSERT INTO promotion_usages_view (id, agency_id, player_id, promotion_id, provider, status, deposit_code, bonus, reason, claimed_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
             ON CONFLICT(id) DO UPDATE SET status = excluded.status, deposit_code = excluded.deposit_code, bonus = excluded.bonus, reason = excluded.reason, updated_at = excluded.updated_at`,
          ).bind(
            row.id,
            agencyId,
            playerId,
            row.promotion_id,
            row.provider,
            row.status,
            row.deposit_code,
            row.bonus_minor === null ? null : formatAmount(BigInt(row.bonus_minor), "THB"),
            row.reason,
            new Date(row.claimed_at).toISOString(),
            new Date().toISOString(),
          ),
        ),
      );
      for (const row of dirty) this.sql.exec(`UPDATE promotion_usages SET projected = 1 WHERE id = ? AND status = ? AND deposit_code IS ?`, row.id, row.status, row.deposit_code);
    } catch (error) {
      console.error("promotion usage projection failed; retried at the next alarm", error);
    }
  }

  private udirty(id: string): void {
    this.sql.exec(`UPDATE promotion_usages SET projected = 0 WHERE id = ?`, id);
    this.scheduleAlarm(Date.now());
  }

  private urow(query: string, ...params: unknown[]): UsageRow | null {
    return (this.sql.exec<UsageRow>(query, ...params).toArray()[0] as UsageRow | undefined) ?? null;
  }

  // ---- staff operations (back office) ----
  // Everything staff do to a wallet from the back office (issue 7). Each command claims its
  // change with a synchronous guarded write before any provider call, so two staff pressing
  // at once (or one pressing twice) get one outcome.

  /**
   * The provider reference of an order's settlement: the order code, or `<code>-<n>` once
   * the n-th staff retry found every earlier reference recorded FAILED at the provider (a
   * recorded ref is final there: sending it again only repeats the failure).
   */
  private settlementReference(code: string): string {
    const generation = Number(this.meta(`settle-gen:${code}`) ?? "0");
    return generation === 0 ? code : `${code}-${generation}`;
  }

  /** How many times staff have retried this order's settlement (the retry form carries it). */
  settlementRetries(code: string): number {
    return Number(this.meta(`retries:${code}`) ?? "0");
  }

  /**
   * Staff retry of a FAILED settlement (FAILED -> PAID, then the usual transfer-in saga).
   * The provider is asked about the reference last used first:
   *  - SUCCESS: it was applied after all -> the order is SUCCESS, nothing is sent again;
   *  - NOT_FOUND: it never arrived -> sent again under the same reference (the order code);
   *  - FAILED: recorded for good -> the next reference `<code>-<n>`;
   *  - no answer: nothing changes ("provider unavailable, try again").
   * `expectedRetries` is the count the staff member saw: a second press of the same form,
   * or a concurrent one, finds it moved on and does nothing.
   */
  async retryFailedSettlement(code: string, expectedRetries: number, now: number): Promise<StaffRetryResult> {
    const before = this.row(`SELECT * FROM deposit_orders WHERE code = ?`, code);
    if (!before) return { kind: "not-found" };
    if (before.status !== "FAILED") return { kind: "not-failed", order: toOrder(before) };
    if (this.settlementRetries(code) !== expectedRetries) return { kind: "stale", order: toOrder(before) };
    const provider = before.provider;
    if (!isProvider(provider)) return { kind: "unavailable", order: toOrder(before) };
    const reference = this.settlementReference(code);
    const status = await providerPort(this.env, provider).transferStatus(reference);
    if (status.kind === "unknown") return { kind: "unavailable", order: toOrder(before) };
    // The claim: synchronous from here on; only the first press at this count gets past it.
    const row = this.row(`SELECT * FROM deposit_orders WHERE code = ?`, code);
    if (!row || row.status !== "FAILED" || this.settlementRetries(code) !== expectedRetries || this.settlementReference(code) !== reference) {
      return { kind: row?.status === "FAILED" ? "stale" : "not-failed", order: row ? toOrder(row) : null };
    }
    this.setMeta(`retries:${code}`, String(expectedRetries + 1));
    if (status.kind === "success") {
      this.transition(code, "FAILED", "PAID", { next_attempt_at: null });
      this.finishSettlement(code, "SUCCESS");
      return { kind: "already-applied", order: this.getDeposit(code)!, reference };
    }
    let next = reference;
    if (status.kind === "failed") {
      const generation = Number(this.meta(`settle-gen:${code}`) ?? "0") + 1;
      this.setMeta(`settle-gen:${code}`, String(generation));
      next = `${code}-${generation}`;
    }
    this.transition(code, "FAILED", "PAID", { attempts: 0, next_attempt_at: now, settled_at: null, flag: null });
    this.markDirty(code);
    // First attempt right away, so staff see its outcome; an unknown one continues from the alarm.
    await this.settle(this.row(`SELECT * FROM deposit_orders WHERE code = ?`, code)!, now);
    return { kind: "retried", order: this.getDeposit(code)!, reference: next };
  }

  /**
   * Staff credit a payment that matched no order: a PAID order of its own (code `<ref>M`,
   * channel MANUAL) is created here and settled by the same saga as any deposit (transfer-in
   * under that code, status query after an unknown outcome, retried until known). The
   * idempotency key is the unmatched payment's id: asked twice, it is created once.
   */
  async creditManualPayment(input: ManualCreditInput): Promise<{ kind: "created" | "existing"; order: DepositOrder }> {
    const same = this.row(`SELECT * FROM deposit_orders WHERE idempotency_key = ?`, input.idempotencyKey);
    if (same) return { kind: "existing", order: toOrder(same) };
    this.sql.exec(
      `INSERT INTO deposit_orders (code, idempotency_key, provider, channel_code, amount_minor, credit_minor, rate_sell, status, flag, expires_at, created_at, paid_at, next_attempt_at)
       VALUES (?, ?, ?, 'MANUAL', ?, ?, ?, 'PAID', 'MANUAL', ?, ?, ?, ?)`,
      input.code,
      input.idempotencyKey,
      input.provider,
      input.amountMinor,
      input.creditMinor,
      input.rateSell,
      input.now,
      input.now,
      input.now,
      input.now,
    );
    // the receiving account holds the kip; it is owed to this player until credited
    this.post(input.code, "paid", [
      ["bank:receiving", "LAK", BigInt(input.amountMinor)],
      ["player:deposit-pending", "LAK", -BigInt(input.amountMinor)],
    ], input.now);
    this.markDirty(input.code);
    await this.settle(this.row(`SELECT * FROM deposit_orders WHERE code = ?`, input.code)!, input.now);
    return { kind: "created", order: this.getDeposit(input.code)! };
  }

  /**
   * A late payment booked here ("late-paid": the kip owed to this player) was resolved by
   * staff: credited by hand (possibly to another player, whose wallet books it anew) or
   * refunded outside the system. The booking is reversed once.
   */
  releaseLatePayment(code: string, entry: "late-credited" | "late-refunded", now: number): boolean {
    const late = this.sql
      .exec<{ amount_minor: string }>(`SELECT amount_minor FROM ledger WHERE order_code = ? AND entry = 'late-paid' AND account = 'bank:receiving'`, code)
      .toArray()[0];
    if (!late) return false;
    const released = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ledger WHERE order_code = ? AND entry IN ('late-credited', 'late-refunded')`, code).one().n;
    if (released > 0) return false;
    const amount = BigInt(late.amount_minor);
    this.post(code, entry, [
      ["player:deposit-pending", "LAK", amount],
      ["bank:receiving", "LAK", -amount],
    ], now);
    return true;
  }

  private setMeta(key: string, value: string): void {
    this.sql.exec(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value);
  }

  // ---- helpers ------------------------------------------------------------------------

  private expireStale(now: number): void {
    const expired = this.rows(`SELECT code FROM deposit_orders WHERE status = 'OPEN' AND expires_at <= ?`, now);
    for (const row of expired) {
      this.transition(row.code, "OPEN", "CANCELED", { flag: "EXPIRED" });
      this.markDirty(row.code);
    }
  }

  /** Guarded transition: applied only from the expected state, and only along an arrow. */
  private transition(code: string, from: OrderStatus, to: OrderStatus, set: Record<string, string | number | null> = {}): boolean {
    if (!canTransition(DEPOSIT_TRANSITIONS, from, to)) throw new Error(`refused transition ${from} -> ${to}`);
    const columns = Object.keys(set);
    const assignments = ["status = ?", ...columns.map((c) => `${c} = ?`)].join(", ");
    const cursor = this.sql.exec(`UPDATE deposit_orders SET ${assignments} WHERE code = ? AND status = ?`, to, ...columns.map((c) => set[c]), code, from);
    return cursor.rowsWritten > 0;
  }

  private post(code: string, entry: string, lines: [account: string, currency: string, amount: bigint][], now: number): void {
    const sums: Record<string, bigint> = {};
    for (const [, currency, amount] of lines) sums[currency] = (sums[currency] ?? 0n) + amount;
    if (Object.values(sums).some((s) => s !== 0n)) throw new Error(`unbalanced ledger entry ${entry} for ${code}`);
    for (const [account, currency, amount] of lines) {
      this.sql.exec(
        `INSERT OR IGNORE INTO ledger (order_code, entry, account, currency, amount_minor, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
        code,
        entry,
        account,
        currency,
        amount.toString(),
        now,
      );
    }
  }

  private markDirty(code: string): void {
    this.sql.exec(`UPDATE deposit_orders SET projected = 0 WHERE code = ?`, code);
    this.scheduleAlarm(Date.now());
  }

  /**
   * Wakes the wallet by `at` at the latest. Synchronous, so the alarm is written in the same
   * storage step as the command that needs it (a crash cannot keep the writes and lose the
   * alarm); what is armed is read from `meta`, not from an awaited getAlarm().
   */
  private scheduleAlarm(at: number): void {
    const armed = this.meta("alarmAt");
    if (armed !== null && Number(armed) <= at) return;
    this.armAlarm(at);
  }

  private armAlarm(at: number): void {
    void this.ctx.storage.setAlarm(at);
    this.setMeta("alarmAt", String(at));
  }

  private rescheduleFromState(now: number): void {
    const times: number[] = [];
    const nextSettle = this.sql.exec<{ t: number | null }>(`SELECT MIN(next_attempt_at) AS t FROM deposit_orders WHERE status = 'PAID'`).one().t;
    if (nextSettle !== null) times.push(nextSettle);
    const open = this.row(`SELECT * FROM deposit_orders WHERE status = 'OPEN'`);
    if (open) times.push(Math.min(open.expires_at, (open.last_poll_at ?? now) + RECONCILE_EVERY_MS));
    const nextWithdraw = this.sql
      .exec<{ t: number | null }>(
        `SELECT MIN(next_attempt_at) AS t FROM withdraw_orders WHERE status = 'PENDING' OR (status = 'OPEN' AND review != 'MANUAL') OR (status = 'REJECTED' AND return_state = 'PENDING')`,
      )
      .one().t;
    if (nextWithdraw !== null) times.push(nextWithdraw);
    const nextBonus = this.sql.exec<{ t: number | null }>(`SELECT MIN(bonus_next_at) AS t FROM deposit_orders WHERE bonus_state = 'PENDING'`).one().t;
    if (nextBonus !== null) times.push(nextBonus);
    const dirty =
      this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM deposit_orders WHERE projected = 0`).one().n +
      this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM withdraw_orders WHERE projected = 0`).one().n +
      this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM promotion_usages WHERE projected = 0`).one().n;
    if (dirty > 0) times.push(now + 5000);
    if (times.length) this.armAlarm(Math.max(now, Math.min(...times)));
  }

  private wrow(query: string, ...params: unknown[]): WithdrawRow | null {
    return (this.sql.exec<WithdrawRow>(query, ...params).toArray()[0] as WithdrawRow | undefined) ?? null;
  }

  private wtransition(code: string, from: WithdrawStatus, to: WithdrawStatus, set: Record<string, string | number | null> = {}): boolean {
    if (!canWithdrawTransition(from, to)) throw new Error(`refused withdraw transition ${from} -> ${to}`);
    const columns = Object.keys(set);
    const assignments = ["status = ?", ...columns.map((c) => `${c} = ?`)].join(", ");
    return this.sql.exec(`UPDATE withdraw_orders SET ${assignments} WHERE code = ? AND status = ?`, to, ...columns.map((c) => set[c]), code, from).rowsWritten > 0;
  }

  private wdirty(code: string): void {
    this.sql.exec(`UPDATE withdraw_orders SET projected = 0 WHERE code = ?`, code);
    this.scheduleAlarm(Date.now());
  }

  private row(query: string, ...params: unknown[]): OrderRow | null {
    return (this.sql.exec<OrderRow>(query, ...params).toArray()[0] as OrderRow | undefined) ?? null;
  }

  private rows(query: string, ...params: unknown[]): OrderRow[] {
    return this.sql.exec<OrderRow>(query, ...params).toArray() as OrderRow[];
  }
}

function toUsage(row: UsageRow): PromotionUsage {
  const thb = (minor: string | null) => (minor === null ? null : formatAmount(BigInt(minor), "THB"));
  return {
    id: row.id,
    promotionId: row.promotion_id,
    provider: row.provider as Provider,
    status: row.status,
    rules: JSON.parse(row.rules_json) as PromotionRules,
    depositCode: row.deposit_code,
    depositCredit: thb(row.deposit_credit_minor),
    bonus: thb(row.bonus_minor),
    bonusCredited: row.bonus_credited === 1,
    turnoverTarget: thb(row.turnover_target_minor),
    turnoverStart: thb(row.turnover_start_minor),
    withdrawCode: row.withdraw_code,
    reason: row.reason,
    claimedAt: row.claimed_at,
    usedAt: row.used_at,
    endedAt: row.ended_at,
  };
}

function toWithdraw(row: WithdrawRow): WithdrawOrder {
  return {
    code: row.code,
    provider: row.provider as Provider,
    credit: formatAmount(BigInt(row.credit_minor), "THB"),
    netCredit: formatAmount(BigInt(row.net_credit_minor), "THB"),
    receivedLak: formatAmount(BigInt(row.received_lak_minor), "LAK"),
    bankCode: row.bank_code,
    accountNumber: row.account_number,
    accountName: row.account_name,
    status: row.status,
    review: row.review,
    payoutState: row.payout_state,
    returnState: row.return_state,
    reason: row.reason,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    usageId: row.usage_id,
    deductions: (JSON.parse(row.deductions_json ?? "[]") as { kind: Deduction["kind"]; creditMinor: string }[]).map((d) => ({ kind: d.kind, credit: formatAmount(BigInt(d.creditMinor), "THB") })),
  };
}

function toOrder(row: OrderRow): DepositOrder {
  return {
    code: row.code,
    provider: row.provider as Provider,
    channelCode: row.channel_code,
    amount: formatAmount(BigInt(row.amount_minor), "LAK"),
    credit: formatAmount(BigInt(row.credit_minor), "THB"),
    rateSell: row.rate_sell,
    status: row.status,
    flag: row.flag,
    qrPayload: row.qr_payload,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    paidAt: row.paid_at,
    settledAt: row.settled_at,
    attempts: row.attempts,
    usageId: row.usage_id,
    bonus: row.bonus_minor === null ? null : formatAmount(BigInt(row.bonus_minor), "THB"),
    bonusState: row.bonus_state,
  };
}

/** "50000" and "50000.00" are the same kip amount. */
function normalizeLak(amount: string): string {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) return amount;
  return `${BigInt(match[1])}.${(match[2] ?? "").padEnd(2, "0")}`;
}
