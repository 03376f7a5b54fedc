import { describe, expect, it } from "vitest";
import {
  firstOpenDay,
  HISTOGRAM_CAP,
  moneyFiguresOf,
  planDays,
  playersFiguresOf,
  promotionActivityOf,
  readsByDay,
  recentClosedDays,
  runsOf,
  type DayKind,
  type DayRow,
} from "../../workers/core/report-days";
import { MAX_RANGE_DAYS } from "../../workers/core/report-range";
import { seeded } from "../setup/random";

const DAY_MS = 86_400_000;
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * DAY_MS).toISOString().slice(0, 10);
const row = (d: string, kind: DayKind, extra: Partial<DayRow> = {}): DayRow => ({
  day: d,
  kind,
  key: "",
  bucket: 0,
  n: 0,
  kip: 0,
  credit: 0,
  bonus: 0,
  deducted: 0,
  histogram: null,
  ...extra,
});

describe("closed and open days", () => {
  it("today and yesterday (Vientiane) are open; the day turns at 17:00 UTC", () => {
    expect(firstOpenDay(Date.parse("2026-11-24T16:59:59.999Z"))).toBe("2026-11-23");
    expect(firstOpenDay(Date.parse("2026-11-24T17:00:00.000Z"))).toBe("2026-11-24");
    expect(firstOpenDay(Date.parse("2026-03-01T05:00:00.000Z"))).toBe("2026-02-28");
  });

  it("the scheduled roll-up's days: the closed ones before yesterday, newest first", () => {
    expect(recentClosedDays(Date.parse("2026-11-24T05:00:00Z"), 3)).toEqual(["2026-11-22", "2026-11-21", "2026-11-20"]);
  });

  it("a by-day range reads rolled-up days, rolls up at most the limit of the missing ones (oldest first), and the rest live", () => {
    const now = Date.parse("2026-11-24T05:00:00Z"); // open: 11-23 and 11-24
    const range = { from: "2026-11-17", to: "2026-11-24", grouping: "day" as const };
    const sealed = new Set(["2026-11-17", "2026-11-19", "2026-11-22"]);
    expect(planDays(range, now, sealed, 2)).toEqual({
      rolledUp: ["2026-11-17", "2026-11-19", "2026-11-22"],
      fill: ["2026-11-18", "2026-11-20"],
      live: ["2026-11-21", "2026-11-23", "2026-11-24"],
    });
    expect(planDays(range, now, new Set(), 0).live).toHaveLength(8);
    // a range entirely in the future or today is all live
    expect(planDays({ from: "2026-11-24", to: "2026-11-26", grouping: "day" }, now, new Set(), 3)).toEqual({
      rolledUp: [],
      fill: [],
      live: ["2026-11-24", "2026-11-25", "2026-11-26"],
    });
  });

  it("days read live beyond the rollup go in runs of consecutive days, a week at most", () => {
    expect(runsOf([], 7)).toEqual([]);
    expect(runsOf(["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-03"], 7)).toEqual([["2026-02-27", "2026-02-28", "2026-03-01"], ["2026-03-03"]]);
    const nine = Array.from({ length: 9 }, (_, i) => day(i));
    expect(runsOf(nine, 7)).toEqual([nine.slice(0, 7), nine.slice(7)]);
  });

  it("only ranges by day within the histograms' cap are read by day", () => {
    expect(HISTOGRAM_CAP).toBe(MAX_RANGE_DAYS);
    expect(readsByDay({ from: day(0), to: day(0), grouping: "hour" })).toBe(false);
    expect(readsByDay({ from: day(0), to: day(0), grouping: "day" })).toBe(true);
    expect(readsByDay({ from: day(0), to: day(MAX_RANGE_DAYS - 1), grouping: "day" })).toBe(true);
    expect(readsByDay({ from: day(0), to: day(MAX_RANGE_DAYS), grouping: "day" })).toBe(false);
  });
});

describe("composing day rows", () => {
  it("money and promotions are the rows' sums as they are, day by day", () => {
    const rows = [
      row("2026-06-10", "deposits", { key: "askmebet", bucket: 1, n: 2, kip: 6_000_000, credit: 10_000, bonus: 500 }),
      row("2026-06-10", "withdrawals", { key: "gclub", n: 1, kip: 2_900_000, credit: 5_000, deducted: 100 }),
      row("2026-06-11", "promotion-bonus", { key: "daily-10", n: 1, bonus: 2_000 }),
      row("2026-06-11", "promotion-deducted", { key: "daily-10", n: 1, deducted: 300 }),
      row("2026-06-11", "promotion-claims", { key: "daily-10", n: 4 }),
      row("2026-06-12", "promotion-completed", { key: "daily-10", n: 3 }),
      row("2026-06-12", "promotion-cancelled", { key: "daily-10", n: 1 }),
    ];
    expect(moneyFiguresOf(rows, [{ period: "2026-06-10", amount: "1.00" }])).toEqual({
      deposits: [{ period: "2026-06-10", provider: "askmebet", manual: 1, n: 2, kip: 6_000_000, credit: 10_000, bonus: 500 }],
      withdrawals: [{ period: "2026-06-10", provider: "gclub", n: 1, credit: 5_000, kip: 2_900_000, deducted: 100 }],
      refunds: [{ period: "2026-06-10", amount: "1.00" }],
    });
    expect(promotionActivityOf(rows)).toEqual({
      claims: [{ promotionId: "daily-10", n: 4 }],
      ended: [
        { promotionId: "daily-10", status: "SUCCESS", n: 3 },
        { promotionId: "daily-10", status: "CANCELED", n: 1 },
      ],
      bonus: [{ promotionId: "daily-10", given: 2_000 }],
      deducted: [{ promotionId: "daily-10", deducted: 300 }],
    });
  });

  /** What migration 0042's histogram queries write for each day, computed from players' days (day numbers). */
  function histogramRows(players: { registered: number; deposits: number[] }[], days: number[]): DayRow[] {
    const rows: DayRow[] = [];
    const cap = (n: number, low: number) => Math.max(low, Math.min(HISTOGRAM_CAP, n));
    for (const d of days) {
      const firsts = new Map<number, number>();
      const depositors = new Map<number, number>();
      for (const p of players) {
        const sorted = [...new Set(p.deposits)].sort((a, b) => a - b);
        if (sorted[0] === d) firsts.set(cap(d - p.registered, -1), (firsts.get(cap(d - p.registered, -1)) ?? 0) + 1);
        if (!sorted.includes(d)) continue;
        const previous = sorted.filter((x) => x < d).at(-1);
        const bucket = previous === undefined ? HISTOGRAM_CAP : cap(d - previous, 1);
        depositors.set(bucket, (depositors.get(bucket) ?? 0) + 1);
      }
      const histogramRow = (kind: DayKind, h: Map<number, number>) =>
        row(day(d), kind, { n: [...h.values()].reduce((a, b) => a + b, 0), histogram: [...h.entries()] });
      if (firsts.size > 0) rows.push(histogramRow("first-deposits", firsts));
      if (depositors.size > 0) rows.push(histogramRow("depositors", depositors));
    }
    return rows;
  }

  it("distinct depositors and converted players over a range equal a count of the players themselves (random histories)", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = seeded(seed).next;
      const int = (n: number) => Math.floor(next() * n);
      const players = Array.from({ length: 30 + int(60) }, () => {
        const registered = int(220);
        const deposits = Array.from({ length: int(8) }, () => registered + int(200) - (int(20) === 0 ? 3 : 0));
        return { registered, deposits };
      });
      const from = 100 + int(100);
      const length = 1 + int(MAX_RANGE_DAYS);
      const days = Array.from({ length }, (_, i) => from + i);
      const figures = playersFiguresOf(histogramRows(players, days), day(from));
      const inRange = (d: number) => d >= from && d < from + length;
      const active = players.filter((p) => p.deposits.some(inRange)).length;
      const firstDay = (p: { deposits: number[] }) => (p.deposits.length === 0 ? -1 : Math.min(...p.deposits));
      const converted = players.filter((p) => inRange(firstDay(p)) && p.registered >= from).length;
      expect(figures.totals, `seed ${seed}`).toEqual({ activeDepositors: active, converted });
      for (const d of days) {
        const deposited = players.filter((p) => p.deposits.includes(d)).length;
        expect(figures.active.find((a) => a.period === day(d))?.n ?? 0, `seed ${seed} ${day(d)}`).toBe(deposited);
        const firsts = players.filter((p) => firstDay(p) === d);
        const cell = figures.firstDeposits.find((f) => f.period === day(d)) ?? { n: 0, converted: 0 };
        expect(cell, `seed ${seed} ${day(d)}`).toMatchObject({ n: firsts.length, converted: firsts.filter((p) => p.registered === d).length });
      }
    }
  });
});
