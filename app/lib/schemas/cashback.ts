import { z } from "zod";
import type { CashbackSettingsInput } from "@workers/services/promotions";

/**
 * The owner's cashback settings form (admin/cashback), parsed by the route and the
 * browser with this one schema; messages are admin translation keys. Checkboxes post "on"
 * when ticked and nothing otherwise.
 */
const percent = z
  .string({ error: "admin:cashback.validation.percent" })
  .trim()
  .regex(/^\d{1,3}(\.\d{1,2})?$/, { error: "admin:cashback.validation.percent" })
  .refine((v) => Number(v) <= 100, { error: "admin:cashback.validation.percent" });
const credit = z
  .string({ error: "admin:cashback.validation.amount" })
  .trim()
  .regex(/^\d{1,9}(\.\d{1,2})?$/, { error: "admin:cashback.validation.amount" });
const multiple = z
  .string({ error: "admin:cashback.validation.multiple" })
  .trim()
  .regex(/^\d{1,4}(\.\d{1,2})?$/, { error: "admin:cashback.validation.multiple" });

export const CashbackSettingsSchema = z
  .object({
    enabled: z.literal("on").optional(),
    percent,
    cap: credit,
    min: credit,
    turnoverMultiple: multiple,
    combinable: z.literal("on").optional(),
  })
  .meta({ id: "cashback-settings" });

/** The form's values as the service takes them (a transform in the schema would hide its constraints from conform). */
export function cashbackSettingsInput(v: z.output<typeof CashbackSettingsSchema>): CashbackSettingsInput {
  return { ...v, enabled: v.enabled === "on", combinable: v.combinable === "on" };
}
