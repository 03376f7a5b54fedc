import { z } from "zod";

/**
 * An owner's note on a difference of a bank day (reconciliation page): the day, the line's
 * key and 3 to 500 characters saying what happened. Messages are keys of the `admin` namespace.
 */
export const NoteSchema = z.object({
  day: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "admin:reconciliation.errors.DAY_INVALID" }),
  lineKey: z.string().trim().min(1).max(300),
  note: z
    .string({ error: "admin:reconciliation.errors.NOTE_INVALID" })
    .trim()
    .min(3, { error: "admin:reconciliation.errors.NOTE_INVALID" })
    .max(500, { error: "admin:reconciliation.errors.NOTE_INVALID" }),
});
