import { z } from "zod";
import { PROVIDERS } from "@workers/core/providers";
import { decimalPattern, scaled } from "@workers/core/decimal";
import type { PromotionInput } from "@workers/services/promotions";

/**
 * A promotion as staff edit it (admin/promotions/new and /:promotionId), every rule field
 * of migration 0007. Amounts are decimal strings: credit (THB) with up to 2 decimals,
 * set_amount in whole kip, percentages and the turnover multiple with up to 2 decimals.
 * Rules that depend on the agency (providers it offers, deposit limits) are checked again
 * by the service (workers/services/promotions/admin-promotions.ts), whose plain input type the
 * schema's output satisfies.
 */
const PROMOTION_LIMITS = { titleMax: 120, descriptionMax: 2000, percentMax: "1000", turnoverMax: "1000", sortMax: 9999 } as const;

const msg = (key: string) => `admin:promotions.validation.${key}`;
const credit = (key: string) =>
  z
    .string({ error: msg(key) })
    .trim()
    .regex(decimalPattern(2, 12), { error: msg(key) });
const title = z
  .string({ error: msg("titleLo") })
  .trim()
  .max(PROMOTION_LIMITS.titleMax, { error: msg("tooLong") });
const description = z
  .string()
  .trim()
  .max(PROMOTION_LIMITS.descriptionMax, { error: msg("tooLong") })
  .optional();
const imageUrl = z
  .string()
  .trim()
  .max(500, { error: msg("tooLong") })
  .regex(/^(https:\/\/[^\s<>"'{}]+|\/[^\s<>"'{}]*)$/, { error: msg("imageUrl") })
  .optional();

export const PromotionSchema = z
  .object({
    /** The row's updated_at when the form was opened: a concurrent edit is refused, not overwritten. */
    version: z.string().optional(),
    titleLo: title.min(1, { error: msg("titleLo") }),
    titleCn: title.optional(),
    titleVn: title.optional(),
    descriptionLo: description,
    descriptionCn: description,
    descriptionVn: description,
    /** Banner per language (cn/vn fall back to lo; see workers/services/promotions/promotion.ts). */
    imageUrlLo: imageUrl,
    imageUrlCn: imageUrl,
    imageUrlVn: imageUrl,
    bonusKind: z.enum(["FIXED", "PERCENT"], { error: msg("bonusKind") }),
    bonusValue: credit("bonusValue").refine((v) => (scaled(v, 2) ?? 0n) > 0n, { error: msg("bonusValue") }),
    bonusCap: credit("bonusCap").optional(),
    setAmount: z
      .string({ error: msg("setAmount") })
      .trim()
      .regex(decimalPattern(0, 13), { error: msg("setAmount") })
      .optional(),
    firstOrderOnly: z.literal("on").optional(),
    creditThreshold: credit("creditThreshold"),
    turnoverMultiple: credit("turnoverMultiple").refine((v) => (scaled(v, 2) ?? 0n) <= (scaled(PROMOTION_LIMITS.turnoverMax, 2) ?? 0n), {
      error: msg("turnoverMultiple"),
    }),
    maxWithdrawCredit: credit("maxWithdrawCredit").optional(),
    withdrawAll: z.literal("on").optional(),
    providers: z.array(z.enum(PROVIDERS, { error: msg("providers") }), { error: msg("providers") }).min(1, { error: msg("providers") }),
    status: z.enum(["ACTIVE", "INACTIVE"], { error: msg("status") }),
    sortOrder: z
      .string({ error: msg("sortOrder") })
      .trim()
      .regex(/^\d{1,4}$/, { error: msg("sortOrder") }),
  })
  .refine((v) => v.bonusKind !== "PERCENT" || (scaled(v.bonusValue, 2) ?? 0n) <= (scaled(PROMOTION_LIMITS.percentMax, 2) ?? 0n), {
    error: msg("percentMax"),
    path: ["bonusValue"],
  })
  .refine((v) => v.bonusKind !== "PERCENT" || (v.bonusCap !== undefined && (scaled(v.bonusCap, 2) ?? 0n) > 0n), {
    error: msg("capRequired"),
    path: ["bonusCap"],
  })
  .refine((v) => v.bonusKind !== "FIXED" || v.bonusCap === undefined, { error: msg("capPercentOnly"), path: ["bonusCap"] })
  .refine((v) => v.imageUrlLo !== undefined || (v.imageUrlCn === undefined && v.imageUrlVn === undefined), { error: msg("imageLoFirst"), path: ["imageUrlLo"] })
  .refine((v) => v.setAmount === undefined || (scaled(v.setAmount, 0) ?? 0n) > 0n, { error: msg("setAmount"), path: ["setAmount"] })
  .refine((v) => v.maxWithdrawCredit === undefined || (scaled(v.maxWithdrawCredit, 2) ?? 0n) > 0n, {
    error: msg("maxWithdrawCredit"),
    path: ["maxWithdrawCredit"],
  })
  .meta({ id: "promotion" }) satisfies z.ZodType<PromotionInput>;

export const PromotionStatusSchema = z.object({
  status: z.enum(["ACTIVE", "INACTIVE"]),
  version: z.string().optional(),
});
