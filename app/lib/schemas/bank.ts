import { z } from "zod";
import { BANK_CODES, isValidAccountNumber, normalizeAccountNumber } from "../../../workers/core/banks";

/** SPEC §5 bank form. Messages are translation keys. */
export const BANK_CURRENCIES = ["LAK", "THB", "USD"] as const;
export const BANK_OWNERS = ["SELF", "OTHER"] as const;

export const BankAccountSchema = z
  .object({
    bankCode: z.enum(BANK_CODES, { error: "bank.validation.bank" }),
    accountNumber: z.string({ error: "validation.required" }).transform(normalizeAccountNumber),
    accountName: z
      .string({ error: "validation.required" })
      .trim()
      .min(2, { error: "bank.validation.accountName" })
      .max(60, { error: "bank.validation.accountName" }),
    currency: z.enum(BANK_CURRENCIES, { error: "bank.validation.currency" }),
    owner: z.enum(BANK_OWNERS, { error: "bank.validation.owner" }),
  })
  .superRefine((value, ctx) => {
    if (!isValidAccountNumber(value.bankCode, value.accountNumber)) {
      ctx.addIssue({ code: "custom", path: ["accountNumber"], message: "bank.validation.accountNumber" });
    }
    // Listed so a player sees the choice exists, refused with a clear reason (SPEC §1, §9).
    if (value.currency !== "LAK") {
      ctx.addIssue({ code: "custom", path: ["currency"], message: "bank.validation.onlyLak" });
    }
    if (value.owner !== "SELF") {
      ctx.addIssue({ code: "custom", path: ["owner"], message: "bank.validation.ownAccountOnly" });
    }
  });
