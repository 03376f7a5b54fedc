import { formatAmount, parseAmount } from "../core/money";
import { hasBankAccount } from "../db/bank-accounts";
import { rulesFromRow, withdrawUnderPromotion, type PromotionError, type PromotionRuleColumns, type PromotionRules } from "../core/promotion";
import { isProvider, type Provider } from "../core/providers";
import type { Deduction } from "../core/withdraw";
import { providerPort, providerUsername } from "../ports/provider";
import type { PromotionUsage } from "../wallet/player-wallet";
import type { Agency } from "./agency";
import type { CurrentPlayer } from "./auth";
import { walletOf } from "./wallet";

/** Text in the three interface languages; lo is always there, the others fall back to it. */
export type Localized = { lo: string; cn?: string; vn?: string };

export type Promotion = {
  id: string;
  status: "ACTIVE" | "INACTIVE";
  title: Localized;
  description: Localized;
  /** One image for every language, or one per language (the column holds a URL or {"lo","cn","vn"}). */
  imageUrl: Localized | null;
  rules: PromotionRules;
  sortOrder: number;
};

type PromotionRow = PromotionRuleColumns & {
  id: string;
  status: "ACTIVE" | "INACTIVE";
  title: string;
  description: string;
  image_url: string | null;
  sort_order: number;
};

/** A JSON {"lo","cn","vn"} column (or a plain string, taken as every language's). */
export function parseLocalized(text: string): Localized {
  try {
    const value = JSON.parse(text) as Partial<Localized>;
    if (typeof value.lo === "string") return { lo: value.lo, cn: value.cn || undefined, vn: value.vn || undefined };
  } catch {
    // a plain string is taken as the Lao text
  }
  return { lo: text };
}

/** The text (or image URL) for a language, falling back to Lao. */
export function localize(text: Localized, lang: string): string {
  return (lang === "cn" ? text.cn : lang === "vn" ? text.vn : undefined) || text.lo;
}

function toPromotion(row: PromotionRow): Promotion | null {
  const rules = rulesFromRow(row);
  if (!rules) return null;
  return {
    id: row.id,
    status: row.status,
    title: parseLocalized(row.title),
    description: parseLocalized(row.description),
    imageUrl: row.image_url ? parseLocalized(row.image_url) : null,
    rules,
    sortOrder: row.sort_order,
  };
}

/** The catalogue a player sees: ACTIVE promotions of the agency, in the staff's order. */
export async function listPromotions(db: D1Database, agencyId: string): Promise<Promotion[]> {
  const { results } = await db.prepare(`SELECT * FROM promotions WHERE agency_id = ?1 AND status = 'ACTIVE' ORDER BY sort_order, created_at`).bind(agencyId).all<PromotionRow>();
  return results.map(toPromotion).filter((p): p is Promotion => p !== null);
}

/** One promotion of this agency, ACTIVE or not (a detail link may outlive the promotion). */
export async function getPromotion(db: D1Database, agencyId: string, id: string): Promise<Promotion | null> {
  const row = await db.prepare(`SELECT * FROM promotions WHERE agency_id = ?1 AND id = ?2`).bind(agencyId, id).first<PromotionRow>();
  return row ? toPromotion(row) : null;
}

/** The providers a player may claim this promotion for: the promotion's, among the agency's. */
export function eligibleProviders(promotion: Promotion, agency: Agency): Provider[] {
  return promotion.rules.providers.filter((p) => agency.enabledProviders.includes(p));
}

export type ClaimResult = { ok: true; usage: PromotionUsage } | { ok: false; error: PromotionError | "PROVIDER_UNAVAILABLE" };

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
  const hasBank = await hasBankAccount(env.DB, agency.id, player.id);
  if (!hasBank) return { ok: false, error: "PROMOTION_BANK_ACCOUNT_REQUIRED" };
  const balance = await providerPort(env, input.provider).balance(providerUsername(agency.id, player.username));
  if (balance.kind !== "ok") return { ok: false, error: "PROVIDER_UNAVAILABLE" };
  const wallet = walletOf(env, agency.id, player.id);
  await wallet.identify(agency.id, player.id, player.username);
  return wallet.claimPromotion({
    usageId: crypto.randomUUID(),
    promotionId: promotion.id,
    provider: input.provider,
    rules: promotion.rules,
    facts: { promotionActive: true, enabledProviders: agency.enabledProviders, hasBankAccount: true, creditAtProviderMinor: parseAmount(balance.amount, "THB") ?? 0n },
    now: Date.now(),
  });
}

export async function cancelPromotion(env: Env, agency: Agency, player: CurrentPlayer, usageId: string) {
  return walletOf(env, agency.id, player.id).cancelPromotion(usageId, Date.now());
}

export type CurrentPromotion = { usage: PromotionUsage; promotion: Promotion | null; turnoverDone: string | null };

/** The promotion claimed or in use, with its catalogue entry and (when in use) the turnover so far. */
export async function currentPromotion(env: Env, agency: Agency, player: CurrentPlayer, options: { withTurnover?: boolean } = {}): Promise<CurrentPromotion | null> {
  const usage = await walletOf(env, agency.id, player.id).activeUsage();
  if (!usage) return null;
  const promotion = await getPromotion(env.DB, agency.id, usage.promotionId);
  let turnoverDone: string | null = null;
  if (options.withTurnover && usage.status === "USED") {
    const counter = await providerPort(env, usage.provider).turnover(providerUsername(agency.id, player.username));
    if (counter.kind === "ok") turnoverDone = formatAmount(turnoverSince(counter.amountMinor, usage.turnoverStart), "THB");
  }
  return { usage, promotion, turnoverDone };
}

export async function listUsages(env: Env, agency: Agency, player: CurrentPlayer, page: number, pageSize: number) {
  const { items, total } = await walletOf(env, agency.id, player.id).listUsages(page, pageSize);
  const ids = [...new Set(items.map((u) => u.promotionId))];
  const promotions = new Map<string, Promotion>();
  for (const id of ids) {
    const promotion = await getPromotion(env.DB, agency.id, id);
    if (promotion) promotions.set(id, promotion);
  }
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
  const counter = await providerPort(env, input.provider).turnover(providerUsername(agency.id, player.username));
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
  return { ok: true, promotion: { usageId: usage.id, outcome: verdict.outcome, deductions: verdict.deductions, turnoverDone: formatAmount(done, "THB"), turnoverTarget: formatAmount(target, "THB") } };
}

/** JSON shapes of the SPEC §3 promotion data groups. */
export function promotionSummary(promotion: Promotion, lang: string) {
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

export function usageSummary(usage: PromotionUsage, promotion: Promotion | null, lang: string) {
  return {
    id: usage.id,
    promotionId: usage.promotionId,
    title: promotion ? localize(promotion.title, lang) : null,
    provider: usage.provider,
    status: usage.status,
    depositCode: usage.depositCode,
    bonus: usage.bonus,
    bonusCredited: usage.bonusCredited,
    turnoverTarget: usage.turnoverTarget,
    reason: usage.reason,
    claimedAt: new Date(usage.claimedAt).toISOString(),
    usedAt: usage.usedAt === null ? null : new Date(usage.usedAt).toISOString(),
    endedAt: usage.endedAt === null ? null : new Date(usage.endedAt).toISOString(),
  };
}
