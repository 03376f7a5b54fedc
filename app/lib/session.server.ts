import type { MiddlewareFunction } from "react-router";
import { resolveSession } from "@workers/services/players";
import type { Client } from "@workers/core/session";
import { agencyContext, getBindings, getWaitUntil, playerContext, sessionHashContext } from "./context.server";
import { clearCookie, readCookie, setsCookie, writeCookie } from "./cookies.server";

/**
 * The session cookie holds only a random id; the row in D1 (hashed id) decides whether it
 * is valid (cookies.server.ts names and encodes it).
 */
export async function readSessionId(request: Request): Promise<string | null> {
  return (await readCookie("session", request)).value;
}

export const sessionCookie = (request: Request, sessionId: string): Promise<string> => writeCookie("session", request, sessionId);

export const clearSessionCookie = (request: Request): Promise<string> => clearCookie("session", request);

export function clientOf(request: Request): Client {
  // Set by Cloudflare's edge and not forgeable there; locally absent.
  return { ip: request.headers.get("CF-Connecting-IP") ?? "local", userAgent: request.headers.get("User-Agent") };
}

/** Loads the player of a valid session at this agency; a dead cookie is cleared. */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const agency = context.get(agencyContext);
  const sessionId = await readSessionId(request);
  let stale = false;
  if (agency && sessionId) {
    // the last-seen write (once a minute) goes after the answer (decision 076)
    const session = await resolveSession(getBindings(context).DB, agency.id, sessionId, { waitUntil: getWaitUntil(context) });
    if (session) {
      const { sessionHash, ...player } = session;
      context.set(playerContext, player);
      context.set(sessionHashContext, sessionHash);
    } else {
      stale = true;
    }
  }
  const response = await next();
  if (stale && !setsCookie(response, "session", request)) response.headers.append("Set-Cookie", await clearSessionCookie(request));
  return response;
};
