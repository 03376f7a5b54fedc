import { formatAmount } from "../../core/money";
import type { FaultStore } from "./fault-store";
import type { WebhookOutbox } from "./outbox";
import type { CreatePayoutInput, DeliveryFilter, PayoutConfig, PayoutOutcome, PayoutRecord } from "./model";
import { iso, payoutRecord, randomHex, referenceWhere, type PayoutRow } from "./rows";

/** How long a payout stays PROCESSING before the bank completes it, unless configured. */
const DEFAULT_PROCESSING_MS = 1000;
/** The reason a "payout-reject" fault gives. */
const FAULT_REJECT_REASON = "ACCOUNT_CLOSED";
/** The reason of a payout rejected by hand without one. */
export const DEFAULT_REJECT_REASON = "DECLINED_BY_BANK";

/**
 * The main object's payouts (withdrawals), in its SQLite `payout` and `payout_config` tables:
 * a payout is recorded PROCESSING, completed processingMs later as PAID (or REJECTED by a
 * fault) by the alarm or the first read after that, and its callback goes through the same
 * outbox as payment webhooks. The requests themselves (faults per request, idempotency) are
 * bank.ts's createPayout.
 */
export class PayoutBook {
  constructor(
    private readonly sql: SqlStorage,
    private readonly storage: DurableObjectStorage,
    private readonly faults: FaultStore,
    private readonly outbox: WebhookOutbox,
  ) {}

  row(reference: string): PayoutRow | null {
    return this.sql.exec<PayoutRow>("SELECT * FROM payout WHERE reference = ?", reference).toArray()[0] ?? null;
  }

  /** A new payout, PROCESSING; the payout-reject and payout-hold faults are rolled for it. */
  insert(input: CreatePayoutInput, now: number): void {
    const applied = this.faults.takePayoutFaults(input.reference, ["payout-reject", "payout-hold"]);
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
  }

  recent(limit: number, filter: DeliveryFilter): PayoutRecord[] {
    const { where, params } = referenceWhere(filter);
    return this.sql
      .exec<PayoutRow>(
        `SELECT * FROM payout ${where.length ? "WHERE " + where.join(" AND ") : ""} ORDER BY created_at DESC, rowid DESC LIMIT ?`,
        ...params,
        limit,
      )
      .toArray()
      .map(payoutRecord);
  }

  config(): PayoutConfig[] {
    const rows = this.sql.exec<{ reference_prefix: string; processing_ms: number }>("SELECT * FROM payout_config ORDER BY reference_prefix").toArray();
    const list = rows.map((row) => ({ referencePrefix: row.reference_prefix, processingMs: row.processing_ms }));
    if (!list.some((c) => c.referencePrefix === "")) list.unshift({ referencePrefix: "", processingMs: DEFAULT_PROCESSING_MS });
    return list;
  }

  /** Sets processingMs for new payouts (those whose reference starts with referencePrefix; "" = all others). */
  setConfig(config: PayoutConfig): PayoutConfig {
    this.sql.exec(
      "INSERT INTO payout_config (reference_prefix, processing_ms) VALUES (?, ?) ON CONFLICT (reference_prefix) DO UPDATE SET processing_ms = excluded.processing_ms",
      config.referencePrefix,
      config.processingMs,
    );
    return config;
  }

  /** Removes a prefix's processing time (or, for "", puts the default back). */
  clearConfig(referencePrefix: string): { cleared: number } {
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

  /** Completes every payout whose time has come (the alarm, and before any read). */
  settleDue(now: number): number {
    const due = this.sql.exec<PayoutRow>("SELECT * FROM payout WHERE status = 'PROCESSING' AND due_at <= ? ORDER BY due_at, created_at", now).toArray();
    for (const row of due) {
      this.storage.transactionSync(() =>
        this.complete(row, row.planned_outcome === "REJECTED" ? "REJECTED" : "PAID", row.planned_reason ?? FAULT_REJECT_REASON, now),
      );
    }
    return due.length;
  }

  /** PROCESSING -> PAID | REJECTED and its callback into the outbox, once. Call inside a transaction. */
  complete(row: PayoutRow, outcome: PayoutOutcome, reason: string | null, now: number): boolean {
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
    this.outbox.enqueue("payout", row.reference, row.callback_url, JSON.stringify(body), now);
    return true;
  }
}
