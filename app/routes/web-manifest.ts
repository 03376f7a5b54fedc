import { webManifest } from "@workers/services/agency";
import { getAgency } from "~/lib/context.server";
import type { Route } from "./+types/web-manifest";

/**
 * `GET /app.webmanifest`: the agency's own web manifest (name, icon with its real size,
 * theme colour), in its fallback language (browsers fetch manifests without cookies).
 * Not in public/: files there are served before the Worker, the same for every agency.
 */
export function loader({ context }: Route.LoaderArgs) {
  const agency = getAgency(context);
  return new Response(JSON.stringify(webManifest(agency, agency.fallbackLanguage)), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" },
  });
}
