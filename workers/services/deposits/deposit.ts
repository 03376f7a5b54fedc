import { deriveDynamicLaoQr } from "../../core/emvco";
import { depositCredit, formatAmount, parseAmount, type Rate } from "../../core/money";
import { choosePayAmount, payAmountRange, retryPick } from "../../core/pay-amount";
import type { PromotionError } from "../../core/promotion";
import { isProvider, type Provider } from "../../core/providers";
import { hasBankAccountRead } from "../../db/bank-accounts";
import { deleteDepositRefStatement, depositRefStatement, insertDepositRef } from "../../db/orders";
import { dropPayAmountReservationStatement, endPayAmountReservation, heldPayAmounts, heldPayAmountsRead, reservePayAmount } from "../../db/pay-amounts";
import { activePaymentChannelsRead, channelKindsRead, exchangeRateRead, type ChannelKind, type PaymentChannel } from "../../db/payments";
import { readTogether } from "../../db/reads";
import { gatewayPort } from "../../ports/gateway";
import { providerUsername } from "../../ports/provider";
import { providerPortFor } from "../../wallet/provider-port";
import type { DepositOrder } from "../../wallet/player-wallet";
import { qrSvg, type Agency } from "../agency";
import { acceptsSlip } from "./deposit-slip";
import type { CurrentPlayer } from "../../core/session";
import { enabledProviders, fetchCredit } from "../providers";
import { depositGuardReads, depositLimitGuard, rateOf, walletOf } from "../wallets";

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

/** The agency's channels as a deposit reads them: the active ones (their merchants) and every channel's kind. */
type KnownChannels = { channels: PaymentChannel[]; kinds: ChannelKind[] };

/**
 * Opens a deposit order in the player's wallet, then asks the gateway for its QR. The order
 * exists before the gateway is called, so a double tap or a retry finds it (idempotency key)
 * and a second deposit finds the open one.
 *
 * Round trips to D1 (decision 076): everything the checks need in one batch (the guard's
 * breaks and limits, channels, bank account, rate, and the pay amounts held on the chosen
 * channel, read even if it is a gateway's: it answers nothing there), then one write (the
 * order's reference, with the own-account reservation or beside the gateway's QR request).
 */
export async function startDeposit(env: Env, agency: Agency, player: CurrentPlayer, input: StartDepositInput, origin: string): Promise<StartDepositResult> {
  const now = Date.now();
  const [breaks, limits, channels, kinds, hasBank, storedRate, held] = await readTogether(env.DB, [
    ...depositGuardReads(env.DB, agency.id, player.id, now),
    activePaymentChannelsRead(env.DB, agency.id),
    channelKindsRead(env.DB, agency.id),
    hasBankAccountRead(env.DB, agency.id, player.id),
    exchangeRateRead(env.DB, agency.id, "THB"),
    heldPayAmountsRead(env.DB, agency.id, input.channelCode, payAmountRange(input.amountMinor), now),
  ]);
  const limited = await depositLimitGuard(env, agency.id, player.id, input.amountMinor, { breaks, limits }, now); // responsible gaming, decision 025
  if (limited) return limited;
  if (!isProvider(input.provider) || !agency.enabledProviders.includes(input.provider)) return { ok: false, error: "PROVIDER_REQUIRED" };
  const channel = channels.find((c) => c.code === input.channelCode);
  if (!channel) return { ok: false, error: "CHANNEL_REQUIRED" };
  if (!hasBank) return { ok: false, error: "BANK_ACCOUNT_REQUIRED" };
  const priced = quoteDeposit(rateOf(storedRate), input.amountMinor);
  if (!priced.ok) return priced;

  const wallet = walletOf(env, agency.id, player.id);
  // A promotion in use at this provider needs the provider's credit (below its threshold).
  const [, usage] = await Promise.all([wallet.identify(agency.id, player.id, player.username), wallet.activeUsage()]);
  let creditAtProviderMinor: bigint | null = null;
  if (usage?.status === "USED" && usage.provider === input.provider) {
    const balance = await providerPortFor(env, agency.id, usage.provider).balance(providerUsername(agency.id, player.username));
    if (balance.kind !== "ok") return { ok: false, error: "PROVIDER_UNAVAILABLE" };
    creditAtProviderMinor = parseAmount(balance.amount, "THB") ?? 0n;
  }
  const code = newDepositCode(new Date(now));
  const expiresAt = now + DEPOSIT_QR_TTL_SECONDS * 1000;
  const known = { channels, kinds };
  let payAmountMinor: bigint | null = null;
  if (kinds.find((k) => k.code === channel.code)?.gateway === "own_account") {
    // the order exists in the wallet only with its pay amount held in D1 first (decision 016),
    // and its reference written in the same transaction
    const existing = await wallet.openDepositOrder(now);
    if (existing) return { ok: true, kind: "open-exists", order: await ensureQr(env, agency, player, existing, known, origin) };
    payAmountMinor = await reserveUniquePayAmount(
      env.DB,
      agency.id,
      { channelCode: channel.code, askedMinor: priced.quote.amountMinor, orderCode: code, playerId: player.id, createdAt: now, expiresAt },
      held,
      [depositRefStatement(env.DB, code, agency.id, player.id)],
    );
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
  if (payAmountMinor !== null && opened.kind !== "created") {
    await env.DB.batch([dropPayAmountReservationStatement(env.DB, agency.id, code), deleteDepositRefStatement(env.DB, code, agency.id)]);
  }
  if (opened.kind === "refused") return { ok: false, error: opened.error, provider: opened.provider };
  const order = await ensureQr(env, agency, player, opened.order, known, origin, { referenced: payAmountMinor !== null && opened.order.code === code });
  return { ok: true, kind: opened.kind, order };
}

/**
 * The QR of an OPEN order, created at the gateway if it is not there yet (idempotent by code).
 * The order's reference is written first (own account: with its reservation, `referenced`), or
 * while the gateway makes the QR: either way before anyone can see the QR and pay it.
 */
async function ensureQr(
  env: Env,
  agency: Agency,
  player: CurrentPlayer,
  order: DepositOrder,
  { channels, kinds }: KnownChannels,
  origin: string,
  { referenced = false } = {},
): Promise<DepositOrder> {
  if (order.status !== "OPEN" || order.qrPayload) return order;
  const reference = referenced ? Promise.resolve() : insertDepositRef(env.DB, order.code, agency.id, player.id);
  const ch = channels.find((c) => c.code === order.channelCode);
  if (!ch) {
    await reference;
    return order;
  }
  const kind = kinds.find((k) => k.code === ch.code);
  if (kind?.gateway === "own_account") {
    await reference;
    // the agency's own account: no gateway; the QR is the bank's static one, as is or derived for this order
    const payload = ownAccountQr(kind, order);
    return payload ? ((await walletOf(env, agency.id, player.id).attachQr(order.code, payload)) ?? order) : order;
  }
  const [, qr] = await Promise.all([
    reference,
    gatewayPort(env).createQr({
      reference: order.code,
      amount: order.amount,
      callbackUrl: `${origin}/api/v2/payments/webhook`,
      expiresInSeconds: Math.max(1, Math.floor((order.expiresAt - Date.now()) / 1000)),
      receiver: { iin: ch.iin, merchantId: ch.mid, name: ch.merchantName, city: ch.merchantCity },
    }),
  ]);
  if (qr.kind !== "ok") return order; // shown as "QR not ready, try again"; the next view retries
  return (await walletOf(env, agency.id, player.id).attachQr(order.code, qr.payload)) ?? order;
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
 * asked + 1..999 kip (`held`: those taken when the deposit read them); when another order
 * took it in the meantime (the unique index refused it), the next try reads them again and
 * picks among the free ones further on. null: every amount is held. `alsoWritten` goes with
 * the reservation that succeeds.
 */
async function reserveUniquePayAmount(
  db: D1Database,
  agencyId: string,
  input: { channelCode: string; askedMinor: bigint; orderCode: string; playerId: string; createdAt: number; expiresAt: number },
  held: string[],
  alsoWritten: D1PreparedStatement[],
): Promise<bigint | null> {
  let taken = held;
  for (let attempt = 0; attempt < 40; attempt++) {
    if (attempt > 0) taken = await heldPayAmounts(db, agencyId, input.channelCode, payAmountRange(input.askedMinor), Date.now());
    const pay = choosePayAmount(
      input.askedMinor,
      taken.map((a) => parseAmount(a, "LAK")!),
      retryPick(attempt, Math.random()),
    );
    if (pay === null) return null;
    const reserved = await reservePayAmount(
      db,
      agencyId,
      {
        channelCode: input.channelCode,
        payAmount: formatAmount(pay, "LAK"),
        orderCode: input.orderCode,
        playerId: input.playerId,
        askedAmount: formatAmount(input.askedMinor, "LAK"),
        createdAt: input.createdAt,
        expiresAt: input.expiresAt,
      },
      alsoWritten,
    );
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
export async function depositPage(env: Env, agency: Agency, player: CurrentPlayer, origin: string, waitUntil?: (promise: Promise<unknown>) => void) {
  const wallet = walletOf(env, agency.id, player.id);
  // the open order (the wallet) and what a new one needs (D1) at the same time: one round trip each
  const [open, [channels, kinds, storedRate, hasBank]] = await Promise.all([
    wallet.openDepositOrder(Date.now()),
    readTogether(env.DB, [
      activePaymentChannelsRead(env.DB, agency.id),
      channelKindsRead(env.DB, agency.id),
      exchangeRateRead(env.DB, agency.id, "THB"),
      hasBankAccountRead(env.DB, agency.id, player.id),
    ]),
  ]);
  const order = open && !open.qrPayload ? await ensureQr(env, agency, player, open, { channels, kinds }, origin) : open;
  const rate = rateOf(storedRate);
  const providers = enabledProviders(agency.enabledProviders);
  return {
    credits: Object.fromEntries(providers.map((p) => [p, fetchCredit(env, agency.id, player, p, waitUntil)])),
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
      qrMode: order.payAmount ? (kinds.find((k) => k.code === order.channelCode)?.qrMode ?? "derived") : null,
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
      // an open or expired order takes the bank's transfer slip (decision 087)
      canAddSlip: acceptsSlip(o),
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
