import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  canonicalAmount,
  canonicalLak,
  depositAmountError,
  isLakAmount,
  isWholeKip,
  KIP,
  KIP_LIMIT_DIGITS,
  limitError,
  parseRate,
  parseSignedAmount,
  parseTypedCredit,
  parseWholeKip,
  previewCredit,
  withdrawAmountError,
} from "../../workers/core/money";
import { decimalOf, minorOf, transferAmount } from "../../workers/ports/providers/http";
import { depositSchema, type DepositSchema } from "../../app/lib/schemas/deposit";
import type { TransferInput } from "../../workers/ports/provider";
import type { startDeposit } from "../../workers/services/deposits";
import type { depositLimitGuard } from "../../workers/services/wallets";
import type { confirmWithdraw, reviewWithdraw, WithdrawInput } from "../../workers/services/withdrawals";
import type { checkWithdrawAmount } from "../../workers/core/withdraw";
import type { OpenDepositInput, OpenWithdrawInput } from "../../workers/wallet/player-wallet";
import { LimitsSchema } from "../../app/lib/schemas/limits";
import { withdrawSchema, type WithdrawSchema } from "../../app/lib/schemas/withdraw";

/**
 * The amount rules of workers/core/money.ts ("one rule per fact"): each layer that
 * reads or bounds a deposit or withdraw amount calls these, so the inputs every former copy
 * handled are pinned here: services/deposits/deposit.ts's `% 100n` and min/max, admin-promotions.ts's
 * min/max over scaled(), wallet/deposits.ts's normalizeLak regex, ports/providers/http.ts's
 * signed parse and transfer form, ports/provider.ts's parseSigned. The deposit and withdraw
 * amounts are read once, by the form's schema (depositSchema, withdrawSchema); the layers after
 * it take its bigint.
 */

const limits = { min: "10000", max: "50000000" };

describe("the deposit amount (docs/product.md §5): positive whole kip within the agency's limits", () => {
  it.each([
    [6_000_000n], // 60000 kip
    [1_000_000n], // the minimum itself
    [5_000_000_000n], // the maximum itself
  ])("%s att is a deposit amount", (minor) => {
    expect(depositAmountError(minor, limits)).toBeNull();
  });
  it.each([
    [0n, "AMOUNT_INVALID"],
    [6_000_050n, "AMOUNT_INVALID"], // att: not whole kip (the service's former `% 100n`)
    [6_000_001n, "AMOUNT_INVALID"],
    [-6_000_000n, "AMOUNT_INVALID"],
    [6_000n, "AMOUNT_TOO_LOW"], // 60 kip
    [999_900n, "AMOUNT_TOO_LOW"],
    [5_000_000_100n, "AMOUNT_TOO_HIGH"],
  ] as const)("%s att -> %s", (minor, error) => {
    expect(depositAmountError(minor, limits)).toBe(error);
  });
  it("a limit that cannot be read bounds nothing (minimum 0, no maximum)", () => {
    expect(depositAmountError(100n, { min: "", max: "" })).toBeNull();
    expect(depositAmountError(99_999_999_999_900n, { min: "x", max: "y" })).toBeNull();
  });
  it("whole kip is 100 att", () => {
    expect(KIP).toBe(100n);
    expect(isWholeKip(6_000_000n)).toBe(true);
    expect(isWholeKip(6_000_050n)).toBe(false);
  });
});

describe("the agency's bounds, shared by deposit, withdraw and a promotion's set amount", () => {
  it("include both ends, in the amount's own currency", () => {
    expect(limitError(1_000_000n, limits, "LAK")).toBeNull();
    expect(limitError(999_999n, limits, "LAK")).toBe("AMOUNT_TOO_LOW");
    expect(limitError(5_000_000_001n, limits, "LAK")).toBe("AMOUNT_TOO_HIGH");
    expect(limitError(10_000n, { min: "100", max: "50000" }, "THB")).toBeNull();
    expect(limitError(9_999n, { min: "100", max: "50000" }, "THB")).toBe("AMOUNT_TOO_LOW");
    expect(limitError(5_000_001n, { min: "100", max: "50000" }, "THB")).toBe("AMOUNT_TOO_HIGH");
  });
  it("a set amount of 0 (what the promotion check reads for an unreadable one) is below any minimum", () => {
    expect(limitError(0n, limits, "LAK")).toBe("AMOUNT_TOO_LOW");
  });
});

describe("kip as a player types it (deposit form, its credit preview, the limits form)", () => {
  it.each([
    ["100000", 10_000_000n],
    ["100.000", 10_000_000n],
    ["100,000", 10_000_000n],
    [" 100 000 ", 10_000_000n],
    ["1.000.000", 100_000_000n],
    ["0", 0n],
    ["123456789012345", 12_345_678_901_234_500n],
  ])("%j -> %s att", (text, minor) => {
    expect(parseWholeKip(text)).toBe(minor);
  });
  it.each(["1.5", "1,50", "60000.00", "1e3", "-1", "+1", "", "1234567890123456"])("refuses %j", (text) => {
    expect(parseWholeKip(text)).toBeNull();
  });
  it("a deposit limit is 1 to 12 digits and never 0", () => {
    for (const ok of ["1", "100000", "999999999999"]) expect(KIP_LIMIT_DIGITS.test(ok), ok).toBe(true);
    for (const bad of ["0", "00", "0100", "1000000000000", "1.5"]) expect(KIP_LIMIT_DIGITS.test(bad), bad).toBe(false);
  });
  it("the credit preview: what the typed kip buys at the sell rate, none while it is no positive amount", () => {
    const sell = parseRate("600")!;
    expect(previewCredit("60.000", sell)).toBe(10_000n); // 100.00 credit
    expect(previewCredit("1000", sell)).toBe(166n); // rounded down
    expect(previewCredit("0", sell)).toBeNull();
    expect(previewCredit("1.5", sell)).toBeNull();
    expect(previewCredit("", sell)).toBeNull();
  });
});

describe("credit as a player types it (withdraw form)", () => {
  it.each([
    ["200", 20_000n],
    [" 1 234,5 ", 123_450n],
    ["1,50", 150n],
    ["1,000", 100_000n], // digit groups, as kip's: a separator before exactly 3 digits
    ["1,000,000", 100_000_000n],
    ["1.000", 100_000n],
    ["1,234.50", 123_450n],
    ["1.234,56", 123_456n],
    ["999999999999.99", 99_999_999_999_999n],
    ["0", 0n],
  ])("%j -> %s satang", (typed, minor) => {
    expect(parseTypedCredit(typed)).toBe(minor);
  });
  it.each(["1.5.5", "1.2345", "1000000000000", "-1", "1e3", "", "abc", "1,2,3"])("refuses %j", (typed) => {
    expect(parseTypedCredit(typed)).toBeNull();
  });
});

describe("the withdraw amount (docs/product.md §5): positive credit within the agency's limits (in credit)", () => {
  const credit = { min: "100", max: "50000" };
  it("both ends included; 0 is no amount; a limit that cannot be read bounds nothing", () => {
    expect(withdrawAmountError(10_000n, credit)).toBeNull();
    expect(withdrawAmountError(5_000_000n, credit)).toBeNull();
    expect(withdrawAmountError(0n, credit)).toBe("AMOUNT_INVALID");
    expect(withdrawAmountError(9_999n, credit)).toBe("AMOUNT_TOO_LOW");
    expect(withdrawAmountError(5_000_001n, credit)).toBe("AMOUNT_TOO_HIGH");
    expect(withdrawAmountError(1n, { min: "", max: "x" })).toBeNull();
  });
});

describe("the form schemas read amounts by these rules (server and browser share them)", () => {
  const key = crypto.randomUUID();
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    return data;
  };
  const deposit = (amount: string, bounds = { min: "", max: "" }) =>
    parseWithZod(form({ provider: "betflix", channelCode: "BCEL-QR", amount, idempotencyKey: key }), { schema: depositSchema(bounds) });
  const withdraw = (amount: string, extra: Record<string, string> = {}, bounds = { min: "", max: "" }) =>
    parseWithZod(form({ provider: "betflix", amount, idempotencyKey: key, ...extra }), { schema: withdrawSchema(bounds) });
  const limit = (day: string) => parseWithZod(form({ day, week: "", month: "", playMinutes: "" }), { schema: LimitsSchema });
  it("deposit: the schema reads exactly what parseWholeKip reads, and hands on LAK minor units (bigint)", () => {
    for (const typed of ["60000", "60.000", "60,000", "60 000", "1.000.000", "1.5", "1,50", "60000.00", "12a", "-1", "1234567890123456"]) {
      const parsed = deposit(typed);
      expect(parsed.status === "success", typed).toBe(parseWholeKip(typed) !== null);
      if (parsed.status === "success") expect(parsed.value.amountMinor).toBe(parseWholeKip(typed));
      else expect(parsed.error?.amount).toEqual(["deposit.validation.amount"]);
    }
    expect(deposit("1,000,000")).toMatchObject({ status: "success", value: { amountMinor: 1_000_000n * KIP } });
    expect(deposit("0")).toMatchObject({ error: { amount: ["deposit.errors.AMOUNT_INVALID"] } });
  });
  it("deposit: the agency's bounds, both included, with docs/product.md §8's codes as the field's message", () => {
    const bounds = { min: "10000", max: "50000000" };
    expect(deposit("10.000", bounds)).toMatchObject({ status: "success", value: { amountMinor: 1_000_000n } });
    expect(deposit("50,000,000", bounds)).toMatchObject({ status: "success", value: { amountMinor: 5_000_000_000n } });
    expect(deposit("9 999", bounds)).toMatchObject({ error: { amount: ["deposit.errors.AMOUNT_TOO_LOW"] } });
    expect(deposit("50.000.001", bounds)).toMatchObject({ error: { amount: ["deposit.errors.AMOUNT_TOO_HIGH"] } });
    // the answer keeps the text as typed, for the form to show again
    expect(deposit("9 999", bounds).reply().initialValue).toMatchObject({ amount: "9 999" });
  });
  it("withdraw: the schema reads exactly what parseTypedCredit reads, and hands on credit minor units (bigint)", () => {
    for (const typed of ["200", " 1 234,5 ", "1,50", "1,000,000", "1.000", "1,234.50", "1.2345", "1000000000000", "12a", "-1"]) {
      const parsed = withdraw(typed);
      expect(parsed.status === "success", typed).toBe(parseTypedCredit(typed) !== null);
      if (parsed.status === "success") expect(parsed.value.amountMinor).toBe(parseTypedCredit(typed));
      else expect(parsed.error?.amount).toEqual(["withdraw.validation.amount"]);
    }
    expect(withdraw("1,000,000")).toMatchObject({ status: "success", value: { amountMinor: 100_000_000n } });
    expect(withdraw("0")).toMatchObject({ error: { amount: ["withdraw.errors.AMOUNT_INVALID"] } });
    // all credit: "ALL", the provider's credit bounded later (core/withdraw.ts); no amount and no box: asked for one
    expect(withdraw("", { all: "on" })).toMatchObject({ status: "success", value: { amountMinor: "ALL" } });
    expect(withdraw("")).toMatchObject({ error: { amount: ["withdraw.validation.amount"] } });
  });
  it("withdraw: the agency's bounds in credit, both included, with docs/product.md §8's codes as the field's message", () => {
    const bounds = { min: "100", max: "50000" };
    expect(withdraw("100", {}, bounds)).toMatchObject({ status: "success", value: { amountMinor: 10_000n } });
    expect(withdraw("50,000", {}, bounds)).toMatchObject({ status: "success", value: { amountMinor: 5_000_000n } });
    expect(withdraw("99,99", {}, bounds)).toMatchObject({ error: { amount: ["withdraw.errors.AMOUNT_TOO_LOW"] } });
    expect(withdraw("1,000,000", {}, bounds)).toMatchObject({ error: { amount: ["withdraw.errors.AMOUNT_TOO_HIGH"] } });
    // the answer keeps the text as typed, for the form to show again
    expect(withdraw("1,000,000", {}, bounds).reply().initialValue).toMatchObject({ amount: "1,000,000" });
    // with all credit the typed amount is not bounded
    expect(withdraw("50", { all: "on" }, bounds)).toMatchObject({ status: "success", value: { amountMinor: "ALL" } });
  });
  it("limits: digit groups, 1 to 12 digits, never 0, or limits.validation.amount", () => {
    expect(limit("100.000")).toMatchObject({ status: "success", value: { day: "100000" } });
    expect(limit("0")).toMatchObject({ error: { day: ["limits.validation.amount"] } });
    expect(limit("0100")).toMatchObject({ error: { day: ["limits.validation.amount"] } });
  });
});

describe("the canonical form and the amount a payment reports", () => {
  it("canonical: positive, 2 decimals (kip as a bank, a gateway or staff writes it; credit as a provider is sent it)", () => {
    expect(canonicalLak("60000")).toBe("60000.00");
    expect(canonicalLak("60000.0")).toBe("60000.00");
    expect(canonicalLak(" 60000.000 ")).toBe("60000.00");
    expect(canonicalLak("0")).toBeNull();
    expect(canonicalLak(null)).toBeNull();
    expect(canonicalLak("")).toBeNull();
    expect(canonicalAmount("100", "THB")).toBe("100.00");
    expect(canonicalAmount("100.5", "THB")).toBe("100.50");
    expect(canonicalAmount("1.234", "THB")).toBeNull();
    expect(canonicalAmount("-5", "THB")).toBeNull();
  });
  // What wallet/deposits.ts's normalizeLak compared (a gateway's amount against the order's), now isLakAmount.
  it.each([
    ["50000", true],
    ["50000.00", true],
    ["50000.0", true],
    [" 50000 ", true],
    ["050000", true],
    ["50000.000", true], // normalizeLak said "mismatch" (its regex took at most 2 decimals); canonicalLak, which records the same payment, always read it as 50000.00
    ["50000.5", false],
    ["50000.", false],
    ["5000", false],
    ["-50000", false],
    ["50,000", false],
    ["", false],
    ["abc", false],
  ])("a payment of %j for an order of 50000 kip: %s", (text, same) => {
    expect(isLakAmount(text, 5_000_000n)).toBe(same);
  });
});

describe("provider amounts (ports/providers/http.ts and the sandbox port read them by the core rules)", () => {
  it("signed amounts", () => {
    expect(parseSignedAmount("-12.50", "THB")).toBe(-1250n);
    expect(parseSignedAmount("12.5", "THB")).toBe(1250n);
    expect(parseSignedAmount("-0", "THB")).toBe(0n);
    for (const bad of ["-", "--1", "+1", "1.234", "", "1,5"]) expect(parseSignedAmount(bad, "THB"), bad).toBeNull();
  });
  it("a transfer's minor units are written in the credit's decimal form, or refused before sending", () => {
    expect(transferAmount(10_000n)).toBe("100.00");
    expect(transferAmount(10_025n)).toBe("100.25");
    for (const bad of [0n, -500n]) expect(transferAmount(bad), String(bad)).toBeNull();
  });
  it("answers: strings with thousand separators, numbers with at most 2 decimals, a sign only when asked for", () => {
    expect(decimalOf("1,234.5")).toBe("1234.50");
    expect(decimalOf(1234.5)).toBe("1234.50");
    expect(decimalOf(0.1 + 0.2)).toBe("0.30");
    expect(decimalOf(1.234)).toBeNull();
    expect(decimalOf("-5")).toBeNull();
    expect(decimalOf("-5", true)).toBe("-5.00");
    expect(decimalOf(-0.05, true)).toBe("-0.05");
    expect(minorOf("-1,000.25", true)).toBe(-100025n);
    expect(minorOf(null)).toBeNull();
  });
});

describe("the deposit amount is read once (the form's schema); every layer after it takes its bigint", () => {
  // checked by the type checker (npx tsc -b): a layer that took the amount as text again fails here
  it("schema -> service -> responsible-gaming guard -> wallet RPC -> provider port", () => {
    expectTypeOf<z.output<DepositSchema>["amountMinor"]>().toEqualTypeOf<bigint>();
    expectTypeOf<Parameters<typeof startDeposit>[3]["amountMinor"]>().toEqualTypeOf<bigint>();
    expectTypeOf<z.output<DepositSchema>>().toMatchTypeOf<Parameters<typeof startDeposit>[3]>();
    expectTypeOf<Parameters<typeof depositLimitGuard>[3]>().toEqualTypeOf<bigint>();
    expectTypeOf<OpenDepositInput["amountMinor"]>().toEqualTypeOf<bigint>();
    expectTypeOf<OpenDepositInput["creditMinor"]>().toEqualTypeOf<bigint>();
    expectTypeOf<TransferInput["amountMinor"]>().toEqualTypeOf<bigint>();
  });
});

describe("the withdraw amount is read once (the form's schema); every layer after it takes its bigint", () => {
  it("schema -> service (review, confirm) -> core rules -> wallet RPC -> provider port's transfer-out", () => {
    expectTypeOf<z.output<WithdrawSchema>["amountMinor"]>().toEqualTypeOf<bigint | "ALL">();
    expectTypeOf<WithdrawInput["amountMinor"]>().toEqualTypeOf<bigint | "ALL">();
    expectTypeOf<z.output<WithdrawSchema>>().toMatchTypeOf<Parameters<typeof reviewWithdraw>[3]>();
    expectTypeOf<z.output<WithdrawSchema>>().toMatchTypeOf<Parameters<typeof confirmWithdraw>[3]>();
    expectTypeOf<Parameters<typeof checkWithdrawAmount>[0]["amountMinor"]>().toEqualTypeOf<bigint | "ALL">();
    expectTypeOf<OpenWithdrawInput["creditMinor"]>().toEqualTypeOf<bigint>();
    expectTypeOf<OpenWithdrawInput["netCreditMinor"]>().toEqualTypeOf<bigint>();
    expectTypeOf<OpenWithdrawInput["receivedLakMinor"]>().toEqualTypeOf<bigint>();
    expectTypeOf<NonNullable<OpenWithdrawInput["promotion"]>["deductions"][number]["creditMinor"]>().toEqualTypeOf<bigint>();
  });
});
