import { formatAmount } from "../../core/money";
import type { FaultMode, PayoutFaultMode } from "./faults";

/**
 * The sandbox bank as its callers see it: the names of its objects (sharding, decision 024),
 * how it delivers webhooks, and the shapes its API, its test controls and the tester's pages
 * answer (QRs and payments, webhook deliveries, payouts). The Durable Object is bank.ts.
 */

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
export const SHARD_ID_SPAN = 1_000_000_000;

export function qrShardName(shard: number): string {
  return `${MAIN_BANK}:qr:${shard}`;
}

/** The object a delivery id belongs to: null = the main object, else the QR shard. */
export function shardOfDelivery(id: number): number | null {
  const shard = Math.floor(id / SHARD_ID_SPAN) - 1;
  return shard >= 0 && shard < QR_SHARDS ? shard : null;
}

export type DeliveryMode = "portal" | "pull" | "fetch";
/** The part of the bank's environment that says how webhooks go out (bank.ts BankEnv). */
export type DeliveryEnv = {
  /** Present in vite dev/preview: reaches the portal Worker, keeping the callback URL's Host. */
  PORTAL?: Fetcher;
  /** "pull" in the vitest pool: deliveries wait for the test pump (GET /sandbox/deliveries/next). */
  DELIVERY_MODE?: string;
};
export function deliveryMode(env: DeliveryEnv): DeliveryMode {
  if (env.PORTAL) return "portal";
  if (env.DELIVERY_MODE === "pull") return "pull";
  return "fetch";
}

type Receiver = { iin: string; merchantId: string; name: string; city: string; paymentType: "001" | "002" };
export type CreateQrInput = {
  reference: string;
  amountMinor: string /** tag 54 text */;
  amountText: string;
  callbackUrl: string;
  expiresInSeconds: number;
  receiver: Receiver;
};

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
export type RecentQr = {
  reference: string;
  amount: string;
  status: PaymentStatus;
  expiresAt: string;
  payload: string /** ms, to merge the shards' lists */;
  createdAt: number;
};

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
export type PayoutStatus = "PROCESSING" | "PAID" | "REJECTED" | "NOT_FOUND";
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

export function fail(status: number, code: string, message: string): { ok: false; status: number; code: string; message: string } {
  return { ok: false, status, code, message };
}

/**
 * The amount as it goes into tag 54: as the merchant wrote it when that is already a plain
 * EMV amount ("60000" or "60000.00"), else the canonical two-decimal form.
 */
export function qrAmount(text: string, minor: bigint): string {
  return /^(0|[1-9]\d*)(\.\d{1,2})?$/.test(text) ? text : formatAmount(minor, "LAK");
}
