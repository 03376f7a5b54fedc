import { useForm, type SubmissionResult } from "@conform-to/react";
import type { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";
import type { z } from "zod";
import { SCHEMA, VALIDATOR, hookProps } from "~/lib/lite/hooks";
import { useLitePageAssets } from "~/lib/page-scripts";

type FormSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/** The native constraints (required, pattern, ...) of a schema, computed by the loader. */
export type FormConstraint = ReturnType<typeof getZodConstraint>;

/**
 * useSchemaForm (forms.tsx) with the zod schema and conform's zod adapter loaded when the
 * player first touches the form (focus, pointer, input) instead of with the page: they are
 * about 30 KB compressed that a visit which only looks at the page never needs (decision 022).
 *
 * - `constraint` comes from the loader (`getZodConstraint(Schema)` on the server), so the
 *   server HTML and the first browser render carry the same required/pattern attributes.
 * - Until the schema is here, nothing validates on blur or input (no request either: blur
 *   validation without a validator would post the form to the server), and a submit goes
 *   to the action, which validates with the same schema as always. Fields the player left
 *   in the meantime are validated as soon as the schema arrives.
 * - Without JavaScript nothing changes: the action validates and answers with the errors.
 */
export function useLazySchemaForm<S extends FormSchema>(
  id: string,
  schema: { load: () => Promise<S>; constraint: FormConstraint },
  lastResult: SubmissionResult<string[]> | null | undefined,
  defaultValue?: Partial<z.input<S>>,
) {
  const [validator, setValidator] = useState<{ parse: typeof parseWithZod; schema: S } | null>(null);
  const left = useRef(new Set<string>());
  const [form, fields] = useForm<z.input<S>, z.output<S>, string[]>({
    id,
    lastResult,
    defaultValue: defaultValue as never,
    constraint: schema.constraint,
    onValidate: validator ? ({ formData }) => validator.parse(formData, { schema: validator.schema }) : undefined,
    shouldValidate: validator ? "onBlur" : "onSubmit",
    shouldRevalidate: validator ? "onInput" : "onSubmit",
  });

  // The loader may be a new function each render: the effect keeps the latest without restarting.
  const load = useRef(schema.load);
  load.current = schema.load;
  useEffect(() => {
    const element = document.getElementById(id);
    if (!element || validator) return;
    let cancelled = false;
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      void Promise.all([import("@conform-to/zod/v4"), load.current()]).then(([adapter, loaded]) => {
        if (!cancelled) setValidator({ parse: adapter.parseWithZod, schema: loaded });
      });
    };
    const noteLeft = (event: FocusEvent) => {
      const target = event.target;
      const isField = target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
      if (isField && target.name && target.type !== "submit") left.current.add(target.name);
    };
    const triggers = ["focusin", "pointerdown", "input"] as const;
    for (const type of triggers) element.addEventListener(type, start, { passive: true });
    element.addEventListener("focusout", noteLeft);
    return () => {
      cancelled = true;
      for (const type of triggers) element.removeEventListener(type, start);
      element.removeEventListener("focusout", noteLeft);
    };
  }, [id, validator]);

  // The fields the player already left are checked once the validator is here (the options
  // above reach conform during this render's layout effects, before this effect runs).
  // Not while a post is on its way: the validation is a submit event of its own, and the
  // action validates that post anyway.
  const busy = useNavigation().state !== "idle";
  useEffect(() => {
    if (!validator) return;
    if (!busy) for (const name of left.current) form.validate({ name });
    left.current.clear();
  }, [validator, form, busy]);

  return [form, fields] as const;
}

/**
 * The attributes that make a lite page's form validate in the browser (lib/lite/validate.ts):
 * the validator module's hashed URL (lib/lite/form-validators.ts, given by entry.server) and
 * the schema's name in that module. None when there is no client build (tests that render
 * without one): the form then posts as without JavaScript.
 */
export function useLiteValidation(
  schema: "deposit" | "withdraw" | "bank-account" | "bank-replace" | "change-password" | "forced-password" | "limits" | "cooling_off" | "self_exclusion",
) {
  const url = useLitePageAssets()?.formValidators;
  return url ? { ...hookProps(VALIDATOR, url), ...hookProps(SCHEMA, schema) } : {};
}
