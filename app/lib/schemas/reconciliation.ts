import { z } from "zod";
import { nameField } from "./name";

const NOTE_INVALID = "admin:reconciliation.errors.NOTE_INVALID";
const SETTLE_INVALID = "admin:reconciliation.errors.SETTLE_INVALID";

const bankDay = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "admin:reconciliation.errors.DAY_INVALID" });

/**
 * What an owner writes on the reconciliation page (a note, a settlement's reason): 3 to 500
 * characters by the rule of every typed text (workers/core/names.ts, as brand texts do): a
 * control or direction character is refused (NOTE_CHARACTERS; a NUL or U+202E would reach the
 * page, the audit and the CSV export as typed), zero-width characters (a pasted U+FEFF) are
 * removed. The box's line breaks become spaces first: typed on purpose, and the page shows the
 * text on one line anyway.
 */
const ownerText = (invalid: string) =>
  z
    .string({ error: invalid })
    .transform((typed) => typed.replace(/\r\n?|\n/g, " "))
    .pipe(nameField({ min: 3, max: 500, required: invalid, tooShort: invalid, tooLong: invalid, characters: "admin:reconciliation.errors.NOTE_CHARACTERS" }));

/** An owner's note on a difference of a bank day: the day, the line's key and what happened. Messages are keys of the `admin` namespace. */
export const NoteSchema = z.object({
  day: bankDay,
  lineKey: z.string().trim().min(1).max(300),
  note: ownerText(NOTE_INVALID),
});

/**
 * The owner settles the surplus credit of a transfer credited twice (decision 069): which
 * credit (its order or manual code), how (taken back at the provider, or a recorded loss) and
 * why.
 */
export const SettleSchema = z.object({
  day: bankDay,
  code: z.string({ error: SETTLE_INVALID }).trim().min(1, { error: SETTLE_INVALID }).max(40, { error: SETTLE_INVALID }),
  settled: z.enum(["reversed", "loss"], { error: SETTLE_INVALID }),
  reason: ownerText(SETTLE_INVALID),
});
