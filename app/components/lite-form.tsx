import { useForm, type SubmissionResult } from "@conform-to/react";
import type { getZodConstraint } from "@conform-to/zod/v4";
import type { z } from "zod";
import { SCHEMA, SCHEMA_ARGS, VALIDATOR, hookProps } from "~/lib/lite/hooks";
import { useLitePageAssets } from "~/lib/page-scripts";

type FormSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/** The native constraints (required, pattern, ...) of a schema, computed by the loader. */
export type FormConstraint = ReturnType<typeof getZodConstraint>;

/**
 * The conform form of a lite page (decision 034). Such a page is rendered on the server only
 * and never hydrates, so this is what the server render needs: the fields' ids and names, the
 * action's errors (`lastResult`), the default values, and the schema's native constraints
 * (`constraint`, computed by the loader with `getZodConstraint`). The schema is a type
 * parameter only (`useLiteForm<DepositSchema>`): the route's browser chunk carries no
 * zod. In the browser the page's `validate` part checks the form with the same schema
 * (lib/lite/validate.ts, the attributes of `useLiteValidation` below); without JavaScript the
 * action validates and answers with the errors.
 */
export function useLiteForm<S extends FormSchema>(
  id: string,
  constraint: FormConstraint,
  lastResult: SubmissionResult<string[]> | null | undefined,
  defaultValue?: Partial<z.input<S>>,
) {
  return useForm<z.input<S>, z.output<S>, string[]>({ id, lastResult, defaultValue: defaultValue as never, constraint, shouldValidate: "onSubmit" });
}

/**
 * The attributes that make a lite page's form validate in the browser (lib/lite/validate.ts):
 * the validator module's hashed URL (lib/lite/form-validators.ts, given by entry.server) and
 * the schema's name in that module, and `args` for a schema made per agency (the deposit's and
 * the withdraw's "min,max"). None when there is no client build (tests that render without
 * one): the form then posts as without JavaScript.
 */
export function useLiteValidation(
  schema:
    | "deposit"
    | "withdraw"
    | "bank-account"
    | "bank-replace"
    | "change-password"
    | "forced-password"
    | "register"
    | "limits"
    | "cooling_off"
    | "self_exclusion",
  args?: string,
) {
  const url = useLitePageAssets()?.formValidators;
  return url ? { ...hookProps(VALIDATOR, url), ...hookProps(SCHEMA, schema), ...(args === undefined ? {} : hookProps(SCHEMA_ARGS, args)) } : {};
}
