import { z } from "zod";

/**
 * Staff retry of a FAILED reward from a claims list (/admin/cashback, /admin/referrals;
 * decision 029). Hidden fields only: the page posts the count it showed, so a second press of
 * the same form (double click, resent page) does nothing.
 */
export const RewardRetrySchema = z.object({
  intent: z.literal("retry"),
  code: z.string().trim().min(1).max(40),
  retries: z.coerce.number().int().min(0),
});
