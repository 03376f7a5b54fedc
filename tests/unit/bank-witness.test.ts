import { describe, expect, it } from "vitest";
import { orderCodeCandidates, windowMs } from "../../workers/core/bank-witness";

/** What a bank text names and the channel's window (the rules themselves: tests/unit/bank-transfers.test.ts, decision 069). */
const MIN = 60_000;

describe("bank texts and the window", () => {
  it("order codes a bank text may name; the window stays within 1..1440 minutes", () => {
    expect(orderCodeCandidates("Ref: FT9876543210 d261127abcde", null)).toEqual(["FT9876543210", "D261127ABCDE"]);
    expect(orderCodeCandidates("BCEL One: +120,003.00 LAK received")).toEqual([]);
    expect(windowMs(0)).toBe(10 * MIN);
    expect(windowMs(5000)).toBe(1440 * MIN);
  });
});
