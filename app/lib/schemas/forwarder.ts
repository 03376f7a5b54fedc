import { z } from "zod";
import { parseWholeKip } from "@workers/core/money";
import type { ForwarderLimitsInput, HoldDecision, PatternsInput } from "@workers/services/bank-in";

/**
 * The notification forwarder page's forms (admin/forwarder). Messages are translation keys of the admin namespace.
 */
const required = { error: "admin:forwarder.validation.required" };
const channelCode = z.string(required).trim().min(1, required).max(40);

export const ForwarderCreateSchema = z.object({ intent: z.literal("create"), channelCode });

export const ForwarderRemoveSchema = z.object({ intent: z.literal("remove"), channelCode });

export const ForwarderLimitsSchema = z
  .object({
    intent: z.literal("limits"),
    channelCode,
    // whole kip, digit groups as a player types them: the one rule of workers/core/money
    autoCap: z
      .string(required)
      .trim()
      .refine((text) => parseWholeKip(text) !== null, { error: "admin:forwarder.validation.cap" }),
    silenceMinutes: z.coerce
      .number({ error: "admin:forwarder.validation.silence" })
      .int({ error: "admin:forwarder.validation.silence" })
      .min(5, { error: "admin:forwarder.validation.silence" })
      .max(10080, { error: "admin:forwarder.validation.silence" }),
  })
  .transform(({ intent: _intent, ...rest }) => rest) satisfies z.ZodType<ForwarderLimitsInput>;

const lines = z.string().max(4000, { error: "admin:forwarder.validation.tooLong" }).default("");

export const ForwarderPatternsSchema = z.object({
  intent: z.enum(["try", "save-patterns"]),
  bankCode: z.string(required).regex(/^[A-Z]{2,10}$/, required),
  senders: lines,
  credit: lines,
  debit: lines,
  amount: lines,
  time: lines,
  reference: lines,
  transactionId: lines,
  sampleFrom: z.string().max(200, { error: "admin:forwarder.validation.tooLong" }).optional(),
  sample: z.string().max(4000, { error: "admin:forwarder.validation.tooLong" }).optional(),
}) satisfies z.ZodType<PatternsInput & { intent: "try" | "save-patterns" }>;

export const ForwarderHoldSchema = z
  .object({
    intent: z.literal("hold"),
    holdId: z.string(required).uuid(required),
    decision: z.enum(["confirm", "reject"]),
  })
  .transform(({ intent: _intent, ...rest }) => rest) satisfies z.ZodType<HoldDecision>;
