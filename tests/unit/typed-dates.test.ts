import { describe, expect, it } from "vitest";
import { parseTypedDateTime, parseTypedDay, parseTypedTime, typedDateTimeValue, typedDayValue } from "../../workers/core/vientiane";

/**
 * What staff type into the back office's date fields (decision 088): text fields read day
 * first, never the browser's locale (a native date field is mm/dd/yyyy under en-US).
 */

describe("a typed day", () => {
  it("reads DD/MM/YYYY day first", () => {
    expect(parseTypedDay("02/12/2026")).toBe("2026-12-02");
    expect(parseTypedDay("12/02/2026")).toBe("2026-02-12");
    expect(parseTypedDay("  31/12/2026 ")).toBe("2026-12-31");
  });

  it("takes one-digit parts, the separators a phone's number pad has, or none", () => {
    expect(parseTypedDay("2/3/2026")).toBe("2026-03-02");
    expect(parseTypedDay("02.12.2026")).toBe("2026-12-02");
    expect(parseTypedDay("02-12-2026")).toBe("2026-12-02");
    expect(parseTypedDay("02 12 2026")).toBe("2026-12-02");
    expect(parseTypedDay("02122026")).toBe("2026-12-02");
  });

  it("reads the ISO day a link of the portal carries", () => {
    expect(parseTypedDay("2026-12-02")).toBe("2026-12-02");
  });

  it("refuses a day that does not exist, a leap day out of a leap year, and what is no day", () => {
    expect(parseTypedDay("31/02/2026")).toBeNull();
    expect(parseTypedDay("29/02/2026")).toBeNull();
    expect(parseTypedDay("29/02/2028")).toBe("2028-02-29");
    expect(parseTypedDay("00/12/2026")).toBeNull();
    expect(parseTypedDay("02/13/2026")).toBeNull();
    expect(parseTypedDay("12/31/2026")).toBeNull(); // the en-US order is not guessed
    expect(parseTypedDay("02/12/26")).toBeNull();
    expect(parseTypedDay("2026-13-01")).toBeNull();
    expect(parseTypedDay("")).toBeNull();
    expect(parseTypedDay("yesterday")).toBeNull();
    expect(parseTypedDay("02/12/2026 10:00")).toBeNull();
  });

  it("is shown back the way it is typed; a value that is no ISO day is kept as typed", () => {
    expect(typedDayValue("2026-12-02")).toBe("02/12/2026");
    expect(typedDayValue("31/02/2026")).toBe("31/02/2026");
    expect(typedDayValue("")).toBe("");
    expect(parseTypedDay(typedDayValue("2026-01-09"))).toBe("2026-01-09");
  });
});

describe("a typed date and time (Vientiane, 24-hour)", () => {
  it("reads DD/MM/YYYY HH:mm and HH:mm:ss as a Vientiane instant (UTC+7)", () => {
    expect(parseTypedDateTime("02/12/2026 09:05")).toBe(Date.parse("2026-12-02T02:05:00Z"));
    expect(parseTypedDateTime("02/12/2026 09:05:30")).toBe(Date.parse("2026-12-02T02:05:30Z"));
    expect(parseTypedDateTime("1/1/2027 0:30")).toBe(Date.parse("2026-12-31T17:30:00Z"));
    expect(parseTypedDateTime("02/12/2026 23:59")).toBe(Date.parse("2026-12-02T16:59:00Z"));
  });

  it("still reads what a datetime-local field sent", () => {
    expect(parseTypedDateTime("2026-12-02T09:05")).toBe(Date.parse("2026-12-02T02:05:00Z"));
  });

  it("refuses 24:00, a minute of 60, a day that does not exist, a 12-hour time", () => {
    expect(parseTypedDateTime("02/12/2026 24:00")).toBeNull();
    expect(parseTypedDateTime("02/12/2026 10:60")).toBeNull();
    expect(parseTypedDateTime("31/04/2026 10:00")).toBeNull();
    expect(parseTypedDateTime("02/12/2026 9:05 PM")).toBeNull();
    expect(parseTypedDateTime("02/12/2026")).toBeNull();
  });

  it("is shown back to the minute in Vientiane, and read again to the same instant", () => {
    const at = Date.parse("2026-12-02T17:10:00Z"); // 00:10 on the 3rd in Vientiane
    expect(typedDateTimeValue(at)).toBe("03/12/2026 00:10");
    expect(parseTypedDateTime(typedDateTimeValue(at))).toBe(at);
  });
});

describe("a typed time of day", () => {
  it("reads 24-hour HH:mm, one-digit hours and the digits alone", () => {
    expect(parseTypedTime("22:00")).toBe("22:00");
    expect(parseTypedTime("7:05")).toBe("07:05");
    expect(parseTypedTime("07.05")).toBe("07:05");
    expect(parseTypedTime("0705")).toBe("07:05");
    expect(parseTypedTime("00:00")).toBe("00:00");
  });

  it("refuses 24:00, a minute of 60 and a 12-hour time", () => {
    expect(parseTypedTime("24:00")).toBeNull();
    expect(parseTypedTime("12:60")).toBeNull();
    expect(parseTypedTime("7 pm")).toBeNull();
    expect(parseTypedTime("10:00 PM")).toBeNull();
    expect(parseTypedTime("")).toBeNull();
  });
});
