import { z } from "zod";
import { PROVIDERS } from "../../../workers/core/providers";

/** SPEC §5 withdraw: provider, bank and amount required (or "all credit"). */
export const WithdrawSchema = z
  .object({
    provider: z.enum(PROVIDERS, { error: "withdraw.validation.provider" }),
    amount: z
      .string()
      .transform((v) => v.replace(/\s/g, "").replace(/,/g, "."))
      .pipe(z.string().regex(/^\d{1,12}(\.\d{1,2})?$/, { error: "withdraw.validation.amount" }))
      .optional(),
    all: z.literal("on").optional(),
    idempotencyKey: z.string().uuid(),
  })
  .refine((v) => v.all === "on" || v.amount !== undefined, { error: "withdraw.validation.amount", path: ["amount"] });
