import { z } from "zod";
import { BANK_CURRENCIES, BANK_OWNERS } from "./bank-options";
import { nameField } from "./name";
import { BANK_CODES, isValidAccountNumber, normalizeAccountNumber } from "@workers/core/banks";

/** docs/product.md §5 bank form. Messages are translation keys. */
const ACCOUNT_NAME_LIMITS = { min: 2, max: 60 } as const;
/** The name on a bank account (player's form and staff's replacement form). */
const bankAccountName = nameField({
  ...ACCOUNT_NAME_LIMITS,
  required: "validation.required",
  tooShort: "bank.validation.accountName",
  tooLong: "bank.validation.accountName",
});

const accountFields = {
  bankCode: z.enum(BANK_CODES, { error: "bank.validation.bank" }),
  accountNumber: z.string({ error: "validation.required" }).transform(normalizeAccountNumber),
  accountName: bankAccountName,
  currency: z.enum(BANK_CURRENCIES, { error: "bank.validation.currency" }),
  owner: z.enum(BANK_OWNERS, { error: "bank.validation.owner" }),
};

type AccountFields = { bankCode: (typeof BANK_CODES)[number]; accountNumber: string; currency: string; owner: string };

function accountRules(value: AccountFields, ctx: z.RefinementCtx) {
  if (!isValidAccountNumber(value.bankCode, value.accountNumber)) {
    ctx.addIssue({ code: "custom", path: ["accountNumber"], message: "bank.validation.accountNumber" });
  }
  // Listed so a player sees the choice exists, refused with a clear reason (docs/product.md §1, §9).
  if (value.currency !== "LAK") {
    ctx.addIssue({ code: "custom", path: ["currency"], message: "bank.validation.onlyLak" });
  }
  if (value.owner !== "SELF") {
    ctx.addIssue({ code: "custom", path: ["owner"], message: "bank.validation.ownAccountOnly" });
  }
}

export const BankAccountSchema = z.object(accountFields).superRefine(accountRules);

/** The player replaces the account (never paid to): the same fields plus the current password. */
export const BankReplaceSchema = z
  .object({
    intent: z.literal("replace"),
    ...accountFields,
    currentPassword: z
      .string({ error: "validation.pleaseEnterPassword" })
      .min(1, { error: "validation.pleaseEnterPassword" })
      .max(128, { error: "validation.passwordMax" }),
  })
  .superRefine(accountRules);

/**
 * Staff (owner) replace a player's account from the back office, in two steps: review
 * (the form is checked and both accounts shown), then confirm. Only LAK own accounts exist,
 * so currency and owner are not asked.
 */
export const StaffBankReplaceSchema = z
  .object({
    intent: z.enum(["bank-replace-review", "bank-replace-confirm"]),
    bankCode: accountFields.bankCode,
    accountNumber: accountFields.accountNumber,
    accountName: bankAccountName,
  })
  .superRefine((value, ctx) => accountRules({ ...value, currency: "LAK", owner: "SELF" }, ctx))
  .meta({ id: "staff-bank-replace" });
