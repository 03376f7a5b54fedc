import { z } from "zod";
import { CREDIT_DIGITS, normalizeTypedCredit } from "@workers/core/money";
import { PROVIDERS } from "@workers/core/providers";

/** docs/product.md §5 withdraw: provider, bank and amount required (or "all credit"). */
export const WithdrawSchema = z
  .object({
    provider: z.enum(PROVIDERS, { error: "withdraw.validation.provider" }),
    amount: z
      .string()
      // only spaces: not given, as an empty field (tests/unit/blank-input.test.ts)
      .transform((text) => normalizeTypedCredit(text) || undefined)
      .pipe(z.string().regex(CREDIT_DIGITS, { error: "withdraw.validation.amount" }).optional())
      .optional(),
    all: z.literal("on").optional(),
    idempotencyKey: z.string().uuid(),
  })
  .refine((v) => v.all === "on" || v.amount !== undefined, { error: "withdraw.validation.amount", path: ["amount"] });
