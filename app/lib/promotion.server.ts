import type { RouterContextProvider } from "react-router";
import type { PromotionError } from "@workers/core/promotion";
import { cancelPromotion, currentPromotionView as currentPromotionViewOf } from "@workers/services/promotions";
import type { Agency } from "@workers/services/agency";
import type { CurrentPlayer } from "@workers/core/session";
import { translate } from "./i18n.server";
import { errorMessageKey, isErrorCode } from "./errors";
import { formatMoney } from "./format";
import { getBindings } from "./context.server";
import { getLocale } from "~/middleware/i18next.server";
import { redirectWithError, redirectWithSuccess } from "./toast.server";

/**
 * The player's message for a promotion rule that said no, in their language, with the
 * figures the message needs (which provider holds the promotion, the set amount, ...).
 */
export function promotionErrorMessage(
  context: Readonly<RouterContextProvider>,
  error: PromotionError | "NOT_CANCELABLE",
  extra: { provider?: string; setAmount?: string | null; threshold?: string | null } = {},
): string {
  const code = error === "NOT_CANCELABLE" ? "PROMOTION_NOT_CANCELABLE" : error;
  const values: Record<string, unknown> = {};
  if (extra.provider) values.provider = translate(context, `providers.${extra.provider}`);
  if (extra.setAmount) values.amount = formatMoney(extra.setAmount, "LAK");
  if (extra.threshold) values.threshold = formatMoney(extra.threshold, "THB");
  return translate(context, isErrorCode(code) ? errorMessageKey(code) : "errors.generic.body", values);
}

/** The cancel-a-claim step shared by the promotion pages: ask, then cancel, then say so. */
export async function cancelClaimAction(
  args: { request: Request; context: Readonly<RouterContextProvider> },
  agency: Agency,
  player: CurrentPlayer,
  usageId: string,
  back: string,
): Promise<Response> {
  const result = await cancelPromotion(getBindings(args.context), agency, player, usageId);
  if (!result.ok) return redirectWithError(args, back, promotionErrorMessage(args.context, result.error));
  return redirectWithSuccess(args, back, translate(args.context, "promotion.cancelled"));
}

/** The promotion claimed or in use, shaped for <CurrentPromotion>, in the page's language. */
export function currentPromotionView(
  context: Readonly<RouterContextProvider>,
  agency: Agency,
  player: CurrentPlayer,
  options: { withTurnover?: boolean } = {},
) {
  return currentPromotionViewOf(getBindings(context), agency, player, getLocale(context), options);
}
