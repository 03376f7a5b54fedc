import { listWithdrawSummaries, openWithdrawSummaries } from "../../../workers/services/withdraw";
import { apiJson, apiPlayer } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { readPaging } from "~/lib/paging";
import type { Route } from "./+types/withdrawals";

/** SPEC §3 data groups: the withdraw list (page, pageSize) and the open withdraw orders. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { player, error } = apiPlayer(context);
  if (error) return error;
  const env = getBindings(context);
  const agencyId = getAgency(context).id;
  const url = new URL(request.url);
  if (url.pathname.endsWith("/open")) return apiJson(await openWithdrawSummaries(env, agencyId, player.id));
  return apiJson(await listWithdrawSummaries(env, agencyId, player.id, readPaging(url)));
}
