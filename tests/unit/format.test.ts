import { describe, expect, it } from "vitest";
import { formatDateTime, formatDay, withDisplayDates, formatMoney, formatNumber, formatRateNumber, NOT_AVAILABLE, roundDecimalString } from "~/lib/format";

describe("formatNumber (Lao locale: group '.', decimal ',')", () => {
  it.each([
    ["0", "0"],
    ["7", "7"],
    ["999", "999"],
    ["1000", "1.000"],
    ["1234567.891", "1.234.567,891"],
    ["-1234.5", "-1.234,5"],
    ["0001000", "1.000"],
    ["-0", "0"],
    ["-0.00", "0,00"],
    ["123456789012345678901234567890", "123.456.789.012.345.678.901.234.567.890"],
  ])("%s -> %s", (input, expected) => expect(formatNumber(input)).toBe(expected));

  it("accepts numbers and bigints", () => {
    expect(formatNumber(1234567)).toBe("1.234.567");
    expect(formatNumber(12345678901234567890n)).toBe("12.345.678.901.234.567.890");
    expect(formatNumber(1e21)).toBe("1.000.000.000.000.000.000.000");
  });

  it("returns what it cannot read unchanged", () => {
    expect(formatNumber("abc")).toBe("abc");
    expect(formatNumber("1,5")).toBe("1,5");
    expect(formatNumber("")).toBe("");
  });
});

describe("roundDecimalString (half away from zero, no floats)", () => {
  it.each([
    ["1.005", 2, "1.01"],
    ["1.004", 2, "1.00"],
    ["2.5", 0, "3"],
    ["-2.5", 0, "-3"],
    ["-0.004", 2, "0.00"],
    ["0.125", 2, "0.13"],
    ["99.999", 2, "100.00"],
    ["12", 2, "12.00"],
    ["9007199254740993.5", 0, "9007199254740994"],
  ] as const)("%s to %d -> %s", (value, digits, expected) => expect(roundDecimalString(value, digits)).toBe(expected));

  it("refuses what is not a decimal string", () => {
    expect(() => roundDecimalString("1e5", 2)).toThrow(RangeError);
  });
});

describe("formatMoney", () => {
  it("shows LAK with 0 decimals", () => {
    expect(formatMoney("1234567", "LAK")).toBe("₭1.234.567");
    expect(formatMoney("1234.5", "LAK")).toBe("₭1.235");
  });
  it("defaults to THB with 2 decimals", () => {
    expect(formatMoney("1234.5")).toBe("฿1.234,50");
    expect(formatMoney("0")).toBe("฿0,00");
  });
  it("shows USD and unknown currencies with their code", () => {
    expect(formatMoney("10", "USD")).toBe("$10,00");
    expect(formatMoney("10", "EUR")).toBe("EUR 10,00");
  });
  it("treats a missing or invalid amount as zero (the credit default)", () => {
    expect(formatMoney(undefined)).toBe("฿0,00");
    expect(formatMoney("oops", "LAK")).toBe("₭0");
  });
  it("keeps the sign of a negative amount", () => {
    expect(formatMoney("-5.5", "THB")).toBe("-฿5,50");
  });
});

describe("formatDateTime (DD/MM/YYYY HH:mm:ss, Asia/Vientiane)", () => {
  it("converts UTC to Vientiane time (UTC+7)", () => {
    expect(formatDateTime("2026-11-21T16:05:09Z")).toBe("21/11/2026 23:05:09");
    expect(formatDateTime("2026-11-21T17:00:00Z")).toBe("22/11/2026 00:00:00");
    expect(formatDateTime(new Date(Date.UTC(2026, 0, 1, 0, 0, 0)))).toBe("01/01/2026 07:00:00");
  });
  it("honours an explicit offset", () => {
    expect(formatDateTime("2026-03-01T08:00:00+07:00")).toBe("01/03/2026 08:00:00");
  });
  it("reads a date and time without a zone as UTC (SQLite datetime(), a bare date)", () => {
    expect(formatDateTime("2026-11-21 16:05:09")).toBe("21/11/2026 23:05:09");
    expect(formatDateTime("2026-11-21T16:05:09.987")).toBe("21/11/2026 23:05:09");
    expect(formatDateTime("2026-12-31")).toBe("31/12/2026 07:00:00");
    expect(formatDateTime("2026-12-31T18:30")).toBe("01/01/2027 01:30:00");
  });
  it("keeps the seconds of a timestamp with milliseconds (no rounding)", () => {
    expect(formatDateTime("2026-11-21T16:05:09.999Z")).toBe("21/11/2026 23:05:09");
  });
  it.each(["0001-01-01", "0001-01-01T00:00:00Z", "", "not a date", null, undefined])("%s -> N/A", (value) => {
    expect(formatDateTime(value)).toBe(NOT_AVAILABLE);
  });
});

describe("formatDay (a calendar day: DD/MM/YYYY, never the raw ISO text)", () => {
  it("a day of a reward week", () => {
    expect(formatDay("2026-11-23")).toBe("23/11/2026");
    expect(formatDay("2026-01-05")).toBe("05/01/2026");
  });
  it("anything else: N/A", () => {
    for (const odd of [null, undefined, "", "2026-W47", "2026-11-23T00:00:00Z"]) expect(formatDay(odd)).toBe(NOT_AVAILABLE);
  });
});

describe("withDisplayDates (an audit entry's before and after)", () => {
  it("writes each day and instant inside a text the product's way, and leaves the rest alone", () => {
    expect(withDisplayDates('{"weekStart":"2026-11-26","at":"2026-11-26T08:00:00.000Z","seen":"2026-11-26 17:00:05","amount":"2026"}')).toBe(
      '{"weekStart":"26/11/2026","at":"26/11/2026 15:00:00","seen":"27/11/2026 00:00:05","amount":"2026"}',
    );
    expect(withDisplayDates('{"code":"D2611260001","phone":"020-5555-1234"}')).toBe('{"code":"D2611260001","phone":"020-5555-1234"}');
  });
});

describe("formatRateNumber (a rate as staff read it, decision 088)", () => {
  it.each([
    ["600.000000", "600"],
    ["600.250000", "600,25"],
    ["1234.500000", "1.234,5"],
    ["0.035000", "0,035"],
    ["600", "600"],
  ])("%s -> %s", (input, expected) => expect(formatRateNumber(input)).toBe(expected));
});
