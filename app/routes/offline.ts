import { pageBrand } from "@workers/core/brand-style";
import { isLanguage, type Language } from "@workers/core/languages";
import { getAgency, getNonce } from "~/lib/context.server";
import { offlinePageHtml } from "~/lib/offline-page.server";
import { getInstance, getLocale } from "~/middleware/i18next.server";
import type { Route } from "./+types/offline";

/**
 * `GET /offline?lng=lo|cn|vn`: the page the service worker stores at install and shows when a
 * navigation finds no network (decision 028). The language is in the address because the
 * worker fetches it without cookies, once per language; without `lng`, the visitor's own.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const asked = new URL(request.url).searchParams.get("lng");
  const lang: Language = isLanguage(asked) ? asked : (getLocale(context) as Language);
  const agency = getAgency(context);
  const t = getInstance(context).getFixedT(lang, "common");
  const brand = pageBrand(agency.brand, { agencyName: agency.name, lang, origin: new URL(request.url).origin, defaultDescription: "" });
  const html = offlinePageHtml({
    lang,
    siteName: brand.siteName,
    colors: brand.colors,
    nonce: getNonce(context),
    text: { title: t("offline.title"), body: t("offline.body"), deposit: t("offline.deposit"), retry: t("offline.retry") },
  });
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache", "Content-Language": lang } });
}
