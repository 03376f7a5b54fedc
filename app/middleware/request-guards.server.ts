import { data, redirect, type MiddlewareFunction } from "react-router";
import { apiError } from "~/lib/api.server";
import { getPlayer } from "~/lib/context.server";
import type { ErrorCode } from "~/lib/errors";
import { carriesCookie, readCookie, setsCookie, writeCookie, type CookieKind } from "~/lib/cookies.server";

/**
 * Root guards every loader and action passes (decision 014). They key on the
 * matched route pattern of app/routes.ts (`/player/promotion/:promotionId`, ...), never on the
 * raw URL, so `.data` requests and odd spellings of a path meet the same rule.
 */

/** React Router's matched pattern (`api/v2/players/login`, `player/withdraw`) as a path. */
const routePattern = (pattern: string) => `/${pattern.replace(/^\/+/, "")}`;

const UNSAFE = (method: string) => method !== "GET" && method !== "HEAD" && method !== "OPTIONS";

/** The compatibility JSON API (docs/product.md §7) and the operator API answer JSON errors with a code. */
const isApiPattern = (pattern: string) => pattern.startsWith("/api/") || pattern.startsWith("/v2/");

/** The gateway's webhook verifies a signature over the raw body: its bytes are never judged here. */
const isRawBodyPattern = (pattern: string) => pattern.endsWith("/payments/webhook");

/** Answers that are the same for everyone, whoever asks (public caching stays theirs). */
const SESSION_INDEPENDENT_PATTERNS = new Set(["/locales/:lng/:file", "/brand/:file", "/app.webmanifest"]);

function setHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    // immutable headers (a fetched Response): copy
    const copy = new Response(response.body, response);
    copy.headers.set(name, value);
    return copy;
  }
}

/**
 * Finding 6: an answer to a request that carries a player or staff session (valid or not), or
 * one that sets a cookie, may hold private data (bank details, QR payloads, history, the back
 * office): no cache anywhere may keep it. Outermost, so redirects and error pages are covered.
 */
export const privateCacheMiddleware: MiddlewareFunction<Response> = async (args, next) => {
  const { request } = args;
  const pattern = routePattern(args.pattern);
  const response = await next();
  if (SESSION_INDEPENDENT_PATTERNS.has(pattern)) return response;
  const withSession = carriesCookie("session", request) || carriesCookie("staff", request);
  if (!withSession && !response.headers.has("Set-Cookie")) return response;
  return setHeader(response, "Cache-Control", "private, no-store");
};

/**
 * A cookie written before the cookie module (its raw value) works once and comes back in
 * `createCookie`'s encoding, unless the answer sets that cookie itself (a login, a logout, a
 * stale session cleared): a deploy logs nobody out.
 */
export const legacyCookieMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const response = await next();
  for (const kind of ["session", "staff", "device"] as CookieKind[]) {
    const read = await readCookie(kind, request);
    if (!read.legacy || !read.value || setsCookie(response, kind, request)) continue;
    const line = await writeCookie(kind, request, read.value);
    try {
      response.headers.append("Set-Cookie", line);
    } catch {
      // immutable headers (a fetched Response): the cookie is rewritten on a later answer
    }
  }
  return response;
};

/** What a player whose password staff reset may still do (docs/product.md §4: the new password comes first). */
const ALLOWED_DURING_FORCED_CHANGE = new Set([
  "/player/password",
  "/logout",
  "/set-language",
  "/api/v2/players/logout",
  "/v2/players/logout",
  "/api/v2/players/security/password/change",
  "/v2/players/security/password/change",
]);

/** Routes that act on other credentials than the player's session (staff, API token, gateway, sandbox). */
const notThePlayers = (pattern: string) =>
  pattern === "/admin" || pattern.startsWith("/admin/") || pattern.startsWith("/api/staff/") || pattern.startsWith("/sandbox/") || isRawBodyPattern(pattern);

/**
 * Finding 5: while staff have forced a new password, every state-changing request of that
 * session is refused before any action runs, except the password change, logout and the
 * language switch. Pages go to the new-password form; the JSON API answers 403
 * PASSWORD_CHANGE_REQUIRED. (Page loads are redirected by the /player layout's loader, the
 * API's reads by apiPlayer.) A route added later is refused by default.
 */
export const forcedPasswordChangeMiddleware: MiddlewareFunction<Response> = async (args, next) => {
  const { request, context } = args;
  const pattern = routePattern(args.pattern);
  const player = getPlayer(context);
  if (player?.mustChangePassword && UNSAFE(request.method) && !ALLOWED_DURING_FORCED_CHANGE.has(pattern) && !notThePlayers(pattern)) {
    return isApiPattern(pattern) ? apiError(context, "PASSWORD_CHANGE_REQUIRED", 403) : redirect("/player/password");
  }
  return next();
};

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];
const mediaTypeOf = (request: Request) => (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();

/**
 * Finding 7: actions read forms (pages) or JSON or forms (the API). A body of any other type,
 * or none declared, or a form that does not parse, is refused here with 415 / 400 instead of
 * crashing the action: pages show the translated message, the API a JSON error code.
 * The payment webhook keeps its raw signed body. An API call without a body and without a
 * Content-Type (an operator's `approve`) is an empty object.
 */
export const bodyTypeMiddleware: MiddlewareFunction<Response> = async (args, next) => {
  const { request, context } = args;
  const pattern = routePattern(args.pattern);
  if (!UNSAFE(request.method) || isRawBodyPattern(pattern)) return next();
  const api = isApiPattern(pattern);
  // The API answers its JSON error; a page renders the root error boundary with the message.
  const refuse = (code: ErrorCode, status: number) => {
    if (api) return apiError(context, code, status);
    throw data({ code }, { status });
  };
  const type = mediaTypeOf(request);
  if (FORM_TYPES.includes(type)) {
    try {
      await request.clone().formData();
    } catch {
      return refuse("MALFORMED_BODY", 400);
    }
    return next();
  }
  if (api && type === "application/json") return next();
  if (api && type === "" && (await request.clone().arrayBuffer()).byteLength === 0) return next();
  return refuse("UNSUPPORTED_MEDIA_TYPE", 415);
};
