import { z } from "zod";
import { depositAmountError, parseWholeKip, type AmountLimits } from "@workers/core/money";
import { PROVIDERS } from "@workers/core/providers";

/**
 * docs/product.md §5 deposit: provider required; MID (payment channel) required; the amount a positive
 * whole kip amount within the agency's deposit limits (`limits`, as its settings store them).
 *
 * The one place the typed amount is read: the text ("1.000.000", "1,000,000", "1 000 000") becomes
 * `amountMinor`, LAK minor units, by workers/core/money's rules, and every layer after it (the
 * deposit service, the responsible-gaming guard, the wallet, the provider port) takes that bigint.
 * A factory because the bounds are the agency's: the action builds it with the agency's limits,
 * the browser with the same limits carried by the form (routes/player/deposit.tsx,
 * lib/lite/form-validators.ts). The form's field stays `amount`, so an answer with errors shows
 * the text as typed. For conform's constraint read the fields before the rename:
 * `getZodConstraint(depositSchema(limits).in)`.
 */
export function depositSchema(limits: AmountLimits) {
  return z
    .object({
      provider: z.enum(PROVIDERS, { error: "deposit.validation.provider" }),
      channelCode: z.string({ error: "deposit.validation.channel" }).min(1, { error: "deposit.validation.channel" }),
      // conform reads an empty field as not given: the same message (tests/unit/blank-input.test.ts)
      amount: z.string({ error: "deposit.validation.amount" }).transform((typed, ctx) => {
        const minor = parseWholeKip(typed);
        if (minor === null) {
          ctx.issues.push({ code: "custom", message: "deposit.validation.amount", input: typed });
          return z.NEVER;
        }
        const error = depositAmountError(minor, limits);
        if (error) {
          // docs/product.md §8's codes (AMOUNT_INVALID for 0, AMOUNT_TOO_LOW, AMOUNT_TOO_HIGH), as the player's words
          ctx.issues.push({ code: "custom", message: `deposit.errors.${error}`, input: typed });
          return z.NEVER;
        }
        return minor;
      }),
      idempotencyKey: z.string().uuid(),
    })
    .transform(({ amount, ...fields }) => ({ ...fields, amountMinor: amount }));
}

export type DepositSchema = ReturnType<typeof depositSchema>;
