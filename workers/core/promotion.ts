import { parseAmount } from "./money";
import type { Provider } from "./providers";
import type { Deduction } from "./withdraw";

/**
 * Promotion rules (docs/product.md §5, §8, §9; decision 006). Pure: the wallet Durable Object feeds
 * these the facts it holds and applies the verdict in the same atomic step as the money
 * movement, so a rule can never be checked against one state and applied to another.
 *
 * Amounts: credit (THB) and kip (LAK) in minor units (BigInt). Percentages and turnover
 * multiples are decimal strings with up to 2 decimals ("12.5" %, "2.5" x).
 */

/** A catalogue promotion's money rules, snapshotted onto the usage when it is claimed. */
export type PromotionRules = {
  bonusKind: "FIXED" | "PERCENT";
  /** FIXED: credit; PERCENT: percent of the deposit's credit. */
  bonusValue: string;
  /** PERCENT: the bonus never exceeds this credit. */
  bonusCap: string | null;
  /** The deposit must be exactly this many kip (null: any amount within the limits). */
  setAmount: string | null;
  firstOrderOnly: boolean;
  /** Credit at the provider must be below this to claim, and to deposit again while in use. */
  creditThreshold: string;
  /** Bets needed: multiple x (deposit credit + bonus). "0": no requirement. */
  turnoverMultiple: string;
  /** At most this much credit is received on a withdrawal; the excess stays with the agency. */
  maxWithdrawCredit: string | null;
  /** A withdrawal from the promotion's provider must take all the credit. */
  withdrawAll: boolean;
  providers: Provider[];
};

/** Text in the three interface languages; lo is always there (possibly empty), the others fall back to it. */
export type Localized = { lo: string; cn?: string; vn?: string };

/** The text (or image URL) for a language, falling back to Lao. */
export function localize(text: Localized, lang: string): string {
  return (lang === "cn" ? text.cn : lang === "vn" ? text.vn : undefined) || text.lo;
}

/** Usage: CLAIMED -> USED (deposit settled, bonus credited, conditions running) -> SUCCESS | CANCELED; CLAIMED -> CANCELED. */
export const USAGE_STATUSES = ["CLAIMED", "USED", "SUCCESS", "CANCELED"] as const;
export type UsageStatus = (typeof USAGE_STATUSES)[number];
const USAGE_TRANSITIONS: Readonly<Record<UsageStatus, readonly UsageStatus[]>> = {
  CLAIMED: ["USED", "CANCELED"],
  USED: ["SUCCESS", "CANCELED"],
  SUCCESS: [],
  CANCELED: [],
};
export function canUsageTransition(from: UsageStatus, to: UsageStatus): boolean {
  return USAGE_TRANSITIONS[from].includes(to);
}

/** docs/product.md §8 codes, plus our own where the spec only gives a message. */
export type PromotionError =
  | "PROMOTION_INACTIVE"
  | "PROMOTION_NOT_FOUND"
  | "PROMOTION_ONE_AT_A_TIME" // "only one promotion may be claimed at a time"
  | "PROMOTION_BANK_ACCOUNT_REQUIRED" // "add a bank account to claim a promotion"
  | "PROMOTION_ONLY_FOR_FIRST_ORDER"
  | "CANNOT_USE_PROMOTION_WHILE_ORDER_IS_OPEN"
  | "PROMOTION_ALREADY_USED"
  | "PROMOTION_CREDIT_USED" // in use; no new deposit until the credit is below the threshold
  | "PROMOTION_CREDIT_TOO_HIGH" // claim: credit at the provider is not below the threshold
  | "PROMOTION_PROVIDER" // the promotion does not apply to that provider
  | "PROMOTION_OTHER_PROVIDER" // "promotion already used by provider {provider}"
  | "PROMOTION_SET_AMOUNT" // the deposit must equal the promotion's amount
  | "PROMOTION_WITHDRAW_ALL" // the promotion requires withdrawing all credit
  | "PROMOTION_CREDIT_NOT_ENOUGH" // after the deductions nothing would be received
  | "PROMOTION_WITHDRAW_OPEN" // a withdrawal under this promotion is already in progress
  | "PROMOTION_BONUS_PENDING"; // the bonus is still on its way to the provider

const PERCENT_SCALE = 100n; // percentages and multiples carry 2 decimals

/** "12.5" -> 1250n (hundredths). Null for garbage or negatives. */
function parseHundredths(text: string): bigint | null {
  return parseAmount(text, "THB");
}

/** The bonus for a deposit of this much credit: FIXED, or PERCENT rounded down and capped. */
export function bonusFor(rules: PromotionRules, depositCreditMinor: bigint): bigint {
  if (depositCreditMinor <= 0n) return 0n;
  if (rules.bonusKind === "FIXED") return parseAmount(rules.bonusValue, "THB") ?? 0n;
  const percent = parseHundredths(rules.bonusValue) ?? 0n; // hundredths of a percent
  const bonus = (depositCreditMinor * percent) / (100n * PERCENT_SCALE);
  const cap = rules.bonusCap === null ? null : parseAmount(rules.bonusCap, "THB");
  return cap !== null && bonus > cap ? cap : bonus;
}

/** Bets required before the promotion's credit is free: multiple x (deposit + bonus), rounded up. */
export function turnoverTarget(rules: PromotionRules, depositCreditMinor: bigint, bonusMinor: bigint): bigint {
  const multiple = parseHundredths(rules.turnoverMultiple) ?? 0n;
  const base = (depositCreditMinor + bonusMinor) * multiple;
  return (base + PERCENT_SCALE - 1n) / PERCENT_SCALE;
}

/** The promotion claimed or in use, as the player pages show it: title in the page's language, amounts as decimal strings. */
export type CurrentPromotionView = {
  usageId: string;
  promotionId: string;
  title: string;
  provider: string;
  status: UsageStatus;
  setAmount: string | null;
  bonus: string | null;
  bonusCredited: boolean;
  /** The bonus waits for staff (a linked account claimed this promotion first, decision 094). */
  held: boolean;
  turnoverDone: string | null;
  turnoverTarget: string | null;
  claimedAt: string;
};

/** The facts a claim is judged on; the wallet supplies the ones it owns, atomically. */
export type ClaimFacts = {
  promotionActive: boolean;
  rules: PromotionRules;
  provider: Provider;
  enabledProviders: readonly Provider[];
  hasBankAccount: boolean;
  creditAtProviderMinor: bigint;
  hasActiveUsage: boolean;
  hasOpenDeposit: boolean;
  hasSettledDeposit: boolean;
  usedBefore: boolean;
};

/** Order matters: the first rule broken is the one the player is told about. */
export function checkClaim(facts: ClaimFacts): { ok: true } | { ok: false; error: PromotionError } {
  if (!facts.promotionActive) return { ok: false, error: "PROMOTION_INACTIVE" };
  if (!facts.hasBankAccount) return { ok: false, error: "PROMOTION_BANK_ACCOUNT_REQUIRED" };
  if (!facts.rules.providers.includes(facts.provider) || !facts.enabledProviders.includes(facts.provider)) return { ok: false, error: "PROMOTION_PROVIDER" };
  if (facts.hasActiveUsage) return { ok: false, error: "PROMOTION_ONE_AT_A_TIME" };
  if (facts.usedBefore) return { ok: false, error: "PROMOTION_ALREADY_USED" };
  if (facts.hasOpenDeposit) return { ok: false, error: "CANNOT_USE_PROMOTION_WHILE_ORDER_IS_OPEN" };
  if (facts.rules.firstOrderOnly && facts.hasSettledDeposit) return { ok: false, error: "PROMOTION_ONLY_FOR_FIRST_ORDER" };
  if (facts.creditAtProviderMinor >= (parseAmount(facts.rules.creditThreshold, "THB") ?? 0n)) return { ok: false, error: "PROMOTION_CREDIT_TOO_HIGH" };
  return { ok: true };
}

/** The active usage as a deposit sees it. */
export type ActiveUsage = { id: string; status: "CLAIMED" | "USED"; provider: Provider; rules: PromotionRules };

type DepositVerdict =
  | { ok: true; attach: null; endUsedUp: boolean }
  | { ok: true; attach: { usageId: string; bonusMinor: bigint }; endUsedUp: false }
  | { ok: false; error: PromotionError; provider?: Provider };

/**
 * A deposit while a promotion is active. CLAIMED: the deposit must go to the promotion's
 * provider and equal its set amount; it carries the bonus. USED: no new deposit at that
 * provider until its credit is below the threshold — then the usage is over (used up)
 * and the deposit goes on without a bonus. Any other provider is refused while a
 * promotion is active ("promotion already used by provider {provider}").
 */
export function checkDeposit(input: {
  usage: ActiveUsage | null;
  provider: Provider;
  amountMinor: bigint;
  creditMinor: bigint;
  creditAtProviderMinor: bigint | null;
}): DepositVerdict {
  const { usage } = input;
  if (!usage) return { ok: true, attach: null, endUsedUp: false };
  if (usage.provider !== input.provider) return { ok: false, error: "PROMOTION_OTHER_PROVIDER", provider: usage.provider };
  if (usage.status === "CLAIMED") {
    const setAmount = usage.rules.setAmount === null ? null : parseAmount(usage.rules.setAmount, "LAK");
    if (setAmount !== null && input.amountMinor !== setAmount) return { ok: false, error: "PROMOTION_SET_AMOUNT" };
    return { ok: true, attach: { usageId: usage.id, bonusMinor: bonusFor(usage.rules, input.creditMinor) }, endUsedUp: false };
  }
  const threshold = parseAmount(usage.rules.creditThreshold, "THB") ?? 0n;
  if (input.creditAtProviderMinor === null || input.creditAtProviderMinor >= threshold) return { ok: false, error: "PROMOTION_CREDIT_USED" };
  return { ok: true, attach: null, endUsedUp: true };
}

/** A USED usage as a withdrawal from its provider sees it. */
type UsageForWithdraw = { rules: PromotionRules; bonusMinor: bigint; turnoverTargetMinor: bigint };

type WithdrawVerdict = { ok: true; deductions: Deduction[]; outcome: "SUCCESS" | "CANCELED" } | { ok: false; error: PromotionError };

/**
 * What a withdrawal from the promotion's provider costs (docs/product.md §9). Turnover met: the
 * promotion succeeded, only the maximum credit received applies. Not met: the bonus is
 * deducted (never more than the credit withdrawn) and the promotion is cancelled. Then the
 * maximum credit received caps what is left; the excess stays with the agency.
 */
export function withdrawUnderPromotion(input: {
  usage: UsageForWithdraw;
  creditMinor: bigint;
  balanceMinor: bigint;
  turnoverDoneMinor: bigint;
}): WithdrawVerdict {
  const { usage, creditMinor } = input;
  if (usage.rules.withdrawAll && creditMinor !== input.balanceMinor) return { ok: false, error: "PROMOTION_WITHDRAW_ALL" };
  const met = input.turnoverDoneMinor >= usage.turnoverTargetMinor;
  const deductions: Deduction[] = [];
  // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.min does not take
  const bonusDeducted = met ? 0n : usage.bonusMinor < creditMinor ? usage.bonusMinor : creditMinor;
  if (bonusDeducted > 0n) deductions.push({ kind: "PROMOTION_BONUS", creditMinor: bonusDeducted });
  const remaining = creditMinor - bonusDeducted;
  const max = usage.rules.maxWithdrawCredit === null ? null : parseAmount(usage.rules.maxWithdrawCredit, "THB");
  if (max !== null && remaining > max) deductions.push({ kind: "PROMOTION_EXCESS", creditMinor: remaining - max });
  const received = creditMinor - deductions.reduce((sum, d) => sum + d.creditMinor, 0n);
  if (received <= 0n) return { ok: false, error: "PROMOTION_CREDIT_NOT_ENOUGH" };
  return { ok: true, deductions, outcome: met ? "SUCCESS" : "CANCELED" };
}
