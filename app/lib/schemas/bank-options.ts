/**
 * The bank form's choices, in a module without zod: the bank page's component renders them and
 * its browser chunk carries no schema (decision 022). bank.ts builds its schemas from these.
 */
export const BANK_CURRENCIES = ["LAK", "THB", "USD"] as const;
export const BANK_OWNERS = ["SELF", "OTHER"] as const;
