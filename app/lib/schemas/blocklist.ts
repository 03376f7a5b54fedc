import { z } from "zod";
import { BANK_CODES } from "@workers/core/banks";
import { BLOCKLIST_ACTIONS, BLOCKLIST_KINDS, BLOCKLIST_NOTE_MAX, blocklistKey } from "@workers/core/blocklist";

/**
 * The owner's blocklist forms (decision 090). Messages are keys of the `admin` namespace. A value
 * is checked by the same normal form the checks use: one that normalises to nothing (a phone of
 * five digits, a name of dots) could never match, so it is refused here rather than listed.
 */
const required = { error: "admin:blocklist.validation.required" };

export const BlocklistAddSchema = z
  .object({
    intent: z.literal("add"),
    kind: z.enum(BLOCKLIST_KINDS, required),
    value: z.string(required).trim().min(1, required).max(200, { error: "admin:blocklist.validation.value" }),
    // only for a bank account: the same number at two banks is two accounts
    bankCode: z.enum(BANK_CODES, { error: "admin:blocklist.validation.bank" }).optional(),
    action: z.enum(BLOCKLIST_ACTIONS, required).default("refuse"),
    note: z
      .string()
      .trim()
      .max(BLOCKLIST_NOTE_MAX, { error: "admin:blocklist.validation.note" })
      .optional()
      .transform((v) => v ?? ""),
  })
  .superRefine((value, ctx) => {
    if (value.kind === "bank" && !value.bankCode) ctx.addIssue({ code: "custom", path: ["bankCode"], message: "admin:blocklist.validation.bank" });
    else if (blocklistKey(value.kind, value.value, value.bankCode) === null) {
      ctx.addIssue({ code: "custom", path: ["value"], message: `admin:blocklist.validation.${value.kind}` });
    }
  })
  // its name in the lite forms' validator module (decision 089)
  .meta({ id: "blocklist-entry" });

export const BlocklistRemoveSchema = z.object({
  intent: z.literal("remove"),
  entryId: z.string(required).min(1, required).max(64),
});
