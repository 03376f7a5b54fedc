import { z } from "zod";
import type { LevelInput } from "@workers/services/promotions";

/**
 * The owner's VIP level form (admin/levels, decision 091), parsed by the route and the browser
 * with this one schema; messages are admin translation keys. Kip for the threshold, credit for
 * the cap and the daily withdrawal limit (blank: no limit).
 */
const amount = (digits: number) =>
  z
    .string({ error: "admin:levels.validation.amount" })
    .trim()
    .regex(new RegExp(`^\\d{1,12}(\\.\\d{1,${digits}})?$`), { error: "admin:levels.validation.amount" });

export const LevelSchema = z
  .object({
    name: z
      .string({ error: "admin:levels.validation.name" })
      .trim()
      .min(1, { error: "admin:levels.validation.name" })
      .max(40, { error: "admin:levels.validation.name" }),
    threshold: amount(2),
    cashbackPercent: z
      .string({ error: "admin:levels.validation.percent" })
      .trim()
      .regex(/^\d{1,3}(\.\d{1,2})?$/, { error: "admin:levels.validation.percent" })
      .refine((v) => Number(v) <= 100, { error: "admin:levels.validation.percent" }),
    cashbackCap: amount(2),
    withdrawDay: z
      .string()
      .trim()
      .regex(/^(\d{1,12}(\.\d{1,2})?)?$/, { error: "admin:levels.validation.amount" })
      .optional(),
  })
  .meta({ id: "level" });

/** The period form: whole days, 1 to 365. */
export const LevelPeriodSchema = z
  .object({
    periodDays: z.coerce
      .number({ error: "admin:levels.validation.period" })
      .int({ error: "admin:levels.validation.period" })
      .min(1, { error: "admin:levels.validation.period" })
      .max(365, { error: "admin:levels.validation.period" }),
  })
  .meta({ id: "levels-period" });

export function levelInput(v: z.output<typeof LevelSchema>): LevelInput {
  return { ...v, withdrawDay: v.withdrawDay ?? "" };
}
