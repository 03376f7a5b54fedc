import { formatAmount, parseAmount } from "../../core/money";
import { hasBankAccount } from "../../db/bank-accounts";
import {
  findPromotion,
  latestClaimedPromotionRead,
  listActivePromotions,
  listPromotions as listEveryPromotion,
  type PromotionRecord,
} from "../../db/promotions";
import { readOne } from "../../db/reads";
import { localize, withdrawUnderPromotion, type CurrentPromotionView, type PromotionError } from "../../core/promotion";
import { isProvider, type Provider } from "../../core/providers";
import type { Deduction } from "../../core/withdraw";
import { providerUsername } from "../../ports/provider";
import { providerPortFor } from "../../wallet/provider-port";
import type { PromotionUsage } from "../../wallet/player-wallet";
import type { Agency } from "../agency";
import type { CurrentPlayer } from "../../core/session";
import type { OfferPause } from "../../core/responsible-gaming";
import { holdIfLinked, rebindHold, takeBackClaim } from "../holds";
import { offersPaused, walletOf } from "../wallets";

/** A catalogue promotion a player may see: its rules are well formed. */
type Promotion = Omit<PromotionRecord, "rulesValid" | "createdAt" | "updatedAt">;

function toPromotion(record: PromotionRecord): Promotion | null {
  if (!record.rulesValid) return null;
  return {
    id: record.id,
    status: record.status,
    title: record.title,
    description: record.description,
    imageUrl: record.imageUrl,
    rules: record.rules,
    sortOrder: record.sortOrder,
  };
}

/** The catalogue a player sees: ACTIVE promotions of the agency, in the staff's order. */
async function listPromotions(db: D1Database, agencyId: string): Promise<Promotion[]> {
  return (await listActivePromotions(db, agencyId)).map(toPromotion).filter((p): p is Promotion => p !== null);
}

/** One promotion of this agency, ACTIVE or not (a detail link may outlive the promotion). */
export async function getPromotion(db: D1Database, agencyId: string, id: string): Promise<Promotion | null> {
  const record = await findPromotion(db, agencyId, id);
  return record ? toPromotion(record) : null;
}

/** The providers a player may claim this promotion for: the promotion's, among the agency's. */
function eligibleProviders(promotion: Promotion, agency: Agency): Provider[] {
  return promotion.rules.providers.filter((p) => agency.enabledProviders.includes(p));
}

/** A refused claim; `creditThreshold` comes with PROMOTION_CREDIT_TOO_HIGH (the player's message names it). */
type ClaimResult =
  | { ok: true; usage: PromotionUsage }
  | { ok: false; error: PromotionError | "PROVIDER_UNAVAILABLE" | "REWARD_REFUSED"; creditThreshold?: string }
  | { ok: false; error: "OFFERS_PAUSED"; pause: OfferPause };

/**
 * Claim: the service gathers what lives outside the wallet (catalogue, bank account, the
 * provider's credit), the wallet judges the rest and records the claim atomically, so two
 * claims at once end with one.
 */
export async function claimPromotion(env: Env, agency: Agency, player: CurrentPlayer, input: { promotionId: string; provider: string }): Promise<ClaimResult> {
  const promotion = await getPromotion(env.DB, agency.id, input.promotionId);
  if (!promotion) return { ok: false, error: "PROMOTION_NOT_FOUND" };
  if (promotion.status !== "ACTIVE") return { ok: false, error: "PROMOTION_INACTIVE" };
  if (!isProvider(input.provider) || !eligibleProviders(promotion, agency).includes(input.provider)) return { ok: false, error: "PROMOTION_PROVIDER" };
  // the form's and the API's claims both pass here: none while the player is on a break or at a limit (decision 091)
  const pause = await offersPaused(env, agency.id, player.id);
  if (pause) return { ok: false, error: "OFFERS_PAUSED", pause };
  const hasBank = await hasBankAccount(env.DB, agency.id, player.id);
  if (!hasBank) return { ok: false, error: "PROMOTION_BANK_ACCOUNT_REQUIRED" };
  const balance = await providerPortFor(env, agency.id, input.provider).balance(providerUsername(agency.id, player.username));
  if (balance.kind !== "ok") return { ok: false, error: "PROVIDER_UNAVAILABLE" };
  const wallet = walletOf(env, agency.id, player.id);
  const usageId = crypto.randomUUID();
  // the first claim of this promotion among linked accounts wins; the others' bonus waits for staff (decision 094)
  const [, hold] = await Promise.all([
    wallet.identify(agency.id, player.id, player.username),
    holdIfLinked(
      env,
      { agencyId: agency.id, playerId: player.id, username: player.username },
      { kind: "PROMOTION", subject: promotion.id, ref: usageId, amount: null, claim: null },
    ),
  ]);
  if (hold?.status === "REFUSED") return { ok: false, error: "REWARD_REFUSED" };
  const claimed = await wallet.claimPromotion({
    usageId,
    promotionId: promotion.id,
    provider: input.provider,
    rules: promotion.rules,
    facts: {
      promotionActive: true,
      enabledProviders: agency.enabledProviders,
      hasBankAccount: true,
      creditAtProviderMinor: parseAmount(balance.amount, "THB") ?? 0n,
    },
    held: hold?.status === "HELD",
    now: Date.now(),
  });
  // a refused claim gives back what it wrote; a held one claimed anew is decided by this claim
  if (!claimed.ok) await takeBackClaim(env, agency.id, usageId);
  else if (hold) await rebindHold(env, agency.id, hold.id, usageId);
  if (!claimed.ok && claimed.error === "PROMOTION_CREDIT_TOO_HIGH") return { ...claimed, creditThreshold: promotion.rules.creditThreshold };
  return claimed;
}

export async function cancelPromotion(env: Env, agency: Agency, player: CurrentPlayer, usageId: string) {
  const cancelled = await walletOf(env, agency.id, player.id).cancelPromotion(usageId, Date.now());
  // a claim never used was never had: another linked account may claim first now (decision 094)
  if (cancelled.ok) await takeBackClaim(env, agency.id, usageId);
  return cancelled;
}

type CurrentPromotion = { usage: PromotionUsage; promotion: Promotion | null; turnoverDone: string | null };

/** The promotion claimed or in use, with its catalogue entry and (when in use) the turnover so far. */
async function currentPromotion(env: Env, agency: Agency, player: CurrentPlayer, options: { withTurnover?: boolean } = {}): Promise<CurrentPromotion | null> {
  // the wallet's usage and the promotion of the latest claim at once (decision 076); by id only when they differ
  const [usage, latest] = await Promise.all([
    walletOf(env, agency.id, player.id).activeUsage(),
    readOne(latestClaimedPromotionRead(env.DB, agency.id, player.id)),
  ]);
  if (!usage) return null;
  const promotion = latest?.id === usage.promotionId ? toPromotion(latest) : await getPromotion(env.DB, agency.id, usage.promotionId);
  let turnoverDone: string | null = null;
  if (options.withTurnover && usage.status === "USED") {
    const counter = await providerPortFor(env, agency.id, usage.provider).turnover(providerUsername(agency.id, player.username), usage.usedAt ?? undefined);
    if (counter.kind === "ok") turnoverDone = formatAmount(turnoverSince(counter.amountMinor, usage.turnoverStart), "THB");
  }
  return { usage, promotion, turnoverDone };
}

/** A page of the player's usages with their promotions: the catalogue (every status) read beside the wallet's page, not one read per promotion after it. */
async function listUsages(env: Env, agency: Agency, player: CurrentPlayer, page: number, pageSize: number) {
  const [{ items, total }, catalogue] = await Promise.all([
    walletOf(env, agency.id, player.id).listUsages(page, pageSize),
    listEveryPromotion(env.DB, agency.id),
  ]);
  const promotions = new Map(catalogue.map((record) => [record.id, toPromotion(record)]));
  return { items: items.map((usage) => ({ usage, promotion: promotions.get(usage.promotionId) ?? null })), total };
}

function turnoverSince(counterMinor: bigint, start: string | null): bigint {
  const startMinor = start === null ? 0n : (parseAmount(start, "THB") ?? 0n);
  return counterMinor > startMinor ? counterMinor - startMinor : 0n;
}

export type WithdrawPromotion = { usageId: string; outcome: "SUCCESS" | "CANCELED"; deductions: Deduction[]; turnoverDone: string; turnoverTarget: string };

/**
 * A withdrawal from the provider of the promotion in use: the promotion's rules decide the
 * deductions (bonus taken back when the turnover is not met; excess above the maximum
 * received). Null when no promotion governs this withdrawal.
 */
export async function promotionForWithdraw(
  env: Env,
  agency: Agency,
  player: CurrentPlayer,
  input: { provider: Provider; creditMinor: bigint; balanceMinor: bigint },
): Promise<{ ok: true; promotion: WithdrawPromotion | null } | { ok: false; error: PromotionError | "PROVIDER_UNAVAILABLE" }> {
  const usage = await walletOf(env, agency.id, player.id).activeUsage();
  if (!usage || usage.status !== "USED" || usage.provider !== input.provider) return { ok: true, promotion: null };
  const counter = await providerPortFor(env, agency.id, input.provider).turnover(providerUsername(agency.id, player.username), usage.usedAt ?? undefined);
  if (counter.kind !== "ok") return { ok: false, error: "PROVIDER_UNAVAILABLE" };
  const done = turnoverSince(counter.amountMinor, usage.turnoverStart);
  const target = parseAmount(usage.turnoverTarget ?? "0", "THB") ?? 0n;
  const verdict = withdrawUnderPromotion({
    usage: { rules: usage.rules, bonusMinor: usage.bonusCredited ? (parseAmount(usage.bonus ?? "0", "THB") ?? 0n) : 0n, turnoverTargetMinor: target },
    creditMinor: input.creditMinor,
    balanceMinor: input.balanceMinor,
    turnoverDoneMinor: done,
  });
  if (!verdict.ok) return verdict;
  return {
    ok: true,
    promotion: {
      usageId: usage.id,
      outcome: verdict.outcome,
      deductions: verdict.deductions,
      turnoverDone: formatAmount(done, "THB"),
      turnoverTarget: formatAmount(target, "THB"),
    },
  };
}

/** JSON shapes of the docs/product.md §3 promotion data groups. */
function promotionSummary(promotion: Promotion, lang: string) {
  return {
    id: promotion.id,
    status: promotion.status,
    title: localize(promotion.title, lang),
    description: localize(promotion.description, lang),
    imageUrl: promotion.imageUrl && localize(promotion.imageUrl, lang),
    bonus: { kind: promotion.rules.bonusKind, value: promotion.rules.bonusValue, cap: promotion.rules.bonusCap, currency: "THB" },
    setAmount: promotion.rules.setAmount,
    setAmountCurrency: "LAK",
    firstOrderOnly: promotion.rules.firstOrderOnly,
    creditThreshold: promotion.rules.creditThreshold,
    turnoverMultiple: promotion.rules.turnoverMultiple,
    maxWithdrawCredit: promotion.rules.maxWithdrawCredit,
    withdrawAll: promotion.rules.withdrawAll,
    providers: promotion.rules.providers,
  };
}

function usageSummary(usage: PromotionUsage, promotion: Promotion | null, lang: string) {
  return {
    id: usage.id,
    promotionId: usage.promotionId,
    title: promotion ? localize(promotion.title, lang) : null,
    provider: usage.provider,
    status: usage.status,
    depositCode: usage.depositCode,
    bonus: usage.bonus,
    bonusCredited: usage.bonusCredited,
    hold: usage.hold,
    turnoverTarget: usage.turnoverTarget,
    reason: usage.reason,
    claimedAt: new Date(usage.claimedAt).toISOString(),
    usedAt: usage.usedAt === null ? null : new Date(usage.usedAt).toISOString(),
    endedAt: usage.endedAt === null ? null : new Date(usage.endedAt).toISOString(),
  };
}

/** The promotion claimed or in use, as the player pages show it (<CurrentPromotion>). */
export async function currentPromotionView(
  env: Env,
  agency: Agency,
  player: CurrentPlayer,
  lang: string,
  options: { withTurnover?: boolean } = {},
): Promise<CurrentPromotionView | null> {
  const current = await currentPromotion(env, agency, player, options);
  if (!current) return null;
  const { usage, promotion } = current;
  return {
    usageId: usage.id,
    promotionId: usage.promotionId,
    title: promotion ? localize(promotion.title, lang) : usage.promotionId,
    provider: usage.provider,
    status: usage.status,
    setAmount: usage.rules.setAmount,
    bonus: usage.bonus,
    bonusCredited: usage.bonusCredited,
    held: usage.hold === "HELD",
    turnoverDone: current.turnoverDone,
    turnoverTarget: usage.turnoverTarget,
    claimedAt: new Date(usage.claimedAt).toISOString(),
  };
}

/** A catalogue promotion in the player's language (its page). */
function promotionView(promotion: Promotion, lang: string) {
  return {
    id: promotion.id,
    status: promotion.status,
    title: localize(promotion.title, lang),
    description: localize(promotion.description, lang),
    imageUrl: promotion.imageUrl && localize(promotion.imageUrl, lang),
    rules: promotion.rules,
  };
}

/** The promotion page: the catalogue and the promotion claimed or in use (with its turnover). */
export async function promotionListPage(env: Env, agency: Agency, player: CurrentPlayer, lang: string) {
  const [promotions, current, paused] = await Promise.all([
    listPromotions(env.DB, agency.id),
    currentPromotionView(env, agency, player, lang, { withTurnover: true }),
    offersPaused(env, agency.id, player.id),
  ]);
  return {
    current,
    paused,
    // paused (decision 091): the catalogue is not shown; the promotion already claimed or in use stays (it is the player's, not an offer)
    promotions: (paused ? [] : promotions).map((p) => ({
      id: p.id,
      title: localize(p.title, lang),
      description: localize(p.description, lang),
      imageUrl: p.imageUrl && localize(p.imageUrl, lang),
      rules: p.rules,
    })),
  };
}

/** A promotion's page: the promotion, the providers it may be claimed for, the current one, and whether the player has a bank account. Null when not found. */
export async function promotionDetailPage(env: Env, agency: Agency, player: CurrentPlayer, promotionId: string, lang: string) {
  // all at once (decision 076): a promotion not found costs the other two reads, rarely
  const [promotion, hasBank, current, paused] = await Promise.all([
    getPromotion(env.DB, agency.id, promotionId),
    hasBankAccount(env.DB, agency.id, player.id),
    currentPromotionView(env, agency, player, lang, { withTurnover: true }),
    offersPaused(env, agency.id, player.id),
  ]);
  // paused (decision 091): a promotion's page is not shown either, unless it is the player's own current one
  if (!promotion) return null;
  if (paused && current?.promotionId !== promotion.id) return { promotion: null, paused };
  return { promotion: promotionView(promotion, lang), providers: eligibleProviders(promotion, agency), current, hasBank, paused };
}

/** The player's promotion history, one page. */
export async function promotionHistoryPage(env: Env, agency: Agency, player: CurrentPlayer, page: number, pageSize: number, lang: string) {
  const { items, total } = await listUsages(env, agency, player, page, pageSize);
  return {
    page,
    pageSize,
    total,
    items: items.map(({ usage, promotion }) => ({
      code: usage.id,
      promotionId: usage.promotionId,
      title: promotion ? localize(promotion.title, lang) : usage.promotionId,
      provider: usage.provider,
      // docs/product.md §2 "used-at": when the promotion started (its deposit landed), else when it was claimed
      usedAt: new Date(usage.usedAt ?? usage.claimedAt).toISOString(),
      status: usage.status,
      bonus: usage.bonusCredited ? usage.bonus : null,
      reason: usage.reason,
    })),
  };
}

/** The catalogue as the landing page shows it: ACTIVE promotions in the staff's order, in the visitor's language, with their banners. */
export async function promotionCards(db: D1Database, agencyId: string, lang: string) {
  return (await listPromotions(db, agencyId)).map((p) => ({
    id: p.id,
    title: localize(p.title, lang),
    description: localize(p.description, lang),
    imageUrl: p.imageUrl && localize(p.imageUrl, lang),
  }));
}

// docs/product.md §3 promotion data groups (app/routes/api/promotions.ts), in the player's language.

/** The catalogue for the API; empty while offers are paused (decision 091), with why and until when. */
export async function promotionSummaries(env: Env, agency: Agency, player: CurrentPlayer, lang: string) {
  const [promotions, paused] = await Promise.all([listPromotions(env.DB, agency.id), offersPaused(env, agency.id, player.id)]);
  return { promotions: paused ? [] : promotions.map((p) => promotionSummary(p, lang)), offersPaused: paused };
}

/** One promotion for the API; while offers are paused only `paused` (decision 091). */
export async function promotionSummaryById(env: Env, agency: Agency, player: CurrentPlayer, promotionId: string, lang: string) {
  const [promotion, paused] = await Promise.all([getPromotion(env.DB, agency.id, promotionId), offersPaused(env, agency.id, player.id)]);
  if (paused) return { promotion: null, paused };
  return { promotion: promotion && promotionSummary(promotion, lang), paused: null };
}

export async function currentUsageSummary(env: Env, agency: Agency, player: CurrentPlayer, lang: string) {
  const current = await currentPromotion(env, agency, player, { withTurnover: true });
  return current && { ...usageSummary(current.usage, current.promotion, lang), turnoverDone: current.turnoverDone };
}

export async function usageSummaries(env: Env, agency: Agency, player: CurrentPlayer, page: number, pageSize: number, lang: string) {
  const { items, total } = await listUsages(env, agency, player, page, pageSize);
  return { page, pageSize, total, items: items.map(({ usage, promotion }) => usageSummary(usage, promotion, lang)) };
}

/** Claims a promotion; on success the usage's summary. */
export async function claimPromotionSummary(env: Env, agency: Agency, player: CurrentPlayer, input: { promotionId: string; provider: string }, lang: string) {
  const claimed = await claimPromotion(env, agency, player, input);
  if (!claimed.ok) return claimed;
  return { ok: true as const, usage: usageSummary(claimed.usage, await getPromotion(env.DB, agency.id, input.promotionId), lang) };
}

/** Cancels the promotion claimed (not yet in use); null when there is none. */
export async function cancelCurrentPromotion(env: Env, agency: Agency, player: CurrentPlayer, lang: string) {
  const current = await currentPromotion(env, agency, player);
  if (!current) return null;
  const cancelled = await cancelPromotion(env, agency, player, current.usage.id);
  if (!cancelled.ok) return cancelled;
  return { ok: true as const, usage: usageSummary(cancelled.usage, current.promotion, lang) };
}
