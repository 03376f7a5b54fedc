import { DAY_MS, calendarDayMs, vientianeDate } from "./vientiane";

/**
 * Daily check-in and deposit-streak rewards (decision 095): two reward kinds on the wallet's
 * reward path (decision 029), each a fixed amount of credit the owner sets, at a provider the
 * player chooses, with a turnover multiple. Days are Vientiane days 'YYYY-MM-DD' (UTC+7).
 *
 * - Check-in: once per Vientiane day; its period is the day.
 * - Streak: a settled deposit on each of the last N days, today included; its period is the
 *   streak's last day (the day it is claimed), and only days after the last streak claimed
 *   count towards the next, so each streak needs N new days.
 */

export type CheckinSettings = {
  checkinEnabled: boolean;
  /** Credit one check-in pays (minor units). */
  checkinAmountMinor: number;
  /** Turnover requirement of a check-in reward ("0": none). */
  checkinMultiple: string;
  streakEnabled: boolean;
  /** Days in a row with a deposit a streak takes. */
  streakDays: number;
  streakAmountMinor: number;
  streakMultiple: string;
};

/** Until the owner saves: both off (an offer is the owner's choice), with modest figures ready. */
export const DEFAULT_CHECKIN: CheckinSettings = {
  checkinEnabled: false,
  checkinAmountMinor: 500,
  checkinMultiple: "1",
  streakEnabled: false,
  streakDays: 5,
  streakAmountMinor: 5_000,
  streakMultiple: "1",
};

/** A streak of more than a month is not a daily habit any more, and keeps the D1 read small. */
export const STREAK_DAYS_MAX = 30;

export type CheckinRefusal = "CHECKIN_DISABLED" | "CHECKIN_ALREADY_TODAY" | "OFFERS_PAUSED";
export type StreakRefusal = "STREAK_DISABLED" | "STREAK_NOT_REACHED" | "STREAK_ALREADY_CLAIMED" | "OFFERS_PAUSED";

/** The period a check-in made at `now` is claimed under: its Vientiane day. */
export function checkinDay(now: number): string {
  return vientianeDate(now);
}

/** Whether a check-in may be made now; a break or limit comes first (nothing else is said then). */
export function judgeCheckin(f: { settings: CheckinSettings; checkedInToday: boolean; offersPaused: boolean }): CheckinRefusal | null {
  if (f.offersPaused) return "OFFERS_PAUSED";
  if (!f.settings.checkinEnabled) return "CHECKIN_DISABLED";
  if (f.checkedInToday) return "CHECKIN_ALREADY_TODAY";
  return null;
}

export type StreakProgress = {
  /** Days in a row with a deposit counted so far (at most `of`): ending today, or ending yesterday while today has none yet. */
  days: number;
  of: number;
  /** Today has a deposit and the run reaches N: claimable under `period`. */
  reached: boolean;
  /** Today, the key a claim now is made under. */
  period: string;
};

function previousDay(day: string): string {
  return new Date((calendarDayMs(day) ?? 0) - DAY_MS).toISOString().slice(0, 10);
}

/**
 * The player's deposit streak now. `paidAt`: the instants of their settled deposits (any
 * order, several on one day count once); `lastClaimed`: the period of the last streak
 * claimed (not given up), whose days and those before do not count again.
 */
export function streakProgress(paidAt: readonly number[], streakDays: number, now: number, lastClaimed: string | null): StreakProgress {
  const of = Math.max(1, Math.floor(streakDays));
  const today = checkinDay(now);
  const days = new Set(paidAt.filter((at) => at <= now).map(vientianeDate));
  const counts = (day: string) => days.has(day) && (lastClaimed === null || day > lastClaimed);
  const runEnding = (day: string) => {
    let run = 0;
    for (let d = day; run < of && counts(d); d = previousDay(d)) run++;
    return run;
  };
  const todayRun = runEnding(today);
  // no deposit yet today: the run up to yesterday is still alive (a deposit today extends it)
  const run = counts(today) ? todayRun : runEnding(previousDay(today));
  return { days: run, of, reached: todayRun >= of, period: today };
}

/** The instant from which deposits can matter to a streak of N days ending today: 00:00 Vientiane N-1 days ago (a day earlier, for the run up to yesterday). */
export function streakWindowStart(streakDays: number, now: number): number {
  const today = calendarDayMs(checkinDay(now)) ?? 0;
  return today - Math.max(1, Math.floor(streakDays)) * DAY_MS - 7 * 3_600_000;
}

/** Whether the streak reward may be claimed now. */
export function judgeStreak(f: { settings: CheckinSettings; progress: StreakProgress; claimedToday: boolean; offersPaused: boolean }): StreakRefusal | null {
  if (f.offersPaused) return "OFFERS_PAUSED";
  if (!f.settings.streakEnabled) return "STREAK_DISABLED";
  if (f.claimedToday) return "STREAK_ALREADY_CLAIMED";
  if (!f.progress.reached) return "STREAK_NOT_REACHED";
  return null;
}
