import { agencyInfo } from "@workers/services/agency";
import { getAgency } from "~/lib/context.server";
import type { Route } from "./+types/agency-info";

/** docs/product.md §7 `GET /v2/agency/info`: `{ agency: { id, social } }`; an unknown host is a 404. */
export function loader({ context }: Route.LoaderArgs) {
  return Response.json(agencyInfo(getAgency(context)), { headers: { "Cache-Control": "no-store" } });
}
