import { resources } from "~/middleware/i18next.server";
import { isLanguage } from "@workers/core/languages";
import { isNamespace, KEYS_FILE, pickGroups } from "~/lib/i18n";
import type { Route } from "./+types/locales";

const CACHE = { "Cache-Control": "public, max-age=300, stale-while-revalidate=86400" };

/**
 * `GET /locales/{lng}/{ns}.json`, the spec's translation loading path; and
 * `GET /locales/{lng}/keys.json?ns=common,player&g=deposit,credits`: only those key groups of
 * those namespaces, `{ common: {...}, player: {...} }`, what a client navigation to a page
 * that ships its own keys needs (decision 032).
 */
export function loader({ params, request }: Route.LoaderArgs) {
  if (isLanguage(params.lng) && params.file === KEYS_FILE) {
    const query = new URL(request.url).searchParams;
    const namespaces = (query.get("ns") ?? "").split(",").filter(isNamespace);
    const groups = (query.get("g") ?? "").split(",").filter(Boolean);
    const lng = params.lng;
    return Response.json(Object.fromEntries(namespaces.map((ns) => [ns, pickGroups(resources[lng][ns], groups)])), { headers: CACHE });
  }
  const ns = params.file.endsWith(".json") ? params.file.slice(0, -".json".length) : null;
  if (!isLanguage(params.lng) || !isNamespace(ns)) {
    return Response.json({ error: "NOT_FOUND" }, { status: 404 });
  }
  return Response.json(resources[params.lng][ns], { headers: CACHE });
}
