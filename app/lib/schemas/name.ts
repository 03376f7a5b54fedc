import { z } from "zod";
import { cleanName } from "../../../workers/core/names";

/** The message (common namespace) shown when a name holds a refused character. */
const NAME_CHARACTERS_MESSAGE = "validation.nameCharacters";

/**
 * A typed name field: the one rule of workers/core/names.ts (control and bidi characters
 * refused, zero-width characters removed), then the field's own length rule on the
 * cleaned text. The services apply the same rule again (JSON API, other callers).
 */
export function nameField(rules: { min?: number; max: number; required?: string; tooShort?: string; tooLong: string }) {
  let length = z.string();
  if (rules.min !== undefined) length = length.min(rules.min, { error: rules.tooShort ?? rules.tooLong });
  length = length.max(rules.max, { error: rules.tooLong });
  return z
    .string(rules.required ? { error: rules.required } : undefined)
    .transform((raw, ctx) => {
      const checked = cleanName(raw);
      if (checked.ok) return checked.value;
      ctx.addIssue({ code: "custom", message: NAME_CHARACTERS_MESSAGE });
      return z.NEVER;
    })
    .pipe(length);
}
