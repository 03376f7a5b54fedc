import { z } from "zod";
import type { MappingFields } from "@workers/services/bank-in";

/**
 * Statement import, the mapping form (app/routes/admin/statements.tsx). Every field is a
 * column name, a format or a mode as text; the rules that judge them (required per mode,
 * known formats, a column used once) live in workers/core/statement.ts checkMapping, so
 * the form only trims and bounds the text.
 */
const text = z
  .string()
  .trim()
  .max(200)
  .nullish()
  .transform((v) => v || null);

export const StatementMappingSchema = z.object({
  date: text,
  time: text,
  dateFormat: text,
  numberFormat: text,
  amountMode: text,
  amount: text,
  indicator: text,
  creditValue: text,
  credit: text,
  debit: text,
  description: text,
  transactionId: text,
}) satisfies z.ZodType<MappingFields>;

/** The header row staff chose (0-based; the header is looked for in the first 30 rows). */
export const HeaderRowSchema = z.coerce.number().int().min(0).max(29).catch(0);
