import { describe, expect, it } from "vitest";
import {
  MAX_RANGE_DAYS,
  parseRange,
  REPORT_PRESETS,
  periodOf,
  periodsOf,
  presetRange,
  utcBounds,
  vientianeDate,
  type ReportRange,
} from "../../workers/core/report-range";

// 2026-11-24 16:59:59.999Z is 23:59:59.999 on the 24th in Vientiane; 17:00Z is already the 25th.
const lateOn24 = new Date("2026-11-24T16:59:59.999Z");
const earlyOn25 = new Date("2026-11-24T17:00:00.000Z");

describe("Vientiane days (UTC+7, no daylight saving)", () => {
  it("a day turns at 17:00 UTC", () => {
    expect(vientianeDate(lateOn24)).toBe("2026-11-24");
    expect(vientianeDate(earlyOn25)).toBe("2026-11-25");
    // Same offset in summer: no DST.
    expect(vientianeDate(new Date("2026-07-01T16:59:00Z"))).toBe("2026-07-01");
    expect(vientianeDate(new Date("2026-07-01T17:00:00Z"))).toBe("2026-07-02");
  });
});

describe("presetRange", () => {
  it("today and yesterday are one Vientiane day, by hour", () => {
    expect(presetRange("today", lateOn24)).toEqual({ from: "2026-11-24", to: "2026-11-24", grouping: "hour" });
    expect(presetRange("today", earlyOn25)).toEqual({ from: "2026-11-25", to: "2026-11-25", grouping: "hour" });
    expect(presetRange("yesterday", earlyOn25)).toEqual({ from: "2026-11-24", to: "2026-11-24", grouping: "hour" });
    expect(presetRange("yesterday", new Date("2026-03-01T01:00:00Z"))).toEqual({ from: "2026-02-28", to: "2026-02-28", grouping: "hour" });
  });
  it("7d is the last seven days including today", () => {
    expect(presetRange("7d", lateOn24)).toEqual({ from: "2026-11-18", to: "2026-11-24", grouping: "day" });
    expect(presetRange("7d", new Date("2027-01-02T00:00:00Z"))).toEqual({ from: "2026-12-27", to: "2027-01-02", grouping: "day" });
  });
  it("month runs from the 1st to today; last-month is the whole previous month", () => {
    expect(presetRange("month", lateOn24)).toEqual({ from: "2026-11-01", to: "2026-11-24", grouping: "day" });
    // 2026-11-30T17:00Z is 1 December in Vientiane.
    expect(presetRange("month", new Date("2026-11-30T17:00:00Z"))).toEqual({ from: "2026-12-01", to: "2026-12-01", grouping: "hour" });
    expect(presetRange("last-month", lateOn24)).toEqual({ from: "2026-10-01", to: "2026-10-31", grouping: "day" });
    expect(presetRange("last-month", new Date("2027-01-15T00:00:00Z"))).toEqual({ from: "2026-12-01", to: "2026-12-31", grouping: "day" });
    expect(presetRange("last-month", new Date("2028-03-10T00:00:00Z"))).toEqual({ from: "2028-02-01", to: "2028-02-29", grouping: "day" });
  });
});

describe("parseRange", () => {
  it("nothing means today", () => {
    expect(parseRange({}, lateOn24)).toEqual({ from: "2026-11-24", to: "2026-11-24", grouping: "hour" });
    expect(parseRange({ preset: "", from: "", to: " ", grouping: "" }, lateOn24)).toEqual({ from: "2026-11-24", to: "2026-11-24", grouping: "hour" });
  });
  it("a known preset wins over from/to", () => {
    expect(parseRange({ preset: "7d", from: "2026-01-01", to: "2026-01-02" }, lateOn24)).toEqual({ from: "2026-11-18", to: "2026-11-24", grouping: "day" });
  });
  it("custom from/to, inclusive, with a grouping", () => {
    expect(parseRange({ preset: "custom", from: "2026-11-01", to: "2026-11-03" }, lateOn24)).toEqual({ from: "2026-11-01", to: "2026-11-03", grouping: "day" });
    expect(parseRange({ from: "2026-11-02", to: "2026-11-02", grouping: "day" }, lateOn24)).toEqual({ from: "2026-11-02", to: "2026-11-02", grouping: "day" });
    expect(parseRange({ from: "2026-11-02", to: "2026-11-02" }, lateOn24)).toEqual({ from: "2026-11-02", to: "2026-11-02", grouping: "hour" });
    expect(parseRange({ from: "2026-11-02" }, lateOn24)).toEqual({ from: "2026-11-02", to: "2026-11-02", grouping: "hour" });
    expect(parseRange({ to: "2026-11-05" }, lateOn24)).toEqual({ from: "2026-11-05", to: "2026-11-05", grouping: "hour" });
  });
  it("hour on several days falls back to day", () => {
    expect(parseRange({ preset: "7d", grouping: "hour" }, lateOn24)).toEqual({ from: "2026-11-18", to: "2026-11-24", grouping: "day" });
    expect(parseRange({ preset: "today", grouping: "day" }, lateOn24)).toEqual({ from: "2026-11-24", to: "2026-11-24", grouping: "day" });
  });
  it.each([
    [{ preset: "week" }],
    [{ from: "2026-11-31", to: "2026-12-01" }],
    [{ from: "2026-02-29" }],
    [{ from: "26-11-01", to: "2026-11-02" }],
    [{ from: "2026-11-05", to: "2026-11-04" }],
    [{ from: "2026-11-01", to: "2026-11-02", grouping: "minute" }],
    [{ from: "2026-11-01T00", to: "2026-11-02" }],
  ])("refuses %j", (input) => {
    expect(parseRange(input, lateOn24)).toEqual({ error: "RANGE_INVALID" });
  });
  it("every preset parses, and a preset is at most MAX_RANGE_DAYS long", () => {
    for (const preset of REPORT_PRESETS) expect(parseRange({ preset }, lateOn24)).toEqual(presetRange(preset, lateOn24));
    expect(MAX_RANGE_DAYS).toBe(92);
  });
  it("at most 92 days", () => {
    expect(parseRange({ from: "2026-01-01", to: "2026-04-02" }, lateOn24)).toEqual({ from: "2026-01-01", to: "2026-04-02", grouping: "day" });
    expect(parseRange({ from: "2026-01-01", to: "2026-04-03" }, lateOn24)).toEqual({ error: "RANGE_TOO_LONG" });
  });
});

describe("periodsOf, utcBounds, periodOf", () => {
  const week: ReportRange = { from: "2026-02-26", to: "2026-03-02", grouping: "day" };
  const day: ReportRange = { from: "2026-11-24", to: "2026-11-24", grouping: "hour" };
  it("lists days or Vientiane hours", () => {
    expect(periodsOf(week)).toEqual(["2026-02-26", "2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"]);
    const hours = periodsOf(day);
    expect(hours).toHaveLength(24);
    expect(hours[0]).toBe("2026-11-24T00");
    expect(hours[23]).toBe("2026-11-24T23");
    expect(periodsOf({ ...day, grouping: "day" })).toEqual(["2026-11-24"]);
  });
  it("bounds are [from 00:00+07, to+1 00:00+07) in UTC ISO", () => {
    expect(utcBounds(week)).toEqual({ fromIso: "2026-02-25T17:00:00.000Z", toIsoExclusive: "2026-03-02T17:00:00.000Z" });
    expect(utcBounds(day)).toEqual({ fromIso: "2026-11-23T17:00:00.000Z", toIsoExclusive: "2026-11-24T17:00:00.000Z" });
  });
  it("every instant inside the bounds falls in one of the periods, instants outside in none", () => {
    const { fromIso, toIsoExclusive } = utcBounds(day);
    const periods = new Set(periodsOf(day));
    for (let ms = Date.parse(fromIso); ms < Date.parse(toIsoExclusive); ms += 17 * 60 * 1000) expect(periods.has(periodOf(ms, "hour"))).toBe(true);
    expect(periods.has(periodOf(Date.parse(toIsoExclusive), "hour"))).toBe(false);
    expect(periods.has(periodOf(Date.parse(fromIso) - 1, "hour"))).toBe(false);
    expect(periodOf("2026-11-23T17:00:00.000Z", "hour")).toBe("2026-11-24T00");
    expect(periodOf("2026-11-24T16:59:59.999Z", "day")).toBe("2026-11-24");
  });
});
