import { parseAmount, type Rate } from "../../core/money";
import type { PromotionError } from "../../core/promotion";
import { isProvider, type Provider } from "../../core/providers";
import { awaitsStaffDecision, checkWithdrawAmount, needsManualReview, quoteWithdraw, withdrawDisplayStatus, type WithdrawQuote } from "../../core/withdraw";
import { insertWithdrawRef } from "../../db/orders";
import { payoutGatewayConfigured } from "../../ports/gateway";
import { providerUsername } from "../../ports/provider";
import { providerPortFor } from "../../wallet/provider-port";
import type { WithdrawOrder } from "../../wallet/player-wallet";
import type { Agency } from "../agency";
import { announceWaitingWithdrawal } from "../alerts";
import type { CurrentPlayer } from "../../core/session";
import { listBankAccounts, type BankAccount } from "../players";
import { enabledProviders, fetchCredit } from "../providers";
import { periodStart } from "../../core/responsible-gaming";
import { withdrawDayRefusal, type VipLevel } from "../../core/vip-levels";
import { playerLevel, promotionForWithdraw, rewardHoldForWithdraw, type RewardHoldError, type WithdrawPromotion } from "../promotions";
import { withdrawalWaitsForCheck } from "../holds";
import { creditRate, walletOf } from "../wallets";

/** The player's withdraw steps (review, confirm) and the pages that show them; staff decisions are in withdraw-review.ts. */

export type WithdrawError =
  | "PROVIDER_REQUIRED"
  | "BANK_ACCOUNT_REQUIRED"
  | "AMOUNT_INVALID"
  | "AMOUNT_TOO_LOW"
  | "AMOUNT_TOO_HIGH"
  | "CREDIT_NOT_ENOUGH"
  | "NO_RATE"
  | "PROVIDER_UNAVAILABLE"
  | "CANNOT_WITHDRAW"
  | "LEVEL_WITHDRAW_LIMIT"
  | RewardHoldError
  | PromotionError;

export type WithdrawReview = {
  provider: Provider;
  balance: string;
  bank: BankAccount;
  quote: WithdrawQuote;
  rate: Rate;
  review: "AUTO" | "MANUAL";
  /** A claim of the player's is held for review (decision 094): the withdrawal waits for staff, and the player is told why. */
  checking: boolean;
  promotion: WithdrawPromotion | null;
  /** The level's daily limit the wallet judges again when the order is opened; null: none. */
  dayLimit: { limitMinor: bigint; since: number } | null;
};

/**
 * The withdraw form's values as its schema hands them on: `amountMinor` is the typed amount in
 * credit minor units (THB satang), already read and bounded by the agency's limits there
 * (app/lib/schemas/withdraw.ts), or "ALL" (all credit); carried as this bigint to the wallet and
 * the provider's transfer-out, never read from text again.
 */
export type WithdrawInput = { provider: string; amountMinor: bigint | "ALL" };

/** docs/product.md §5 withdraw rules with the provider's live credit: what the confirm step shows. */
export async function reviewWithdraw(
  env: Env,
  agency: Agency,
  player: CurrentPlayer,
  input: WithdrawInput,
): Promise<{ ok: true; review: WithdrawReview } | { ok: false; error: WithdrawError; balance?: string }> {
  if (!isProvider(input.provider) || !agency.enabledProviders.includes(input.provider)) return { ok: false, error: "PROVIDER_REQUIRED" };
  // Independent reads, asked at once (they were one after another: decision 024); the
  // errors keep their order.
  const [[bank], balance, rate, standing, checking] = await Promise.all([
    listBankAccounts(env.DB, agency.id, player.id),
    providerPortFor(env, agency.id, input.provider).balance(providerUsername(agency.id, player.username)),
    creditRate(env.DB, agency.id),
    playerLevel(env.DB, agency.id, player.id),
    withdrawalWaitsForCheck(env, agency.id, player.id),
  ]);
  if (!bank) return { ok: false, error: "BANK_ACCOUNT_REQUIRED" };
  if (balance.kind !== "ok") return { ok: false, error: "PROVIDER_UNAVAILABLE" };
  const checked = checkWithdrawAmount({
    amountMinor: input.amountMinor,
    balance: balance.amount,
    limits: { min: agency.limits.withdrawMin, max: agency.limits.withdrawMax },
    rate,
  });
  if (!checked.ok) return { ok: false, error: checked.error, balance: balance.amount };
  // the VIP level's limit on credit withdrawn per Vientiane day (decision 091); the wallet judges it again at confirm
  const dayLimit = levelDayLimit(standing.level);
  if (dayLimit) {
    const withdrawn = await walletOf(env, agency.id, player.id).withdrawnCreditSince(dayLimit.since);
    if (withdrawDayRefusal(standing.level, withdrawn, checked.creditMinor)) return { ok: false, error: "LEVEL_WITHDRAW_LIMIT", balance: balance.amount };
  }
  // the promotion in use at this provider decides the deductions (bonus back, excess)
  const governed = await promotionForWithdraw(env, agency, player, {
    provider: input.provider,
    creditMinor: checked.creditMinor,
    balanceMinor: parseAmount(balance.amount, "THB") ?? 0n,
  });
  if (!governed.ok) return { ok: false, error: governed.error, balance: balance.amount };
  // a cashback or referral reward at this provider holds it until its turnover is met (decision 029)
  const held = await rewardHoldForWithdraw(env, agency.id, player.username, player.id, input.provider);
  if (held) return { ok: false, error: held, balance: balance.amount };
  const quote = quoteWithdraw(checked.creditMinor, rate!, () => governed.promotion?.deductions ?? []);
  return {
    ok: true,
    review: {
      provider: input.provider,
      balance: balance.amount,
      bank,
      quote,
      rate: rate!,
      // no payout gateway: every withdrawal goes to the staff queue (paid by hand from the bank app)
      // a player with a claim held for review waits for staff too (decision 094)
      review: checking || !payoutGatewayConfigured(env) || needsManualReview(checked.creditMinor, agency.limits.withdrawAutoMax) ? "MANUAL" : "AUTO",
      checking,
      promotion: governed.promotion,
      dayLimit,
    },
  };
}

function newWithdrawCode(now: Date): string {
  const stamp = now.toISOString().slice(2, 10).replace(/-/g, "");
  const bytes = new Uint8Array(5);
  crypto.getRandomValues(bytes);
  return `W${stamp}${[...bytes].map((b) => "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[b % 32]).join("")}`;
}

/**
 * Confirm: the order is created PENDING in the player's wallet (a repeated confirm finds
 * it by its idempotency key), then the credit is taken from the provider with the order
 * code as reference. Refused -> FAILED ("cannot withdraw"); no answer -> the wallet asks
 * the provider's status before anything else happens.
 */
export async function confirmWithdraw(
  env: Env,
  agency: Agency,
  player: CurrentPlayer,
  input: WithdrawInput & { idempotencyKey: string },
  origin: string,
): Promise<{ ok: true; order: WithdrawOrder; repeated: boolean } | { ok: false; error: WithdrawError }> {
  const wallet = walletOf(env, agency.id, player.id);
  const [, reviewed] = await Promise.all([wallet.identify(agency.id, player.id, player.username, origin), reviewWithdraw(env, agency, player, input)]);
  if (!reviewed.ok) {
    // a repeat of a confirm that already took the credit must find its order, not "not enough"
    const existing = await findByKey(wallet, input.idempotencyKey);
    return existing ? { ok: true, order: existing, repeated: true } : reviewed;
  }
  const { review } = reviewed;
  const now = Date.now();
  const code = newWithdrawCode(new Date(now));
  const opened = await wallet.openWithdraw({
    idempotencyKey: input.idempotencyKey,
    code,
    provider: review.provider,
    creditMinor: review.quote.creditMinor,
    netCreditMinor: review.quote.netCreditMinor,
    receivedLakMinor: review.quote.receivedLakMinor,
    rateBuy: review.rate.buy,
    bankCode: review.bank.bankCode,
    accountNumber: review.bank.accountNumber,
    accountName: review.bank.accountName,
    review: review.review,
    dayLimit: review.dayLimit,
    now,
    promotion: review.promotion && {
      usageId: review.promotion.usageId,
      outcome: review.promotion.outcome,
      deductions: review.promotion.deductions.map((d) => ({ kind: d.kind, creditMinor: d.creditMinor })),
    },
  });
  if (opened.kind === "refused")
    return {
      ok: false,
      error: opened.error === "PROMOTION_CHANGED" ? "CANNOT_WITHDRAW" : opened.error === "REWARD_HELD" ? "REWARD_TURNOVER_NOT_MET" : opened.error,
    };
  if (opened.kind === "existing") return { ok: true, order: opened.order, repeated: true };
  await insertWithdrawRef(env.DB, code, agency.id, player.id);
  const outcome = await providerPortFor(env, agency.id, review.provider).transfer({
    username: providerUsername(agency.id, player.username),
    amountMinor: review.quote.creditMinor,
    direction: "out",
    reference: code,
  });
  const order =
    (await wallet.transferOutResult(
      code,
      outcome.kind === "ok" ? "ok" : outcome.kind === "refused" ? "refused" : "unknown",
      Date.now(),
      outcome.kind === "refused" ? outcome.code : outcome.kind === "unknown" ? outcome.reason : undefined,
    )) ?? opened.order;
  // staff hear of it at once (one that starts waiting later, e.g. after an unknown transfer, is the cron's)
  if (awaitsStaffDecision(order)) await announceWaitingWithdrawal(env, agency.id, player.username, order);
  return { ok: true, order, repeated: false };
}

async function findByKey(wallet: ReturnType<typeof walletOf>, key: string): Promise<WithdrawOrder | null> {
  return wallet.withdrawByKey(key);
}

function withdrawSummary(order: WithdrawOrder) {
  return {
    code: order.code,
    provider: order.provider,
    credit: order.credit,
    creditCurrency: "THB",
    received: order.status === "SUCCESS" ? order.receivedLak : null,
    receivedCurrency: "LAK",
    creditReturned: order.returnState === "DONE" ? order.credit : null,
    status: order.status === "PENDING" ? "OPEN" : order.status,
    reason: order.reason,
    deductions: order.deductions,
    createdAt: new Date(order.createdAt).toISOString(),
  };
}

/** The withdraw page: each provider's credit (streamed), the bank account paid into, the limits. */
export async function withdrawPage(env: Env, agency: Agency, player: CurrentPlayer, waitUntil?: (promise: Promise<unknown>) => void) {
  const [bank] = await listBankAccounts(env.DB, agency.id, player.id);
  const providers = enabledProviders(agency.enabledProviders);
  return {
    credits: Object.fromEntries(providers.map((p) => [p, fetchCredit(env, agency.id, player, p, waitUntil)])),
    providers,
    bank: bank ? { bankCode: bank.bankCode, maskedNumber: bank.maskedNumber, accountName: bank.accountName } : null,
    limits: { min: agency.limits.withdrawMin, max: agency.limits.withdrawMax },
    idempotencyKey: crypto.randomUUID(),
  };
}

/** The player's withdraw history, newest first (a returned credit shown as such). */
export async function withdrawHistoryPage(env: Env, agencyId: string, playerId: string, { page, pageSize }: { page: number; pageSize: number }) {
  const { items, total } = await walletOf(env, agencyId, playerId).listWithdraws(page, pageSize);
  return {
    page,
    pageSize,
    total,
    items: items.map((o) => ({
      code: o.code,
      createdAt: new Date(o.createdAt).toISOString(),
      provider: o.provider,
      credit: o.credit,
      status: withdrawDisplayStatus(o.status),
      received: o.status === "SUCCESS" ? o.receivedLak : null,
      returned: o.returnState === "DONE" ? o.credit : null,
      returning: o.returnState === "PENDING",
    })),
  };
}

/** docs/product.md §3 data groups: a page of the player's withdrawals, as the API shows them. */
export async function listWithdrawSummaries(env: Env, agencyId: string, playerId: string, { page, pageSize }: { page: number; pageSize: number }) {
  const { items, total } = await walletOf(env, agencyId, playerId).listWithdraws(page, pageSize);
  return { page, pageSize, total, items: items.map(withdrawSummary) };
}

/** docs/product.md §3 data groups: the open withdraw orders, as the API shows them. */
export async function openWithdrawSummaries(env: Env, agencyId: string, playerId: string) {
  return { orders: (await walletOf(env, agencyId, playerId).openWithdraws()).map(withdrawSummary) };
}

/** A level's daily withdrawal limit from the start of today (Vientiane), or null when the level has none. */
function levelDayLimit(level: VipLevel | null): { limitMinor: bigint; since: number } | null {
  return level?.withdrawDayMinor ? { limitMinor: level.withdrawDayMinor, since: periodStart("day", Date.now()) } : null;
}
