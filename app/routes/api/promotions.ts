import { cancelPromotion, claimPromotion, currentPromotion, getPromotion, listPromotions, listUsages, promotionSummary, usageSummary } from "../../../workers/services/promotion";
import { apiError, apiJson, apiPlayer, readBody } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { isErrorCode } from "~/lib/errors";
import { readPaging } from "~/lib/paging";
import { getLocale } from "~/middleware/i18next.server";
import type { Route } from "./+types/promotions";

/**
 * SPEC §3 promotion data groups: the list, the current promotion, a promotion by id, and
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
  if (url.pathname.endsWith("/current")) {
    const current = await currentPromotion(env, agency, player, { withTurnover: true });
    return apiJson({ current: current && { ...usageSummary(current.usage, current.promotion, lang), turnoverDone: current.turnoverDone } });
  }
  if (url.pathname.endsWith("/usages")) {
    const { page, pageSize } = readPaging(url);
    const { items, total } = await listUsages(env, agency, player, page, pageSize);
    return apiJson({ page, pageSize, total, items: items.map(({ usage, promotion }) => usageSummary(usage, promotion, lang)) });
  }
  if (params.promotionId) {
    const promotion = await getPromotion(env.DB, agency.id, params.promotionId);
    return promotion ? apiJson({ promotion: promotionSummary(promotion, lang) }) : apiError(context, "PROMOTION_NOT_FOUND", 404);
  }
  return apiJson({ promotions: (await listPromotions(env.DB, agency.id)).map((p) => promotionSummary(p, lang)) });
}

export async function action(args: Route.ActionArgs) {
  const { request, params, context } = args;
  const { player, error, env, agency, lang, url } = callContext(args);
  if (error) return error;
  if (url.pathname.endsWith("/current")) {
    const current = await currentPromotion(env, agency, player);
    if (!current) return apiError(context, "NOT_FOUND", 404);
    const cancelled = await cancelPromotion(env, agency, player, current.usage.id);
    if (!cancelled.ok) return apiError(context, cancelled.error === "NOT_CANCELABLE" ? "PROMOTION_NOT_CANCELABLE" : cancelled.error, 409);
    return apiJson({ usage: usageSummary(cancelled.usage, current.promotion, lang) });
  }
  if (!params.promotionId || url.pathname.endsWith("/usages")) return apiError(context, "NOT_FOUND", 404);
  const body = await readBody(request);
  const claimed = await claimPromotion(env, agency, player, { promotionId: params.promotionId, provider: String(body.provider ?? "") });
  if (!claimed.ok) {
    const code = isErrorCode(claimed.error) ? claimed.error : "PROVIDER_UNAVAILABLE";
    return apiError(context, code, claimed.error === "PROMOTION_NOT_FOUND" ? 404 : claimed.error === "PROVIDER_UNAVAILABLE" ? 503 : 409);
  }
  return apiJson({ usage: usageSummary(claimed.usage, await getPromotion(env.DB, agency.id, params.promotionId), lang) }, { status: 201 });
}
