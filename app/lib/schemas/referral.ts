import { z } from "zod";
import { PROVIDERS } from "@workers/core/providers";
import { PERCENT_BP_MAX, REFERRAL_MODES, TURNOVER_MULTIPLIER_MAX } from "@workers/core/referral";
import { scaled } from "@workers/core/decimal";
import type { ReferralSettingsInput } from "@workers/services/promotions";

/**
 * The referral forms (decision 030). Messages are translation keys. The player's claim form is
 * validated on the server only (a week from the page and a provider from a list: nothing to
 * type), so zod stays out of the player page; the owner's settings form uses it on both sides.
 */
export const ReferralClaimSchema = z.object({
  week: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  provider: z.enum(PROVIDERS, { error: "referral.validation.provider" }),
});

/** "2.5" -> 250 (hundredths of a percent), 0.01 to 50. */
const percent = z
  .string({ error: "admin:referral.validation.percent" })
  .trim()
  .regex(/^\d{1,2}(\.\d{1,2})?$/, { error: "admin:referral.validation.percent" })
  .transform((v) => Number(scaled(v, 2)))
  .refine((bp) => bp >= 1 && bp <= PERCENT_BP_MAX, { error: "admin:referral.validation.percent" });

/** Credit with up to 2 decimals; blank or 0: no cap. */
const cap = z
  .string()
  .trim()
  .regex(/^(\d{1,9}(\.\d{1,2})?)?$/, { error: "admin:referral.validation.cap" })
  .optional()
  .transform((v) => (v ? (scaled(v, 2) ?? 0n) : 0n));

export const ReferralSettingsSchema = z
  .object({
    // a checkbox: "on" when ticked, absent when not
    enabled: z
      .literal("on")
      .optional()
      .transform((v) => v === "on"),
    mode: z.enum(REFERRAL_MODES, { error: "admin:referral.validation.mode" }),
    percentBp: percent,
    weeklyCapMinor: cap,
    turnoverMultiplier: z.coerce
      .number({ error: "admin:referral.validation.turnover" })
      .int({ error: "admin:referral.validation.turnover" })
      .min(0, { error: "admin:referral.validation.turnover" })
      .max(TURNOVER_MULTIPLIER_MAX, { error: "admin:referral.validation.turnover" }),
  })
  .meta({ id: "referral-settings" }) satisfies z.ZodType<ReferralSettingsInput, unknown>;
