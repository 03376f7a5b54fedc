import { z } from "zod";
import { ALERT_TOPICS, CHAT_ID, minutesOfDay } from "@workers/core/alerts";
import { LANGUAGES } from "@workers/core/languages";
import { parseTypedTime } from "@workers/core/vientiane";
import type { AlertSettingsInput } from "@workers/services/alerts";

/**
 * The alert setup form (admin/settings/alerts, decision 057), one plain POST form that works
 * without JavaScript. The token is write-only: empty keeps the one set. Chats are one per
 * line (or comma-separated). Messages are keys of the admin namespace.
 */
const E = "admin:alerts.errors";

/** A time of day typed 24-hour into a text field (decision 088: "22:00", "7:05", "0705"), kept as 'HH:mm'; a time that is none stays as typed and is refused. */
const clock = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? (parseTypedTime(v) ?? v) : null))
  .refine((v) => v === null || minutesOfDay(v) !== null, { error: `${E}.time` });

const minutes = z.coerce
  .number({ error: `${E}.minutes` })
  .int({ error: `${E}.minutes` })
  .min(1, { error: `${E}.minutes` })
  .max(1440, { error: `${E}.minutes` });

export const AlertSettingsSchema = z
  .object({
    // Not trimmed inside: a token is taken as typed (only the ends' white space goes).
    token: z
      .string()
      .trim()
      .max(200, { error: `${E}.token` })
      .optional()
      .transform((v) => (v ? v : null))
      .refine((v) => v === null || /^\d{3,20}:[A-Za-z0-9_-]{10,100}$/.test(v), { error: `${E}.token` }),
    chatIds: z
      .string()
      .optional()
      .transform((v) => [...new Set((v ?? "").split(/[\s,]+/).filter(Boolean))])
      .refine((ids) => ids.length <= 10, { error: `${E}.chatsTooMany` })
      .refine((ids) => ids.every((id) => CHAT_ID.test(id)), { error: `${E}.chatId` }),
    language: z.enum(LANGUAGES, { error: `${E}.language` }),
    quietStart: clock,
    quietEnd: clock,
    topics: z.array(z.enum(ALERT_TOPICS, { error: `${E}.topic` })).transform((t) => [...new Set(t)]),
    withdrawalReminderMinutes: minutes,
    depositWaitMinutes: minutes,
    summaryHour: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v === "" ? null : Number(v)))
      .refine((v) => v === null || (Number.isInteger(v) && v >= 0 && v <= 23), { error: `${E}.hour` }),
    primaryHost: z
      .string()
      .trim()
      .max(253)
      .optional()
      .transform((v) => (v ? v : null)),
  })
  // quiet hours are both set or both empty
  .refine((v) => (v.quietStart === null) === (v.quietEnd === null), { error: `${E}.quietBoth`, path: ["quietEnd"] }) satisfies z.ZodType<AlertSettingsInput>;
