import { z } from "zod";
import { nameField } from "./name";

const NOTE_INVALID = "admin:reconciliation.errors.NOTE_INVALID";

/**
 * An owner's note on a difference of a bank day (reconciliation page): the day, the line's
 * key and 3 to 500 characters saying what happened. Messages are keys of the `admin` namespace.
 * The note follows the rule of every typed text (workers/core/names.ts, as brand texts do): a
 * control or direction character is refused (NOTE_CHARACTERS; a NUL or U+202E would reach the
 * page, the audit and the CSV export as typed), zero-width characters (a pasted U+FEFF) are
 * removed. The note box's line breaks become spaces first: typed on purpose, and the page
 * shows a note on one line anyway.
 */
export const NoteSchema = z.object({
  day: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "admin:reconciliation.errors.DAY_INVALID" }),
  lineKey: z.string().trim().min(1).max(300),
  note: z
    .string({ error: NOTE_INVALID })
    .transform((typed) => typed.replace(/\r\n?|\n/g, " "))
    .pipe(
      nameField({
        min: 3,
        max: 500,
        required: NOTE_INVALID,
        tooShort: NOTE_INVALID,
        tooLong: NOTE_INVALID,
        characters: "admin:reconciliation.errors.NOTE_CHARACTERS",
      }),
    ),
});

const SETTLE_INVALID = "admin:reconciliation.errors.SETTLE_INVALID";

/**
 * The owner settles the surplus credit of a transfer credited twice (decision 069): which
 * credit (its order or manual code), how (taken back at the provider, or a recorded loss) and
 * why, by the same rule as a note.
 */
export const SettleSchema = z.object({
  day: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "admin:reconciliation.errors.DAY_INVALID" }),
  code: z.string({ error: SETTLE_INVALID }).trim().min(1, { error: SETTLE_INVALID }).max(40, { error: SETTLE_INVALID }),
  settled: z.enum(["reversed", "loss"], { error: SETTLE_INVALID }),
  reason: z
    .string({ error: SETTLE_INVALID })
    .transform((typed) => typed.replace(/\r\n?|\n/g, " "))
    .pipe(
      nameField({
        min: 3,
        max: 500,
        required: SETTLE_INVALID,
        tooShort: SETTLE_INVALID,
        tooLong: SETTLE_INVALID,
        characters: "admin:reconciliation.errors.NOTE_CHARACTERS",
      }),
    ),
});
