import { z } from "zod";
import { BANK_CODES } from "@workers/core/banks";
import type {
  OwnAccountActiveInput,
  OwnAccountCreateInput,
  OwnAccountModeInput,
  OwnAccountPayoutQrInput,
  OwnAccountSlipReferenceInput,
} from "@workers/services/agency";

/**
 * The own-account channel screen (admin/settings/channels). The read step posts the pasted
 * QR text and/or an image (multipart); the route reads those two fields itself, the image
 * being bytes. The confirm step and the channel forms are parsed with these schemas, whose
 * output is the service's plain input (`satisfies`). Messages are keys of the admin namespace.
 */
export const OWN_ACCOUNT_QR_TEXT_MAX = 512;

const code = z
  .string({ error: "admin:settings.validation.channelCode" })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9][A-Z0-9_-]{1,31}$/, { error: "admin:settings.validation.channelCode" });

export const OwnAccountCreateSchema = z
  .object({
    intent: z.literal("create"),
    qrText: z
      .string({ error: "admin:ownAccount.problems.EMPTY" })
      .trim()
      .min(1, { error: "admin:ownAccount.problems.EMPTY" })
      .max(OWN_ACCOUNT_QR_TEXT_MAX, { error: "admin:ownAccount.problems.FORMAT" }),
    code,
    displayName: z
      .string({ error: "admin:settings.validation.required" })
      .trim()
      .min(1, { error: "admin:settings.validation.required" })
      .max(60, { error: "admin:settings.validation.tooLong" }),
  })
  .meta({ id: "own-account-create" }) satisfies z.ZodType<OwnAccountCreateInput>;

const WINDOW = "admin:ownAccount.validation.window";

/**
 * Whole minutes 1 to 1440 in plain decimal digits, surrounding spaces ignored. Digits first,
 * then the number: Number() (z.coerce) reads "0x10" as 16, "1e3" as 1000 and "1.0" as 1.
 */
const witnessWindow = z
  .string({ error: WINDOW })
  .trim()
  .regex(/^[0-9]{1,4}$/, { error: WINDOW })
  .transform(Number)
  .pipe(z.number().int().min(1, { error: WINDOW }).max(1440, { error: WINDOW }));

const FEE = "admin:debitPayout.validation.fee";

/**
 * The bank's fee per transfer out (decision 084): whole kip 0 to 100000 in plain decimal
 * digits, kept as written without leading zeros ("0020" is "20").
 */
const debitFee = z
  .string({ error: FEE })
  .trim()
  .regex(/^[0-9]{1,6}$/, { error: FEE })
  .transform(Number)
  .pipe(z.number().int().max(100_000, { error: FEE }))
  .transform(String);

export const OwnAccountModeSchema = z.object({
  intent: z.literal("mode"),
  code: z.string().trim().min(1),
  mode: z.enum(["derived", "static"], { error: "admin:ownAccount.validation.mode" }),
  // the witness window (decision 046): reports of one amount this close in bank time are one transfer
  witnessWindowMinutes: witnessWindow.optional(),
  // what the bank takes per payout, shown in the same debit: a debit of payout + fee is that payout (decision 084)
  debitFee: debitFee.optional(),
}) satisfies z.ZodType<OwnAccountModeInput>;

export const OwnAccountActiveSchema = z.object({
  intent: z.literal("active"),
  code: z.string().trim().min(1),
  active: z.enum(["1", "0"]),
}) satisfies z.ZodType<OwnAccountActiveInput>;

/**
 * The player banks whose QR with the amount inserted this channel's bank app accepts (decision
 * 086): checkboxes named `banks`, none checked = none (the static QR for every bank).
 */
export const OwnAccountPayoutQrSchema = z.object({
  intent: z.literal("payoutQr"),
  code: z.string().trim().min(1),
  banks: z.array(z.enum(BANK_CODES)).default([]),
}) satisfies z.ZodType<OwnAccountPayoutQrInput>;

/** The slip reference setting (decision 087): a checkbox, absent when unticked. */
export const OwnAccountSlipReferenceSchema = z.object({
  intent: z.literal("slip-reference"),
  code: z.string().trim().min(1),
  confirmed: z
    .literal("1")
    .optional()
    .transform((v) => (v === "1" ? "1" : "0") as "1" | "0"),
}) satisfies z.ZodType<OwnAccountSlipReferenceInput, unknown>;
