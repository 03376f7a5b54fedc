import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { describe, expect, it } from "vitest";
import { StaffLoginSchema, TotpSchema } from "../../app/lib/schemas/admin";
import { ManualCreditSchema } from "../../app/lib/schemas/admin-ops";
import { RegisterSchema } from "../../app/lib/schemas/auth";
import { BankAccountSchema } from "../../app/lib/schemas/bank";
import { depositSchema } from "../../app/lib/schemas/deposit";
import { LimitsSchema } from "../../app/lib/schemas/limits";
import { withdrawSchema } from "../../app/lib/schemas/withdraw";

/**
 * A field of only spaces gets the field's own translated message, never zod's English
 * ("Invalid input: expected string, received undefined"). Conform turns an empty string into
 * "not given" in EVERY z.string() of a schema, the inner one of a `.pipe` included: a field
 * whose text a transform empties ("   " trimmed) reached the inner z.string() as undefined,
 * and that one had no message of its own (deposit, withdraw, limits, staff login, TOTP,
 * register's phone, a manual credit's username).
 */
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};
const errors = (schema: z.ZodType, fields: Record<string, string>) => parseWithZod(form(fields), { schema }).reply().error ?? {};
const key = "00000000-0000-4000-8000-000000000000";
const BLANK = "   ";

describe("a field of only spaces", () => {
  it("deposit amount: the deposit's amount message", () => {
    expect(
      errors(depositSchema({ min: "10000", max: "50000000" }), { provider: "betflix", channelCode: "BCEL-QR", amount: BLANK, idempotencyKey: key }).amount,
    ).toEqual(["deposit.validation.amount"]);
  });

  it("withdraw amount: treated as not given (the form then asks for an amount or all credit)", () => {
    const answer = errors(withdrawSchema({ min: "100", max: "50000" }), { provider: "betflix", amount: BLANK, idempotencyKey: key });
    expect(JSON.stringify(answer)).not.toContain("Invalid input");
    expect(Object.values(answer).flat()).toEqual(["withdraw.validation.amount"]);
  });

  it("a limit: blank, so no limit", () => {
    const result = parseWithZod(form({ day: BLANK, week: "", month: "", playMinutes: "" }), { schema: LimitsSchema });
    expect(result.status).toBe("success");
    expect(result.status === "success" && result.value.day).toBe("");
  });

  it("staff login username and TOTP code: required", () => {
    expect(errors(StaffLoginSchema, { username: BLANK, password: "x" }).username).toEqual(["admin:auth.validation.required"]);
    expect(errors(TotpSchema, { code: BLANK }).code).toEqual(["admin:auth.validation.required"]);
  });

  it("register phone: required", () => {
    expect(errors(RegisterSchema, { username: "somchai", password: "pass-12345", confirmPassword: "pass-12345", phone: BLANK, adult: "on" }).phone).toEqual([
      "validation.required",
    ]);
  });

  it("register's display name (optional): not given; a bank account's name (required): required", () => {
    const register = errors(RegisterSchema, {
      username: "somchai",
      password: "pass-12345",
      confirmPassword: "pass-12345",
      phone: "02055555555",
      displayName: BLANK,
      adult: "on",
    });
    expect(register.displayName).toBeUndefined();
    expect(errors(BankAccountSchema, { bankCode: "BCEL", accountNumber: "0101234567890123", accountName: BLANK, currency: "LAK" }).accountName).toEqual([
      "validation.required",
    ]);
  });

  it("manual credit username: the username message", () => {
    expect(errors(ManualCreditSchema, { intent: "credit", id: "u1", username: BLANK, provider: "betflix" }).username).toEqual([
      "admin:payments.validation.username",
    ]);
  });
});
