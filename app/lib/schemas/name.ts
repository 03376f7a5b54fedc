import { z } from "zod";
import { cleanName } from "@workers/core/names";

/** The message (common namespace) shown when a name holds a refused character. */
const NAME_CHARACTERS_MESSAGE = "validation.nameCharacters";

type TextRules = {
  min?: number;
  max: number;
  tooShort?: string;
  tooLong: string;
  /** The message when a refused character is found; a name's by default. */
  characters?: string;
};

/**
 * A typed name field: the one rule of workers/core/names.ts (control and bidi characters
 * refused, zero-width characters removed), then the field's own length rule on the
 * cleaned text. The services apply the same rule again (JSON API, other callers). Other
 * typed texts follow the same rule with their own message (`characters`): a reconciliation note.
 */
export function nameField(rules: TextRules & { required: string }) {
  // A name of only spaces is emptied by the cleaning, and conform then reads it as not given in
  // the inner z.string() too: it says the required message (tests/unit/blank-input.test.ts).
  return z
    .string({ error: rules.required })
    .transform(cleanedWith(rules.characters))
    .pipe(lengthOf({ ...rules, error: rules.required }));
}

/** The same for a name that may be left out: only spaces is not given. */
export function optionalNameField(rules: TextRules) {
  const cleaned = cleanedWith(rules.characters);
  return z
    .string()
    .transform((raw, ctx) => cleaned(raw, ctx) || undefined)
    .pipe(lengthOf(rules).optional());
}

function cleanedWith(message = NAME_CHARACTERS_MESSAGE) {
  return (raw: string, ctx: z.RefinementCtx): string => {
    const checked = cleanName(raw);
    if (checked.ok) return checked.value;
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
}

function lengthOf(rules: { min?: number; max: number; tooShort?: string; tooLong: string; error?: string }) {
  let length = z.string(rules.error ? { error: rules.error } : undefined);
  if (rules.min !== undefined) length = length.min(rules.min, { error: rules.tooShort ?? rules.tooLong });
  return length.max(rules.max, { error: rules.tooLong });
}
