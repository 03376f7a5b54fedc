import { z } from "zod";
import { normalizeTypedCredit, parseTypedCredit, withdrawAmountError, type AmountLimits } from "@workers/core/money";
import { PROVIDERS } from "@workers/core/providers";

/**
 * docs/product.md §5 withdraw: provider and amount required (or "all credit"), the amount a
 * positive credit amount within the agency's withdraw limits (`limits`, in credit, as its
 * settings store them).
 *
 * The one place the typed amount is read: the text ("1,000", "1 234,5") becomes `amountMinor`,
 * credit minor units (THB satang), by workers/core/money's rules (parseTypedCredit,
 * withdrawAmountError), or "ALL" when the player withdraws all credit; every layer after it (the
 * withdraw service, core/withdraw's rules, the wallet, the provider port's transfer-out) takes
 * that value. A factory because the bounds are the agency's: the action builds it with the
 * agency's limits, the browser with the same limits carried by the form
 * (routes/player/withdraw.tsx, lib/lite/form-validators.ts). With "all credit" the typed
 * amount is not bounded (the provider's credit is, by core/withdraw.ts). The form's field
 * stays `amount`, so an answer with errors shows the text as typed. For conform's constraint
 * read the fields before the rename: `getZodConstraint(withdrawSchema(limits).in)`.
 */
export function withdrawSchema(limits: AmountLimits) {
  return z
    .object({
      provider: z.enum(PROVIDERS, { error: "withdraw.validation.provider" }),
      amount: z
        .string()
        .transform((typed, ctx) => {
          // only spaces: not given, as an empty field (tests/unit/blank-input.test.ts)
          if (normalizeTypedCredit(typed) === "") return undefined;
          const minor = parseTypedCredit(typed);
          if (minor === null) {
            ctx.issues.push({ code: "custom", message: "withdraw.validation.amount", input: typed });
            return z.NEVER;
          }
          return minor;
        })
        .optional(),
      all: z.literal("on").optional(),
      idempotencyKey: z.string().uuid(),
    })
    .transform(({ amount, all, ...fields }, ctx) => {
      if (all === "on") return { ...fields, amountMinor: "ALL" as const };
      if (amount === undefined) {
        ctx.issues.push({ code: "custom", message: "withdraw.validation.amount", path: ["amount"], input: amount });
        return z.NEVER;
      }
      const error = withdrawAmountError(amount, limits);
      if (error) {
        // docs/product.md §8's codes (AMOUNT_INVALID for 0, AMOUNT_TOO_LOW, AMOUNT_TOO_HIGH), as the player's words
        ctx.issues.push({ code: "custom", message: `withdraw.errors.${error}`, path: ["amount"], input: amount });
        return z.NEVER;
      }
      return { ...fields, amountMinor: amount as bigint | "ALL" };
    });
}

export type WithdrawSchema = ReturnType<typeof withdrawSchema>;
