import type { z } from "zod";

/**
 * The name a form's schema goes by in the lite forms' validator module (decision 089): the
 * `id` of its zod metadata (`.meta({ id: "staff-login" })`, the schema's last call: a refine
 * after it would make a copy without the id). The name is written once, beside the schema;
 * components/forms.tsx reads it here without importing any other form's schema, and
 * lib/schemas/staff-forms.ts lists the back office's schemas by it for the module.
 */
export function formSchemaName(schema: z.ZodType): string | null {
  const id = schema.meta()?.id;
  return typeof id === "string" ? id : null;
}
