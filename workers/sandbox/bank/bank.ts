import { DurableObject } from "cloudflare:workers";
import { buildLaoQr, parseLaoQr } from "../../core/emvco";
import { findBank, maskAccountNumber } from "../../core/banks";
import { formatAmount, parseAmount } from "../../core/money";
import { applyFault, isPayoutFault, isWebhookFault, noEffect, type Fault, type FaultEffect, type FaultMode, type FaultSpec, type PayoutFaultMode } from "./faults";
import { signatureHeader, SIGNATURE_HEADER } from "./signature";

export type BankEnv = {
  BANK: DurableObjectNamespace<SandboxBank>;
  /** Present in vite dev/preview: reaches the portal Worker, keeping the callback URL's Host. */
  PORTAL?: Fetcher;
  /** "pull" in the vitest pool: deliveries wait for the test pump (GET /sandbox/deliveries/next). */
  DELIVERY_MODE?: string;
  MERCHANT_ID: string;
  MERCHANT_SECRET: string;
  WEBHOOK_SECRET: string;
};

/** Webhook retry policy: attempt n+1 waits BASE_BACKOFF_MS * 2^(n-1) after failed attempt n. */
const MAX_ATTEMPTS = 8;
const BASE_BACKOFF_MS = 1000;
/** A pulled (or sending) delivery without a result after this long counts as a failed attempt. */
const LEASE_MS = 30_000;
const SEND_TIMEOUT_MS = 10_000;
/** Deliveries in flight at once from the alarm (push modes), per object. */
const SEND_CONCURRENCY = 32;
/** The "stale-signature" fault signs with a timestamp this old. */
const STALE_SIGNATURE_AGE_S = 600;
const WRONG_SECRET = "sandbox-bank-wrong-secret";

/**
 * The bank's state is sharded by reference (decision 024): every QR, its payment and its
 * webhook live in one of QR_SHARDS objects (`sandbox-bank:qr:<n>`, n = shardOf(reference)),
 * so one player's payment never waits behind another's. The main object (`sandbox-bank`)
 * keeps what spans references: the faults (a fault's budget and an out-of-order batch are
 * counted across payments), the payouts and their settings, and the webhooks a fault may
 * touch. A QR shard hands a payment's webhook to the main object only while a webhook fault
 * is set anywhere (the main object tells every shard when that changes), so a fault-free
 * bank asks nothing global on the pay path.
 */
export const QR_SHARDS = 16;
export const MAIN_BANK = "sandbox-bank";
/** Delivery ids of shard n are (n + 1) * SHARD_ID_SPAN + its own sequence: unique across the bank, and they say where they live. */
const SHARD_ID_SPAN = 1_000_000_000;

export function qrShardName(shard: number): string {
  return `${MAIN_BANK}:qr:${shard}`;
}

/** The object a delivery id belongs to: null = the main object, else the QR shard. */
export function shardOfDelivery(id: number): number | null {
  const shard = Math.floor(id / SHARD_ID_SPAN) - 1;
  return shard >= 0 && shard < QR_SHARDS ? shard : null;
}

export type DeliveryMode = "portal" | "pull" | "fetch";
export function deliveryMode(env: BankEnv): DeliveryMode {
  if (env.PORTAL) return "portal";
  if (env.DELIVERY_MODE === "pull") return "pull";
  return "fetch";
}

type Receiver = { iin: string; merchantId: string; name: string; city: string; paymentType: "001" | "002" };
export type CreateQrInput = { reference: string; amountMinor: string; /** tag 54 text */ amountText: string; callbackUrl: string; expiresInSeconds: number; receiver: Receiver };

export type QrData = { reference: string; payload: string; amount: string; expiresAt: string };
export type PaymentStatus = "PENDING" | "PAID" | "EXPIRED" | "NOT_FOUND";
export type StatusData = {
  reference: string;
  status: PaymentStatus;
  amount: string | null;
  expiresAt?: string;
  transactionId?: string;
  paidAt?: string;
};
export type PayData = { reference: string; transactionId: string; status: "PAID"; amount: string; paidAt: string; merchantName: string };
export type RecentQr = { reference: string; amount: string; status: PaymentStatus; expiresAt: string; payload: string; /** ms, to merge the shards' lists */ createdAt: number };

export type DeliveryState = "pending" | "inflight" | "held" | "delivered" | "dead" | "dropped";
/** What a webhook is about: a QR payment ("payment.succeeded") or a payout ("payout.paid" / "payout.rejected"). */
export type DeliveryKind = "payment" | "payout";
export type Delivery = {
  id: number;
  kind: DeliveryKind;
  reference: string;
  url: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: string;
  signature: "ok" | "stale" | "bad";
  faults: FaultMode[];
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
};
export type PulledDelivery = { id: number; kind: DeliveryKind; reference: string; attempt: number; url: string; headers: Record<string, string>; body: string };
export type DeliveryFilter = { reference?: string; prefix?: string; kind?: DeliveryKind };

/** Payouts (withdrawals): the portal pays a player's withdrawal to their Lao bank account. */
export type CreatePayoutInput = {
  reference: string;
  amountMinor: string;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  callbackUrl: string;
};
type PayoutStatus = "PROCESSING" | "PAID" | "REJECTED" | "NOT_FOUND";
export type PayoutOutcome = "PAID" | "REJECTED";
export type PayoutData = {
  reference: string;
  status: PayoutStatus;
  amount: string | null;
  createdAt?: string;
  transactionId?: string;
  reason?: string;
  completedAt?: string;
};
/** What POST /api/payouts answers: the payout, or a simulated server error (faults). */
export type CreatePayoutResult = Outcome<PayoutData> | { ok: false; status: 500; code: "INTERNAL_ERROR"; message: string };
/** Everything about a payout, for the tester page and GET /sandbox/payouts. */
export type PayoutRecord = {
  reference: string;
  status: Exclude<PayoutStatus, "NOT_FOUND">;
  amount: string;
  bankCode: string;
  bankName: string;
  accountNumber: string;
  accountMasked: string;
  accountName: string;
  callbackUrl: string;
  /** When the bank completes it by itself; null = held (payout-hold) or completed. */
  dueAt: string | null;
  /** What the bank will do at dueAt (payout-reject plans REJECTED). */
  plannedOutcome: PayoutOutcome;
  faults: PayoutFaultMode[];
  transactionId: string | null;
  reason: string | null;
  createdAt: string;
  completedAt: string | null;
};
export type PayoutConfig = { referencePrefix: string; processingMs: number };

export type Outcome<T> = { ok: true; status: number; data: T } | { ok: false; status: number; code: string; message: string };

function fail(status: number, code: string, message: string): { ok: false; status: number; code: string; message: string } {
  return { ok: false, status, code, message };
}

type QrRow = {
  reference: string;
  amount_minor: string;
  payload: string;
  callback_url: string;
  merchant_name: string;
  created_at: number;
  expires_at: number;
  status: string;
  transaction_id: string | null;
  paid_at: number | null;
};

type OutboxRow = {
  id: number;
  kind: string;
  reference: string;
  url: string;
  body: string;
  state: string;
  attempts: number;
  next_attempt_at: number;
  lease_until: number | null;
  signature: string;
  faults: string;
  hold_fault: number | null;
  /** Set on the rows of a released out-of-order batch: the order they are sent in. */
  order_key: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
};

type PayoutRow = {
  reference: string;
  amount_minor: string;
  bank_code: string;
  account_number: string;
  account_name: string;
  callback_url: string;
  status: string;
  due_at: number | null;
  planned_outcome: string;
  planned_reason: string | null;
  faults: string;
  transaction_id: string | null;
  reason: string | null;
  created_at: number;
  completed_at: number | null;
};

type FaultRow = {
  id: number;
  mode: string;
  count: number;
  rate: number;
  times: number | null;
  reference_prefix: string;
  delay_ms: number;
  hold_ms: number;
  applied: number;
  created_at: number;
};

/**
 * Schema migrations, applied in order once each (version kept in `meta`).
 * Amounts are minor units (att) kept as TEXT so BigInt round-trips exactly.
 */
const MIGRATIONS: string[] = [
  `CREATE TABLE qr (
     reference TEXT PRIMARY KEY,
     amount_minor TEXT NOT NULL,
     payload TEXT NOT NULL,
     callback_url TEXT NOT NULL,
     merchant_name TEXT NOT NULL,
     receiver TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     status TEXT NOT NULL DEFAULT 'PENDING',   -- PENDING | PAID; EXPIRED is derived from expires_at
     transaction_id TEXT UNIQUE,
     paid_at INTEGER
   );
   CREATE INDEX qr_created ON qr (created_at);
   -- The webhook outbox: one row per delivery (a "duplicate" fault adds rows).
   CREATE TABLE outbox (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     reference TEXT NOT NULL,
     url TEXT NOT NULL,
     body TEXT NOT NULL,
     state TEXT NOT NULL,                      -- pending | inflight | held | delivered | dead | dropped
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     order_key INTEGER,                        -- tie-break among due rows (NULL = id)
     lease_until INTEGER,
     signature TEXT NOT NULL DEFAULT 'ok',     -- ok | stale | bad
     faults TEXT NOT NULL DEFAULT '',
     hold_fault INTEGER,
     hold_batch INTEGER,
     hold_until INTEGER,
     last_status INTEGER,
     last_error TEXT,
     created_at INTEGER NOT NULL,
     delivered_at INTEGER
   );
   CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
   CREATE INDEX outbox_reference ON outbox (reference);
   CREATE TABLE faults (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     mode TEXT NOT NULL,
     count INTEGER NOT NULL,
     rate REAL NOT NULL,
     times INTEGER,
     reference_prefix TEXT NOT NULL,
     delay_ms INTEGER NOT NULL,
     hold_ms INTEGER NOT NULL,
     applied INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL
   );`,
  // 2: payouts (withdrawals), their processing time, and the kind of each webhook.
  `CREATE TABLE payout (
     reference TEXT PRIMARY KEY,
     amount_minor TEXT NOT NULL,
     bank_code TEXT NOT NULL,
     account_number TEXT NOT NULL,
     account_name TEXT NOT NULL,
     callback_url TEXT NOT NULL,
     status TEXT NOT NULL DEFAULT 'PROCESSING', -- PROCESSING | PAID | REJECTED
     due_at INTEGER,                            -- the alarm completes it then; NULL = held or completed
     planned_outcome TEXT NOT NULL DEFAULT 'PAID',
     planned_reason TEXT,
     faults TEXT NOT NULL DEFAULT '',
     transaction_id TEXT UNIQUE,
     reason TEXT,
     created_at INTEGER NOT NULL,
     completed_at INTEGER
   );
   CREATE INDEX payout_due ON payout (status, due_at);
   CREATE INDEX payout_created ON payout (created_at);
   -- processing time per reference prefix ('' = everyone else)
   CREATE TABLE payout_config (
     reference_prefix TEXT PRIMARY KEY,
     processing_ms INTEGER NOT NULL
   );
   ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'payment';`,
];

/** How long a payout stays PROCESSING before the bank completes it, unless configured. */
const DEFAULT_PROCESSING_MS = 1000;
/** The reason a "payout-reject" fault gives. */
const FAULT_REJECT_REASON = "ACCOUNT_CLOSED";
/** The reason of a payout rejected by hand without one. */
const DEFAULT_REJECT_REASON = "DECLINED_BY_BANK";

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The amount as it goes into tag 54: as the merchant wrote it when that is already a plain
 * EMV amount ("60000" or "60000.00"), else the canonical two-decimal form.
 */
export function qrAmount(text: string, minor: bigint): string {
  return /^(0|[1-9]\d*)(\.\d{1,2})?$/.test(text) ? text : formatAmount(minor, "LAK");
}

function randomHex(bytes: number): string {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(data, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function roll(rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  return crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32 < rate;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function matches(reference: string, prefix: string): boolean {
  return reference.startsWith(prefix);
}

/** One bank: every QR, the webhook outbox and the faults live in this Durable Object's SQLite. */
export class SandboxBank extends DurableObject<BankEnv> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: BankEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.migrate();
  }

  private migrate(): void {
    this.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    const row = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'").toArray()[0];
    let version = row ? Number(row.value) : 0;
    while (version < MIGRATIONS.length) {
      const statement = MIGRATIONS[version]!;
      const next = version + 1;
      this.ctx.storage.transactionSync(() => {
        this.sql.exec(statement);
        this.sql.exec("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", String(next));
      });
      version = next;
    }
  }

  async health(): Promise<string> {
    return "ok";
  }

  // ---- QR codes and payments ----------------------------------------------------------

  async createQr(input: CreateQrInput): Promise<Outcome<QrData>> {
    const now = Date.now();
    const existing = this.qr(input.reference);
    if (existing) {
      if (existing.amount_minor !== input.amountMinor) {
        return fail(409, "REF_CONFLICT", `reference ${input.reference} already has a QR for another amount`);
      }
      return { ok: true, status: 200, data: this.qrData(existing) };
    }
    let payload: string;
    try {
      payload = buildLaoQr({
        iin: input.receiver.iin,
        merchantId: input.receiver.merchantId,
        paymentType: input.receiver.paymentType,
        amount: input.amountText,
        merchantName: input.receiver.name,
        merchantCity: input.receiver.city,
        reference: input.reference,
      });
    } catch (error) {
      return fail(400, "INVALID_REQUEST", error instanceof Error ? error.message : "cannot build the QR");
    }
    const expiresAt = now + input.expiresInSeconds * 1000;
    this.sql.exec(
      `INSERT INTO qr (reference, amount_minor, payload, callback_url, merchant_name, receiver, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      input.reference,
      input.amountMinor,
      payload,
      input.callbackUrl,
      input.receiver.name.slice(0, 25),
      JSON.stringify(input.receiver),
      now,
      expiresAt,
    );
    return { ok: true, status: 201, data: this.qrData(this.qr(input.reference)!) };
  }

  async paymentStatus(reference: string): Promise<StatusData> {
    const row = this.qr(reference);
    if (!row) return { reference, status: "NOT_FOUND", amount: null };
    const data: StatusData = {
      reference,
      status: this.statusOf(row, Date.now()),
      amount: formatAmount(BigInt(row.amount_minor), "LAK"),
      expiresAt: iso(row.expires_at),
    };
    if (row.transaction_id) data.transactionId = row.transaction_id;
    if (row.paid_at !== null) data.paidAt = iso(row.paid_at);
    return data;
  }

  /**
   * What a banking app does when the customer confirms: read the QR, check it, pay it.
   * `shard`: the QR shard this object is (index.ts routes by the payload's reference); its
   * delivery ids are numbered from there.
   */
  async pay(payload: string, shard: number | null = null): Promise<Outcome<PayData>> {
    if (shard !== null) this.setIdOffset((shard + 1) * SHARD_ID_SPAN);
    const now = Date.now();
    const text = payload.trim();
    if (!text) return fail(400, "PAYLOAD_MISSING", "Paste a QR payload or upload a text file that contains one.");
    const parsed = parseLaoQr(text);
    if (!parsed.ok) {
      if (parsed.reason === "CRC") return fail(400, "QR_CRC", "The QR checksum (CRC) does not match: the payload was changed or mistyped.");
      if (parsed.reason === "NOT_LAPNET") return fail(400, "QR_NOT_LAPNET", "This is not a LAO QR (LAPNet) code.");
      return fail(400, "QR_INVALID", "This is not a valid QR payload.");
    }
    const reference = parsed.qr.reference;
    const row = reference ? this.qr(reference) : null;
    if (!reference || !row) return fail(404, "QR_UNKNOWN", "This bank did not issue this QR code (unknown reference).");
    if (row.status === "PAID") {
      return fail(409, "ALREADY_PAID", `This QR code was already paid (transaction ${row.transaction_id}).`);
    }
    if (now >= row.expires_at) return fail(410, "QR_EXPIRED", `This QR code expired at ${iso(row.expires_at)}.`);
    const amountMinor = parseAmount(parsed.qr.amount ?? "", "LAK");
    if (amountMinor === null || amountMinor.toString() !== row.amount_minor) {
      return fail(422, "AMOUNT_MISMATCH", "The amount in this QR code is not the amount the merchant asked for.");
    }
    if (text.slice(0, -4) + text.slice(-4).toUpperCase() !== row.payload) {
      return fail(422, "QR_MISMATCH", "This QR code differs from the one the merchant issued.");
    }
    const transactionId = `SBX${randomHex(8).toUpperCase()}`;
    const amount = formatAmount(amountMinor, "LAK");
    const body = JSON.stringify({ event: "payment.succeeded", reference, transactionId, amount, currency: "LAK", paidAt: iso(now) });
    // A QR shard while a webhook fault is set: the main object, which keeps the faults, decides.
    const handOver = this.idOffset() > 0 && this.faultsArmed();
    const paid = this.ctx.storage.transactionSync(() => {
      const update = this.sql.exec(
        "UPDATE qr SET status = 'PAID', transaction_id = ?, paid_at = ? WHERE reference = ? AND status = 'PENDING'",
        transactionId,
        now,
        reference,
      );
      if (update.rowsWritten === 0) return false;
      if (!handOver) this.enqueueWebhook("payment", reference, row.callback_url, body, now);
      return true;
    });
    if (!paid) return fail(409, "ALREADY_PAID", "This QR code was already paid.");
    if (handOver) {
      try {
        await this.env.BANK.get(this.env.BANK.idFromName(MAIN_BANK)).enqueueFromShard("payment", reference, row.callback_url, body, now);
      } catch {
        // The main object did not take it: the webhook still goes, from here, without the fault
        // (a payment the bank confirmed is never left without its webhook).
        this.ctx.storage.transactionSync(() => this.enqueueWebhook("payment", reference, row.callback_url, body, now));
      }
    }
    await this.scheduleAlarm();
    this.ctx.waitUntil(this.sendDue(true));
    return { ok: true, status: 200, data: { reference, transactionId, status: "PAID", amount, paidAt: iso(now), merchantName: row.merchant_name } };
  }

  /** Sandbox helper: make a pending QR expire now (e2e tests of the "expired" path). */
  async expireQr(reference: string): Promise<Outcome<StatusData>> {
    const row = this.qr(reference);
    if (!row) return fail(404, "QR_UNKNOWN", "unknown reference");
    if (row.status === "PAID") return fail(409, "ALREADY_PAID", "this QR code was already paid");
    this.sql.exec("UPDATE qr SET expires_at = MIN(expires_at, ?) WHERE reference = ?", Date.now() - 1, reference);
    return { ok: true, status: 200, data: await this.paymentStatus(reference) };
  }

  async recentQrs(limit: number): Promise<RecentQr[]> {
    const now = Date.now();
    return this.sql
      .exec<QrRow>("SELECT * FROM qr ORDER BY created_at DESC LIMIT ?", limit)
      .toArray()
      .map((row) => ({
        reference: row.reference,
        amount: formatAmount(BigInt(row.amount_minor), "LAK"),
        status: this.statusOf(row, now),
        expiresAt: iso(row.expires_at),
        payload: row.payload,
        createdAt: row.created_at,
      }));
  }

  // ---- Payouts (withdrawals) ------------------------------------------------------------
  // POST /api/payouts records a PROCESSING payout; the alarm (or a status query, whichever
  // comes first) completes it processingMs later as PAID (or REJECTED by a fault), and its
  // callback goes through the same outbox as payment webhooks. Faults: payout-error-before /
  // payout-error-after per request, payout-reject / payout-hold per new payout.

  /** Idempotent by reference: same amount and account -> 200 with the current state; else 409. */
  async createPayout(input: CreatePayoutInput): Promise<CreatePayoutResult> {
    const now = Date.now();
    // Everything up to the insert is synchronous: concurrent requests cannot interleave.
    if (this.takePayoutFaults(input.reference, ["payout-error-before"]).length > 0) {
      return { ok: false, status: 500, code: "INTERNAL_ERROR", message: "the bank could not process the request" };
    }
    this.settleDuePayouts(now);
    const existing = this.payout(input.reference);
    let result: Outcome<PayoutData>;
    if (existing) {
      if (existing.amount_minor !== input.amountMinor) {
        return fail(409, "REF_CONFLICT", `reference ${input.reference} already has a payout of another amount`);
      }
      if (existing.bank_code !== input.bankCode || existing.account_number !== input.accountNumber) {
        return fail(409, "REF_CONFLICT", `reference ${input.reference} already has a payout to another account`);
      }
      result = { ok: true, status: 200, data: this.payoutData(existing) };
    } else {
      const applied = this.takePayoutFaults(input.reference, ["payout-reject", "payout-hold"]);
      const reject = applied.includes("payout-reject");
      const hold = applied.includes("payout-hold");
      this.sql.exec(
        `INSERT INTO payout (reference, amount_minor, bank_code, account_number, account_name, callback_url, due_at, planned_outcome, planned_reason, faults, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        input.reference,
        input.amountMinor,
        input.bankCode,
        input.accountNumber,
        input.accountName,
        input.callbackUrl,
        hold ? null : now + this.processingMs(input.reference),
        reject ? "REJECTED" : "PAID",
        reject ? FAULT_REJECT_REASON : null,
        applied.join(","),
        now,
      );
      result = { ok: true, status: 201, data: this.payoutData(this.payout(input.reference)!) };
    }
    const errorAfter = this.takePayoutFaults(input.reference, ["payout-error-after"]).length > 0;
    await this.scheduleAlarm();
    if (errorAfter) return { ok: false, status: 500, code: "INTERNAL_ERROR", message: "the bank could not process the request" };
    return result;
  }

  async payoutStatus(reference: string): Promise<PayoutData> {
    this.settleDuePayouts(Date.now());
    await this.scheduleAlarm();
    const row = this.payout(reference);
    return row ? this.payoutData(row) : { reference, status: "NOT_FOUND", amount: null };
  }

  /** Sandbox control: complete a PROCESSING payout now (held or not yet due). */
  async completePayout(reference: string, outcome: PayoutOutcome, reason: string | null): Promise<Outcome<PayoutData>> {
    const now = Date.now();
    this.settleDuePayouts(now);
    const row = this.payout(reference);
    if (!row) return fail(404, "PAYOUT_UNKNOWN", `no payout with reference ${reference}`);
    if (row.status !== "PROCESSING") return fail(409, "ALREADY_COMPLETED", `payout ${reference} is already ${row.status}`);
    this.ctx.storage.transactionSync(() => this.completeRow(row, outcome, outcome === "REJECTED" ? (reason ?? DEFAULT_REJECT_REASON) : null, now));
    await this.scheduleAlarm();
    return { ok: true, status: 200, data: this.payoutData(this.payout(reference)!) };
  }

  async recentPayouts(limit: number, filter: DeliveryFilter = {}): Promise<PayoutRecord[]> {
    this.settleDuePayouts(Date.now());
    await this.scheduleAlarm();
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (filter.reference !== undefined) {
      where.push("reference = ?");
      params.push(filter.reference);
    }
    if (filter.prefix !== undefined) {
      where.push("substr(reference, 1, length(?)) = ?");
      params.push(filter.prefix, filter.prefix);
    }
    return this.sql
      .exec<PayoutRow>(`SELECT * FROM payout ${where.length ? "WHERE " + where.join(" AND ") : ""} ORDER BY created_at DESC, rowid DESC LIMIT ?`, ...params, limit)
      .toArray()
      .map((row) => this.payoutRecord(row));
  }

  async payoutConfig(): Promise<PayoutConfig[]> {
    const rows = this.sql.exec<{ reference_prefix: string; processing_ms: number }>("SELECT * FROM payout_config ORDER BY reference_prefix").toArray();
    const list = rows.map((row) => ({ referencePrefix: row.reference_prefix, processingMs: row.processing_ms }));
    if (!list.some((c) => c.referencePrefix === "")) list.unshift({ referencePrefix: "", processingMs: DEFAULT_PROCESSING_MS });
    return list;
  }

  /** Sets processingMs for new payouts (those whose reference starts with referencePrefix; "" = all others). */
  async setPayoutConfig(config: PayoutConfig): Promise<PayoutConfig> {
    this.sql.exec(
      "INSERT INTO payout_config (reference_prefix, processing_ms) VALUES (?, ?) ON CONFLICT (reference_prefix) DO UPDATE SET processing_ms = excluded.processing_ms",
      config.referencePrefix,
      config.processingMs,
    );
    return config;
  }

  /** Removes a prefix's processing time (or, for "", puts the default back). */
  async clearPayoutConfig(referencePrefix: string): Promise<{ cleared: number }> {
    return { cleared: this.sql.exec("DELETE FROM payout_config WHERE reference_prefix = ?", referencePrefix).rowsWritten };
  }

  /** The longest configured prefix of this reference wins; default DEFAULT_PROCESSING_MS. */
  private processingMs(reference: string): number {
    const row = this.sql
      .exec<{ processing_ms: number }>(
        "SELECT processing_ms FROM payout_config WHERE substr(?, 1, length(reference_prefix)) = reference_prefix ORDER BY length(reference_prefix) DESC LIMIT 1",
        reference,
      )
      .toArray()[0];
    return row ? row.processing_ms : DEFAULT_PROCESSING_MS;
  }

  /** Rolls the payout faults of these modes for one reference; uses up their budget. */
  private takePayoutFaults(reference: string, modes: PayoutFaultMode[]): PayoutFaultMode[] {
    const applied: PayoutFaultMode[] = [];
    for (const fault of this.faultRows()) {
      if (!isPayoutFault(fault.mode) || !modes.includes(fault.mode) || applied.includes(fault.mode)) continue;
      if (!matches(reference, fault.reference_prefix) || !roll(fault.rate)) continue;
      applied.push(fault.mode);
      this.useFault(fault);
    }
    return applied;
  }

  /** Completes every payout whose time has come (the alarm, and before any read). */
  private settleDuePayouts(now: number): number {
    const due = this.sql.exec<PayoutRow>("SELECT * FROM payout WHERE status = 'PROCESSING' AND due_at <= ? ORDER BY due_at, created_at", now).toArray();
    for (const row of due) {
      this.ctx.storage.transactionSync(() => this.completeRow(row, row.planned_outcome === "REJECTED" ? "REJECTED" : "PAID", row.planned_reason ?? FAULT_REJECT_REASON, now));
    }
    return due.length;
  }

  /** PROCESSING -> PAID | REJECTED and its callback into the outbox, once. Call inside a transaction. */
  private completeRow(row: PayoutRow, outcome: PayoutOutcome, reason: string | null, now: number): boolean {
    const transactionId = outcome === "PAID" ? `SBXP${randomHex(8).toUpperCase()}` : null;
    const update = this.sql.exec(
      "UPDATE payout SET status = ?, transaction_id = ?, reason = ?, completed_at = ?, due_at = NULL WHERE reference = ? AND status = 'PROCESSING'",
      outcome,
      transactionId,
      outcome === "REJECTED" ? reason : null,
      now,
      row.reference,
    );
    if (update.rowsWritten === 0) return false;
    const amount = formatAmount(BigInt(row.amount_minor), "LAK");
    const body =
      outcome === "PAID"
        ? { event: "payout.paid", reference: row.reference, transactionId, amount, currency: "LAK", completedAt: iso(now) }
        : { event: "payout.rejected", reference: row.reference, amount, currency: "LAK", reason, completedAt: iso(now) };
    this.enqueueWebhook("payout", row.reference, row.callback_url, JSON.stringify(body), now);
    return true;
  }

  // ---- Webhook outbox -----------------------------------------------------------------

  private enqueueWebhook(kind: DeliveryKind, reference: string, url: string, body: string, now: number): void {
    let effect: FaultEffect = noEffect();
    for (const fault of this.faultRows()) {
      if (!isWebhookFault(fault.mode) || !matches(reference, fault.reference_prefix) || !roll(fault.rate)) continue;
      effect = applyFault(effect, this.faultOf(fault));
      this.useFault(fault);
    }
    const state: DeliveryState = effect.drop ? "dropped" : effect.hold ? "held" : "pending";
    for (let copy = 0; copy < effect.copies; copy++) {
      this.sql.exec(
        `INSERT INTO outbox (kind, reference, url, body, state, next_attempt_at, signature, faults, hold_fault, hold_batch, hold_until, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        kind,
        reference,
        url,
        body,
        state,
        now + effect.delayMs,
        effect.signature,
        effect.applied.join(","),
        effect.hold?.faultId ?? null,
        effect.hold?.batch ?? null,
        effect.hold ? now + effect.hold.holdMs : null,
        now,
      );
    }
    if (effect.hold && !effect.drop) {
      const held = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM outbox WHERE state = 'held' AND hold_fault = ?", effect.hold.faultId).one().n;
      if (held >= effect.hold.batch) this.releaseHeld(effect.hold.faultId, now);
    }
  }

  /** One more payment or payout affected: count it, and remove the fault when its budget is spent. */
  private useFault(fault: FaultRow): void {
    if (fault.times !== null && fault.times <= 1) {
      this.sql.exec("DELETE FROM faults WHERE id = ?", fault.id);
      if (isWebhookFault(fault.mode)) this.ctx.waitUntil(this.pushFaultsArmed());
    } else this.sql.exec("UPDATE faults SET applied = applied + 1, times = times - 1 WHERE id = ?", fault.id);
  }

  /** Releases a held out-of-order batch, newest first. */
  private releaseHeld(faultId: number, now: number): number {
    const ids = this.sql
      .exec<{ id: number }>("SELECT id FROM outbox WHERE state = 'held' AND hold_fault = ? ORDER BY id", faultId)
      .toArray()
      .map((row) => row.id);
    const reversed = [...ids].reverse();
    ids.forEach((id, i) => {
      this.sql.exec("UPDATE outbox SET state = 'pending', next_attempt_at = ?, order_key = ? WHERE id = ?", now, reversed[i]!, id);
    });
    return ids.length;
  }

  /** Expired leases count as failed attempts; out-of-order batches that waited too long are released. */
  private sweep(now: number): void {
    const expired = this.sql.exec<OutboxRow>("SELECT * FROM outbox WHERE state = 'inflight' AND lease_until <= ?", now).toArray();
    for (const row of expired) this.recordResult(row, 0, "no result before the lease expired", now);
    const groups = this.sql
      .exec<{ hold_fault: number }>("SELECT DISTINCT hold_fault FROM outbox WHERE state = 'held' AND hold_until <= ?", now)
      .toArray();
    for (const group of groups) this.releaseHeld(group.hold_fault, now);
  }

  /** The oldest due delivery, marked in flight (one more attempt). */
  private takeDue(now: number, filter: DeliveryFilter): OutboxRow | null {
    const row = this.dueRow(now, filter);
    if (!row) return null;
    this.sql.exec("UPDATE outbox SET state = 'inflight', attempts = attempts + 1, lease_until = ? WHERE id = ?", now + LEASE_MS, row.id);
    return { ...row, state: "inflight", attempts: row.attempts + 1, lease_until: now + LEASE_MS };
  }

  private dueRow(now: number, filter: DeliveryFilter): OutboxRow | null {
    const where = ["state = 'pending'", "next_attempt_at <= ?"];
    const params: (string | number)[] = [now];
    if (filter.reference !== undefined) {
      where.push("reference = ?");
      params.push(filter.reference);
    }
    if (filter.prefix !== undefined) {
      where.push("substr(reference, 1, length(?)) = ?");
      params.push(filter.prefix, filter.prefix);
    }
    if (filter.kind !== undefined) {
      where.push("kind = ?");
      params.push(filter.kind);
    }
    const row = this.sql
      .exec<OutboxRow>(`SELECT * FROM outbox WHERE ${where.join(" AND ")} ORDER BY next_attempt_at, COALESCE(order_key, id) LIMIT 1`, ...params)
      .toArray()[0];
    return row ?? null;
  }

  /** 2xx -> delivered; otherwise retry after 1 s, 2 s, 4 s, ... and give up after MAX_ATTEMPTS. */
  private recordResult(row: OutboxRow, status: number, error: string | null, now: number): DeliveryState {
    if (status >= 200 && status < 300) {
      this.sql.exec(
        "UPDATE outbox SET state = 'delivered', last_status = ?, last_error = NULL, lease_until = NULL, delivered_at = ? WHERE id = ?",
        status,
        now,
        row.id,
      );
      return "delivered";
    }
    const dead = row.attempts >= MAX_ATTEMPTS;
    const next = now + BASE_BACKOFF_MS * 2 ** Math.max(0, row.attempts - 1);
    this.sql.exec(
      "UPDATE outbox SET state = ?, last_status = ?, last_error = ?, lease_until = NULL, next_attempt_at = ? WHERE id = ?",
      dead ? "dead" : "pending",
      status,
      error,
      dead ? row.next_attempt_at : next,
      row.id,
    );
    return dead ? "dead" : "pending";
  }

  private async headersFor(row: OutboxRow): Promise<Record<string, string>> {
    const nowS = Math.floor(Date.now() / 1000);
    const timestamp = row.signature === "stale" ? nowS - STALE_SIGNATURE_AGE_S : nowS;
    const secret = row.signature === "bad" ? WRONG_SECRET : this.env.WEBHOOK_SECRET;
    return {
      "content-type": "application/json",
      "user-agent": "SandboxBank/1.0",
      [SIGNATURE_HEADER.toLowerCase()]: await signatureHeader(secret, row.body, timestamp),
      "x-sandbox-delivery": String(this.idOffset() + row.id),
      "x-sandbox-attempt": String(row.attempts),
    };
  }

  /**
   * Completes the payouts that are due (every mode), then, in the push modes, sends the due
   * deliveries with up to SEND_CONCURRENCY in flight (a real gateway does not wait for one
   * merchant's answer before sending the next: one at a time capped the whole portal's
   * settlement rate at 1 / webhook latency, decision 024); then sets itself for the next one.
   * While an out-of-order batch is waiting to go (order_key set), one at a time, so the
   * order the fault chose is the order they arrive in.
   */
  async alarm(): Promise<void> {
    this.settleDuePayouts(Date.now());
    await this.sendDue(false);
    await this.scheduleAlarm();
  }

  /** Whether a payment's own send (below) is under way. */
  private kicked = false;

  /**
   * Sends the due deliveries (push modes only). `kick`: called right after a payment, as a
   * gateway notifies the merchant at once instead of at its next timer (the alarm stays
   * armed behind it); it leaves an out-of-order batch to the alarm, and only one runs.
   */
  private async sendDue(kick: boolean): Promise<void> {
    const mode = deliveryMode(this.env);
    if (mode === "pull") return;
    const ordered = this.sql.exec("SELECT 1 FROM outbox WHERE state = 'pending' AND order_key IS NOT NULL LIMIT 1").toArray().length > 0;
    if (kick && (ordered || this.kicked)) return;
    if (kick) this.kicked = true;
    let budget = 200;
    const sender = async () => {
      while (budget > 0) {
        const now = Date.now();
        this.sweep(now);
        const row = this.takeDue(now, {});
        if (!row) return;
        budget--;
        await this.send(row, mode);
      }
    };
    try {
      await Promise.all(Array.from({ length: ordered ? 1 : SEND_CONCURRENCY }, sender));
    } finally {
      if (kick) this.kicked = false;
    }
  }

  /** One attempt of one delivery, its result recorded (unless a test pump took it over meanwhile). */
  private async send(row: OutboxRow, mode: DeliveryMode): Promise<void> {
    let status = 0;
    let error: string | null = null;
    try {
      const request = new Request(row.url, { method: "POST", headers: await this.headersFor(row), body: row.body });
      const response = await withTimeout(mode === "portal" ? this.env.PORTAL!.fetch(request) : fetch(request), SEND_TIMEOUT_MS);
      status = response.status;
      const text = await response.text().catch(() => "");
      if (status < 200 || status >= 300) error = text.slice(0, 300) || `HTTP ${status}`;
    } catch (caught) {
      error = caught instanceof Error ? `${caught.name}: ${caught.message}` : "network error";
    }
    const current = this.sql.exec<OutboxRow>("SELECT * FROM outbox WHERE id = ?", row.id).toArray()[0];
    if (current?.state === "inflight") this.recordResult(current, status, error, Date.now());
  }

  private async scheduleAlarm(): Promise<void> {
    // In pull mode the test pump drives the outbox; only payouts need the alarm.
    const outbox =
      deliveryMode(this.env) === "pull"
        ? ""
        : `UNION ALL SELECT MIN(next_attempt_at) FROM outbox WHERE state = 'pending'
           UNION ALL SELECT MIN(lease_until) FROM outbox WHERE state = 'inflight'
           UNION ALL SELECT MIN(hold_until) FROM outbox WHERE state = 'held'`;
    const next = this.sql
      .exec<{ at: number | null }>(`SELECT MIN(at) AS at FROM (SELECT MIN(due_at) AS at FROM payout WHERE status = 'PROCESSING' ${outbox})`)
      .one().at;
    if (next === null) return;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > next) await this.ctx.storage.setAlarm(next);
  }

  // ---- Sharding (decision 024): delivery ids, the fault mirror, the hand-over --------------

  private offset: number | null = null;

  /** 0 in the main object; (n + 1) * SHARD_ID_SPAN in QR shard n (set by its first payment). */
  private idOffset(): number {
    if (this.offset === null) {
      const row = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'id_offset'").toArray()[0];
      this.offset = row ? Number(row.value) : 0;
    }
    return this.offset;
  }

  private setIdOffset(offset: number): void {
    if (this.idOffset() === offset) return;
    this.sql.exec("INSERT INTO meta (key, value) VALUES ('id_offset', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", String(offset));
    this.offset = offset;
  }

  /** A QR shard's copy of "a webhook fault is set" (from the main object's last push). */
  private faultsArmed(): boolean {
    return this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'faults_armed'").toArray()[0]?.value.split(":")[1] === "1";
  }

  /**
   * QR shard: the main object's news about the faults. `generation` grows with every change,
   * so a late push never overwrites a newer one.
   */
  async setFaultsArmed(generation: number, armed: boolean): Promise<void> {
    const current = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'faults_armed'").toArray()[0];
    if (current && Number(current.value.split(":")[0]) >= generation) return;
    this.sql.exec(
      "INSERT INTO meta (key, value) VALUES ('faults_armed', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      `${generation}:${armed ? 1 : 0}`,
    );
  }

  /**
   * Main object: tells every QR shard whether a webhook fault is set. Awaited when a fault is
   * added (the next payment must see it); a shard told "armed" when none is left only hands
   * its webhooks over for nothing, so a fault used up is pushed without waiting.
   */
  private async pushFaultsArmed(): Promise<void> {
    const armed = this.faultRows().some((row) => isWebhookFault(row.mode));
    const generation =
      this.sql
        .exec<{ value: string }>(
          "INSERT INTO meta (key, value) VALUES ('faults_generation', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value",
        )
        .one().value;
    await Promise.all(
      Array.from({ length: QR_SHARDS }, (_, shard) => this.env.BANK.get(this.env.BANK.idFromName(qrShardName(shard))).setFaultsArmed(Number(generation), armed)),
    );
  }

  /** Main object: a payment's webhook handed over by a QR shard while faults are set; the faults apply here as they always did. */
  async enqueueFromShard(kind: DeliveryKind, reference: string, url: string, body: string, now: number): Promise<void> {
    this.ctx.storage.transactionSync(() => this.enqueueWebhook(kind, reference, url, body, now));
    await this.scheduleAlarm();
    this.ctx.waitUntil(this.sendDue(true));
  }

  /** Pull mode across objects (index.ts): when this object's next due delivery is due, without taking it. */
  async peekDue(filter: DeliveryFilter, now: number): Promise<{ at: number; createdAt: number } | null> {
    if (deliveryMode(this.env) !== "pull") return null;
    this.sweep(now);
    const row = this.dueRow(now, filter);
    return row ? { at: row.next_attempt_at, createdAt: row.created_at } : null;
  }

  // ---- Pull mode (vitest pool): the test pump fetches deliveries and reports results ----

  async pullNext(filter: DeliveryFilter, now: number): Promise<Outcome<PulledDelivery | null>> {
    if (deliveryMode(this.env) !== "pull") return fail(409, "NOT_PULL_MODE", "this bank pushes its webhooks itself");
    this.sweep(now);
    const row = this.takeDue(now, filter);
    if (!row) return { ok: true, status: 200, data: null };
    return {
      ok: true,
      status: 200,
      data: { id: this.idOffset() + row.id, kind: row.kind as DeliveryKind, reference: row.reference, attempt: row.attempts, url: row.url, headers: await this.headersFor(row), body: row.body },
    };
  }

  async reportResult(globalId: number, status: number, now: number, error: string | null): Promise<Outcome<Delivery>> {
    if (deliveryMode(this.env) !== "pull") return fail(409, "NOT_PULL_MODE", "this bank pushes its webhooks itself");
    const id = globalId - this.idOffset();
    const row = this.sql.exec<OutboxRow>("SELECT * FROM outbox WHERE id = ?", id).toArray()[0];
    if (!row) return fail(404, "DELIVERY_NOT_FOUND", `no delivery ${globalId}`);
    if (row.state !== "inflight") return fail(409, "NOT_IN_FLIGHT", `delivery ${globalId} is ${row.state}, not in flight`);
    this.recordResult(row, status, error ?? (status >= 200 && status < 300 ? null : `HTTP ${status}`), now);
    return { ok: true, status: 200, data: this.delivery(id)! };
  }

  async listDeliveries(filter: DeliveryFilter): Promise<Delivery[]> {
    const rows = this.sql.exec<OutboxRow>("SELECT * FROM outbox ORDER BY id DESC LIMIT 500").toArray();
    return rows
      .filter(
        (row) =>
          (filter.reference === undefined || row.reference === filter.reference) &&
          (filter.prefix === undefined || matches(row.reference, filter.prefix)) &&
          (filter.kind === undefined || row.kind === filter.kind),
      )
      .map((row) => this.deliveryOf(row));
  }

  // ---- Faults -------------------------------------------------------------------------

  async addFault(spec: FaultSpec): Promise<Fault> {
    const id = this.sql
      .exec<{ id: number }>(
        `INSERT INTO faults (mode, count, rate, times, reference_prefix, delay_ms, hold_ms, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        spec.mode,
        spec.count,
        spec.rate,
        spec.times,
        spec.referencePrefix,
        spec.delayMs,
        spec.holdMs,
        Date.now(),
      )
      .one().id;
    if (isWebhookFault(spec.mode)) await this.pushFaultsArmed();
    return this.faultOf(this.sql.exec<FaultRow>("SELECT * FROM faults WHERE id = ?", id).one());
  }

  async listFaults(): Promise<Fault[]> {
    return this.faultRows().map((row) => this.faultOf(row));
  }

  /** Clears all faults (or those with this id / reference prefix) and releases what they held. */
  async clearFaults(which: { id?: number; referencePrefix?: string }): Promise<{ cleared: number; released: number }> {
    const now = Date.now();
    const doomed = this.faultRows().filter(
      (row) => (which.id === undefined || row.id === which.id) && (which.referencePrefix === undefined || row.reference_prefix === which.referencePrefix),
    );
    let released = 0;
    this.ctx.storage.transactionSync(() => {
      for (const fault of doomed) {
        this.sql.exec("DELETE FROM faults WHERE id = ?", fault.id);
        released += this.releaseHeld(fault.id, now);
      }
      // Batches of faults already used up (times reached) are released too when clearing everything.
      if (which.id === undefined && which.referencePrefix === undefined) {
        const groups = this.sql.exec<{ hold_fault: number }>("SELECT DISTINCT hold_fault FROM outbox WHERE state = 'held'").toArray();
        for (const group of groups) released += this.releaseHeld(group.hold_fault, now);
      }
    });
    await this.scheduleAlarm();
    if (doomed.some((fault) => isWebhookFault(fault.mode))) await this.pushFaultsArmed();
    return { cleared: doomed.length, released };
  }

  // ---- Rows ---------------------------------------------------------------------------

  private qr(reference: string): QrRow | null {
    return this.sql.exec<QrRow>("SELECT * FROM qr WHERE reference = ?", reference).toArray()[0] ?? null;
  }

  private qrData(row: QrRow): QrData {
    return { reference: row.reference, payload: row.payload, amount: formatAmount(BigInt(row.amount_minor), "LAK"), expiresAt: iso(row.expires_at) };
  }

  private statusOf(row: QrRow, now: number): PaymentStatus {
    if (row.status === "PAID") return "PAID";
    return now >= row.expires_at ? "EXPIRED" : "PENDING";
  }

  private delivery(id: number): Delivery | null {
    const row = this.sql.exec<OutboxRow>("SELECT * FROM outbox WHERE id = ?", id).toArray()[0];
    return row ? this.deliveryOf(row) : null;
  }

  private deliveryOf(row: OutboxRow): Delivery {
    return {
      id: this.idOffset() + row.id,
      kind: row.kind as DeliveryKind,
      reference: row.reference,
      url: row.url,
      state: row.state as DeliveryState,
      attempts: row.attempts,
      nextAttemptAt: iso(row.next_attempt_at),
      signature: row.signature as Delivery["signature"],
      faults: row.faults ? (row.faults.split(",") as FaultMode[]) : [],
      lastStatus: row.last_status,
      lastError: row.last_error,
      createdAt: iso(row.created_at),
      deliveredAt: row.delivered_at === null ? null : iso(row.delivered_at),
    };
  }

  private payout(reference: string): PayoutRow | null {
    return this.sql.exec<PayoutRow>("SELECT * FROM payout WHERE reference = ?", reference).toArray()[0] ?? null;
  }

  private payoutData(row: PayoutRow): PayoutData {
    const data: PayoutData = {
      reference: row.reference,
      status: row.status as PayoutStatus,
      amount: formatAmount(BigInt(row.amount_minor), "LAK"),
      createdAt: iso(row.created_at),
    };
    if (row.transaction_id) data.transactionId = row.transaction_id;
    if (row.reason) data.reason = row.reason;
    if (row.completed_at !== null) data.completedAt = iso(row.completed_at);
    return data;
  }

  private payoutRecord(row: PayoutRow): PayoutRecord {
    return {
      reference: row.reference,
      status: row.status as PayoutRecord["status"],
      amount: formatAmount(BigInt(row.amount_minor), "LAK"),
      bankCode: row.bank_code,
      bankName: findBank(row.bank_code)?.name ?? row.bank_code,
      accountNumber: row.account_number,
      accountMasked: maskAccountNumber(row.account_number),
      accountName: row.account_name,
      callbackUrl: row.callback_url,
      dueAt: row.due_at === null ? null : iso(row.due_at),
      plannedOutcome: row.planned_outcome as PayoutOutcome,
      faults: row.faults ? (row.faults.split(",") as PayoutFaultMode[]) : [],
      transactionId: row.transaction_id,
      reason: row.reason,
      createdAt: iso(row.created_at),
      completedAt: row.completed_at === null ? null : iso(row.completed_at),
    };
  }

  private faultRows(): FaultRow[] {
    return this.sql.exec<FaultRow>("SELECT * FROM faults ORDER BY id").toArray();
  }

  private faultOf(row: FaultRow): Fault {
    return {
      id: row.id,
      mode: row.mode as FaultMode,
      count: row.count,
      rate: row.rate,
      times: row.times,
      referencePrefix: row.reference_prefix,
      delayMs: row.delay_ms,
      holdMs: row.hold_ms,
      applied: row.applied,
      createdAt: iso(row.created_at),
    };
  }
}
