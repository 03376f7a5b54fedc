/**
 * The account forms' length limits, in a module without zod: <ErrorList> interpolates them
 * into every form's messages, and it is on pages that must not download zod up front
 * (decision 022). auth.ts builds its schemas from these and re-exports them.
 */
export const AUTH_LIMITS = {
  usernameMin: 4,
  usernameMax: 20,
  passwordMin: 8,
  passwordMax: 128,
  displayNameMax: 40,
} as const;
