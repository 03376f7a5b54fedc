import { forwardToSandbox } from "@workers/services/agency";
import { getAgency, getBindings } from "~/lib/context.server";
import type { Route } from "./+types/sandbox-proxy";

/** The sandbox bank's pay page and the sandbox provider's game page, under the portal's own host (see forwardToSandbox). */
function forward({ request, params, context }: Route.LoaderArgs | Route.ActionArgs): Promise<Response> {
  return forwardToSandbox(getBindings(context), getAgency(context).id, params.target, request);
}

export const loader = (args: Route.LoaderArgs) => forward(args);
export const action = (args: Route.ActionArgs) => forward(args);
