import { describe, expect, it } from "vitest";
import { depositCredit, parseRate, withdrawPayout, type Rate } from "../../workers/core/money";
import {
  bonusFor,
  canUsageTransition,
  checkClaim,
  checkDeposit,
  turnoverTarget,
  USAGE_STATUSES,
  withdrawUnderPromotion,
  type ActiveUsage,
  type ClaimFacts,
  type PromotionRules,
} from "../../workers/core/promotion";
import { rulesFromRow } from "../../workers/db/promotions";
import { PROVIDERS } from "../../workers/core/providers";
import { quoteWithdraw } from "../../workers/core/withdraw";
import loPlayerText from "../../locales/lo/player.json";
import cnPlayerText from "../../locales/cn/player.json";
import vnPlayerText from "../../locales/vn/player.json";

const rules = (over: Partial<PromotionRules> = {}): PromotionRules => ({
  bonusKind: "FIXED",
  bonusValue: "50",
  bonusCap: null,
  setAmount: "60000",
  firstOrderOnly: false,
  creditThreshold: "10",
  turnoverMultiple: "3",
  maxWithdrawCredit: "1000",
  withdrawAll: true,
  providers: ["askmebet", "betflix"],
  ...over,
});

const facts = (over: Partial<ClaimFacts> = {}): ClaimFacts => ({
  promotionActive: true,
  rules: rules(),
  provider: "askmebet",
  enabledProviders: [...PROVIDERS],
  hasBankAccount: true,
  creditAtProviderMinor: 0n,
  hasActiveUsage: false,
  hasOpenDeposit: false,
  hasSettledDeposit: false,
  usedBefore: false,
  ...over,
});

/** A small deterministic PRNG so property runs are reproducible (seed printed on failure). */
function random(seed: number) {
  let s = seed >>> 0;
  return (max: bigint): bigint => {
    s = (s * 1664525 + 1013904223) >>> 0;
    const hi = BigInt(s);
    s = (s * 1664525 + 1013904223) >>> 0;
    return ((hi << 32n) | BigInt(s)) % max;
  };
}

describe("promotion usage state machine (decision 006)", () => {
  const allowed = new Set(["CLAIMED>USED", "CLAIMED>CANCELED", "USED>SUCCESS", "USED>CANCELED"]);
  it("allows exactly claimed -> used -> success|cancelled and claimed -> cancelled", () => {
    for (const from of USAGE_STATUSES)
      for (const to of USAGE_STATUSES) expect(canUsageTransition(from, to), `${from}>${to}`).toBe(allowed.has(`${from}>${to}`));
  });
});

describe("claim rules and their codes (docs/product.md §8)", () => {
  it("accepts a claim that breaks no rule", () => expect(checkClaim(facts())).toEqual({ ok: true }));
  it.each<[string, Partial<ClaimFacts>, string]>([
    ["inactive promotion", { promotionActive: false }, "PROMOTION_INACTIVE"],
    ["no bank account", { hasBankAccount: false }, "PROMOTION_BANK_ACCOUNT_REQUIRED"],
    ["provider not in the promotion", { provider: "gclub" }, "PROMOTION_PROVIDER"],
    ["provider not enabled by the agency", { enabledProviders: ["betflix"] }, "PROMOTION_PROVIDER"],
    ["another promotion active", { hasActiveUsage: true }, "PROMOTION_ONE_AT_A_TIME"],
    ["used before", { usedBefore: true }, "PROMOTION_ALREADY_USED"],
    ["open deposit order", { hasOpenDeposit: true }, "CANNOT_USE_PROMOTION_WHILE_ORDER_IS_OPEN"],
    ["first order only, already deposited", { rules: rules({ firstOrderOnly: true }), hasSettledDeposit: true }, "PROMOTION_ONLY_FOR_FIRST_ORDER"],
    ["credit at the threshold", { creditAtProviderMinor: 1000n }, "PROMOTION_CREDIT_TOO_HIGH"],
  ])("%s -> %s", (_name, over, error) => {
    expect(checkClaim(facts(over))).toEqual({ ok: false, error });
  });
  it("first order only is fine before any deposit; credit just below the threshold is fine", () => {
    expect(checkClaim(facts({ rules: rules({ firstOrderOnly: true }), creditAtProviderMinor: 999n }))).toEqual({ ok: true });
  });
  it("tells the first rule broken: bank before one-at-a-time before open order", () => {
    expect(checkClaim(facts({ hasBankAccount: false, hasActiveUsage: true, hasOpenDeposit: true }))).toEqual({
      ok: false,
      error: "PROMOTION_BANK_ACCOUNT_REQUIRED",
    });
    expect(checkClaim(facts({ hasActiveUsage: true, hasOpenDeposit: true }))).toEqual({ ok: false, error: "PROMOTION_ONE_AT_A_TIME" });
  });
});

describe("bonus and turnover arithmetic", () => {
  it("FIXED gives its value; PERCENT rounds down and stops at the cap", () => {
    expect(bonusFor(rules(), 10000n)).toBe(5000n);
    expect(bonusFor(rules({ bonusKind: "PERCENT", bonusValue: "10", bonusCap: "300" }), 12345n)).toBe(1234n); // 12.345 -> 12.34
    expect(bonusFor(rules({ bonusKind: "PERCENT", bonusValue: "12.5", bonusCap: "300" }), 10001n)).toBe(1250n);
    expect(bonusFor(rules({ bonusKind: "PERCENT", bonusValue: "100", bonusCap: "500" }), 90000n)).toBe(50000n);
    expect(bonusFor(rules(), 0n)).toBe(0n);
  });
  it("turnover target is multiple x (deposit + bonus), rounded up", () => {
    expect(turnoverTarget(rules(), 10000n, 5000n)).toBe(45000n);
    expect(turnoverTarget(rules({ turnoverMultiple: "2.5" }), 333n, 0n)).toBe(833n); // 832.5 -> 833
    expect(turnoverTarget(rules({ turnoverMultiple: "0" }), 10000n, 5000n)).toBe(0n);
  });
  it("property: a percentage bonus is never above the cap nor above value% of the deposit", () => {
    const next = random(7);
    for (let i = 0; i < 2000; i++) {
      const credit = next(10n ** 12n);
      const percent = next(20001n); // 0.00% .. 200.00%
      const cap = next(10n ** 9n);
      const r = rules({
        bonusKind: "PERCENT",
        bonusValue: `${percent / 100n}.${(percent % 100n).toString().padStart(2, "0")}`,
        bonusCap: `${cap / 100n}.${(cap % 100n).toString().padStart(2, "0")}`,
      });
      const bonus = bonusFor(r, credit);
      expect(bonus >= 0n && bonus <= cap && bonus * 10000n <= credit * percent, `credit ${credit} percent ${percent} cap ${cap}`).toBe(true);
    }
  });
});

describe("deposit under a promotion", () => {
  const claimed: ActiveUsage = { id: "u1", status: "CLAIMED", provider: "askmebet", rules: rules() };
  const used: ActiveUsage = { ...claimed, status: "USED" };
  it("no promotion: nothing to say", () => {
    expect(checkDeposit({ usage: null, provider: "gclub", amountMinor: 1n, creditMinor: 1n, creditAtProviderMinor: null })).toEqual({
      ok: true,
      attach: null,
      endUsedUp: false,
    });
  });
  it("claimed: the set amount carries the bonus; any other amount is refused", () => {
    expect(checkDeposit({ usage: claimed, provider: "askmebet", amountMinor: 6000000n, creditMinor: 10000n, creditAtProviderMinor: null })).toEqual({
      ok: true,
      attach: { usageId: "u1", bonusMinor: 5000n },
      endUsedUp: false,
    });
    expect(checkDeposit({ usage: claimed, provider: "askmebet", amountMinor: 6000100n, creditMinor: 10001n, creditAtProviderMinor: null })).toEqual({
      ok: false,
      error: "PROMOTION_SET_AMOUNT",
    });
  });
  it("another provider while a promotion is active: 'promotion already used by provider X'", () => {
    expect(checkDeposit({ usage: claimed, provider: "betflix", amountMinor: 6000000n, creditMinor: 10000n, creditAtProviderMinor: null })).toEqual({
      ok: false,
      error: "PROMOTION_OTHER_PROVIDER",
      provider: "askmebet",
    });
    expect(checkDeposit({ usage: used, provider: "gclub", amountMinor: 6000000n, creditMinor: 10000n, creditAtProviderMinor: 0n })).toEqual({
      ok: false,
      error: "PROMOTION_OTHER_PROVIDER",
      provider: "askmebet",
    });
  });
  it("in use: refused until the credit is below the threshold, then the promotion is used up", () => {
    expect(checkDeposit({ usage: used, provider: "askmebet", amountMinor: 1n, creditMinor: 1n, creditAtProviderMinor: 1000n })).toEqual({
      ok: false,
      error: "PROMOTION_CREDIT_USED",
    });
    expect(checkDeposit({ usage: used, provider: "askmebet", amountMinor: 1n, creditMinor: 1n, creditAtProviderMinor: null })).toEqual({
      ok: false,
      error: "PROMOTION_CREDIT_USED",
    });
    expect(checkDeposit({ usage: used, provider: "askmebet", amountMinor: 1n, creditMinor: 1n, creditAtProviderMinor: 999n })).toEqual({
      ok: true,
      attach: null,
      endUsedUp: true,
    });
  });
});

describe("withdrawal under a promotion (docs/product.md §9)", () => {
  const usage = { rules: rules(), bonusMinor: 5000n, turnoverTargetMinor: 45000n };
  it("withdraw-all: a part of the credit is refused", () => {
    expect(withdrawUnderPromotion({ usage, creditMinor: 10000n, balanceMinor: 15000n, turnoverDoneMinor: 0n })).toEqual({
      ok: false,
      error: "PROMOTION_WITHDRAW_ALL",
    });
  });
  it("turnover not met: the bonus is deducted and the promotion is cancelled", () => {
    expect(withdrawUnderPromotion({ usage, creditMinor: 15000n, balanceMinor: 15000n, turnoverDoneMinor: 44999n })).toEqual({
      ok: true,
      deductions: [{ kind: "PROMOTION_BONUS", creditMinor: 5000n }],
      outcome: "CANCELED",
    });
  });
  it("turnover met: no bonus deducted, the excess above the maximum received stays with the agency", () => {
    expect(withdrawUnderPromotion({ usage, creditMinor: 150000n, balanceMinor: 150000n, turnoverDoneMinor: 45000n })).toEqual({
      ok: true,
      deductions: [{ kind: "PROMOTION_EXCESS", creditMinor: 50000n }],
      outcome: "SUCCESS",
    });
  });
  it("credit not greater than the bonus: nothing would be received -> refused", () => {
    expect(withdrawUnderPromotion({ usage, creditMinor: 5000n, balanceMinor: 5000n, turnoverDoneMinor: 0n })).toEqual({
      ok: false,
      error: "PROMOTION_CREDIT_NOT_ENOUGH",
    });
  });
  it("property: credit = received + deductions; deductions never exceed the bonus plus the excess; nothing negative", () => {
    const rate: Rate = { currency: "THB", buy: parseRate("580")!, sell: parseRate("600")! };
    const next = random(42);
    for (let i = 0; i < 3000; i++) {
      const bonus = next(100000n);
      const max = next(3n) === 0n ? null : next(10000000n) + 1n;
      const r = rules({ withdrawAll: false, maxWithdrawCredit: max === null ? null : `${max / 100n}.${(max % 100n).toString().padStart(2, "0")}` });
      const credit = next(10000000n) + 1n;
      const target = next(200000n);
      const done = next(200000n);
      const verdict = withdrawUnderPromotion({
        usage: { rules: r, bonusMinor: bonus, turnoverTargetMinor: target },
        creditMinor: credit,
        balanceMinor: credit,
        turnoverDoneMinor: done,
      });
      const label = `bonus ${bonus} max ${max} credit ${credit} target ${target} done ${done}`;
      if (!verdict.ok) {
        expect(verdict.error, label).toBe("PROMOTION_CREDIT_NOT_ENOUGH");
        continue;
      }
      const quote = quoteWithdraw(credit, rate, () => verdict.deductions);
      const deducted = verdict.deductions.reduce((s, d) => s + d.creditMinor, 0n);
      expect(quote.netCreditMinor + deducted, label).toBe(credit);
      expect(quote.netCreditMinor > 0n, label).toBe(true);
      if (max !== null) expect(quote.netCreditMinor <= max, label).toBe(true);
      const bonusTaken = verdict.deductions.find((d) => d.kind === "PROMOTION_BONUS")?.creditMinor ?? 0n;
      expect(bonusTaken <= bonus, label).toBe(true);
      expect(bonusTaken === 0n, label).toBe(done >= target || bonus === 0n);
      expect(verdict.outcome, label).toBe(done >= target ? "SUCCESS" : "CANCELED");
      expect(quote.receivedLakMinor, label).toBe(withdrawPayout(quote.netCreditMinor, rate));
    }
  });
  it("property: deposit with bonus then withdraw all without turnover gives back exactly the deposit's credit (no money created)", () => {
    const rate: Rate = { currency: "THB", buy: parseRate("600")!, sell: parseRate("600")! };
    const next = random(99);
    for (let i = 0; i < 2000; i++) {
      const paid = (next(10n ** 9n) + 100n) * 100n; // whole kip
      const credit = depositCredit(paid, rate);
      const r = rules({ bonusKind: "PERCENT", bonusValue: "100", bonusCap: "1000000", maxWithdrawCredit: null });
      const bonus = bonusFor(r, credit);
      const verdict = withdrawUnderPromotion({
        usage: { rules: r, bonusMinor: bonus, turnoverTargetMinor: 1n },
        creditMinor: credit + bonus,
        balanceMinor: credit + bonus,
        turnoverDoneMinor: 0n,
      });
      if (!verdict.ok) throw new Error(`refused ${paid}`);
      const quote = quoteWithdraw(credit + bonus, rate, () => verdict.deductions);
      expect(quote.netCreditMinor, `paid ${paid}`).toBe(credit);
      expect(quote.receivedLakMinor <= paid, `paid ${paid}`).toBe(true);
    }
  });
});

describe("catalogue rows", () => {
  const row = {
    bonus_kind: "FIXED",
    bonus_value: "50",
    bonus_cap: null,
    set_amount: "60000",
    first_order_only: 1,
    credit_threshold: "10",
    turnover_multiple: "3",
    max_withdraw_credit: null,
    withdraw_all: 0,
    providers: '["askmebet"]',
  };
  it("reads a row into rules", () => {
    expect(rulesFromRow(row)).toMatchObject({ bonusKind: "FIXED", firstOrderOnly: true, withdrawAll: false, providers: ["askmebet"] });
  });
  it("a malformed row is never claimable", () => {
    expect(rulesFromRow({ ...row, providers: "nope" })).toBeNull();
    expect(rulesFromRow({ ...row, providers: '["nope"]' })).toBeNull();
    expect(rulesFromRow({ ...row, bonus_kind: "GIFT" })).toBeNull();
  });
});

describe("the current promotion's bonus: the value beside its label does not say the label again", () => {
  it.each([
    ["lo", loPlayerText],
    ["cn", cnPlayerText],
    ["vn", vnPlayerText],
  ])("%s", (_, locale) => {
    const label = locale.promotion.col.bonus.toLowerCase();
    for (const value of [locale.promotion.bonusCredited, locale.promotion.bonusPending]) expect(value.toLowerCase()).not.toContain(label);
  });
});
