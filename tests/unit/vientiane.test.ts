import { describe, expect, it } from "vitest";
import {
  addVientianeMonths,
  calendarDayMs,
  DAY_MS,
  parseVientianeDateTime,
  VIENTIANE_OFFSET_MS,
  vientianeClock,
  vientianeDate,
  vientianeDateTime,
  vientianeDayBounds,
  vientianeDayStart,
  vientianeDisplay,
  vientianeInstant,
  vientianeMinutes,
  vientianeMonthStart,
} from "../../workers/core/vientiane";

/** Vientiane time (decision 071): UTC+7 all year, so a Vientiane day D runs from D-1 17:00 UTC to D 17:00 UTC. */

const utc = (iso: string) => Date.parse(iso);
const lastOf24 = utc("2026-11-24T16:59:59.999Z"); // 23:59:59.999 on the 24th in Vientiane
const firstOf25 = utc("2026-11-24T17:00:00.000Z"); // 00:00 on the 25th

describe("the offset", () => {
  it("is seven hours, the same in July as in November (no daylight saving)", () => {
    expect(VIENTIANE_OFFSET_MS).toBe(7 * 3_600_000);
    expect(DAY_MS).toBe(86_400_000);
    expect(vientianeClock(utc("2026-07-01T12:00:00Z")).getUTCHours()).toBe(19);
    expect(vientianeClock(utc("2026-11-01T12:00:00Z")).getUTCHours()).toBe(19);
  });
});

describe("the day of an instant", () => {
  it("turns at 17:00 UTC", () => {
    expect(vientianeDate(lastOf24)).toBe("2026-11-24");
    expect(vientianeDate(firstOf25)).toBe("2026-11-25");
    expect(vientianeDate(new Date(firstOf25))).toBe("2026-11-25");
  });

  it("turns the month and the year with the Vientiane clock, not UTC's", () => {
    expect(vientianeDate(utc("2026-01-31T17:00:00Z"))).toBe("2026-02-01");
    expect(vientianeDate(utc("2028-02-28T17:00:00Z"))).toBe("2028-02-29"); // leap year
    expect(vientianeDate(utc("2026-12-31T16:59:59.999Z"))).toBe("2026-12-31");
    expect(vientianeDate(utc("2026-12-31T17:00:00Z"))).toBe("2027-01-01");
  });

  it("reads the wall clock to the second, and in the product's display format", () => {
    expect(vientianeDateTime(utc("2026-12-31T17:05:09.999Z"))).toBe("2027-01-01T00:05:09");
    expect(vientianeDateTime(utc("2026-11-21T16:05:09Z"))).toBe("2026-11-21T23:05:09");
    expect(vientianeDisplay(utc("2026-12-31T17:05:09Z"))).toBe("01/01/2027 00:05:09");
    expect(vientianeDisplay(utc("2026-11-21T16:05:09Z"))).toBe("21/11/2026 23:05:09");
  });

  it("counts the minutes after Vientiane's midnight", () => {
    expect(vientianeMinutes(firstOf25)).toBe(0);
    expect(vientianeMinutes(lastOf24)).toBe(24 * 60 - 1);
    expect(vientianeMinutes(utc("2026-11-27T15:30:00Z"))).toBe(22 * 60 + 30);
  });
});

describe("the bounds of a day", () => {
  it("a day is [D-1 17:00Z, D 17:00Z)", () => {
    expect(vientianeDayBounds("2026-11-25")).toEqual({ start: firstOf25, end: firstOf25 + DAY_MS });
    expect(vientianeDayBounds("2027-01-01")).toEqual({ start: utc("2026-12-31T17:00:00Z"), end: utc("2027-01-01T17:00:00Z") });
  });

  it("is null for what is no real day", () => {
    for (const day of ["2026-02-29", "2026-02-30", "2026-04-31", "2026-13-01", "2026-00-10", "26/11/2026", "2026-11-5", "", "0050-01-01"]) {
      expect(vientianeDayBounds(day), day).toBeNull();
      expect(calendarDayMs(day), day).toBeNull();
    }
    expect(vientianeDayBounds("2028-02-29")).not.toBeNull();
  });

  it("a calendar day is its UTC midnight, a whole number of days", () => {
    expect(calendarDayMs("2026-11-25")).toBe(utc("2026-11-25T00:00:00Z"));
    expect(calendarDayMs("2026-11-25")! % DAY_MS).toBe(0);
  });

  it("the day holding an instant starts at its Vientiane midnight, either side of 17:00 UTC", () => {
    expect(vientianeDayStart(lastOf24)).toBe(utc("2026-11-23T17:00:00Z"));
    expect(vientianeDayStart(firstOf25)).toBe(firstOf25);
    expect(vientianeDayStart(utc("2026-12-31T20:00:00Z"))).toBe(utc("2026-12-31T17:00:00Z"));
  });
});

describe("months", () => {
  it("a month starts on the 1st at 00:00 Vientiane, across month ends and New Year", () => {
    expect(vientianeMonthStart(utc("2026-11-30T16:59:59.999Z"))).toBe(utc("2026-10-31T17:00:00Z"));
    expect(vientianeMonthStart(utc("2026-11-30T17:00:00Z"))).toBe(utc("2026-11-30T17:00:00Z")); // already 1 December
    expect(vientianeMonthStart(utc("2026-12-31T17:00:00Z"))).toBe(utc("2026-12-31T17:00:00Z")); // 1 January 2027
  });

  it("adding months keeps the wall clock; the 31st becomes the month's last day", () => {
    const jan31 = utc("2027-01-31T03:00:00Z"); // 31/01/2027 10:00 Vientiane
    expect(vientianeDisplay(addVientianeMonths(jan31, 1))).toBe("28/02/2027 10:00:00");
    expect(vientianeDisplay(addVientianeMonths(jan31, 13))).toBe("29/02/2028 10:00:00");
    // 31 December 23:30 Vientiane is still 16:30 UTC on the 31st: a month later is 31 January.
    expect(vientianeDisplay(addVientianeMonths(utc("2026-12-31T16:30:00Z"), 1))).toBe("31/01/2027 23:30:00");
    // 00:30 on 1 January Vientiane is 31 December UTC: the month added is Vientiane's January.
    expect(vientianeDisplay(addVientianeMonths(utc("2026-12-31T17:30:00Z"), 1))).toBe("01/02/2027 00:30:00");
  });
});

describe("a Vientiane wall-clock time to an instant", () => {
  it("is seven hours before the same UTC fields, across New Year", () => {
    expect(vientianeInstant(2027, 1, 1, 0, 0, 0)).toBe(utc("2026-12-31T17:00:00Z"));
    expect(vientianeInstant(2026, 11, 25)).toBe(firstOf25);
    expect(vientianeInstant(2026, 11, 24, 23, 59, 59)).toBe(utc("2026-11-24T16:59:59Z"));
  });

  it("is null for no real time", () => {
    expect(vientianeInstant(2026, 2, 29, 10, 0)).toBeNull();
    expect(vientianeInstant(2026, 4, 31, 10, 0)).toBeNull();
    expect(vientianeInstant(2026, 13, 1, 10, 0)).toBeNull();
    expect(vientianeInstant(2026, 1, 1, 24, 0)).toBeNull();
    expect(vientianeInstant(2026, 1, 1, 23, 60)).toBeNull();
    expect(vientianeInstant(2026, 1, 1, 23, 59, 60)).toBeNull();
    expect(vientianeInstant(2026, 1, 1.5, 0, 0)).toBeNull();
    expect(vientianeInstant(Number.NaN, 1, 1)).toBeNull();
  });

  it("reads a year below 100 as that year, not 19xx", () => {
    expect(new Date(vientianeInstant(50, 1, 1, 7)!).toISOString()).toBe("0050-01-01T00:00:00.000Z");
  });

  it("reads what staff type into a datetime-local field, with or without seconds", () => {
    expect(parseVientianeDateTime("2026-11-25T00:00")).toBe(firstOf25);
    expect(parseVientianeDateTime("2027-01-01T00:05:09")).toBe(utc("2026-12-31T17:05:09Z"));
    expect(parseVientianeDateTime(vientianeDateTime(lastOf24 - 999))).toBe(lastOf24 - 999);
    for (const text of ["2026-02-31T10:00", "2026-01-01T24:00", "2026-11-25", "25/11/2026 10:00", "2026-11-25 10:00", "2026-11-25T10:00+07:00", ""]) {
      expect(parseVientianeDateTime(text), text).toBeNull();
    }
  });
});
