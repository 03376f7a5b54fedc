import { calendarDayMs, DAY_MS, vientianeDate, vientianeDateTime, vientianeDayBounds } from "./vientiane";

/**
 * The date ranges of the back office's reports (decision 019) and of the dashboard's "today".
 *
 * Days are Asia/Vientiane days: UTC+7, no daylight saving, so a Vientiane day D is the UTC
 * interval [D-1 17:00, D 17:00). A range is inclusive at both ends ('YYYY-MM-DD'), grouped by
 * day, or by hour when it is one day. Pure: "now" is always passed in.
 *
 * Rules (decision 019):
 * - presets: today, yesterday, 7d (the last 7 days including today), month (the 1st of this
 *   month to today), last-month (the whole previous month). One-day presets group by hour,
 *   longer ones by day.
 * - parseRange: a known preset wins over from/to (a plain GET form sends both); the preset ""
 *   or "custom" (or none) means from/to. from alone means that one day, to alone too. Nothing
 *   at all means today. grouping "hour" on a range of several days falls back to "day" (the
 *   form keeps its grouping when the preset changes); no grouping means hour for one day,
 *   day otherwise. At most MAX_RANGE_DAYS days.
 */
export type ReportGrouping = "day" | "hour";
export type ReportPreset = "today" | "yesterday" | "7d" | "month" | "last-month";
/** Days are Asia/Vientiane (UTC+7, no DST). from/to inclusive 'YYYY-MM-DD'; "hour" only when from === to. */
export type ReportRange = { from: string; to: string; grouping: ReportGrouping };

export const REPORT_PRESETS: readonly ReportPreset[] = ["today", "yesterday", "7d", "month", "last-month"];
export const MAX_RANGE_DAYS = 92;

/** Days since the epoch of a 'YYYY-MM-DD' that is a real calendar date, else null. */
function dayNumber(day: string): number | null {
  const ms = calendarDayMs(day);
  return ms === null ? null : ms / DAY_MS;
}

function dayString(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

// The Vientiane day of an instant, for the reports' callers that import it from here.
export { vientianeDate };

export function presetRange(preset: ReportPreset, now: Date): ReportRange {
  const today = dayNumber(vientianeDate(now))!;
  const todayStr = dayString(today);
  switch (preset) {
    case "today":
      return { from: todayStr, to: todayStr, grouping: "hour" };
    case "yesterday": {
      const y = dayString(today - 1);
      return { from: y, to: y, grouping: "hour" };
    }
    case "7d":
      return { from: dayString(today - 6), to: todayStr, grouping: "day" };
    case "month":
      return { from: `${todayStr.slice(0, 7)}-01`, to: todayStr, grouping: todayStr.endsWith("-01") ? "hour" : "day" };
    case "last-month": {
      const firstOfThis = dayNumber(`${todayStr.slice(0, 7)}-01`)!;
      const lastOfPrev = dayString(firstOfThis - 1);
      return { from: `${lastOfPrev.slice(0, 7)}-01`, to: lastOfPrev, grouping: "day" };
    }
  }
}

function isPreset(s: string): s is ReportPreset {
  return (REPORT_PRESETS as readonly string[]).includes(s);
}

function blank(s: string | null | undefined): boolean {
  return s == null || s.trim() === "";
}

export function parseRange(
  input: { preset?: string | null; from?: string | null; to?: string | null; grouping?: string | null },
  now: Date,
): ReportRange | { error: "RANGE_INVALID" | "RANGE_TOO_LONG" } {
  const preset = input.preset?.trim() ?? "";
  const groupingIn = input.grouping?.trim() ?? "";
  if (groupingIn !== "" && groupingIn !== "day" && groupingIn !== "hour") return { error: "RANGE_INVALID" };

  let from: string;
  let to: string;
  if (isPreset(preset)) {
    ({ from, to } = presetRange(preset, now));
  } else if (preset !== "" && preset !== "custom") {
    return { error: "RANGE_INVALID" };
  } else if (blank(input.from) && blank(input.to)) {
    ({ from, to } = presetRange("today", now));
  } else {
    from = (blank(input.from) ? input.to : input.from)!.trim();
    to = (blank(input.to) ? input.from : input.to)!.trim();
  }
  const f = dayNumber(from);
  const t = dayNumber(to);
  if (f === null || t === null || f > t) return { error: "RANGE_INVALID" };
  if (t - f + 1 > MAX_RANGE_DAYS) return { error: "RANGE_TOO_LONG" };
  const oneDay = f === t;
  const grouping: ReportGrouping = groupingIn === "day" ? "day" : groupingIn === "hour" ? (oneDay ? "hour" : "day") : oneDay ? "hour" : "day";
  return { from, to, grouping };
}

/** The periods of a range, in order: 'YYYY-MM-DD' per day, or 'YYYY-MM-DDTHH' (Vientiane hours 00..23) for an hourly day. */
export function periodsOf(range: ReportRange): string[] {
  const f = dayNumber(range.from);
  const t = dayNumber(range.to);
  if (f === null || t === null || f > t) return [];
  if (range.grouping === "hour" && f === t) {
    return Array.from({ length: 24 }, (_, h) => `${range.from}T${String(h).padStart(2, "0")}`);
  }
  const out: string[] = [];
  for (let n = f; n <= t; n++) out.push(dayString(n));
  return out;
}

/** The UTC instants [fromIso, toIsoExclusive) covering the range, as the ISO strings (toISOString) the read models store. */
export function utcBounds(range: ReportRange): { fromIso: string; toIsoExclusive: string } {
  const from = vientianeDayBounds(range.from);
  const to = vientianeDayBounds(range.to);
  if (from === null || to === null) throw new Error(`invalid range ${range.from}..${range.to}`);
  return { fromIso: new Date(from.start).toISOString(), toIsoExclusive: new Date(to.end).toISOString() };
}

/** The period (as periodsOf names it) an instant falls in, for the given grouping. */
export function periodOf(at: Date | number | string, grouping: ReportGrouping): string {
  const ms = typeof at === "string" ? Date.parse(at) : typeof at === "number" ? at : at.getTime();
  const local = vientianeDateTime(ms);
  return grouping === "hour" ? `${local.slice(0, 10)}T${local.slice(11, 13)}` : local.slice(0, 10);
}
