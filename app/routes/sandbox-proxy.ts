import { getAgency, getBindings } from "~/lib/context.server";
import type { Route } from "./+types/sandbox-proxy";

/**
 * The sandbox bank's pay page and the sandbox provider's game page, under the portal's own
 * host (the sandboxes are reachable only by service binding). Answers only for an agency
 * whose payment channel is the sandbox gateway, i.e. the demo agency locally and in tests;
 * a real agency gets 404.
 */
async function forward({ request, params, context }: Route.LoaderArgs | Route.ActionArgs): Promise<Response> {
  const env = getBindings(context);
  const agency = getAgency(context);
  const sandbox = await env.DB.prepare(`SELECT 1 FROM payment_channels WHERE agency_id = ?1 AND gateway = 'sandbox' AND active = 1`).bind(agency.id).first();
  if (!sandbox) return new Response("Not found", { status: 404 });
  const target = params.target === "bank" ? env.SANDBOX_BANK : params.target === "provider" ? env.SANDBOX_PROVIDER : null;
  if (!target) return new Response("Not found", { status: 404 });
  const url = new URL(request.url);
  const rest = params["*"] ?? "";
  // Never the sandboxes' own APIs (they carry agent/merchant credentials): pages only.
  if (rest.startsWith("api/") || rest.startsWith("sandbox/")) return new Response("Not found", { status: 404 });
  const upstream = await target.fetch(`http://sandbox-${params.target}/${rest}${url.search}`, {
    method: request.method,
    headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
    body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer(),
    redirect: "manual",
  });
  const headers = new Headers(upstream.headers);
  const location = headers.get("Location");
  // The sandbox pages use relative links; keep absolute ones inside this proxy.
  if (location?.startsWith("/")) headers.set("Location", `/sandbox/${params.target}${location}`);
  return new Response(upstream.body, { status: upstream.status, headers });
}

export const loader = (args: Route.LoaderArgs) => forward(args);
export const action = (args: Route.ActionArgs) => forward(args);
