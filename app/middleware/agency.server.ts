import { data, type MiddlewareFunction } from "react-router";
import { findAgencyByHost } from "@workers/services/agency";
import { agencyContext, cloudflareContext, getBindings } from "../lib/context.server";

/** Resolves the agency of the Host header once per request (null when unknown or disabled). */
export const agencyMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  // started by the Worker's entry with the CSP sources (workers/app.ts); else read here
  const agency = await (context.get(cloudflareContext).agency ?? findAgencyByHost(getBindings(context).DB, new URL(request.url).host));
  context.set(agencyContext, agency);
  return next();
};

/**
 * Runs after the language is known, so the "cannot log in, contact Support" page (docs/product.md §2)
 * is rendered in the visitor's language by the root error boundary, with status 404.
 */
export const requireAgencyMiddleware: MiddlewareFunction<Response> = async ({ context }, next) => {
  if (!context.get(agencyContext)) throw data({ reason: "AGENCY_NOT_FOUND" }, { status: 404 });
  return next();
};
