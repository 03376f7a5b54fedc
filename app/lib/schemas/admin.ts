import { z } from "zod";

/**
 * Back-office form schemas, shared by the browser (conform) and the server. Messages are
 * translation keys of the `admin` namespace.
 */
const STAFF_USERNAME_PATTERN = /^[a-z0-9_-]{3,32}$/;
const STAFF_PASSWORD_MIN = 12;

const required = { error: "admin:auth.validation.required" };
const username = z
  .string(required)
  .trim()
  .transform((v) => v.toLowerCase())
  .pipe(z.string(required).regex(STAFF_USERNAME_PATTERN, { error: "admin:auth.validation.username" }));

export const StaffLoginSchema = z
  .object({
    username,
    password: z.string(required).max(128, { error: "admin:auth.validation.passwordMax" }),
    redirectTo: z.string().optional(),
  })
  .meta({ id: "staff-login" });

export const TotpSchema = z
  .object({
    code: z
      .string(required)
      .transform((v) => v.replace(/\s/g, ""))
      .pipe(z.string(required).regex(/^\d{6}$/, { error: "admin:auth.validation.code" })),
  })
  .meta({ id: "staff-totp" });

export const RecoveryCodeSchema = z
  .object({
    recoveryCode: z
      .string(required)
      .trim()
      .refine((v) => v.toLowerCase().replace(/[^a-z0-9]/g, "").length === 10, { error: "admin:auth.validation.recoveryCode" }),
  })
  .meta({ id: "staff-recovery" });

export const EnrolSchema = z
  .object({
    token: z.string(required).max(100),
    password: z
      .string(required)
      .min(STAFF_PASSWORD_MIN, { error: "admin:auth.validation.passwordMin" })
      .max(128, { error: "admin:auth.validation.passwordMax" }),
    confirmPassword: z.string(required),
    code: TotpSchema.shape.code,
  })
  .refine((v) => v.password === v.confirmPassword, { error: "admin:auth.validation.confirmMismatch", path: ["confirmPassword"] })
  .meta({ id: "staff-enrol" });

export const CreateStaffSchema = z
  .object({
    username,
    role: z.enum(["owner", "cashier"], { error: "admin:auth.validation.required" }),
  })
  .meta({ id: "staff-new" });

export const StaffActionSchema = z.object({
  intent: z.enum(["disable", "enable", "reset"]),
  staffId: z.string(required).max(64),
});

export const MarkPaidSchema = z
  .object({
    intent: z.literal("paid"),
    bankReference: z
      .string({ error: "admin:withdrawals.validation.bankReference" })
      .trim()
      .min(3, { error: "admin:withdrawals.validation.bankReference" })
      .max(100, { error: "admin:withdrawals.validation.bankReference" }),
  })
  .meta({ id: "withdraw-paid" });

export const RejectSchema = z
  .object({
    intent: z.literal("reject"),
    reason: z
      .string({ error: "admin:withdrawals.validation.reason" })
      .trim()
      .min(3, { error: "admin:withdrawals.validation.reason" })
      .max(200, { error: "admin:withdrawals.validation.reason" }),
  })
  .meta({ id: "withdraw-reject" });

/** Owner: operator API tokens (create with a name; rotate or revoke one, after a confirm step). */
export const ApiTokenCreateSchema = z
  .object({
    intent: z.literal("create"),
    name: z
      .string({ error: "admin:apiTokens.validation.name" })
      .trim()
      .min(1, { error: "admin:apiTokens.validation.name" })
      .max(60, { error: "admin:apiTokens.validation.name" }),
  })
  .meta({ id: "api-token" });
export const ApiTokenChangeSchema = z.object({
  intent: z.enum(["rotate", "revoke"]),
  tokenId: z.string(required).max(64),
});
