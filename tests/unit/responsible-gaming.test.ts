import { describe, expect, it } from "vitest";
import {
  activeBreak,
  addMonths,
  breakEnd,
  breakRefusal,
  changeLimit,
  countsAgainstLimit,
  depositAllowance,
  depositRefusal,
  depositUsage,
  effectiveLimit,
  mayStartBreak,
  NO_LIMIT,
  periodEnd,
  periodStart,
  playedToday,
  playTimeRefusal,
  RAISE_DELAY_MS,
  usageFrom,
  type Break,
} from "../../workers/core/responsible-gaming";

const at = (iso: string) => Date.parse(iso);
const H = 3600_000;
const D = 24 * H;
const kip = (n: number) => BigInt(n) * 100n;

describe("Vientiane windows (UTC+7; weeks Monday to Sunday)", () => {
  // Tuesday 2026-11-24 23:59:59.999 in Vientiane is 16:59:59.999Z; 17:00Z is Wednesday the 25th.
  const lateTue = at("2026-11-24T16:59:59.999Z");
  const earlyWed = at("2026-11-24T17:00:00.000Z");

  it("a day turns at 17:00 UTC", () => {
    expect(periodStart("day", lateTue)).toBe(at("2026-11-23T17:00:00Z"));
    expect(periodStart("day", earlyWed)).toBe(earlyWed);
    expect(periodEnd("day", lateTue)).toBe(earlyWed);
  });

  it("a week starts on Monday 00:00 Vientiane time, also when UTC still says Sunday", () => {
    // Monday 2026-11-23 00:00 Vientiane = Sunday 22nd 17:00Z
    expect(periodStart("week", lateTue)).toBe(at("2026-11-22T17:00:00Z"));
    expect(periodStart("week", at("2026-11-22T17:00:00Z"))).toBe(at("2026-11-22T17:00:00Z"));
    // Sunday 23:59 Vientiane belongs to the week before
    expect(periodStart("week", at("2026-11-22T16:59:00Z"))).toBe(at("2026-11-15T17:00:00Z"));
    expect(periodEnd("week", lateTue)).toBe(at("2026-11-29T17:00:00Z"));
  });

  it("a month starts on the 1st at 00:00 Vientiane time; December ends in January", () => {
    expect(periodStart("month", lateTue)).toBe(at("2026-10-31T17:00:00Z"));
    expect(periodStart("month", at("2026-11-30T17:30:00Z"))).toBe(at("2026-11-30T17:00:00Z")); // already 1 Dec there
    expect(periodEnd("month", at("2026-12-15T00:00:00Z"))).toBe(at("2026-12-31T17:00:00Z"));
  });

  it("usage reaches back to the earlier of week and month start", () => {
    // Tue 1 Dec 2026: the week began Mon 30 Nov (before the month)
    const now = at("2026-12-01T05:00:00Z");
    expect(usageFrom(now)).toBe(periodStart("week", now));
    expect(usageFrom(lateTue)).toBe(periodStart("month", lateTue));
  });

  it("adding months keeps the Vientiane wall clock and clamps the 31st", () => {
    expect(addMonths(at("2026-11-24T03:00:00Z"), 6)).toBe(at("2027-05-24T03:00:00Z"));
    // 31 Aug 10:00 Vientiane + 6 months -> 28 Feb 2027 10:00
    expect(addMonths(at("2026-08-31T03:00:00Z"), 6)).toBe(at("2027-02-28T03:00:00Z"));
    expect(addMonths(at("2026-11-24T03:00:00Z"), 12)).toBe(at("2027-11-24T03:00:00Z"));
  });
});

describe("limits: lower at once, raise after 24 h", () => {
  const now = at("2026-11-24T05:00:00Z");

  it("setting a first limit, or lowering, applies at once", () => {
    expect(changeLimit(NO_LIMIT, kip(500_000), now)).toEqual({ value: kip(500_000), pending: null });
    expect(changeLimit({ value: kip(500_000), pending: null }, kip(100_000), now)).toEqual({ value: kip(100_000), pending: null });
  });

  it("raising or removing waits 24 h, the current value staying", () => {
    const raised = changeLimit({ value: kip(100_000), pending: null }, kip(900_000), now);
    expect(raised).toEqual({ value: kip(100_000), pending: { value: kip(900_000), from: now + RAISE_DELAY_MS } });
    expect(changeLimit({ value: kip(100_000), pending: null }, null, now)).toEqual({ value: kip(100_000), pending: { value: null, from: now + D } });
    expect(effectiveLimit(raised, now + D - 1).value).toBe(kip(100_000));
    expect(effectiveLimit(raised, now + D)).toEqual({ value: kip(900_000), pending: null });
  });

  it("lowering while a raise waits drops the raise; a new raise restarts the wait", () => {
    const raised = changeLimit({ value: kip(100_000), pending: null }, kip(900_000), now);
    expect(changeLimit(raised, kip(50_000), now + H)).toEqual({ value: kip(50_000), pending: null });
    expect(changeLimit(raised, kip(100_000), now + H)).toEqual({ value: kip(100_000), pending: null });
    expect(changeLimit(raised, kip(2_000_000), now + 20 * H)).toEqual({ value: kip(100_000), pending: { value: kip(2_000_000), from: now + 44 * H } });
  });
});

describe("deposit limits", () => {
  const now = at("2026-11-24T05:00:00Z"); // Tue 12:00 Vientiane
  const orders = [
    { amountMinor: kip(100_000), status: "SUCCESS", createdAt: now - H },
    { amountMinor: kip(50_000), status: "OPEN", createdAt: now - 2 * H },
    { amountMinor: kip(70_000), status: "FAILED", createdAt: now - 3 * H },
    { amountMinor: kip(1_000_000), status: "CANCELED", createdAt: now - 4 * H },
    { amountMinor: kip(200_000), status: "PAID", createdAt: at("2026-11-23T02:00:00Z") }, // Monday: this week, not today
    { amountMinor: kip(300_000), status: "SUCCESS", createdAt: at("2026-11-10T02:00:00Z") }, // this month only
    { amountMinor: kip(999_000), status: "SUCCESS", createdAt: at("2026-10-30T02:00:00Z") }, // last month
  ];

  it("counts every order not cancelled or rejected, by when it was created", () => {
    expect(["OPEN", "PAID", "SUCCESS", "FAILED"].every(countsAgainstLimit)).toBe(true);
    expect(countsAgainstLimit("CANCELED") || countsAgainstLimit("REJECTED")).toBe(false);
    expect(depositUsage(orders, now)).toEqual({ day: kip(220_000), week: kip(420_000), month: kip(720_000) });
  });

  it("what is left is the smallest of the set windows; an amount above it is refused with it", () => {
    const used = depositUsage(orders, now);
    expect(depositAllowance({ day: null, week: null, month: null }, used)).toBeNull();
    const allowance = depositAllowance({ day: kip(300_000), week: kip(450_000), month: null }, used);
    expect(allowance).toEqual({ remainingMinor: kip(30_000), period: "week" });
    expect(depositRefusal(allowance, kip(30_000), now)).toBeNull();
    expect(depositRefusal(allowance, kip(30_001), now)).toEqual({
      code: "DEPOSIT_LIMIT_REACHED",
      period: "week",
      remainingMinor: kip(30_000).toString(),
      until: at("2026-11-29T17:00:00Z"),
    });
    // over the limit already (lowered below what was deposited): nothing left, never negative
    expect(depositAllowance({ day: kip(100_000), week: null, month: null }, used)).toEqual({ remainingMinor: 0n, period: "day" });
  });
});

describe("cooling-off and self-exclusion", () => {
  const now = at("2026-11-24T05:00:00Z");

  it("cooling-off is 1 to 42 days, self-exclusion 6 months or more; other lengths are refused", () => {
    expect(breakEnd("cooling_off", 1, now)).toBe(now + D);
    expect(breakEnd("cooling_off", 42, now)).toBe(now + 42 * D);
    expect(breakEnd("cooling_off", 43, now)).toBeNull();
    expect(breakEnd("cooling_off", 0, now)).toBeNull();
    expect(breakEnd("self_exclusion", 6, now)).toBe(at("2027-05-24T05:00:00Z"));
    expect(breakEnd("self_exclusion", 5, now)).toBeNull();
  });

  it("the break in force is the one ending last; ended ones do not count", () => {
    const cool: Break = { kind: "cooling_off", startsAt: now, endsAt: now + 7 * D };
    const excl: Break = { kind: "self_exclusion", startsAt: now + H, endsAt: now + 200 * D };
    expect(activeBreak([cool, excl], now + 2 * H)).toEqual(excl);
    expect(activeBreak([cool], now + 7 * D)).toBeNull();
    expect(breakRefusal(activeBreak([cool], now + H))).toEqual({ code: "COOLING_OFF", until: now + 7 * D });
    expect(breakRefusal(excl)).toEqual({ code: "SELF_EXCLUDED", until: now + 200 * D });
  });

  it("a break may be lengthened, never shortened", () => {
    const excl: Break = { kind: "self_exclusion", startsAt: now, endsAt: now + 200 * D };
    expect(mayStartBreak(null, now + D)).toBe(true);
    expect(mayStartBreak(excl, now + D)).toBe(false);
    expect(mayStartBreak(excl, now + 200 * D)).toBe(false);
    expect(mayStartBreak(excl, now + 400 * D)).toBe(true);
  });
});

describe("play time", () => {
  const now = at("2026-11-24T05:00:00Z"); // 12:00 Vientiane; the day began 7 h ago
  const dayStart = at("2026-11-23T17:00:00Z");

  it("is the union of today's session spans: yesterday's part and overlaps count once", () => {
    expect(playedToday([{ from: dayStart - 2 * H, to: dayStart + H }], now)).toBe(H);
    expect(
      playedToday(
        [
          { from: now - 2 * H, to: now },
          { from: now - 3 * H, to: now - H },
        ],
        now,
      ),
    ).toBe(3 * H);
    expect(
      playedToday(
        [
          { from: now - 5 * H, to: now - 4 * H },
          { from: now - H, to: now },
        ],
        now,
      ),
    ).toBe(2 * H);
    expect(playedToday([{ from: dayStart - 5 * H, to: dayStart - 4 * H }], now)).toBe(0);
  });

  it("refuses new launches once the day's minutes are used, until Vientiane midnight", () => {
    expect(playTimeRefusal(null, 10 * H, now)).toBeNull();
    expect(playTimeRefusal(60n, 60 * 60_000 - 1, now)).toBeNull();
    expect(playTimeRefusal(60n, 60 * 60_000, now)).toEqual({ code: "PLAY_TIME_LIMIT_REACHED", minutes: 60, until: at("2026-11-24T17:00:00Z") });
  });
});
