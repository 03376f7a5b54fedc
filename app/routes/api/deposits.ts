import { depositSummary, walletOf } from "../../../workers/services/deposit";
import { apiJson, apiPlayer } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { readPaging } from "~/lib/paging";
import type { Route } from "./+types/deposits";

/** SPEC §3 data groups: the deposit list (page, pageSize) and the open deposit order. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { player, error } = apiPlayer(context);
  if (error) return error;
  const wallet = walletOf(getBindings(context), getAgency(context).id, player.id);
  const url = new URL(request.url);
  if (url.pathname.endsWith("/open")) {
    const order = await wallet.openDepositOrder(Date.now());
    return apiJson({ orders: order ? [depositSummary(order)] : [] });
  }
  const { page, pageSize } = readPaging(url);
  const { items, total } = await wallet.listDeposits(page, pageSize);
  return apiJson({ page, pageSize, total, items: items.map(depositSummary) });
}
