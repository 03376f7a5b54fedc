import { z } from "zod";
import { AUTH_LIMITS, bothTyped } from "./auth";

/**
 * The new password a player must set after staff reset theirs (no current password: they
 * just logged in with the temporary one). Same rules and messages as the change form.
 */
const field = z
  .string({ error: "validation.required" })
  .min(AUTH_LIMITS.passwordMin, { error: "validation.passwordMin" })
  .max(AUTH_LIMITS.passwordMax, { error: "validation.passwordMax" });

export const ForcedPasswordSchema = z
  .object({
    // "forced" from the page's form; absent when the navbar's change-password dialog posts here
    intent: z.literal("forced").optional(),
    newPassword: field,
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
