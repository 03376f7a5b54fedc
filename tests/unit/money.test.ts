import { describe, expect, it } from "vitest";
import {
  depositCredit,
  depositFrom,
  formatAmount,
  formatRate,
  parseAmount,
  parseRate,
  parseWholeKip,
  withdrawPayout,
  type Rate,
} from "../../workers/core/money";
import { buildLaoQr, crc16, field, parseFields, parseLaoQr } from "../../workers/core/emvco";
import { canTransition, DEPOSIT_TRANSITIONS, displayStatus, isFinal, ORDER_STATUSES } from "../../workers/core/orders";
import { statusColour } from "../../app/lib/format";

describe("amounts in minor units", () => {
  it.each([
    ["0", "THB", 0n],
    ["1", "THB", 100n],
    ["1234.5", "THB", 123450n],
    ["1234.56", "THB", 123456n],
    ["1234.560", "THB", 123456n],
    ["50000", "LAK", 5000000n],
    [" 7.05 ", "USD", 705n],
    ["999999999999999999", "LAK", 99999999999999999900n],
  ] as const)("%s %s -> %s", (text, currency, minor) => {
    expect(parseAmount(text, currency)).toBe(minor);
    expect(parseAmount(formatAmount(minor, currency), currency)).toBe(minor);
  });
  it.each(["", "-1", "+1", "1e3", "1.234", "1,5", "abc", ".5", "1.", "0x10", "1 000"])("refuses %j", (text) => {
    expect(parseAmount(text, "THB")).toBeNull();
  });
  it("formats back to decimal strings", () => {
    expect(formatAmount(123450n, "THB")).toBe("1234.50");
    expect(formatAmount(5n, "THB")).toBe("0.05");
    expect(formatAmount(-5n, "THB")).toBe("-0.05");
  });
  it("rates have 6 decimals and must be positive", () => {
    expect(parseRate("590.123456")).toBe(590123456n);
    expect(formatRate(590123456n)).toBe("590.123456");
    expect(parseRate("0")).toBeNull();
    expect(parseRate("1.1234567")).toBeNull();
  });
});

describe("conversion (docs/product.md §9) with explicit rounding", () => {
  // 1 THB = 600 LAK to sell credit, 580 LAK to buy it back
  const rate: Rate = { currency: "THB", sell: parseRate("600")!, buy: parseRate("580")! };
  it("DEPOSIT = amount / sell, rounded down to 0.01 credit", () => {
    expect(depositCredit(parseAmount("60000", "LAK")!, rate)).toBe(parseAmount("100", "THB"));
    expect(depositCredit(parseAmount("1000", "LAK")!, rate)).toBe(parseAmount("1.66", "THB")); // 1.666… -> 1.66
    expect(depositCredit(parseAmount("5", "LAK")!, rate)).toBe(0n); // 0.0083 -> 0
  });
  it("WITHDRAW = amount * buy, rounded down to whole kip", () => {
    expect(withdrawPayout(parseAmount("100", "THB")!, rate)).toBe(parseAmount("58000", "LAK"));
    const odd: Rate = { currency: "THB", sell: parseRate("600")!, buy: parseRate("579.999")! };
    expect(withdrawPayout(parseAmount("1", "THB")!, odd)).toBe(parseAmount("579", "LAK"));
  });
  it("DEPOSIT_FROM = amount * sell, rounded up to whole kip", () => {
    expect(depositFrom(parseAmount("100", "THB")!, rate)).toBe(parseAmount("60000", "LAK"));
    const odd: Rate = { currency: "THB", sell: parseRate("600.001")!, buy: parseRate("580")! };
    expect(depositFrom(parseAmount("1", "THB")!, odd)).toBe(parseAmount("601", "LAK"));
  });
  it("no rate -> 0", () => {
    expect(depositCredit(100n, null)).toBe(0n);
    expect(withdrawPayout(100n, null)).toBe(0n);
    expect(depositFrom(100n, null)).toBe(0n);
  });
  it("never loses or invents money over a round trip: depositFrom(depositCredit(x)) <= x", () => {
    for (const lak of ["100", "999", "12345", "60000", "777777"]) {
      const paid = parseAmount(lak, "LAK")!;
      const credit = depositCredit(paid, rate);
      expect(depositFrom(credit, rate)).toBeLessThanOrEqual(paid);
    }
  });
  it("handles amounts past 2^53 exactly", () => {
    const huge = parseAmount("900719925474099300", "LAK")!;
    expect(formatAmount(depositCredit(huge, rate), "THB")).toBe("1501199875790165.50"); // 900719925474099300 / 600;
  });
});

describe("EMVCo / LAO QR", () => {
  it("CRC-16/CCITT-FALSE check value", () => {
    expect(crc16("123456789")).toBe("29B1");
  });
  it("builds fields as ID + 2-digit length + value", () => {
    expect(field("53", "418")).toBe("5303418");
    expect(() => field("5", "x")).toThrow();
    expect(() => field("59", "ສະບາຍດີ")).toThrow();
  });
  const input = {
    iin: "27710418",
    merchantId: "DEMO0001",
    amount: "50000",
    merchantName: "DEMO AGENCY",
    merchantCity: "VIENTIANE",
    reference: "D2611210001",
  };
  it("round-trips a dynamic QR with our reference and a valid CRC", () => {
    const payload = buildLaoQr(input);
    expect(payload.startsWith("000201010212")).toBe(true);
    expect(payload).toContain("0016A005266284662577");
    expect(payload).toContain("5303418");
    expect(payload).toContain("540550000");
    expect(payload).toContain("5802LA");
    expect(payload.slice(-8, -4)).toBe("6304");
    const parsed = parseLaoQr(payload);
    expect(parsed).toEqual({
      ok: true,
      qr: {
        dynamic: true,
        aid: "A005266284662577",
        iin: "27710418",
        paymentType: "002",
        merchantId: "DEMO0001",
        currency: "418",
        amount: "50000",
        country: "LA",
        merchantName: "DEMO AGENCY",
        merchantCity: "VIENTIANE",
        billNumber: "D2611210001",
        reference: "D2611210001",
      },
    });
  });
  it("refuses a tampered payload (CRC) and a broken one", () => {
    const payload = buildLaoQr(input);
    const tampered = payload.replace("540550000", "540510000");
    expect(parseLaoQr(tampered)).toEqual({ ok: false, reason: "CRC" });
    expect(parseLaoQr("hello")).toEqual({ ok: false, reason: "FORMAT" });
    const notLapnet = "00020101021238080004ABCD6304";
    expect(parseLaoQr(notLapnet + crc16(notLapnet))).toEqual({ ok: false, reason: "NOT_LAPNET" });
  });
  it("checks a real-shaped BCEL OnePay code structure", () => {
    const body =
      "00020101021115310004UPI0112123456789012345638670016A0052662846625770108277104180203002031512345678901234552045812530341858025LA5909BCEL SHOP6009VIENTIANE62110107TERM0016304";
    // a field length is off by design in this sample: the parser must notice
    expect(parseFields(body.slice(0, -4))).toBeNull();
  });
  it("refuses bad input when building", () => {
    expect(() => buildLaoQr({ ...input, iin: "123" })).toThrow();
    expect(() => buildLaoQr({ ...input, amount: "1e5" })).toThrow();
  });
});

describe("deposit state machine (decisions 004 and 005)", () => {
  const allowed = new Set(["OPEN>PAID", "OPEN>CANCELED", "PAID>SUCCESS", "PAID>FAILED", "FAILED>PAID"]);
  it("allows exactly the designed arrows and refuses every other", () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        expect(canTransition(DEPOSIT_TRANSITIONS, from, to), `${from}>${to}`).toBe(allowed.has(`${from}>${to}`));
      }
    }
  });
  it("knows the final states", () => {
    expect(ORDER_STATUSES.filter((s) => isFinal(DEPOSIT_TRANSITIONS, s))).toEqual(["CANCELED", "SUCCESS", "REJECTED"]); // FAILED can be retried by staff
  });
  it("colours statuses as docs/product.md §4 and shows REJECTED as cancelled", () => {
    expect(ORDER_STATUSES.map(statusColour)).toEqual(["grey", "red", "yellow", "green", "red", "red"]);
    expect(statusColour("SOMETHING")).toBe("grey");
    expect(displayStatus("REJECTED")).toBe("CANCELED");
    expect(displayStatus("PAID")).toBe("PAID");
  });
});

describe("whole kip as typed on the deposit form (schema and credit preview share it)", () => {
  it("reads digit groups separated by space, dot or comma", () => {
    expect(parseWholeKip("100000")).toBe(10_000_000n);
    expect(parseWholeKip("100.000")).toBe(10_000_000n);
    expect(parseWholeKip("1,000,000")).toBe(100_000_000n);
    expect(parseWholeKip(" 100 000 ")).toBe(10_000_000n);
  });
  it("refuses what the schema refuses (decimals, loose separators, garbage)", () => {
    expect(parseWholeKip("1.5")).toBeNull();
    expect(parseWholeKip("1,00")).toBeNull();
    expect(parseWholeKip("12a")).toBeNull();
    expect(parseWholeKip("")).toBeNull();
    expect(parseWholeKip("1234567890123456")).toBeNull();
  });
});
