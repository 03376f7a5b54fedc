import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

// The building blocks live in fields.tsx (no zod there); forms.tsx keeps them for its importers.
export { ErrorList, Field, Honeypot, HONEYPOT_FIELD, PasswordToggle, SelectField, usePasswordVisibility } from "./fields";

/**
 * conform's useForm wired to one zod schema, the same way for every form of the portal:
 * the schema validates in the browser (on blur, then on input) and gives the native
 * constraints; the server's answer (`lastResult`) shows its errors and keeps the values.
 */
export function useSchemaForm<S extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  id: string,
  schema: S,
  lastResult: SubmissionResult<string[]> | null | undefined,
  defaultValue?: Partial<z.input<S>>,
) {
  return useForm<z.input<S>, z.output<S>, string[]>({
    id,
    lastResult,
    defaultValue: defaultValue as never,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
}
