import { walletOf } from "../../../workers/services/wallet";
import { withdrawSummary } from "../../../workers/services/withdraw";
import { apiError, apiJson } from "~/lib/api.server";
import { getAgency, getBindings, getPlayer } from "~/lib/context.server";
import { readPaging } from "~/lib/paging";
import type { Route } from "./+types/withdrawals";

/** SPEC §3 data groups: the withdraw list (page, pageSize) and the open withdraw orders. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const player = getPlayer(context);
  if (!player) return apiError(context, "UNAUTHORIZED", 401);
  const wallet = walletOf(getBindings(context), getAgency(context).id, player.id);
  const url = new URL(request.url);
  if (url.pathname.endsWith("/open")) return apiJson({ orders: (await wallet.openWithdraws()).map(withdrawSummary) });
  const { page, pageSize } = readPaging(url);
  const { items, total } = await wallet.listWithdraws(page, pageSize);
  return apiJson({ page, pageSize, total, items: items.map(withdrawSummary) });
}
