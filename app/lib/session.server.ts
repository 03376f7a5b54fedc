import type { MiddlewareFunction } from "react-router";
import { resolveSession } from "@workers/services/players";
import { SESSION_ABSOLUTE_MS, type Client } from "@workers/core/session";
import { agencyContext, getBindings, playerContext, sessionHashContext } from "./context.server";
import { isSecureRequest } from "./secrets.server";

/**
 * The session cookie holds only a random id; the row in D1 (hashed id) decides whether it
 * is valid. `__Host-` pins it to this exact host over HTTPS; plain-HTTP localhost cannot
 * use that prefix (nor Secure), so it is called `session` there.
 */
export function sessionCookieName(request: Request): string {
  return isSecureRequest(request) ? "__Host-session" : "session";
}

export function readSessionId(request: Request): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const name = sessionCookieName(request);
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=") || null;
  }
  return null;
}

export function sessionCookie(request: Request, sessionId: string): string {
  const secure = isSecureRequest(request);
  return [
    `${sessionCookieName(request)}=${sessionId}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${SESSION_ABSOLUTE_MS / 1000}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

export function clearSessionCookie(request: Request): string {
  const secure = isSecureRequest(request);
  return [`${sessionCookieName(request)}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0", ...(secure ? ["Secure"] : [])].join("; ");
}

export function clientOf(request: Request): Client {
  // Set by Cloudflare's edge and not forgeable there; locally absent.
  return { ip: request.headers.get("CF-Connecting-IP") ?? "local", userAgent: request.headers.get("User-Agent") };
}

/** Loads the player of a valid session at this agency; a dead cookie is cleared. */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const agency = context.get(agencyContext);
  const sessionId = readSessionId(request);
  let stale = false;
  if (agency && sessionId) {
    const session = await resolveSession(getBindings(context).DB, agency.id, sessionId);
    if (session) {
      const { sessionHash, ...player } = session;
      context.set(playerContext, player);
      context.set(sessionHashContext, sessionHash);
    } else {
      stale = true;
    }
  }
  const response = await next();
  if (stale && !response.headers.get("Set-Cookie")?.includes(`${sessionCookieName(request)}=`)) {
    response.headers.append("Set-Cookie", clearSessionCookie(request));
  }
  return response;
};
