import { z } from "zod";

/**
 * Back-office operations forms (deposits, payments, players): shared by the browser
 * (conform) and the server actions. Messages are keys of the `admin` namespace.
 */
const required = { error: "admin:players.validation.required" };

export const DepositRetrySchema = z.object({
  intent: z.literal("retry"),
  // the retry count the staff member saw: a second press of the same form does nothing
  retries: z.coerce.number().int().min(0),
});

const creditFields = {
  id: z.string(required).min(1),
  username: z
    .string({ error: "admin:payments.validation.username" })
    .trim()
    .transform((v) => v.toLowerCase())
    .pipe(z.string({ error: "admin:payments.validation.username" }).regex(/^[a-z0-9_-]{4,20}$/, { error: "admin:payments.validation.username" })),
  provider: z.string({ error: "admin:payments.validation.provider" }).min(1, { error: "admin:payments.validation.provider" }),
  // the owner's written reason to credit money that may already be credited (decision 046); the service says when it is needed
  reason: z.string().trim().max(500, { error: "admin:payments.validation.noteMax" }).optional(),
};

/** review: the confirm step (nothing changes); credit: the money moves. */
export const ManualCreditSchema = z.object({ intent: z.enum(["credit-review", "credit"]), ...creditFields });

/** The owner splits a witness off the transfer it was linked to (decision 046). */
export const SplitWitnessSchema = z.object({
  intent: z.literal("split"),
  channelCode: z.string(required).min(1).max(40),
  source: z.enum(["staff", "statement", "forwarder"]),
  witnessId: z.string(required).min(1).max(200),
  reason: z
    .string({ error: "admin:payments.witnesses.splitErrors.REASON_REQUIRED" })
    .trim()
    .min(3, { error: "admin:payments.witnesses.splitErrors.REASON_REQUIRED" })
    .max(500, { error: "admin:payments.validation.noteMax" }),
});

export const RefundSchema = z.object({
  intent: z.enum(["refund-review", "refund"]),
  id: z.string(required).min(1),
  note: z
    .string({ error: "admin:payments.validation.note" })
    .trim()
    .min(3, { error: "admin:payments.validation.note" })
    .max(500, { error: "admin:payments.validation.noteMax" }),
});

export const LockSchema = z
  .object({
    intent: z.literal("lock"),
    reason: z
      .string({ error: "admin:players.validation.reason" })
      .trim()
      .min(3, { error: "admin:players.validation.reason" })
      .max(300, { error: "admin:players.validation.reasonMax" }),
  })
  .meta({ id: "player-lock" });

export const PlayerActionSchema = z.object({ intent: z.enum(["unlock", "end-sessions", "reset-password"]) });
