import { z } from "zod";
import { stripDigitGrouping, WHOLE_AMOUNT_DIGITS } from "@workers/core/money";
import { PROVIDERS } from "@workers/core/providers";

/** SPEC §5 deposit: provider required; MID (payment channel) required; amount valid. */
export const DepositSchema = z.object({
  provider: z.enum(PROVIDERS, { error: "deposit.validation.provider" }),
  channelCode: z.string({ error: "deposit.validation.channel" }).min(1, { error: "deposit.validation.channel" }),
  amount: z
    .string({ error: "deposit.validation.amount" })
    .transform(stripDigitGrouping)
    // conform reads an emptied text ("   " trimmed) as not given, here too (tests/unit/blank-input.test.ts)
    .pipe(z.string({ error: "deposit.validation.amount" }).regex(WHOLE_AMOUNT_DIGITS, { error: "deposit.validation.amount" })),
  idempotencyKey: z.string().uuid(),
});
