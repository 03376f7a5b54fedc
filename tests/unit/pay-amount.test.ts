import { describe, expect, it } from "vitest";
import {
  BANK_CLOCK_GRACE_MS,
  choosePayAmount,
  MAX_EXTRA_KIP,
  paidInTime,
  paidLate,
  PAY_AMOUNT_COOL_DOWN_MS,
  payAmountRange,
  retryPick,
  stillHeld,
} from "../../workers/core/pay-amount";

const K = 100n; // LAK minor per kip

describe("the unique pay amount (decision 016)", () => {
  it("is the asked amount plus the fewest free kip (1..999)", () => {
    expect(choosePayAmount(100000n * K, [], 0)).toBe(100001n * K);
    expect(choosePayAmount(100000n * K, [100001n * K, 100002n * K], 0)).toBe(100003n * K);
    expect(choosePayAmount(100000n * K, [100002n * K], 0)).toBe(100001n * K);
  });

  it("a retry picks further among the free ones; none when all 999 are held", () => {
    expect(choosePayAmount(100000n * K, [], 5)).toBe(100006n * K);
    expect(choosePayAmount(100000n * K, [], 10_000)).toBe(100999n * K);
    const all = Array.from({ length: MAX_EXTRA_KIP }, (_, i) => (100001n + BigInt(i)) * K);
    expect(choosePayAmount(100000n * K, all, 0)).toBeNull();
    expect(payAmountRange(100000n * K)).toEqual({ lowMinor: 100001n * K, highMinor: 100999n * K });
    expect(retryPick(0, 0.99)).toBe(0);
    expect(retryPick(3, 0.5)).toBe(6);
  });

  it("in time by the bank's clock: within created..expires (with the grace); late within the cool-down", () => {
    const order = { createdAt: 1_000_000, expiresAt: 1_900_000 };
    expect(paidInTime(1_000_000, order)).toBe(true);
    expect(paidInTime(1_900_000 + BANK_CLOCK_GRACE_MS, order)).toBe(true);
    expect(paidInTime(1_900_001 + BANK_CLOCK_GRACE_MS, order)).toBe(false);
    expect(paidInTime(1_000_000 - BANK_CLOCK_GRACE_MS - 1, order)).toBe(false);
    expect(paidLate(1_900_001 + BANK_CLOCK_GRACE_MS, order)).toBe(true);
    expect(paidLate(1_900_000 + PAY_AMOUNT_COOL_DOWN_MS + 1, order)).toBe(false);
  });

  it("an amount stays held until a cool-down after its order ended", () => {
    expect(stillHeld({ expiresAt: 10_000, endedAt: null }, 10_000 + PAY_AMOUNT_COOL_DOWN_MS - 1)).toBe(true);
    expect(stillHeld({ expiresAt: 10_000, endedAt: null }, 10_000 + PAY_AMOUNT_COOL_DOWN_MS)).toBe(false);
    expect(stillHeld({ expiresAt: 10_000, endedAt: 5_000 }, 5_000 + PAY_AMOUNT_COOL_DOWN_MS)).toBe(false);
  });
});
