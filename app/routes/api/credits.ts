import { isProvider } from "@workers/core/providers";
import { fetchCredit } from "@workers/services/providers";
import { apiError, apiJson, apiPlayer } from "~/lib/api.server";
import { getAgency, getBindings, getWaitUntil } from "~/lib/context.server";
import type { Route } from "./+types/credits";

/** docs/product.md §7 `GET /v2/players/credits/{provider}`: `{ credit: { amount, currency } }`, live from the provider (and kept as the last known credit, decision 081). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { player, error } = apiPlayer(context);
  if (error) return error;
  const agency = getAgency(context);
  if (!isProvider(params.provider) || !agency.enabledProviders.includes(params.provider)) return apiError(context, "NOT_FOUND", 404);
  const result = await fetchCredit(getBindings(context), agency.id, player, params.provider, getWaitUntil(context));
  if (!result.credit) return apiError(context, "PROVIDER_UNAVAILABLE", 503);
  return apiJson({ credit: result.credit });
}
