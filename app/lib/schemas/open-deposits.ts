import { z } from "zod";
import { parseTypedDateTime } from "@workers/core/vientiane";
import type { MarkPaidInput } from "@workers/services/bank-in";

/**
 * "Mark paid" in the open-deposits queue: the order, the bank's transaction id (required) and
 * the bank's time as the bank app shows it (Vientiane time, UTC+7, typed day first). Messages are keys of the
 * `admin` namespace.
 */
export const MarkPaidSchema = z.object({
  orderCode: z.string({ error: "admin:openDeposits.errors.NOT_OPEN" }).trim().min(1, { error: "admin:openDeposits.errors.NOT_OPEN" }),
  bankTransactionId: z
    .string({ error: "admin:openDeposits.errors.TRANSACTION_ID_REQUIRED" })
    .trim()
    .min(1, { error: "admin:openDeposits.errors.TRANSACTION_ID_REQUIRED" })
    .max(80, { error: "admin:openDeposits.errors.TRANSACTION_ID_REQUIRED" }),
  bankTime: z
    .string({ error: "admin:openDeposits.errors.BANK_TIME_INVALID" })
    .trim()
    // typed DD/MM/YYYY HH:mm, 24-hour (decision 088); a datetime-local value is still read
    .transform((v) => parseTypedDateTime(v) ?? Number.NaN)
    .pipe(z.number({ error: "admin:openDeposits.errors.BANK_TIME_INVALID" }).finite({ error: "admin:openDeposits.errors.BANK_TIME_INVALID" })),
  /** the cashier checked a bank time outside the order's life and records it anyway (it goes to the payments queue) */
  outsideLife: z
    .literal("confirm")
    .optional()
    .transform((v) => v === "confirm"),
}) satisfies z.ZodType<MarkPaidInput>;

/** A slip the cashier checked, taken off the queue (decision 087): nothing else changes. */
export const SlipCheckedSchema = z.object({
  intent: z.literal("slip-checked"),
  slipId: z.string().trim().min(1).max(64),
});
