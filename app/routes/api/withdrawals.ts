import { walletOf } from "../../../workers/services/wallet";
import { withdrawSummary } from "../../../workers/services/withdraw";
import { apiJson, apiPlayer } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { readPaging } from "~/lib/paging";
import type { Route } from "./+types/withdrawals";

/** SPEC §3 data groups: the withdraw list (page, pageSize) and the open withdraw orders. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { player, error } = apiPlayer(context);
  if (error) return error;
  const wallet = walletOf(getBindings(context), getAgency(context).id, player.id);
  const url = new URL(request.url);
  if (url.pathname.endsWith("/open")) return apiJson({ orders: (await wallet.openWithdraws()).map(withdrawSummary) });
  const { page, pageSize } = readPaging(url);
  const { items, total } = await wallet.listWithdraws(page, pageSize);
  return apiJson({ page, pageSize, total, items: items.map(withdrawSummary) });
}
