import { describe, expect, it } from "vitest";
import { cashbackAmount, DEFAULT_CASHBACK, formatPercent, judgeCashback, parsePercent, sharedRefusal, type CashbackFacts } from "../../workers/core/cashback";
import { parseMultiple, rewardClaimKey, rewardTurnoverTarget } from "../../workers/core/reward";
import { daysOfWeek, lastCompleteWeek, weekAt, weekOfDay, weekOfKey } from "../../workers/core/reward-period";

const HOUR = 3_600_000;

describe("reward periods: Monday–Sunday weeks in Vientiane", () => {
  it("a day belongs to its Monday..Sunday week, named by ISO week", () => {
    expect(weekOfDay("2026-11-24")).toEqual({ key: "2026-W48", from: "2026-11-23", to: "2026-11-29" }); // a Tuesday
    expect(weekOfDay("2026-11-23")).toEqual({ key: "2026-W48", from: "2026-11-23", to: "2026-11-29" }); // Monday
    expect(weekOfDay("2026-11-29")).toEqual({ key: "2026-W48", from: "2026-11-23", to: "2026-11-29" }); // Sunday
    // ISO week-years across New Year: 2027-01-01 is a Friday, in 2026-W53; 2024-12-30 is in 2025-W01
    expect(weekOfDay("2027-01-01").key).toBe("2026-W53");
    expect(weekOfDay("2024-12-30").key).toBe("2025-W01");
  });

  it("the week turns at midnight Vientiane (UTC+7), not UTC", () => {
    const sundayLateUtc = Date.parse("2026-11-29T17:30:00Z"); // Monday 00:30 in Vientiane
    expect(weekAt(sundayLateUtc).key).toBe("2026-W49");
    expect(weekAt(sundayLateUtc - HOUR).key).toBe("2026-W48"); // Sunday 23:30 in Vientiane
    expect(lastCompleteWeek(sundayLateUtc)).toEqual({ key: "2026-W48", from: "2026-11-23", to: "2026-11-29" });
    expect(lastCompleteWeek(sundayLateUtc - HOUR).key).toBe("2026-W47");
  });

  it("seven days, Monday first; a key back to its week", () => {
    expect(daysOfWeek(weekOfDay("2026-03-01"))).toEqual(["2026-02-23", "2026-02-24", "2026-02-25", "2026-02-26", "2026-02-27", "2026-02-28", "2026-03-01"]);
    expect(weekOfKey("2026-W48")).toEqual(weekOfDay("2026-11-25"));
    expect(weekOfKey("2026-W53")?.from).toBe("2026-12-28");
    expect(weekOfKey("2025-W53")).toBeNull(); // 2025 has 52 ISO weeks
    expect(weekOfKey("nope")).toBeNull();
  });
});

describe("reward amounts", () => {
  it("turnover target: amount x multiple, rounded up to the satang", () => {
    expect(rewardTurnoverTarget(1250n, "2")).toBe(2500n);
    expect(rewardTurnoverTarget(333n, "1.5")).toBe(500n); // 499.5 -> 500
    expect(rewardTurnoverTarget(1000n, "0")).toBe(0n);
    expect(parseMultiple("1.255")).toBeNull();
    expect(rewardClaimKey("CASHBACK", "2026-W47", "betflix")).toBe("CASHBACK:2026-W47:betflix");
    expect(rewardClaimKey("REFERRAL", "2026-W47", null)).toBe("REFERRAL:2026-W47");
  });
});

describe("cashback rules", () => {
  const settings = { ...DEFAULT_CASHBACK, enabled: true, percentHundredths: 1000, capMinor: 5000, minMinor: 100 };
  const facts = (over: Partial<CashbackFacts> = {}): CashbackFacts => ({
    settings,
    netLossMinor: 70_000n,
    daysCollected: 7,
    claimed: false,
    promotionActive: false,
    offersPaused: false,
    ...over,
  });

  it("a percent of the net loss, rounded down, capped per claim", () => {
    expect(cashbackAmount(12_345n, settings)).toBe(1234n);
    expect(cashbackAmount(70_000n, settings)).toBe(5000n);
    expect(cashbackAmount(70_000n, { ...settings, capMinor: 0 })).toBe(7000n); // 0: no cap
    expect(cashbackAmount(-500n, settings)).toBe(0n);
  });

  it("claimable with a complete week of losses", () => {
    expect(judgeCashback(facts())).toEqual({ ok: true, amountMinor: 5000n });
  });

  it("says why not, most useful reason first", () => {
    const why = (over: Partial<CashbackFacts>) => {
      const v = judgeCashback(facts(over));
      return v.ok ? "ok" : v.error;
    };
    expect(why({ claimed: true, daysCollected: 3 })).toBe("CASHBACK_ALREADY_CLAIMED");
    expect(why({ settings: { ...settings, enabled: false } })).toBe("CASHBACK_DISABLED");
    expect(why({ daysCollected: 6 })).toBe("CASHBACK_PERIOD_INCOMPLETE");
    expect(why({ netLossMinor: 0n })).toBe("CASHBACK_NOTHING_LOST");
    expect(why({ netLossMinor: -10_000n })).toBe("CASHBACK_NOTHING_LOST");
    expect(why({ netLossMinor: 999n })).toBe("CASHBACK_BELOW_MINIMUM"); // 99 satang < 1.00
    expect(why({ offersPaused: true })).toBe("CASHBACK_PAUSED");
    expect(why({ promotionActive: true })).toBe("CASHBACK_PROMOTION_ACTIVE");
    expect(judgeCashback(facts({ promotionActive: true, settings: { ...settings, combinable: true } })).ok).toBe(true);
  });

  it("percent text <-> hundredths", () => {
    expect(parsePercent("7.5")).toBe(750);
    expect(parsePercent("100")).toBe(10_000);
    expect(parsePercent("100.01")).toBeNull();
    expect(parsePercent("-1")).toBeNull();
    expect(formatPercent(750)).toBe("7.5");
    expect(formatPercent(1005)).toBe("10.05");
    expect(formatPercent(500)).toBe("5");
  });
});

describe("the cashback page's reasons: said once when every provider has the same", () => {
  it("one reason for all lines is said once", () => {
    expect(sharedRefusal([{ refusal: "CASHBACK_NOTHING_LOST" }, { refusal: "CASHBACK_NOTHING_LOST" }, { refusal: "CASHBACK_NOTHING_LOST" }])).toBe(
      "CASHBACK_NOTHING_LOST",
    );
  });
  it("a claimable line or different reasons stay on their lines", () => {
    expect(sharedRefusal([{ refusal: "CASHBACK_NOTHING_LOST" }, { refusal: null }])).toBeNull();
    expect(sharedRefusal([{ refusal: "CASHBACK_NOTHING_LOST" }, { refusal: "CASHBACK_ALREADY_CLAIMED" }])).toBeNull();
    expect(sharedRefusal([])).toBeNull();
  });
});
