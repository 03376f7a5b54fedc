import { DAY_MS, vientianeDate, vientianeDayBounds } from "./vientiane";

/**
 * Reward periods (weekly cashback, the referral share: decisions 029 and 030): weeks run Monday to
 * Sunday in Asia/Vientiane (UTC+7, no daylight saving), named by their ISO week
 * ("2026-W47"), the key a reward is claimed once per. Days are 'YYYY-MM-DD' Vientiane,
 * the same days the provider figures are collected under.
 */

export type RewardWeek = {
  /** ISO week key, e.g. "2026-W47": what a claim is unique per. */
  key: string;
  /** Monday, 'YYYY-MM-DD'. */
  from: string;
  /** Sunday, 'YYYY-MM-DD'. */
  to: string;
};

function dayMs(day: string): number {
  return Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
}

function dayString(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The week (Monday..Sunday) a Vientiane day belongs to. */
export function weekOfDay(day: string): RewardWeek {
  const ms = dayMs(day);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7; // Monday 0 .. Sunday 6
  const monday = ms - weekday * DAY_MS;
  // ISO week-year: the year of the week's Thursday; week 1 holds the year's first Thursday
  const thursday = new Date(monday + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY_MS / 7) + 1;
  return { key: `${year}-W${String(week).padStart(2, "0")}`, from: dayString(monday), to: dayString(monday + 6 * DAY_MS) };
}

/**
 * The instants a week runs between (epoch ms): Monday 00:00 Vientiane, inclusive, to the
 * next Monday 00:00, exclusive. For what is bounded by time rather than by collected days
 * (the referral's deposits, whether a week has ended).
 */
export function weekInstants(week: RewardWeek): { startsAt: number; endsAt: number } {
  const monday = vientianeDayBounds(week.from);
  const sunday = vientianeDayBounds(week.to);
  if (monday === null || sunday === null) throw new Error(`invalid week ${week.from}..${week.to}`);
  return { startsAt: monday.start, endsAt: sunday.end };
}

/** The week a moment falls in, by the Vientiane calendar. */
export function weekAt(at: number): RewardWeek {
  return weekOfDay(vientianeDate(at));
}

/** The last week that has ended (the one before this Vientiane week): what cashback pays for. */
export function lastCompleteWeek(at: number): RewardWeek {
  return weekOfDay(dayString(dayMs(weekAt(at).from) - DAY_MS));
}

/** The seven days of a week, Monday first. */
export function daysOfWeek(week: RewardWeek): string[] {
  const monday = dayMs(week.from);
  return Array.from({ length: 7 }, (_, i) => dayString(monday + i * DAY_MS));
}

/** A week key ("2026-W47") back to its days; null when it is not one. */
export function weekOfKey(key: string): RewardWeek | null {
  const match = /^(\d{4})-W(\d{2})$/.exec(key);
  if (!match) return null;
  const year = Number(match[1]);
  const week = Number(match[2]);
  // the Monday of ISO week 1 is the Monday of the week holding January 4th
  const week1 = weekOfDay(`${match[1]}-01-04`);
  const found = weekOfDay(dayString(dayMs(week1.from) + (week - 1) * 7 * DAY_MS));
  return week >= 1 && found.key === `${year}-W${match[2]}` ? found : null;
}
