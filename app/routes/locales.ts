import { resources } from "~/middleware/i18next.server";
import { isLanguage } from "../../workers/core/languages";
import { isNamespace } from "~/lib/i18n";
import type { Route } from "./+types/locales";

/** `GET /locales/{lng}/{ns}.json`, the spec's translation loading path. */
export function loader({ params }: Route.LoaderArgs) {
  const ns = params.file.endsWith(".json") ? params.file.slice(0, -".json".length) : null;
  if (!isLanguage(params.lng) || !isNamespace(ns)) {
    return Response.json({ error: "NOT_FOUND" }, { status: 404 });
  }
  return Response.json(resources[params.lng][ns], {
    headers: { "Cache-Control": "public, max-age=300, stale-while-revalidate=86400" },
  });
}
