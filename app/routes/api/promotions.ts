import {
  cancelCurrentPromotion,
  claimPromotionSummary,
  currentUsageSummary,
  promotionSummaries,
  promotionSummaryById,
  usageSummaries,
} from "@workers/services/promotions";
import { apiError, apiJson, apiPaging, apiPlayer, readBody } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { isErrorCode } from "~/lib/errors";
import { getLocale } from "~/middleware/i18next.server";
import type { Route } from "./+types/promotions";

/**
 * docs/product.md §3 promotion data groups: the list, the current promotion, a promotion by id, and
 * the player's usages (page, pageSize). POST to a promotion claims it ({ provider });
 * POST to /current cancels the claim.
 */
function callContext({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  return { ...apiPlayer(context), env: getBindings(context), agency: getAgency(context), lang: getLocale(context), url: new URL(request.url) };
}

export async function loader(args: Route.LoaderArgs) {
  const { params, context } = args;
  const { player, error, env, agency, lang, url } = callContext(args);
  if (error) return error;
  if (url.pathname.endsWith("/current")) return apiJson({ current: await currentUsageSummary(env, agency, player, lang) });
  if (url.pathname.endsWith("/usages")) {
    const { paging, error: pagingError } = apiPaging(context, url);
    if (pagingError) return pagingError;
    return apiJson(await usageSummaries(env, agency, player, paging.page, paging.pageSize, lang));
  }
  if (params.promotionId) {
    const found = await promotionSummaryById(env, agency, player, params.promotionId, lang);
    if (found.paused) return apiError(context, "OFFERS_PAUSED", 409, { reason: found.paused.reason, until: new Date(found.paused.until).toISOString() });
    return found.promotion ? apiJson({ promotion: found.promotion }) : apiError(context, "PROMOTION_NOT_FOUND", 404);
  }
  const list = await promotionSummaries(env, agency, player, lang);
  const paused = list.offersPaused && { reason: list.offersPaused.reason, until: new Date(list.offersPaused.until).toISOString() };
  return apiJson({ promotions: list.promotions, offersPaused: paused });
}

export async function action(args: Route.ActionArgs) {
  const { request, params, context } = args;
  const { player, error, env, agency, lang, url } = callContext(args);
  if (error) return error;
  if (url.pathname.endsWith("/current")) {
    const cancelled = await cancelCurrentPromotion(env, agency, player, lang);
    if (!cancelled) return apiError(context, "NOT_FOUND", 404);
    if (!cancelled.ok) return apiError(context, cancelled.error === "NOT_CANCELABLE" ? "PROMOTION_NOT_CANCELABLE" : cancelled.error, 409);
    return apiJson({ usage: cancelled.usage });
  }
  if (!params.promotionId || url.pathname.endsWith("/usages")) return apiError(context, "NOT_FOUND", 404);
  const body = await readBody(request);
  const claimed = await claimPromotionSummary(env, agency, player, { promotionId: params.promotionId, provider: String(body.provider ?? "") }, lang);
  if (!claimed.ok && claimed.error === "OFFERS_PAUSED")
    return apiError(context, "OFFERS_PAUSED", 409, { reason: claimed.pause.reason, until: new Date(claimed.pause.until).toISOString() });
  if (!claimed.ok) {
    const code = isErrorCode(claimed.error) ? claimed.error : "PROVIDER_UNAVAILABLE";
    return apiError(context, code, claimed.error === "PROMOTION_NOT_FOUND" ? 404 : claimed.error === "PROVIDER_UNAVAILABLE" ? 503 : 409);
  }
  return apiJson({ usage: claimed.usage }, { status: 201 });
}
