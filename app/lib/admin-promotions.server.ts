import { uploadPromotionBanner } from "@workers/services/agency";
import type { PromotionResult } from "@workers/services/promotions";

/** A service refusal as the form's errors (field errors where there is a field). */
export function promotionErrors(outcome: Extract<PromotionResult, { ok: false }>) {
  const key = {
    NOT_FOUND: "admin:common.notFoundBody",
    STALE: "admin:promotions.errors.stale",
    PROVIDER_NOT_ENABLED: "admin:promotions.errors.providerNotEnabled",
    SET_AMOUNT_OUT_OF_LIMITS: "admin:promotions.errors.setAmountOutOfLimits",
  }[outcome.code];
  return outcome.field ? { fieldErrors: { [outcome.field]: [key] } } : { formErrors: [key] };
}

/**
 * The promotion form's banner upload (slot "banner", decision 018): when a file was chosen it is
 * checked and stored, and its /brand/ URL becomes the promotion's lo image (cn and vn fall
 * back to it unless they have their own). No file: the image URL fields as typed.
 */
export async function withUploadedBanner<T extends { imageUrlLo?: string }>(
  env: Env,
  actor: Parameters<typeof uploadPromotionBanner>[1],
  formData: FormData,
  value: T,
): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  const file = formData.get("banner");
  if (!(file instanceof File) || (file.size === 0 && file.name === "")) return { ok: true, value };
  const outcome = await uploadPromotionBanner(env, actor, file);
  if (!outcome.ok) return { ok: false, message: `admin:brand.errors.${outcome.code}` };
  return { ok: true, value: { ...value, imageUrlLo: outcome.url } };
}
