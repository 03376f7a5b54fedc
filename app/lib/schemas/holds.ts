import { z } from "zod";
import { HOLD_REASON_MAX, HOLD_REASON_MIN, REGISTRATIONS_PER_DEVICE_MAX } from "@workers/core/holds";

/**
 * The holds page's forms (decision 094). Messages are keys of the `admin` namespace. A decision
 * carries its reason (3 to 300 characters), as an unlink's does: the audit says why.
 */
const reason = { error: "admin:holds.validation.reason" };

export const HoldDecisionSchema = z.object({
  intent: z.enum(["release", "refuse"]),
  holdId: z.string().min(1).max(64),
  reason: z.string(reason).trim().min(HOLD_REASON_MIN, reason).max(HOLD_REASON_MAX, reason),
});

export const HoldRulesSchema = z
  .object({
    intent: z.literal("rules"),
    promotions: z.literal("on").optional(),
    rewards: z.literal("on").optional(),
    withdrawals: z.literal("on").optional(),
    registrationsPerDevice: z.coerce
      .number({ error: "admin:holds.validation.registrations" })
      .int({ error: "admin:holds.validation.registrations" })
      .min(0, { error: "admin:holds.validation.registrations" })
      .max(REGISTRATIONS_PER_DEVICE_MAX, { error: "admin:holds.validation.registrations" }),
  })
  .transform((v) => ({
    promotions: v.promotions === "on",
    rewards: v.rewards === "on",
    withdrawals: v.withdrawals === "on",
    registrationsPerDevice: v.registrationsPerDevice,
  }));
