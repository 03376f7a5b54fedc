import { readBrandAsset } from "@workers/services/agency";
import { getAgency, getBindings } from "~/lib/context.server";
import type { Route } from "./+types/brand-asset";

/**
 * `GET /brand/<name>`: an uploaded brand image of THE REQUEST'S agency (R2 key
 * agencies/<agencyId>/<name>); another agency's name, or any other name, is 404. Names are
 * content-hashed, so the answer is cached for a year and never revalidated.
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const asset = await readBrandAsset(getBindings(context), getAgency(context).id, params.file);
  if (!asset) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" } });
  const headers = {
    "Content-Type": asset.contentType,
    "Content-Length": String(asset.size),
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    ETag: asset.etag,
  };
  if (request.headers.get("If-None-Match") === asset.etag) {
    await asset.body.cancel();
    return new Response(null, { status: 304, headers: { "Cache-Control": headers["Cache-Control"], ETag: asset.etag } });
  }
  return new Response(asset.body, { headers });
}
