import { depositCredit, formatAmount, parseAmount, type Rate } from "../core/money";
import { hasBankAccount } from "../db/bank-accounts";
import { creditRate, walletOf } from "./wallet";
import { isProvider, type Provider } from "../core/providers";
import { webhookSecret } from "../config";
import { gatewayPort, verifyWebhookSignature } from "../ports/gateway";
import { providerPort, providerUsername } from "../ports/provider";
import type { PromotionError } from "../core/promotion";
import { findAgencyByHost, type Agency } from "./agency";
import type { CurrentPlayer } from "./auth";
import type { DepositOrder, MarkPaidResult } from "../wallet/player-wallet";
import { applyPayoutEvent } from "./withdraw";
import { recordUnmatchedPayment } from "./admin-payments";
import { sha256Hex } from "../core/tokens";

/** A QR is valid for 15 minutes; after that the order is CANCELED (EXPIRED). */
export const DEPOSIT_QR_TTL_SECONDS = 15 * 60;

export type PaymentChannel = { code: string; mid: string; displayName: string; currency: "LAK"; bankCode: string; iin: string; merchantName: string; merchantCity: string };


export async function listPaymentChannels(db: D1Database, agencyId: string): Promise<PaymentChannel[]> {
  const { results } = await db
    .prepare(`SELECT code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city FROM payment_channels WHERE agency_id = ?1 AND active = 1 ORDER BY code`)
    .bind(agencyId)
    .all<{ code: string; mid: string; display_name: string; currency: "LAK"; bank_code: string; iin: string; merchant_name: string; merchant_city: string }>();
  return results.map((r) => ({ code: r.code, mid: r.mid, displayName: r.display_name, currency: r.currency, bankCode: r.bank_code, iin: r.iin, merchantName: r.merchant_name, merchantCity: r.merchant_city }));
}


/** Order codes are short enough for the QR's reference field (EMV 62.05, max 25). */
export function newDepositCode(now: Date): string {
  const stamp = now.toISOString().slice(2, 10).replace(/-/g, "");
  const bytes = new Uint8Array(5);
  crypto.getRandomValues(bytes);
  const random = [...bytes].map((b) => "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[b % 32]).join("");
  return `D${stamp}${random}`;
}

export type DepositQuote = { amountMinor: bigint; creditMinor: bigint; rate: Rate };

export type DepositError =
  | "PROVIDER_REQUIRED"
  | "CHANNEL_REQUIRED"
  | "AMOUNT_INVALID"
  | "AMOUNT_TOO_LOW"
  | "AMOUNT_TOO_HIGH"
  | "NO_RATE"
  | "CANNOT_DEPOSIT"
  | "BANK_ACCOUNT_REQUIRED"
  | "PROVIDER_UNAVAILABLE"
  | PromotionError;

/** Validates a deposit against the agency's settings and prices it (DEPOSIT = amount / sell). */
export function quoteDeposit(agency: Agency, rate: Rate | null, amountText: string): { ok: true; quote: DepositQuote } | { ok: false; error: DepositError } {
  const amountMinor = parseAmount(amountText, "LAK");
  if (amountMinor === null || amountMinor <= 0n) return { ok: false, error: "AMOUNT_INVALID" };
  if (amountMinor % 100n !== 0n) return { ok: false, error: "AMOUNT_INVALID" }; // whole kip only
  const min = parseAmount(agency.limits.depositMin, "LAK") ?? 0n;
  const max = parseAmount(agency.limits.depositMax, "LAK");
  if (amountMinor < min) return { ok: false, error: "AMOUNT_TOO_LOW" };
  if (max !== null && amountMinor > max) return { ok: false, error: "AMOUNT_TOO_HIGH" };
  if (!rate) return { ok: false, error: "NO_RATE" };
  const creditMinor = depositCredit(amountMinor, rate);
  if (creditMinor <= 0n) return { ok: false, error: "NO_RATE" };
  return { ok: true, quote: { amountMinor, creditMinor, rate } };
}

export type StartDepositInput = { provider: string; channelCode: string; amount: string; idempotencyKey: string };
export type StartDepositResult = { ok: true; kind: "created" | "existing" | "open-exists"; order: DepositOrder } | { ok: false; error: DepositError; provider?: Provider };

/**
 * Opens a deposit order in the player's wallet, then asks the gateway for its QR. The order
 * exists before the gateway is called, so a double tap or a retry finds it (idempotency key)
 * and a second deposit finds the open one.
 */
export async function startDeposit(env: Env, agency: Agency, player: CurrentPlayer, input: StartDepositInput, origin: string): Promise<StartDepositResult> {
  if (!isProvider(input.provider) || !agency.enabledProviders.includes(input.provider)) return { ok: false, error: "PROVIDER_REQUIRED" };
  const channels = await listPaymentChannels(env.DB, agency.id);
  const channel = channels.find((c) => c.code === input.channelCode);
  if (!channel) return { ok: false, error: "CHANNEL_REQUIRED" };
  const hasBank = await hasBankAccount(env.DB, agency.id, player.id);
  if (!hasBank) return { ok: false, error: "BANK_ACCOUNT_REQUIRED" };
  const priced = quoteDeposit(agency, await creditRate(env.DB, agency.id), input.amount);
  if (!priced.ok) return priced;

  const wallet = walletOf(env, agency.id, player.id);
  await wallet.identify(agency.id, player.id, player.username);
  // A promotion in use at this provider needs the provider's credit (below its threshold).
  const usage = await wallet.activeUsage();
  let creditAtProviderMinor: string | null = null;
  if (usage?.status === "USED" && usage.provider === input.provider) {
    const balance = await providerPort(env, usage.provider).balance(providerUsername(agency.id, player.username));
    if (balance.kind !== "ok") return { ok: false, error: "PROVIDER_UNAVAILABLE" };
    creditAtProviderMinor = (parseAmount(balance.amount, "THB") ?? 0n).toString();
  }
  const now = Date.now();
  const code = newDepositCode(new Date(now));
  const opened = await wallet.openDeposit({
    idempotencyKey: `${input.idempotencyKey}`,
    code,
    provider: input.provider as Provider,
    channelCode: channel.code,
    amountMinor: priced.quote.amountMinor.toString(),
    creditMinor: priced.quote.creditMinor.toString(),
    rateSell: priced.quote.rate.sell.toString(),
    expiresAt: now + DEPOSIT_QR_TTL_SECONDS * 1000,
    now,
    creditAtProviderMinor,
  });
  if (opened.kind === "refused") return { ok: false, error: opened.error, provider: opened.provider };
  const order = await ensureQr(env, agency, player, opened.order, channel, origin);
  return { ok: true, kind: opened.kind, order };
}

/** The QR of an OPEN order, created at the gateway if it is not there yet (idempotent by code). */
export async function ensureQr(env: Env, agency: Agency, player: CurrentPlayer, order: DepositOrder, channel: PaymentChannel | undefined, origin: string): Promise<DepositOrder> {
  if (order.status !== "OPEN" || order.qrPayload) return order;
  await env.DB.prepare(`INSERT OR IGNORE INTO deposit_refs (code, agency_id, player_id) VALUES (?1, ?2, ?3)`).bind(order.code, agency.id, player.id).run();
  const ch = channel ?? (await listPaymentChannels(env.DB, agency.id)).find((c) => c.code === order.channelCode);
  if (!ch) return order;
  const qr = await gatewayPort(env).createQr({
    reference: order.code,
    amount: order.amount,
    callbackUrl: `${origin}/api/v2/payments/webhook`,
    expiresInSeconds: Math.max(1, Math.floor((order.expiresAt - Date.now()) / 1000)),
    receiver: { iin: ch.iin, merchantId: ch.mid, name: ch.merchantName, city: ch.merchantCity },
  });
  if (qr.kind !== "ok") return order; // shown as "QR not ready, try again"; the next view retries
  return (await walletOf(env, agency.id, player.id).attachQr(order.code, qr.payload)) ?? order;
}

export type CheckResult = "PAID" | "NOT_PAID" | "EXPIRED" | "UNAVAILABLE" | "NOT_OPEN";

/** The "check" button: ask the gateway now instead of waiting for its webhook. */
export async function checkDeposit(env: Env, agencyId: string, playerId: string, code: string): Promise<{ result: CheckResult; order: DepositOrder | null }> {
  const wallet = walletOf(env, agencyId, playerId);
  const order = await wallet.getDeposit(code);
  if (!order) return { result: "NOT_OPEN", order: null };
  if (order.status !== "OPEN") return { result: order.status === "CANCELED" ? "EXPIRED" : "PAID", order };
  const status = await gatewayPort(env).paymentStatus(code);
  if (status.kind === "paid") {
    const marked = await wallet.markPaid(code, { transactionId: status.transactionId, amount: status.amount }, Date.now());
    return { result: marked.kind === "paid" || marked.kind === "duplicate" ? "PAID" : "NOT_OPEN", order: await wallet.getDeposit(code) };
  }
  if (status.kind === "expired") {
    await wallet.cancelDeposit(code, "EXPIRED", Date.now());
    return { result: "EXPIRED", order: await wallet.getDeposit(code) };
  }
  if (status.kind === "unavailable") return { result: "UNAVAILABLE", order };
  return { result: "NOT_PAID", order };
}

export async function cancelDeposit(env: Env, agencyId: string, playerId: string, code: string) {
  return walletOf(env, agencyId, playerId).cancelDeposit(code, "PLAYER", Date.now());
}

export type WebhookResult = {
  status: number;
  body: { ok: boolean; result?: MarkPaidResult["kind"] | "unknown-reference" | "applied" | "not-open" | "refused"; flag?: "AMOUNT_MISMATCH" | "UNKNOWN_REFERENCE" | "LATE_PAYMENT"; error?: string };
};

/**
 * The gateway's payment webhook (payments and payout callbacks). Only what cannot be
 * verified is refused (4xx: signature, timestamp). Every verified delivery of an event the
 * portal has recorded answers 2xx with what was recorded, whether applied or kept for
 * staff (AMOUNT_MISMATCH, UNKNOWN_REFERENCE, LATE_PAYMENT): a gateway treats anything else
 * as a failed attempt, retries, and finally marks the delivery dead.
 *
 * A delivery is keyed by its parsed signature (timestamp + v1) and bound to the body it
 * signed: the same request seen again gets the answer it got the first time; the same
 * signature with another body is refused. A retry signed anew is a new delivery of the same
 * event, which the wallet applies once (the transaction id) and answers `duplicate`.
 */
export async function handlePaymentWebhook(env: Env, request: Request): Promise<WebhookResult> {
  const raw = await request.text();
  const secret = webhookSecret(env);
  if (!secret) return { status: 503, body: { ok: false, error: "NOT_CONFIGURED" } };
  const verdict = await verifyWebhookSignature(request.headers.get("X-Sandbox-Signature"), raw, secret, Math.floor(Date.now() / 1000));
  if (!verdict.ok) return { status: 401, body: { ok: false, error: verdict.reason } };
  const key = `${verdict.timestamp}:${verdict.signature}`;
  const bodyHash = await sha256Hex(raw);
  const fresh = await env.DB.prepare(`INSERT OR IGNORE INTO webhook_signatures (signature, body_sha256) VALUES (?1, ?2)`).bind(key, bodyHash).run();
  if ((fresh.meta.changes ?? 0) === 0) {
    const seen = await env.DB.prepare(`SELECT body_sha256, answer_status, answer_json FROM webhook_signatures WHERE signature = ?1`).bind(key).first<{ body_sha256: string | null; answer_status: number | null; answer_json: string | null }>();
    if (seen && seen.body_sha256 !== bodyHash) return { status: 409, body: { ok: false, error: "REPLAY" } };
    if (seen?.answer_status != null && seen.answer_json) return { status: seen.answer_status, body: JSON.parse(seen.answer_json) as WebhookResult["body"] };
    // First delivery still being applied (or cut short): applying again is safe, every step is idempotent.
  }
  const result = await applyWebhookEvent(env, request, raw);
  await env.DB.prepare(`UPDATE webhook_signatures SET answer_status = ?2, answer_json = ?3 WHERE signature = ?1`).bind(key, result.status, JSON.stringify(result.body)).run();
  return result;
}

/** A verified webhook's event, applied: idempotent, so a second delivery changes nothing. */
async function applyWebhookEvent(env: Env, request: Request, raw: string): Promise<WebhookResult> {
  let event: { event?: string; reference?: string; transactionId?: string; amount?: string; currency?: string; reason?: string };
  try {
    event = JSON.parse(raw);
  } catch {
    return { status: 400, body: { ok: false, error: "MALFORMED" } };
  }
  if ((event.event === "payout.paid" || event.event === "payout.rejected") && event.reference) {
    const applied = await applyPayoutEvent(env, { ...event, event: event.event, reference: event.reference });
    return applied.kind === "unknown-order" ? { status: 404, body: { ok: false, error: "UNKNOWN_REFERENCE" } } : { status: 200, body: { ok: true, result: applied.kind } };
  }
  if (event.event !== "payment.succeeded" || !event.reference || !event.transactionId || !event.amount || event.currency !== "LAK") {
    return { status: 400, body: { ok: false, error: "MALFORMED" } };
  }
  const ref = await env.DB.prepare(`SELECT agency_id, player_id FROM deposit_refs WHERE code = ?1`).bind(event.reference).first<{ agency_id: string; player_id: string }>();
  if (!ref) {
    // Money with a reference that is no order of ours: kept for staff to resolve by hand
    // (back office, payments). The agency is the one whose address the gateway called;
    // with no agency there, nothing could be kept, and the gateway should keep trying.
    const agency = await findAgencyByHost(env.DB, new URL(request.url).host);
    if (!agency) return { status: 404, body: { ok: false, error: "UNKNOWN_REFERENCE" } };
    await recordUnmatchedPayment(env.DB, { agencyId: agency.id, kind: "UNKNOWN_REFERENCE", reference: event.reference, transactionId: event.transactionId, amount: event.amount });
    return { status: 200, body: { ok: true, result: "unknown-reference", flag: "UNKNOWN_REFERENCE" } };
  }
  const result = await walletOf(env, ref.agency_id, ref.player_id).markPaid(event.reference, { transactionId: event.transactionId, amount: event.amount }, Date.now());
  await env.DB.prepare(`INSERT OR IGNORE INTO gateway_events (transaction_id, code) VALUES (?1, ?2)`).bind(event.transactionId, event.reference).run();
  if (result.kind === "unknown-order") return { status: 404, body: { ok: false, error: "UNKNOWN_REFERENCE" } };
  if (result.kind === "amount-mismatch" || result.kind === "late") {
    const flag = result.kind === "late" ? "LATE_PAYMENT" : "AMOUNT_MISMATCH";
    await recordUnmatchedPayment(env.DB, { agencyId: ref.agency_id, kind: flag, reference: event.reference, transactionId: event.transactionId, amount: event.amount, orderPlayerId: ref.player_id });
    return { status: 200, body: { ok: true, result: result.kind, flag } };
  }
  return { status: 200, body: { ok: true, result: result.kind } };
}

export function depositSummary(order: DepositOrder) {
  return {
    code: order.code,
    provider: order.provider,
    amount: order.amount,
    currency: "LAK",
    credit: order.credit,
    creditCurrency: "THB",
    status: order.status,
    bonus: order.bonus,
    createdAt: new Date(order.createdAt).toISOString(),
    expiresAt: new Date(order.expiresAt).toISOString(),
  };
}

export { formatAmount };

export { creditRate, walletOf };
