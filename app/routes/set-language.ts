import { redirect } from "react-router";
import { serializeLanguageCookie } from "~/middleware/i18next.server";
import { isLanguage } from "@workers/core/languages";
import { safeRedirectPath } from "~/lib/menu";
import { isSecureRequest } from "~/lib/secrets.server";
import type { Route } from "./+types/set-language";

/** The language switcher posts here (works without JavaScript): set the cookie, go back. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const lng = form.get("lng");
  const back = safeRedirectPath(form.get("redirectTo"));
  if (!isLanguage(lng)) return redirect(back);
  return redirect(back, { headers: { "Set-Cookie": await serializeLanguageCookie(lng, isSecureRequest(request)) } });
}

export function loader() {
  return redirect("/");
}
