import { z } from "zod";
import { KIP_LIMIT_DIGITS, stripDigitGrouping } from "@workers/core/money";
import { BREAK_KINDS, COOLING_OFF_DAYS, EXCLUSION_MONTHS, PLAY_MINUTES_MAX } from "@workers/core/responsible-gaming";
import type { BreakInput, LimitsInput } from "@workers/services/players";

/** Whole kip, 1 to 12 digits (groups as the deposit form reads them); blank: no limit. */
const kip = z
  .string()
  // only spaces: blank, as an empty field (tests/unit/blank-input.test.ts)
  .transform((text) => stripDigitGrouping(text) || undefined)
  .pipe(z.string().regex(KIP_LIMIT_DIGITS, { error: "limits.validation.amount" }).optional())
  .optional()
  .transform((v) => v ?? "");

/** The player's limits (decision 025): deposits per day, week, month (kip) and play time per day (minutes). */
export const LimitsSchema = z.object({
  day: kip,
  week: kip,
  month: kip,
  playMinutes: z
    .string()
    .regex(/^\d{1,4}$/, { error: "limits.validation.minutes" })
    .refine((v) => Number(v) >= 1 && Number(v) <= PLAY_MINUTES_MAX, { error: "limits.validation.minutes" })
    .optional()
    .transform((v) => v ?? ""),
}) satisfies z.ZodType<LimitsInput, unknown>;

/** Cooling-off (days) or self-exclusion (months), confirmed by a checkbox: an exclusion cannot be undone. */
export const BreakSchema = z
  .object({
    kind: z.enum(BREAK_KINDS),
    length: z.coerce.number({ error: "limits.validation.length" }).int(),
    // "on" from the form checkbox
    confirm: z.literal("on", { error: "limits.validation.confirm" }),
  })
  .refine((v) => ((v.kind === "cooling_off" ? COOLING_OFF_DAYS : EXCLUSION_MONTHS) as readonly number[]).includes(v.length), {
    error: "limits.validation.length",
    path: ["length"],
  }) satisfies z.ZodType<BreakInput & { confirm: "on" }, unknown>;
