import { logout } from "@workers/services/players";
import { apiJson } from "~/lib/api.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { clearSessionCookie, readSessionId } from "~/lib/session.server";
import type { Route } from "./+types/logout";

/** docs/product.md §7 `POST /v2/players/logout`. */
export async function action({ request, context }: Route.ActionArgs) {
  const sessionId = await readSessionId(request);
  if (sessionId) await logout(getBindings(context).DB, getAgency(context).id, sessionId);
  return apiJson({ ok: true }, { headers: { "Set-Cookie": await clearSessionCookie(request) } });
}
