import { z } from "zod";
import { PROVIDERS } from "../../../workers/core/providers";

/** SPEC §5 deposit: provider required; MID (payment channel) required; amount valid. */
export const DepositSchema = z.object({
  provider: z.enum(PROVIDERS, { error: "deposit.validation.provider" }),
  channelCode: z.string({ error: "deposit.validation.channel" }).min(1, { error: "deposit.validation.channel" }),
  amount: z
    .string({ error: "deposit.validation.amount" })
    .transform((v) => v.replace(/[\s.,](?=\d{3}(\D|$))/g, "").trim())
    .pipe(z.string().regex(/^\d{1,15}$/, { error: "deposit.validation.amount" })),
  idempotencyKey: z.string().uuid(),
});
