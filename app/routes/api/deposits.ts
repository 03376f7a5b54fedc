import { listDepositSummaries, openDepositSummaries } from "@workers/services/deposits";
import { apiJson, apiPaging, apiPlayer } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import type { Route } from "./+types/deposits";

/** docs/product.md §3 data groups: the deposit list (page, pageSize) and the open deposit order. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { player, error } = apiPlayer(context);
  if (error) return error;
  const env = getBindings(context);
  const agencyId = getAgency(context).id;
  const url = new URL(request.url);
  if (url.pathname.endsWith("/open")) return apiJson(await openDepositSummaries(env, agencyId, player.id));
  const { paging, error: pagingError } = apiPaging(context, url);
  if (pagingError) return pagingError;
  return apiJson(await listDepositSummaries(env, agencyId, player.id, paging));
}
