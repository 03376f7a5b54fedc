import { redirect } from "react-router";
import { logout } from "@workers/services/players";
import { translate } from "~/lib/i18n.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { clearSessionCookie, readSessionId } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/logout";

/** Logout is a POST (no GET changes state): end the session, clear the cookie, reload. */
export async function action({ request, context }: Route.ActionArgs) {
  const sessionId = await readSessionId(request);
  if (sessionId) await logout(getBindings(context).DB, getAgency(context).id, sessionId);
  return redirectWithSuccess({ request, context }, "/", translate(context, "auth.loggedOut"), {
    headers: { "Set-Cookie": await clearSessionCookie(request), "Clear-Site-Data": '"cache"' },
  });
}

export function loader() {
  return redirect("/");
}
