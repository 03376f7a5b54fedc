import { z } from "zod";
import { PROVIDERS } from "@workers/core/providers";
import type { CheckinSettingsInput } from "@workers/services/promotions";

/**
 * The check-in and streak forms (decision 095). The player's two forms (check in, claim the
 * streak) carry only a provider picked from a list: validated on the server, by the page's
 * action and the JSON API alike, so zod stays out of the player's lite page. The owner's
 * settings form uses its schema on both sides (decision 089); messages are admin keys.
 */
export const CheckinClaimSchema = z.object({ provider: z.enum(PROVIDERS) });

/** Credit with up to 2 decimals, more than 0: a reward of nothing is not an offer. */
const credit = z
  .string({ error: "admin:checkin.validation.amount" })
  .trim()
  .regex(/^\d{1,9}(\.\d{1,2})?$/, { error: "admin:checkin.validation.amount" })
  .refine((v) => Number(v) > 0, { error: "admin:checkin.validation.amount" });
const multiple = z
  .string({ error: "admin:checkin.validation.multiple" })
  .trim()
  .regex(/^\d{1,4}(\.\d{1,2})?$/, { error: "admin:checkin.validation.multiple" });

export const CheckinSettingsSchema = z
  .object({
    checkinEnabled: z.literal("on").optional(),
    checkinAmount: credit,
    checkinMultiple: multiple,
    streakEnabled: z.literal("on").optional(),
    streakDays: z
      .string({ error: "admin:checkin.validation.days" })
      .trim()
      .regex(/^\d{1,2}$/, { error: "admin:checkin.validation.days" })
      .refine((v) => Number(v) >= 1 && Number(v) <= 30, { error: "admin:checkin.validation.days" }),
    streakAmount: credit,
    streakMultiple: multiple,
  })
  .meta({ id: "checkin-settings" });

/** The form's values as the service takes them (checkboxes post "on" when ticked, nothing otherwise). */
export function checkinSettingsInput(v: z.output<typeof CheckinSettingsSchema>): CheckinSettingsInput {
  return { ...v, checkinEnabled: v.checkinEnabled === "on", streakEnabled: v.streakEnabled === "on" };
}
