import { describe, expect, it } from "vitest";
import { checkinDay, DEFAULT_CHECKIN, judgeCheckin, judgeStreak, streakProgress, streakWindowStart } from "../../workers/core/checkin";

const HOUR = 3_600_000;
/** An instant on the Vientiane wall clock (UTC+7). */
const vte = (day: string, hour = 8, minute = 0) => Date.parse(`${day}T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:00+07:00`);
const ON = { ...DEFAULT_CHECKIN, checkinEnabled: true, streakEnabled: true };

describe("check-in day (decision 095)", () => {
  it("is the Vientiane day: 23:59 and 00:00 Vientiane are two days, 16:59 and 17:00 UTC too", () => {
    expect(checkinDay(vte("2026-12-02", 23, 59))).toBe("2026-12-02");
    expect(checkinDay(vte("2026-12-03", 0, 0))).toBe("2026-12-03");
    expect(checkinDay(Date.parse("2026-12-02T16:59:59Z"))).toBe("2026-12-02");
    expect(checkinDay(Date.parse("2026-12-02T17:00:00Z"))).toBe("2026-12-03");
  });

  it("is refused while paused first, then when disabled, then once checked in today", () => {
    expect(judgeCheckin({ settings: ON, checkedInToday: true, offersPaused: true })).toBe("OFFERS_PAUSED");
    expect(judgeCheckin({ settings: DEFAULT_CHECKIN, checkedInToday: false, offersPaused: false })).toBe("CHECKIN_DISABLED");
    expect(judgeCheckin({ settings: ON, checkedInToday: true, offersPaused: false })).toBe("CHECKIN_ALREADY_TODAY");
    expect(judgeCheckin({ settings: ON, checkedInToday: false, offersPaused: false })).toBeNull();
  });
});

describe("deposit streak (decision 095)", () => {
  const now = vte("2026-12-05", 10);

  it("counts days in a row ending today, reached at N", () => {
    const paid = [vte("2026-12-03"), vte("2026-12-04"), vte("2026-12-05", 9)];
    expect(streakProgress(paid, 3, now, null)).toEqual({ days: 3, of: 3, reached: true, period: "2026-12-05" });
    expect(streakProgress(paid, 5, now, null)).toMatchObject({ days: 3, of: 5, reached: false });
  });

  it("several deposits on one day count as one day", () => {
    const paid = [vte("2026-12-05", 1), vte("2026-12-05", 9), vte("2026-12-05", 9, 30)];
    expect(streakProgress(paid, 2, now, null)).toMatchObject({ days: 1, reached: false });
  });

  it("a day without a deposit breaks the run", () => {
    const paid = [vte("2026-12-01"), vte("2026-12-02"), vte("2026-12-04"), vte("2026-12-05")];
    expect(streakProgress(paid, 3, now, null)).toMatchObject({ days: 2, reached: false });
  });

  it("before today's deposit the run up to yesterday is shown, not reached", () => {
    const paid = [vte("2026-12-03"), vte("2026-12-04")];
    expect(streakProgress(paid, 3, now, null)).toMatchObject({ days: 2, reached: false });
    // a run that ended the day before yesterday is over
    expect(streakProgress([vte("2026-12-02"), vte("2026-12-03")], 3, now, null)).toMatchObject({ days: 0, reached: false });
  });

  it("day boundaries are Vientiane's: 23:30 and 00:30 Vientiane are two days, though the same UTC day", () => {
    const lateOn4th = vte("2026-12-04", 23, 30); // 16:30 UTC on the 4th
    const earlyOn5th = vte("2026-12-05", 0, 30); // 17:30 UTC on the 4th
    expect(new Date(lateOn4th).toISOString().slice(0, 10)).toBe(new Date(earlyOn5th).toISOString().slice(0, 10));
    expect(streakProgress([lateOn4th, earlyOn5th], 2, now, null)).toMatchObject({ days: 2, reached: true });
    // 06:59 Vientiane on the 5th is the 4th in UTC, still the 5th here: one day, not two
    expect(streakProgress([vte("2026-12-05", 6, 59), vte("2026-12-05", 8)], 2, now, null)).toMatchObject({ days: 1, reached: false });
  });

  it("N = 1: a deposit today is a streak", () => {
    expect(streakProgress([vte("2026-12-05", 8)], 1, now, null)).toMatchObject({ days: 1, of: 1, reached: true });
    expect(streakProgress([vte("2026-12-04", 8)], 1, now, null)).toMatchObject({ days: 1, reached: false });
    expect(streakProgress([], 1, now, null)).toMatchObject({ days: 0, reached: false });
  });

  it("days up to the last streak claimed do not count again: the next streak needs N new days", () => {
    const paid = ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05"].map((d) => vte(d));
    expect(streakProgress(paid, 3, now, "2026-12-03")).toMatchObject({ days: 2, reached: false });
    expect(streakProgress(paid, 2, now, "2026-12-03")).toMatchObject({ days: 2, reached: true });
    expect(streakProgress(paid, 3, now, "2026-12-05")).toMatchObject({ days: 0, reached: false });
  });

  it("a deposit later than now (a clock ahead) does not count", () => {
    expect(streakProgress([vte("2026-12-05", 11)], 1, now, null)).toMatchObject({ days: 0, reached: false });
  });

  it("the D1 read starts at 00:00 Vientiane N days back (the run up to yesterday may need them)", () => {
    expect(new Date(streakWindowStart(3, now)).toISOString()).toBe(new Date(vte("2026-12-02", 0)).toISOString());
    expect(streakWindowStart(1, now)).toBe(vte("2026-12-04", 0));
    expect(streakWindowStart(1, now) + 24 * HOUR).toBe(vte("2026-12-05", 0));
  });

  it("is refused while paused, when disabled, once claimed today, before N days", () => {
    const reached = streakProgress([vte("2026-12-05", 8)], 1, now, null);
    const short = streakProgress([], 1, now, null);
    expect(judgeStreak({ settings: ON, progress: reached, claimedToday: false, offersPaused: true })).toBe("OFFERS_PAUSED");
    expect(judgeStreak({ settings: DEFAULT_CHECKIN, progress: reached, claimedToday: false, offersPaused: false })).toBe("STREAK_DISABLED");
    expect(judgeStreak({ settings: ON, progress: reached, claimedToday: true, offersPaused: false })).toBe("STREAK_ALREADY_CLAIMED");
    expect(judgeStreak({ settings: ON, progress: short, claimedToday: false, offersPaused: false })).toBe("STREAK_NOT_REACHED");
    expect(judgeStreak({ settings: ON, progress: reached, claimedToday: false, offersPaused: false })).toBeNull();
  });
});
