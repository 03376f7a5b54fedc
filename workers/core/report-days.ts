import { MAX_RANGE_DAYS, periodsOf, type ReportRange } from "./report-range";
import { calendarDayMs, DAY_MS, vientianeDate } from "./vientiane";

/**
 * Reports by day from the rollup of closed days (decision 078). The figures of a day are rows
 * of integer sums and counts (`DayRow`, table report_days) that add up exactly, whether they
 * come from the rollup or straight from the read models; this module plans which days come
 * from where and composes the rows into the reports' figures. Pure: "now" is passed in.
 *
 * What is not a sum is made one by a histogram per day:
 * - active depositors over a range: a player counts on the first day d of the range they
 *   deposited, i.e. when their previous deposit is more than d - from days before d
 *   (`depositors`, by days since the previous deposit);
 * - converted players over a range (registered in it, first deposit in it): a first deposit on
 *   day d counts when the player registered at most d - from days before d (`first-deposits`,
 *   by days since registration).
 * A range has at most MAX_RANGE_DAYS days, so d - from < MAX_RANGE_DAYS and the last bucket
 * (HISTOGRAM_CAP) stands for "that many days or more" (and, for depositors, "no deposit before").
 */

export const DAY_KINDS = [
  "deposits",
  "withdrawals",
  "promotion-bonus",
  "promotion-deducted",
  "promotion-claims",
  "promotion-completed",
  "promotion-cancelled",
  "registrations",
  "first-deposits",
  "depositors",
] as const;
export type DayKind = (typeof DAY_KINDS)[number];

/** The last bucket of both histograms. */
export const HISTOGRAM_CAP = MAX_RANGE_DAYS;

/**
 * One row of a day's figures: the sums are integer minor units (kip: LAK, credit, bonus and
 * deducted: THB); a histogram kind has its players by bucket (days) in `histogram`, n in all.
 */
export type DayRow = {
  day: string;
  kind: DayKind;
  key: string;
  bucket: number;
  n: number;
  kip: number;
  credit: number;
  bonus: number;
  deducted: number;
  histogram: readonly (readonly [bucket: number, n: number])[] | null;
};

// ---- the figures the reports compose, per period (a day, or an hour of the live path) ----

type DepositFigures = { period: string; provider: string; manual: number; n: number; kip: number; credit: number; bonus: number };
type WithdrawFigures = { period: string; provider: string; n: number; credit: number; kip: number; deducted: number };
export type RefundRow = { period: string; amount: string | null };
export type MoneyFigures = { deposits: DepositFigures[]; withdrawals: WithdrawFigures[]; refunds: RefundRow[] };

export type PlayersFigures = {
  registrations: { period: string; n: number }[];
  /** First deposits per period, and how many of those players registered in that same period. */
  firstDeposits: { period: string; n: number; converted: number }[];
  active: { period: string; n: number }[];
  totals: { activeDepositors: number; converted: number };
};

export type PromotionActivity = {
  claims: { promotionId: string; n: number }[];
  ended: { promotionId: string; status: string; n: number }[];
  bonus: { promotionId: string; given: number }[];
  deducted: { promotionId: string; deducted: number }[];
};

// ---- which days come from where ----

/** Days of `day` since the epoch. */
function dayNumber(day: string): number {
  const ms = calendarDayMs(day);
  if (ms === null) throw new Error(`not a day: ${day}`);
  return ms / DAY_MS;
}

function dayString(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The first day still open at `now`: yesterday (Vientiane). Today's and yesterday's orders are
 * still being paid, credited and projected (a wallet copies its rows a minute or so late, a
 * provider's credit is retried), so they are always read live; every earlier day is closed and
 * may be rolled up. A later change to a closed day is not excluded by this rule: it drops the
 * day's rollup (migration 0042's triggers), and the day is read live until rolled up again.
 */
export function firstOpenDay(now: number): string {
  return dayString(dayNumber(vientianeDate(now)) - 1);
}

/** The closed days of the last `days` days before the open ones, newest first (the scheduled roll-up's span). */
export function recentClosedDays(now: number, days: number): string[] {
  const open = dayNumber(firstOpenDay(now));
  return Array.from({ length: days }, (_, i) => dayString(open - 1 - i));
}

export type DaysPlan = {
  /** Closed days already rolled up: read from the rollup. */
  rolledUp: string[];
  /** Closed days to roll up now (at most the limit, oldest first). */
  fill: string[];
  /** Days read live from the read models, in order: closed days beyond the limit, then the open ones. */
  live: string[];
};

/**
 * Where each day of a by-day range comes from. Only ranges grouped by day and at most
 * MAX_RANGE_DAYS long are read by day (the histograms' cap); an hourly day is always live.
 */
export function planDays(range: ReportRange, now: number, sealed: ReadonlySet<string>, fillAtMost: number): DaysPlan {
  const open = firstOpenDay(now);
  const plan: DaysPlan = { rolledUp: [], fill: [], live: [] };
  for (const day of periodsOf({ ...range, grouping: "day" })) {
    if (day >= open) plan.live.push(day);
    else if (sealed.has(day)) plan.rolledUp.push(day);
    else if (plan.fill.length < fillAtMost) plan.fill.push(day);
    else plan.live.push(day);
  }
  return plan;
}

/**
 * Days (in order) as runs of consecutive days of at most `maxDays` each: the days a report
 * reads live beyond the rollup are read a run at a time, so no statement reads more than
 * `maxDays` days of orders however many are missing.
 */
export function runsOf(days: readonly string[], maxDays: number): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  for (const day of days) {
    const last = run[run.length - 1];
    if (last === undefined || (dayNumber(day) === dayNumber(last) + 1 && run.length < maxDays)) run.push(day);
    else {
      runs.push(run);
      run = [day];
    }
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** Whether a range can be composed from day rows: by day, and within the histograms' cap. */
export function readsByDay(range: ReportRange): boolean {
  return range.grouping === "day" && dayNumber(range.to) - dayNumber(range.from) < HISTOGRAM_CAP;
}

// ---- composing day rows into the reports' figures ----

function ofKind(rows: readonly DayRow[], kind: DayKind): DayRow[] {
  return rows.filter((r) => r.kind === kind);
}

export function moneyFiguresOf(rows: readonly DayRow[], refunds: RefundRow[]): MoneyFigures {
  return {
    deposits: ofKind(rows, "deposits").map((r) => ({ period: r.day, provider: r.key, manual: r.bucket, n: r.n, kip: r.kip, credit: r.credit, bonus: r.bonus })),
    withdrawals: ofKind(rows, "withdrawals").map((r) => ({ period: r.day, provider: r.key, n: r.n, credit: r.credit, kip: r.kip, deducted: r.deducted })),
    refunds,
  };
}

/** Per day, and over the range that starts at `from`: the histograms read against each day's distance from `from`. */
export function playersFiguresOf(rows: readonly DayRow[], from: string): PlayersFigures {
  const start = dayNumber(from);
  const sinceStart = (day: string) => dayNumber(day) - start;
  const firsts = new Map<string, { period: string; n: number; converted: number }>();
  const active = new Map<string, { period: string; n: number }>();
  const totals = { activeDepositors: 0, converted: 0 };
  for (const r of ofKind(rows, "first-deposits")) {
    let day = firsts.get(r.day);
    if (!day) firsts.set(r.day, (day = { period: r.day, n: 0, converted: 0 }));
    day.n += r.n;
    for (const [days, n] of r.histogram ?? []) {
      // registered that same day
      if (days === 0) day.converted += n;
      // registered on or after `from`: at most d - from days before the first deposit
      if (days <= sinceStart(r.day)) totals.converted += n;
    }
  }
  for (const r of ofKind(rows, "depositors")) {
    let day = active.get(r.day);
    if (!day) active.set(r.day, (day = { period: r.day, n: 0 }));
    day.n += r.n;
    // no deposit between `from` and this day: the previous one is more than d - from days back
    for (const [days, n] of r.histogram ?? []) if (days > sinceStart(r.day)) totals.activeDepositors += n;
  }
  return {
    registrations: ofKind(rows, "registrations").map((r) => ({ period: r.day, n: r.n })),
    firstDeposits: [...firsts.values()],
    active: [...active.values()],
    totals,
  };
}

export function promotionActivityOf(rows: readonly DayRow[]): PromotionActivity {
  return {
    claims: ofKind(rows, "promotion-claims").map((r) => ({ promotionId: r.key, n: r.n })),
    ended: [
      ...ofKind(rows, "promotion-completed").map((r) => ({ promotionId: r.key, status: "SUCCESS", n: r.n })),
      ...ofKind(rows, "promotion-cancelled").map((r) => ({ promotionId: r.key, status: "CANCELED", n: r.n })),
    ],
    bonus: ofKind(rows, "promotion-bonus").map((r) => ({ promotionId: r.key, given: r.bonus })),
    deducted: ofKind(rows, "promotion-deducted").map((r) => ({ promotionId: r.key, deducted: r.deducted })),
  };
}
