import { findBank, maskAccountNumber } from "../../core/banks";
import { formatAmount } from "../../core/money";
import type { Fault, FaultMode, PayoutFaultMode } from "./faults";
import type { Delivery, DeliveryKind, DeliveryState, PayoutData, PayoutOutcome, PayoutRecord, PayoutStatus, PaymentStatus, QrData } from "./model";

/**
 * The sandbox bank's SQLite (each of its Durable Objects has its own): the schema, the rows
 * as they are read, and the shapes each row is answered as (model.ts).
 */

export type QrRow = {
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

export type OutboxRow = {
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

export type PayoutRow = {
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

export type FaultRow = {
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
export const MIGRATIONS: string[] = [
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

export const iso = (ms: number) => new Date(ms).toISOString();

export function qrData(row: QrRow): QrData {
  return { reference: row.reference, payload: row.payload, amount: formatAmount(BigInt(row.amount_minor), "LAK"), expiresAt: iso(row.expires_at) };
}

export function statusOf(row: QrRow, now: number): PaymentStatus {
  if (row.status === "PAID") return "PAID";
  return now >= row.expires_at ? "EXPIRED" : "PENDING";
}

/** `idOffset`: the object's delivery id offset (sharding, model.ts SHARD_ID_SPAN). */
export function deliveryOf(row: OutboxRow, idOffset: number): Delivery {
  return {
    id: idOffset + row.id,
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

export function payoutData(row: PayoutRow): PayoutData {
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

export function payoutRecord(row: PayoutRow): PayoutRecord {
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

export function faultOf(row: FaultRow): Fault {
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

/** The WHERE terms (and their parameters) of a filter by reference or reference prefix (payouts, deliveries). */
export function referenceWhere(filter: { reference?: string; prefix?: string }): { where: string[]; params: string[] } {
  const where: string[] = [];
  const params: string[] = [];
  if (filter.reference !== undefined) {
    where.push("reference = ?");
    params.push(filter.reference);
  }
  if (filter.prefix !== undefined) {
    where.push("substr(reference, 1, length(?)) = ?");
    params.push(filter.prefix, filter.prefix);
  }
  return { where, params };
}

export function randomHex(bytes: number): string {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(data, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
