import { parseWithZod } from "@conform-to/zod/v4";
import { formatAmount, previewCredit } from "@workers/core/money";
import { formatMoney } from "~/lib/format";
import { ChangePasswordSchema, RegisterSchema } from "~/lib/schemas/auth";
import { AUTH_LIMITS } from "~/lib/schemas/auth-limits";
import { BankAccountSchema, BankReplaceSchema } from "~/lib/schemas/bank";
import { depositSchema } from "~/lib/schemas/deposit";
import { ForcedPasswordSchema } from "~/lib/schemas/forced-password";
import { STAFF_FORM_SCHEMAS } from "~/lib/schemas/staff-forms";
import { BreakSchema, LimitsSchema } from "~/lib/schemas/limits";
import { withdrawSchema } from "~/lib/schemas/withdraw";
import { type FormValidator, validateForm } from "./validate";

/**
 * The lite pages' client validation (decisions 034, 089): the same zod schemas the actions
 * use, with the same conform parse, as ONE browser module the lite script `import()`s on the
 * first touch of a form (lib/lite/validate.ts). The client build emits it as a chunk of its own
 * and the server build learns the chunk's hashed URL from the same plugin
 * (vite-plugins/lite-parts.ts, `FORM_VALIDATORS_URL`).
 */
const SCHEMAS = {
  // made with the agency's deposit limits, which the form carries ("min,max", routes/player/deposit.tsx)
  deposit: (args: string) => {
    const [min = "", max = ""] = args.split(",");
    return depositSchema({ min, max });
  },
  // the same with the agency's withdraw limits, in credit ("min,max", routes/player/withdraw.tsx)
  withdraw: (args: string) => {
    const [min = "", max = ""] = args.split(",");
    return withdrawSchema({ min, max });
  },
  "bank-account": BankAccountSchema,
  "bank-replace": BankReplaceSchema,
  "change-password": ChangePasswordSchema,
  register: RegisterSchema,
  "forced-password": ForcedPasswordSchema,
  limits: LimitsSchema,
  // the cooling-off and self-exclusion forms share one schema (their `kind` field says which)
  cooling_off: BreakSchema,
  self_exclusion: BreakSchema,
  // the back office's (decision 089): one module for both sides, fetched once per build
  ...STAFF_FORM_SCHEMAS,
} as const;

export type FormSchemaName = keyof typeof SCHEMAS;

function validate(schema: string, formData: FormData, args?: string | null): Record<string, string[]> | null {
  const known = SCHEMAS[schema as FormSchemaName];
  if (!known) return null;
  const submission = parseWithZod(formData, { schema: typeof known === "function" ? known(args ?? "") : known });
  if (submission.status === "success") return {};
  const errors: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(submission.error ?? {})) if (messages?.length) errors[name] = messages;
  return errors;
}

/** The deposit form's credit preview: the React version's math (routes/player/deposit.tsx), the same functions. */
function preview(amount: string, sellScaled: string): string | null {
  if (!/^\d+$/.test(sellScaled)) return null;
  const credit = previewCredit(amount, BigInt(sellScaled));
  return credit === null ? null : formatMoney(formatAmount(credit, "THB"), "THB");
}

export const validator = {
  validate,
  preview,
  // the messages' interpolation values, as ErrorList gives them (components/fields.tsx)
  vars: Object.fromEntries(Object.entries(AUTH_LIMITS).map(([k, v]) => [k, String(v)])),
} satisfies FormValidator;

/** The change-password dialog binds the forms it brings in with this (lib/lite/password-dialog.ts). */
export { validateForm };

export type FormValidatorModule = { validator: FormValidator; validateForm: typeof validateForm };
