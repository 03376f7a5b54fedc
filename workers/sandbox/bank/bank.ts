import { DurableObject } from "cloudflare:workers";
import { buildLaoQr, parseLaoQr } from "../../core/emvco";
import { formatAmount, parseAmount } from "../../core/money";
import { FaultStore } from "./fault-store";
import { isWebhookFault, type Fault, type FaultSpec } from "./faults";
import {
  deliveryMode,
  fail,
  MAIN_BANK,
  QR_SHARDS,
  qrShardName,
  SHARD_ID_SPAN,
  type CreatePayoutInput,
  type CreatePayoutResult,
  type CreateQrInput,
  type Delivery,
  type DeliveryFilter,
  type DeliveryKind,
  type Outcome,
  type PayData,
  type PayoutConfig,
  type PayoutData,
  type PayoutOutcome,
  type PayoutRecord,
  type PulledDelivery,
  type QrData,
  type RecentQr,
  type StatusData,
} from "./model";
import { WebhookOutbox } from "./outbox";
import { DEFAULT_REJECT_REASON, PayoutBook } from "./payouts";
import { iso, MIGRATIONS, payoutData, qrData, randomHex, statusOf, type QrRow } from "./rows";

// What index.ts and pages.ts read of the bank: its names, its shapes (model.ts).
export { deliveryMode, MAIN_BANK, QR_SHARDS, qrAmount, qrShardName, shardOfDelivery } from "./model";
export type { CreatePayoutInput, CreateQrInput, Delivery, DeliveryFilter, Outcome, PayData, PayoutData, PayoutOutcome, PayoutRecord, RecentQr } from "./model";

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

/**
 * One bank object: its QRs and payments, the webhook outbox (outbox.ts), and in the main
 * object the faults (fault-store.ts) and the payouts (payouts.ts), all in this Durable
 * Object's SQLite (rows.ts). How the state is sharded: model.ts (decision 024).
 */
export class SandboxBank extends DurableObject<BankEnv> {
  private readonly sql: SqlStorage;
  private readonly faults: FaultStore;
  private readonly outbox: WebhookOutbox;
  private readonly payouts: PayoutBook;

  constructor(ctx: DurableObjectState, env: BankEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.migrate();
    this.faults = new FaultStore(this.sql, () => this.ctx.waitUntil(this.pushFaultsArmed()));
    this.outbox = new WebhookOutbox(this.sql, env, this.faults, () => this.idOffset());
    this.payouts = new PayoutBook(this.sql, ctx.storage, this.faults, this.outbox);
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
      return { ok: true, status: 200, data: qrData(existing) };
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
    return { ok: true, status: 201, data: qrData(this.qr(input.reference)!) };
  }

  async paymentStatus(reference: string): Promise<StatusData> {
    const row = this.qr(reference);
    if (!row) return { reference, status: "NOT_FOUND", amount: null };
    const data: StatusData = {
      reference,
      status: statusOf(row, Date.now()),
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
      if (!handOver) this.outbox.enqueue("payment", reference, row.callback_url, body, now);
      return true;
    });
    if (!paid) return fail(409, "ALREADY_PAID", "This QR code was already paid.");
    if (handOver) {
      try {
        await this.env.BANK.get(this.env.BANK.idFromName(MAIN_BANK)).enqueueFromShard("payment", reference, row.callback_url, body, now);
      } catch {
        // The main object did not take it: the webhook still goes, from here, without the fault
        // (a payment the bank confirmed is never left without its webhook).
        this.ctx.storage.transactionSync(() => this.outbox.enqueue("payment", reference, row.callback_url, body, now));
      }
    }
    await this.scheduleAlarm();
    this.ctx.waitUntil(this.outbox.sendDue(true));
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
        status: statusOf(row, now),
        expiresAt: iso(row.expires_at),
        payload: row.payload,
        createdAt: row.created_at,
      }));
  }

  // ---- Payouts (withdrawals) ------------------------------------------------------------
  // POST /api/payouts records a PROCESSING payout; the alarm (or a status query, whichever
  // comes first) completes it processingMs later as PAID (or REJECTED by a fault), and its
  // callback goes through the same outbox as payment webhooks. Faults: payout-error-before /
  // payout-error-after per request, payout-reject / payout-hold per new payout (payouts.ts).

  /** Idempotent by reference: same amount and account -> 200 with the current state; else 409. */
  async createPayout(input: CreatePayoutInput): Promise<CreatePayoutResult> {
    const now = Date.now();
    // Everything up to the insert is synchronous: concurrent requests cannot interleave.
    if (this.faults.takePayoutFaults(input.reference, ["payout-error-before"]).length > 0) {
      return { ok: false, status: 500, code: "INTERNAL_ERROR", message: "the bank could not process the request" };
    }
    this.payouts.settleDue(now);
    const existing = this.payouts.row(input.reference);
    let result: Outcome<PayoutData>;
    if (existing) {
      if (existing.amount_minor !== input.amountMinor) {
        return fail(409, "REF_CONFLICT", `reference ${input.reference} already has a payout of another amount`);
      }
      if (existing.bank_code !== input.bankCode || existing.account_number !== input.accountNumber) {
        return fail(409, "REF_CONFLICT", `reference ${input.reference} already has a payout to another account`);
      }
      result = { ok: true, status: 200, data: payoutData(existing) };
    } else {
      this.payouts.insert(input, now);
      result = { ok: true, status: 201, data: payoutData(this.payouts.row(input.reference)!) };
    }
    const errorAfter = this.faults.takePayoutFaults(input.reference, ["payout-error-after"]).length > 0;
    await this.scheduleAlarm();
    if (errorAfter) return { ok: false, status: 500, code: "INTERNAL_ERROR", message: "the bank could not process the request" };
    return result;
  }

  async payoutStatus(reference: string): Promise<PayoutData> {
    this.payouts.settleDue(Date.now());
    await this.scheduleAlarm();
    const row = this.payouts.row(reference);
    return row ? payoutData(row) : { reference, status: "NOT_FOUND", amount: null };
  }

  /** Sandbox control: complete a PROCESSING payout now (held or not yet due). */
  async completePayout(reference: string, outcome: PayoutOutcome, reason: string | null): Promise<Outcome<PayoutData>> {
    const now = Date.now();
    this.payouts.settleDue(now);
    const row = this.payouts.row(reference);
    if (!row) return fail(404, "PAYOUT_UNKNOWN", `no payout with reference ${reference}`);
    if (row.status !== "PROCESSING") return fail(409, "ALREADY_COMPLETED", `payout ${reference} is already ${row.status}`);
    this.ctx.storage.transactionSync(() => this.payouts.complete(row, outcome, outcome === "REJECTED" ? (reason ?? DEFAULT_REJECT_REASON) : null, now));
    await this.scheduleAlarm();
    return { ok: true, status: 200, data: payoutData(this.payouts.row(reference)!) };
  }

  async recentPayouts(limit: number, filter: DeliveryFilter = {}): Promise<PayoutRecord[]> {
    this.payouts.settleDue(Date.now());
    await this.scheduleAlarm();
    return this.payouts.recent(limit, filter);
  }

  async payoutConfig(): Promise<PayoutConfig[]> {
    return this.payouts.config();
  }

  async setPayoutConfig(config: PayoutConfig): Promise<PayoutConfig> {
    return this.payouts.setConfig(config);
  }

  async clearPayoutConfig(referencePrefix: string): Promise<{ cleared: number }> {
    return this.payouts.clearConfig(referencePrefix);
  }

  // ---- The alarm ------------------------------------------------------------------------

  /**
   * Completes the payouts that are due (every mode), then, in the push modes, sends the due
   * deliveries (outbox.ts sendDue); then sets itself for the next one.
   */
  async alarm(): Promise<void> {
    this.payouts.settleDue(Date.now());
    await this.outbox.sendDue(false);
    await this.scheduleAlarm();
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
    const armed = this.faults.anyWebhookFault();
    const generation = this.sql
      .exec<{ value: string }>(
        "INSERT INTO meta (key, value) VALUES ('faults_generation', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value",
      )
      .one().value;
    await Promise.all(
      Array.from({ length: QR_SHARDS }, (_, shard) =>
        this.env.BANK.get(this.env.BANK.idFromName(qrShardName(shard))).setFaultsArmed(Number(generation), armed),
      ),
    );
  }

  /** Main object: a payment's webhook handed over by a QR shard while faults are set; the faults apply here as they always did. */
  async enqueueFromShard(kind: DeliveryKind, reference: string, url: string, body: string, now: number): Promise<void> {
    this.ctx.storage.transactionSync(() => this.outbox.enqueue(kind, reference, url, body, now));
    await this.scheduleAlarm();
    this.ctx.waitUntil(this.outbox.sendDue(true));
  }

  // ---- Deliveries: the pull-mode pump (vitest pool) and the list (outbox.ts) ----------

  /** Pull mode across objects (index.ts): when this object's next due delivery is due, without taking it. */
  async peekDue(filter: DeliveryFilter, now: number): Promise<{ at: number; createdAt: number } | null> {
    return this.outbox.peek(filter, now);
  }

  async pullNext(filter: DeliveryFilter, now: number): Promise<Outcome<PulledDelivery | null>> {
    return this.outbox.pull(filter, now);
  }

  async reportResult(globalId: number, status: number, now: number, error: string | null): Promise<Outcome<Delivery>> {
    return this.outbox.report(globalId, status, now, error);
  }

  async listDeliveries(filter: DeliveryFilter): Promise<Delivery[]> {
    return this.outbox.list(filter);
  }

  // ---- Faults (fault-store.ts) ----------------------------------------------------------

  async addFault(spec: FaultSpec): Promise<Fault> {
    const fault = this.faults.add(spec, Date.now());
    if (isWebhookFault(spec.mode)) await this.pushFaultsArmed();
    return fault;
  }

  async listFaults(): Promise<Fault[]> {
    return this.faults.list();
  }

  /** Clears all faults (or those with this id / reference prefix) and releases what they held. */
  async clearFaults(which: { id?: number; referencePrefix?: string }): Promise<{ cleared: number; released: number }> {
    const now = Date.now();
    const doomed = this.faults
      .rows()
      .filter(
        (row) => (which.id === undefined || row.id === which.id) && (which.referencePrefix === undefined || row.reference_prefix === which.referencePrefix),
      );
    let released = 0;
    this.ctx.storage.transactionSync(() => {
      for (const fault of doomed) {
        this.faults.remove(fault.id);
        released += this.outbox.releaseHeld(fault.id, now);
      }
      // Batches of faults already used up (times reached) are released too when clearing everything.
      if (which.id === undefined && which.referencePrefix === undefined) released += this.outbox.releaseAllHeld(now);
    });
    await this.scheduleAlarm();
    if (doomed.some((fault) => isWebhookFault(fault.mode))) await this.pushFaultsArmed();
    return { cleared: doomed.length, released };
  }

  private qr(reference: string): QrRow | null {
    return this.sql.exec<QrRow>("SELECT * FROM qr WHERE reference = ?", reference).toArray()[0] ?? null;
  }
}
