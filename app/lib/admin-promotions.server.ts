import type { PromotionResult } from "../../workers/services/admin-promotions";

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
