import { DurableObject } from "cloudflare:workers";
import { canTransition, DEPOSIT_TRANSITIONS, type OrderStatus } from "../core/orders";
import { formatAmount } from "../core/money";
import { isProvider, type Provider } from "../core/providers";
import { providerPort, providerUsername } from "../ports/provider";
import { gatewayPort } from "../ports/gateway";

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
};

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
};

export type OpenDepositResult =
  | { kind: "created"; order: DepositOrder }
  | { kind: "existing"; order: DepositOrder }
  | { kind: "open-exists"; order: DepositOrder };

export type MarkPaidResult =
  | { kind: "paid"; order: DepositOrder }
  | { kind: "duplicate"; order: DepositOrder }
  | { kind: "amount-mismatch"; order: DepositOrder }
  | { kind: "late"; order: DepositOrder }
  | { kind: "unknown-order" };

/** Settlement retry: 1 s doubling to at most 5 minutes; it never gives up on a paid order. */
export function settlementDelayMs(attempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempts - 1), 5 * 60 * 1000);
}
/** An OPEN order's payment is looked up at the gateway at most this often (the reconciler). */
export const RECONCILE_EVERY_MS = 30_000;

const SCHEMA = [
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

export class PlayerWallet extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    ctx.blockConcurrencyWhile(async () => {
      for (const statement of SCHEMA) this.sql.exec(statement);
    });
  }

  /** Whose wallet this is; remembered for the alarm, which has no request to read it from. */
  identify(agencyId: string, playerId: string, username: string): void {
    for (const [key, value] of [["agencyId", agencyId], ["playerId", playerId], ["username", username]]) {
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
    this.sql.exec(
      `INSERT INTO deposit_orders (code, idempotency_key, provider, channel_code, amount_minor, credit_minor, rate_sell, status, expires_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'OPEN', ?, ?)`,
      input.code,
      input.idempotencyKey,
      input.provider,
      input.channelCode,
      input.amountMinor,
      input.creditMinor,
      input.rateSell,
      input.expiresAt,
      input.now,
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
      this.sql.exec(`UPDATE deposit_orders SET flag = 'LATE_PAYMENT' WHERE code = ? AND flag IS NULL`, code);
      this.markDirty(code);
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

  // ---- the alarm: settlement saga, reconciler, expiry, projection -------------------

  async alarm(): Promise<void> {
    await this.work(Date.now());
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
    await this.project();
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
    if (row.attempts > 0) {
      // A previous attempt may have been applied: ask before sending again.
      const status = await port.transferStatus(row.code);
      if (status.kind === "success") return this.finishSettlement(row.code, "SUCCESS");
      if (status.kind === "failed") return this.finishSettlement(row.code, "FAILED");
      if (status.kind === "unknown") return; // ask again at the next attempt
    }
    const outcome = await port.transfer({
      username: providerUsername(agencyId, username),
      amount: formatAmount(BigInt(row.credit_minor), "THB"),
      direction: "in",
      reference: row.code,
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
    }
    // FAILED: the kip stays owed to the player (deposit-pending), visible to staff.
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

  // ---- queries ------------------------------------------------------------------------

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

  private scheduleAlarm(at: number): void {
    void this.ctx.storage.getAlarm().then((current) => {
      if (current === null || current > at) return this.ctx.storage.setAlarm(at);
    });
  }

  private rescheduleFromState(now: number): void {
    const times: number[] = [];
    const nextSettle = this.sql.exec<{ t: number | null }>(`SELECT MIN(next_attempt_at) AS t FROM deposit_orders WHERE status = 'PAID'`).one().t;
    if (nextSettle !== null) times.push(nextSettle);
    const open = this.row(`SELECT * FROM deposit_orders WHERE status = 'OPEN'`);
    if (open) times.push(Math.min(open.expires_at, (open.last_poll_at ?? now) + RECONCILE_EVERY_MS));
    const dirty = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM deposit_orders WHERE projected = 0`).one().n;
    if (dirty > 0) times.push(now + 5000);
    if (times.length) void this.ctx.storage.setAlarm(Math.max(now, Math.min(...times)));
  }

  private row(query: string, ...params: unknown[]): OrderRow | null {
    return (this.sql.exec<OrderRow>(query, ...params).toArray()[0] as OrderRow | undefined) ?? null;
  }

  private rows(query: string, ...params: unknown[]): OrderRow[] {
    return this.sql.exec<OrderRow>(query, ...params).toArray() as OrderRow[];
  }
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
  };
}

/** "50000" and "50000.00" are the same kip amount. */
function normalizeLak(amount: string): string {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) return amount;
  return `${BigInt(match[1])}.${(match[2] ?? "").padEnd(2, "0")}`;
}
