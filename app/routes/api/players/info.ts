import { getPlayerInfo } from "@workers/services/players";
import { apiError, apiJson } from "~/lib/api.server";
import { getAgency, getBindings, getPlayer } from "~/lib/context.server";
import type { Route } from "./+types/info";

/** docs/product.md §7 `GET /v2/players/info`: only ever the caller's own data (no id parameter exists). */
export async function loader({ context }: Route.LoaderArgs) {
  const player = getPlayer(context);
  if (!player) return apiError(context, "UNAUTHORIZED", 401);
  const info = await getPlayerInfo(getBindings(context).DB, getAgency(context).id, player.id);
  if (!info) return apiError(context, "UNAUTHORIZED", 401);
  return apiJson(info);
}
