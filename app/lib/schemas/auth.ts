import { z } from "zod";
import { AUTH_LIMITS } from "./auth-limits";
import { optionalNameField } from "./name";

/**
 * Account form schemas, shared by the browser (conform's client validation) and the
 * server (the action re-validates everything). Error messages are translation keys,
 * rendered by <ErrorList> with AUTH_LIMITS as interpolation values.
 */
export { AUTH_LIMITS };

const USERNAME_PATTERN = /^[a-z0-9_-]+$/;
/** Lao mobile (020 + 8 digits, or 030 + 7 digits) with or without +856, or any 8-15 digits. */
const PHONE_PATTERN = /^\+?[0-9]{8,15}$/;

const required = { error: "validation.required" };

const usernameSchema = z
  .string(required)
  .trim()
  .min(AUTH_LIMITS.usernameMin, { error: "validation.usernameMin" })
  .max(AUTH_LIMITS.usernameMax, { error: "validation.usernameMax" })
  .regex(USERNAME_PATTERN, { error: "validation.usernameFormat" });

const passwordSchema = z
  .string(required)
  .min(AUTH_LIMITS.passwordMin, { error: "validation.passwordMin" })
  .max(AUTH_LIMITS.passwordMax, { error: "validation.passwordMax" });

export const LoginSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  redirectTo: z.string().optional(),
});

/**
 * Whether two password fields can be compared: both typed. A refinement on an object runs only
 * once every field parses (zod's default), so a mismatch showed only after every other error was
 * fixed; with this `when` it shows as soon as both are there, beside the other errors.
 */
export function bothTyped(first: string, second: string) {
  return ({ value }: { value: unknown }) => {
    const fields = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
    return typeof fields[first] === "string" && typeof fields[second] === "string";
  };
}

export const RegisterSchema = z
  .object({
    username: usernameSchema,
    password: passwordSchema,
    confirmPassword: z.string({ error: "validation.confirmRequired" }),
    displayName: optionalNameField({ max: AUTH_LIMITS.displayNameMax, tooLong: "validation.displayNameMax" }).optional(),
    phone: z
      .string(required)
      .transform((value) => value.replace(/[\s-]/g, ""))
      .pipe(z.string(required).regex(PHONE_PATTERN, { error: "validation.phone" })),
    // "on" from the form checkbox, true from a JSON client.
    adult: z.union([z.literal("on"), z.literal(true)], { error: "validation.adult" }),
    fingerprint: z.string().max(128).optional(),
    // The referral code a /register?ref= link carried (decision 030); judged by the server.
    ref: z.string().max(32).optional(),
  })
  .refine((value) => value.password === value.confirmPassword, {
    error: "validation.confirmMismatch",
    path: ["confirmPassword"],
    when: bothTyped("password", "confirmPassword"),
  });

/** docs/product.md §5: each >= 8 ("password must be greater than 8"); confirm empty -> "please enter password". */
const changeField = z
  .string(required)
  .min(AUTH_LIMITS.passwordMin, { error: "validation.passwordMin" })
  .max(AUTH_LIMITS.passwordMax, { error: "validation.passwordMax" });

export const ChangePasswordSchema = z
  .object({
    currentPassword: changeField,
    newPassword: changeField,
    confirmNewPassword: z
      .string({ error: "validation.pleaseEnterPassword" })
      .min(AUTH_LIMITS.passwordMin, { error: "validation.passwordMin" })
      .max(AUTH_LIMITS.passwordMax, { error: "validation.passwordMax" }),
  })
  .refine((value) => value.newPassword === value.confirmNewPassword, {
    error: "validation.passwordNotMatch",
    path: ["confirmNewPassword"],
    when: bothTyped("newPassword", "confirmNewPassword"),
  });

export const UsernameValidateSchema = z.object({ username: usernameSchema });
