import { getFormProps as conformFormProps, useForm, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { SCHEMA, VALIDATOR, hookProps } from "~/lib/lite/hooks";
import { useLitePageAssets } from "~/lib/page-scripts";
import { formSchemaName } from "~/lib/schemas/form-name";

// The building blocks live in fields.tsx (no zod there); forms.tsx keeps them for its importers.
export { ErrorList, Field, Honeypot, HONEYPOT_FIELD, PasswordToggle, SelectField, usePasswordVisibility } from "./fields";

type LiteAttributes = ReturnType<typeof liteAttributes>;
const liteAttributes = (url: string, schema: string) => ({ ...hookProps(VALIDATOR, url), ...hookProps(SCHEMA, schema) });

/** The attributes that make a form of `useSchemaForm` validate on a lite page, by its form's metadata (one render's). */
const liteForms = new WeakMap<object, LiteAttributes>();

/**
 * conform's useForm wired to one zod schema, the same way for every form of the portal:
 * the schema gives the native constraints; the server's answer (`lastResult`) shows its
 * errors and keeps the values. In the browser the same schema validates on blur, then on
 * input: on a lite page (the back office since decision 089) by the `validate` part, which
 * imports the validator module on the first touch of the form (lib/lite/validate.ts; the
 * schema goes by the name it carries, lib/schemas/form-name.ts); on a page that hydrates by conform.
 */
export function useSchemaForm<S extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  id: string,
  schema: S,
  lastResult: SubmissionResult<string[]> | null | undefined,
  defaultValue?: Partial<z.input<S>>,
) {
  const url = useLitePageAssets()?.formValidators;
  const result = useForm<z.input<S>, z.output<S>, string[]>({
    id,
    lastResult,
    defaultValue: defaultValue as never,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  // (a schema without a name, as the player's lite pages' own, gets no attributes here)
  const name = formSchemaName(schema);
  // (no client build, as in the tests that render pages without one: the form posts unchecked)
  if (url && name) liteForms.set(result[0], liteAttributes(url, name));
  return result;
}

/**
 * conform's form props, plus what makes a `useSchemaForm` form validate on a lite page
 * (`data-validator`, `data-schema`): the routes spread `getFormProps(form)` as before.
 */
export function getFormProps<Schema extends Record<string, unknown>, FormError>(form: FormMetadata<Schema, FormError>) {
  return { ...conformFormProps(form), ...liteForms.get(form) };
}
