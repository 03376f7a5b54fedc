import { listWithdrawSummaries, openWithdrawSummaries } from "@workers/services/withdrawals";
import { apiJson, apiPaging, apiPlayer } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import type { Route } from "./+types/withdrawals";

/** docs/product.md §3 data groups: the withdraw list (page, pageSize) and the open withdraw orders. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { player, error } = apiPlayer(context);
  if (error) return error;
  const env = getBindings(context);
  const agencyId = getAgency(context).id;
  const url = new URL(request.url);
  if (url.pathname.endsWith("/open")) return apiJson(await openWithdrawSummaries(env, agencyId, player.id));
  const { paging, error: pagingError } = apiPaging(context, url);
  if (pagingError) return pagingError;
  return apiJson(await listWithdrawSummaries(env, agencyId, player.id, paging));
}
