import { redirect } from "react-router";
import { staffLogout } from "@workers/services/staff";
import { getAgency, getBindings } from "~/lib/context.server";
import { translate } from "~/lib/i18n.server";
import { adminHeadersMiddleware, clearStaffCookie, readStaffSessionId, staffClient } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/logout";

export const middleware: Route.MiddlewareFunction[] = [adminHeadersMiddleware];

/** Logging out is a POST (a link or an image elsewhere cannot log staff out). */
export function loader() {
  return redirect("/admin");
}

export async function action({ request, context }: Route.ActionArgs) {
  const sessionId = await readStaffSessionId(request);
  if (sessionId) await staffLogout(getBindings(context).DB, getAgency(context).id, sessionId, staffClient(request));
  return redirectWithSuccess({ request, context }, "/admin/login", translate(context, "admin:auth.loggedOut"), {
    headers: { "Set-Cookie": await clearStaffCookie(request) },
  });
}
