import { deriveDynamicLaoQr } from "../../core/emvco";
import { depositCredit, formatAmount, parseAmount, type Rate } from "../../core/money";
import { choosePayAmount, MAX_EXTRA_KIP, payAmountRange, retryPick } from "../../core/pay-amount";
import type { PromotionError } from "../../core/promotion";
import { isProvider, type Provider } from "../../core/providers";
import { hasBankAccount } from "../../db/bank-accounts";
import { insertDepositRef } from "../../db/orders";
import { dropPayAmountReservation, endPayAmountReservation, heldPayAmounts, reservePayAmount } from "../../db/pay-amounts";
import { listActivePaymentChannels, listChannelKinds, type ChannelKind, type PaymentChannel } from "../../db/payments";
import { gatewayPort } from "../../ports/gateway";
import { providerUsername } from "../../ports/provider";
import { providerPortFor } from "../../wallet/provider-port";
import type { DepositOrder } from "../../wallet/player-wallet";
import { qrSvg, type Agency } from "../agency";
import type { CurrentPlayer } from "../../core/session";
import { enabledProviders, fetchCredit } from "../providers";
import { creditRate, depositLimitGuard, walletOf } from "../wallets";

/** The player's deposit steps: open an order, show its QR, check it, cancel it; and the pages that show them. */

/** A QR is valid for 15 minutes; after that the order is CANCELED (EXPIRED). */
const DEPOSIT_QR_TTL_SECONDS = 15 * 60;

/** Order codes are short enough for the QR's reference field (EMV 62.05, max 25). */
function newDepositCode(now: Date): string {
  const stamp = now.toISOString().slice(2, 10).replace(/-/g, "");
  const bytes = new Uint8Array(5);
  crypto.getRandomValues(bytes);
  const random = [...bytes].map((b) => "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[b % 32]).join("");
  return `D${stamp}${random}`;
}

type DepositQuote = { amountMinor: bigint; creditMinor: bigint; rate: Rate };

/** Why a deposit is refused. The amount's own errors (AMOUNT_*) are the form schema's (app/lib/schemas/deposit.ts). */
export type DepositError =
  | "PROVIDER_REQUIRED"
  | "CHANNEL_REQUIRED"
  | "NO_RATE"
  | "CANNOT_DEPOSIT"
  | "BANK_ACCOUNT_REQUIRED"
  | "PROVIDER_UNAVAILABLE"
  | "CHANNEL_BUSY"
  | PromotionError;

/** Prices a deposit at the agency's rate (DEPOSIT = amount / sell). */
function quoteDeposit(rate: Rate | null, amountMinor: bigint): { ok: true; quote: DepositQuote } | { ok: false; error: DepositError } {
  if (!rate) return { ok: false, error: "NO_RATE" };
  const creditMinor = depositCredit(amountMinor, rate);
  if (creditMinor <= 0n) return { ok: false, error: "NO_RATE" };
  return { ok: true, quote: { amountMinor, creditMinor, rate } };
}

/**
 * The deposit form's values as its schema hands them on: `amountMinor` is the typed amount in LAK
 * minor units, already read and bounded by the agency's limits there (depositSchema); it is
 * carried as this bigint to the wallet and never read from text again.
 */
export type StartDepositInput = { provider: string; channelCode: string; amountMinor: bigint; idempotencyKey: string };
export type StartDepositResult =
  | { ok: true; kind: "created" | "existing" | "open-exists"; order: DepositOrder }
  | { ok: false; error: DepositError; provider?: Provider };

/**
 * Opens a deposit order in the player's wallet, then asks the gateway for its QR. The order
 * exists before the gateway is called, so a double tap or a retry finds it (idempotency key)
 * and a second deposit finds the open one.
 */
export async function startDeposit(env: Env, agency: Agency, player: CurrentPlayer, input: StartDepositInput, origin: string): Promise<StartDepositResult> {
  const limited = await depositLimitGuard(env, agency.id, player.id, input.amountMinor); // responsible gaming, decision 025
  if (limited) return limited;
  if (!isProvider(input.provider) || !agency.enabledProviders.includes(input.provider)) return { ok: false, error: "PROVIDER_REQUIRED" };
  const channels = await listActivePaymentChannels(env.DB, agency.id);
  const channel = channels.find((c) => c.code === input.channelCode);
  if (!channel) return { ok: false, error: "CHANNEL_REQUIRED" };
  const hasBank = await hasBankAccount(env.DB, agency.id, player.id);
  if (!hasBank) return { ok: false, error: "BANK_ACCOUNT_REQUIRED" };
  const priced = quoteDeposit(await creditRate(env.DB, agency.id), input.amountMinor);
  if (!priced.ok) return priced;

  const wallet = walletOf(env, agency.id, player.id);
  await wallet.identify(agency.id, player.id, player.username);
  // A promotion in use at this provider needs the provider's credit (below its threshold).
  const usage = await wallet.activeUsage();
  let creditAtProviderMinor: bigint | null = null;
  if (usage?.status === "USED" && usage.provider === input.provider) {
    const balance = await providerPortFor(env, agency.id, usage.provider).balance(providerUsername(agency.id, player.username));
    if (balance.kind !== "ok") return { ok: false, error: "PROVIDER_UNAVAILABLE" };
    creditAtProviderMinor = parseAmount(balance.amount, "THB") ?? 0n;
  }
  const now = Date.now();
  const code = newDepositCode(new Date(now));
  const expiresAt = now + DEPOSIT_QR_TTL_SECONDS * 1000;
  const kind = await channelKind(env.DB, agency.id, channel.code);
  let payAmountMinor: bigint | null = null;
  if (kind?.gateway === "own_account") {
    // the order exists in the wallet only with its pay amount held in D1 first (decision 016)
    const existing = await wallet.openDepositOrder(now);
    if (existing) return { ok: true, kind: "open-exists", order: await ensureQr(env, agency, player, existing, channel, origin) };
    payAmountMinor = await reserveUniquePayAmount(env.DB, agency.id, {
      channelCode: channel.code,
      askedMinor: priced.quote.amountMinor,
      orderCode: code,
      playerId: player.id,
      createdAt: now,
      expiresAt,
    });
    if (payAmountMinor === null) return { ok: false, error: "CHANNEL_BUSY" };
  }
  const opened = await wallet.openDeposit({
    idempotencyKey: `${input.idempotencyKey}`,
    code,
    provider: input.provider as Provider,
    channelCode: channel.code,
    amountMinor: priced.quote.amountMinor,
    creditMinor: priced.quote.creditMinor,
    rateSell: priced.quote.rate.sell,
    expiresAt,
    now,
    creditAtProviderMinor,
    payAmountMinor,
  });
  if (payAmountMinor !== null && opened.kind !== "created") await dropPayAmountReservation(env.DB, agency.id, code);
  if (opened.kind === "refused") return { ok: false, error: opened.error, provider: opened.provider };
  const order = await ensureQr(env, agency, player, opened.order, channel, origin);
  return { ok: true, kind: opened.kind, order };
}

/** The QR of an OPEN order, created at the gateway if it is not there yet (idempotent by code). */
async function ensureQr(
  env: Env,
  agency: Agency,
  player: CurrentPlayer,
  order: DepositOrder,
  channel: PaymentChannel | undefined,
  origin: string,
): Promise<DepositOrder> {
  if (order.status !== "OPEN" || order.qrPayload) return order;
  await insertDepositRef(env.DB, order.code, agency.id, player.id);
  const ch = channel ?? (await listActivePaymentChannels(env.DB, agency.id)).find((c) => c.code === order.channelCode);
  if (!ch) return order;
  const kind = await channelKind(env.DB, agency.id, ch.code);
  if (kind?.gateway === "own_account") {
    // the agency's own account: no gateway; the QR is the bank's static one, as is or derived for this order
    const payload = ownAccountQr(kind, order);
    return payload ? ((await walletOf(env, agency.id, player.id).attachQr(order.code, payload)) ?? order) : order;
  }
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

async function channelKind(db: D1Database, agencyId: string, code: string): Promise<ChannelKind | null> {
  return (await listChannelKinds(db, agencyId)).find((c) => c.code === code) ?? null;
}

/**
 * The QR of an own-account order: the static QR with this order's pay amount and code
 * (dynamic, 01 = 12) when the channel's mode is 'derived', else the static QR as is (the
 * player types the exact amount shown beside it).
 */
function ownAccountQr(kind: ChannelKind, order: DepositOrder): string | null {
  if (!kind.staticQr) return null;
  if (kind.qrMode === "static") return kind.staticQr;
  return deriveDynamicLaoQr(kind.staticQr, { amount: order.payAmount ?? order.amount, reference: order.code });
}

/**
 * Holds a pay amount unique among the channel's orders (all players): the first free one of
 * asked + 1..999 kip; when another order took it in the meantime (the unique index refused
 * it), the next try picks among the free ones further on. null: every amount is held.
 */
async function reserveUniquePayAmount(
  db: D1Database,
  agencyId: string,
  input: { channelCode: string; askedMinor: bigint; orderCode: string; playerId: string; createdAt: number; expiresAt: number },
): Promise<bigint | null> {
  const { lowMinor } = payAmountRange(input.askedMinor);
  const candidates = Array.from({ length: MAX_EXTRA_KIP }, (_, i) => formatAmount(lowMinor + BigInt(i) * 100n, "LAK"));
  for (let attempt = 0; attempt < 40; attempt++) {
    const held = (await heldPayAmounts(db, agencyId, input.channelCode, candidates, Date.now())).map((a) => parseAmount(a, "LAK")!);
    const pay = choosePayAmount(input.askedMinor, held, retryPick(attempt, Math.random()));
    if (pay === null) return null;
    const reserved = await reservePayAmount(db, agencyId, {
      channelCode: input.channelCode,
      payAmount: formatAmount(pay, "LAK"),
      orderCode: input.orderCode,
      playerId: input.playerId,
      askedAmount: formatAmount(input.askedMinor, "LAK"),
      createdAt: input.createdAt,
      expiresAt: input.expiresAt,
    });
    if (reserved) return pay;
  }
  return null;
}

export type CheckResult = "PAID" | "NOT_PAID" | "EXPIRED" | "UNAVAILABLE" | "NOT_OPEN";

/** The "check" button: ask the gateway now instead of waiting for its webhook. */
export async function checkDeposit(env: Env, agencyId: string, playerId: string, code: string): Promise<{ result: CheckResult; order: DepositOrder | null }> {
  const wallet = walletOf(env, agencyId, playerId);
  const order = await wallet.getDeposit(code);
  if (!order) return { result: "NOT_OPEN", order: null };
  if (order.status !== "OPEN") return { result: order.status === "CANCELED" ? "EXPIRED" : "PAID", order };
  if (order.payAmount) return { result: "NOT_PAID", order }; // own account: confirmed by staff, statement or forwarder (the matcher)
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
  const now = Date.now();
  const result = await walletOf(env, agencyId, playerId).cancelDeposit(code, "PLAYER", now);
  if (result.ok && result.order?.payAmount) await endPayAmountReservation(env.DB, agencyId, code, now); // its amount's cool-down starts now
  return result;
}

function depositSummary(order: DepositOrder) {
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
    // when the gateway's payment reached the wallet, and when the credit landed at the provider
    paidAt: order.paidAt === null ? null : new Date(order.paidAt).toISOString(),
    settledAt: order.settledAt === null ? null : new Date(order.settledAt).toISOString(),
  };
}

/**
 * The deposit page: the open order (its QR created at the gateway if missing, drawn as SVG),
 * the channels, rate and limits for a new one, and each provider's credit (streamed: each
 * provider answers on its own time).
 */
export async function depositPage(env: Env, agency: Agency, player: CurrentPlayer, origin: string) {
  const wallet = walletOf(env, agency.id, player.id);
  let order: DepositOrder | null = await wallet.openDepositOrder(Date.now());
  if (order && !order.qrPayload) order = await ensureQr(env, agency, player, order, undefined, origin);
  const [channels, rate, hasBank] = await Promise.all([
    listActivePaymentChannels(env.DB, agency.id),
    creditRate(env.DB, agency.id),
    hasBankAccount(env.DB, agency.id, player.id),
  ]);
  const providers = enabledProviders(agency.enabledProviders);
  return {
    credits: Object.fromEntries(providers.map((p) => [p, fetchCredit(env, agency.id, player.username, p)])),
    providers,
    channels: channels.map((c) => ({ code: c.code, displayName: c.displayName, bankCode: c.bankCode, currency: c.currency })),
    rate: rate ? { sell: formatAmount(rate.sell / 10000n, "THB"), sellScaled: rate.sell.toString() } : null,
    limits: { min: agency.limits.depositMin, max: agency.limits.depositMax },
    hasBank,
    idempotencyKey: crypto.randomUUID(),
    order: order && {
      code: order.code,
      provider: order.provider,
      amount: order.amount,
      /** own-account channels: the exact amount to pay (the asked amount plus a few kip), and whether the QR carries it */
      payAmount: order.payAmount ?? null,
      qrMode: order.payAmount ? ((await channelKind(env.DB, agency.id, order.channelCode))?.qrMode ?? "derived") : null,
      credit: order.credit,
      bonus: order.bonus,
      status: order.status,
      expiresAt: new Date(order.expiresAt).toISOString(),
      payload: order.qrPayload,
      qrSvg: order.qrPayload ? qrSvg(order.qrPayload) : null,
    },
  };
}

/** The player's deposit history, newest first. */
export async function depositHistoryPage(env: Env, agencyId: string, playerId: string, { page, pageSize }: { page: number; pageSize: number }) {
  const { items, total } = await walletOf(env, agencyId, playerId).listDeposits(page, pageSize);
  return {
    page,
    pageSize,
    total,
    items: items.map((o) => ({
      code: o.code,
      createdAt: new Date(o.createdAt).toISOString(),
      provider: o.provider,
      amount: o.amount,
      credit: o.credit,
      status: o.status,
    })),
  };
}

/** docs/product.md §3 data groups: a page of the player's deposits, as the API shows them. */
export async function listDepositSummaries(env: Env, agencyId: string, playerId: string, { page, pageSize }: { page: number; pageSize: number }) {
  const { items, total } = await walletOf(env, agencyId, playerId).listDeposits(page, pageSize);
  return { page, pageSize, total, items: items.map(depositSummary) };
}

/** docs/product.md §3 data groups: the open deposit order (none or one), as the API shows it. */
export async function openDepositSummaries(env: Env, agencyId: string, playerId: string) {
  const order = await walletOf(env, agencyId, playerId).openDepositOrder(Date.now());
  return { orders: order ? [depositSummary(order)] : [] };
}
