import { describe, expect, it } from "vitest";
import { cashbackTerms, levelPeriodFrom, levelStanding, withdrawDayRefusal, type VipLevel } from "../../workers/core/vip-levels";

/** VIP levels (decision 091): where deposits put a player, the level's cashback terms and daily withdrawal limit. */

const level = (name: string, threshold: bigint, withdrawDay: bigint | null = null): VipLevel => ({
  name,
  thresholdMinor: threshold,
  cashbackHundredths: 500,
  cashbackCapMinor: 1_000n,
  withdrawDayMinor: withdrawDay,
});
const bronze = level("Bronze", 50_000n);
const silver = level("Silver", 200_000n, 15_000n);
const gold = level("Gold", 1_000_000n);

describe("levelStanding", () => {
  it("below the first level: none, and the first is next with what is left", () => {
    expect(levelStanding([silver, gold, bronze], 10_000n)).toEqual({ level: null, next: { level: bronze, remainingMinor: 40_000n } });
  });

  it("exactly at a threshold is that level; the next is the one above, whatever order the levels come in", () => {
    expect(levelStanding([gold, bronze, silver], 200_000n)).toEqual({ level: silver, next: { level: gold, remainingMinor: 800_000n } });
    expect(levelStanding([gold, bronze, silver], 199_999n)).toEqual({ level: bronze, next: { level: silver, remainingMinor: 1n } });
  });

  it("at or above the top: the top level, nothing next; no levels: nothing at all", () => {
    expect(levelStanding([bronze, gold, silver], 5_000_000n)).toEqual({ level: gold, next: null });
    expect(levelStanding([], 5_000_000n)).toEqual({ level: null, next: null });
  });

  it("a level from 0 holds every player", () => {
    const member = level("Member", 0n);
    expect(levelStanding([member, bronze], 0n).level).toBe(member);
  });
});

describe("the level's terms", () => {
  it("cashback: the level's percent and cap replace the agency's; no level keeps the agency's", () => {
    const agency = { enabled: true, percentHundredths: 300, capMinor: 50_000, minMinor: 100 };
    expect(cashbackTerms(agency, { ...silver, cashbackHundredths: 1_000, cashbackCapMinor: 3_000n })).toEqual({
      ...agency,
      percentHundredths: 1_000,
      capMinor: 3_000,
    });
    expect(cashbackTerms(agency, null)).toBe(agency);
  });

  it("the daily withdrawal limit refuses what goes over it, with what is left; no limit or no level refuses nothing", () => {
    expect(withdrawDayRefusal(silver, 10_000n, 5_000n)).toBeNull();
    expect(withdrawDayRefusal(silver, 10_000n, 5_001n)).toEqual({ remainingMinor: 5_000n });
    expect(withdrawDayRefusal(silver, 20_000n, 1n)).toEqual({ remainingMinor: 0n });
    expect(withdrawDayRefusal(bronze, 10_000_000n, 10_000_000n)).toBeNull();
    expect(withdrawDayRefusal(null, 0n, 1n)).toBeNull();
  });

  it("the period counts back whole days from now", () => {
    expect(levelPeriodFrom(30, Date.UTC(2026, 10, 30))).toBe(Date.UTC(2026, 9, 31));
  });
});
