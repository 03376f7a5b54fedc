/**
 * The bank form's choices, in a module without zod: the bank page renders them before its
 * schema is loaded (decision 022). bank.ts builds its schemas from these and re-exports them.
 */
export const BANK_CURRENCIES = ["LAK", "THB", "USD"] as const;
export const BANK_OWNERS = ["SELF", "OTHER"] as const;
