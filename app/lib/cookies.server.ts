import { createCookie, type Cookie, type CookieOptions } from "react-router";
import { SESSION_ABSOLUTE_MS, STAFF_ABSOLUTE_MS } from "@workers/core/session";
import { DEVICE_COOKIE_MAX_AGE_S } from "@workers/services/login";
import { isSecureRequest } from "./secrets.server";

/**
 * Every cookie the portal sets, on React Router's `createCookie`: the player's session, the
 * staff session, the login device (each holding an opaque value the server checks), and the
 * options of the language and toast cookies. Over HTTPS a cookie is `__Host-<name>` (pinned to
 * this exact host, Secure); plain-HTTP localhost cannot use that prefix, so it keeps its bare name.
 *
 * Values are written in `createCookie`'s encoding. A cookie written before it (the raw value)
 * is still read, once: `legacyCookieMiddleware` rewrites it in the new encoding, so a deploy
 * logs nobody out.
 */

export type CookieKind = "session" | "staff" | "device";

const OPTIONS: Record<CookieKind, CookieOptions> = {
  session: { path: "/", httpOnly: true, sameSite: "lax", maxAge: SESSION_ABSOLUTE_MS / 1000 },
  // no other site can start a navigation that carries the back office's session
  staff: { path: "/", httpOnly: true, sameSite: "strict", maxAge: STAFF_ABSOLUTE_MS / 1000 },
  device: { path: "/", httpOnly: true, sameSite: "lax", maxAge: DEVICE_COOKIE_MAX_AGE_S },
};

/** The language a visitor picked: a year, read by the server only (unprefixed: i18next's middleware reads it by name). */
export const LANGUAGE_COOKIE_OPTIONS: CookieOptions = { path: "/", sameSite: "lax", httpOnly: true, maxAge: 60 * 60 * 24 * 365 };

/** The toast's flash session (remix-toast), signed with the agency's cookie secrets. */
export const toastCookieOptions = (secure: boolean, secrets: string[]) =>
  ({ name: "toast", path: "/", sameSite: "lax", httpOnly: true, secure, secrets }) as const;

const cookies = Object.fromEntries(
  (Object.keys(OPTIONS) as CookieKind[]).map((kind) => [
    kind,
    { secure: createCookie(`__Host-${kind}`, { ...OPTIONS[kind], secure: true }), plain: createCookie(kind, { ...OPTIONS[kind], secure: false }) },
  ]),
) as Record<CookieKind, { secure: Cookie; plain: Cookie }>;

const cookieOf = (kind: CookieKind, request: Request): Cookie => (isSecureRequest(request) ? cookies[kind].secure : cookies[kind].plain);

const cookieName = (kind: CookieKind, request: Request): string => cookieOf(kind, request).name;

/** The value as the browser sent it, undecoded (null when absent or empty). */
function rawValue(request: Request, name: string): string | null {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=") || null;
  }
  return null;
}

type CookieValue = { value: string | null; legacy: boolean };

/** A cookie's value: in `createCookie`'s encoding, or (legacy) the raw value written before it. */
export async function readCookie(kind: CookieKind, request: Request): Promise<CookieValue> {
  const cookie = cookieOf(kind, request);
  const parsed: unknown = await cookie.parse(request.headers.get("Cookie"));
  if (typeof parsed === "string" && parsed !== "") return { value: parsed, legacy: false };
  const raw = rawValue(request, cookie.name);
  return raw ? { value: raw, legacy: true } : { value: null, legacy: false };
}

/** Whether the request carries this cookie at all (valid or not). */
export const carriesCookie = (kind: CookieKind, request: Request): boolean => rawValue(request, cookieName(kind, request)) !== null;

/** Set-Cookie that stores `value`. */
export const writeCookie = (kind: CookieKind, request: Request, value: string): Promise<string> => cookieOf(kind, request).serialize(value);

/** Set-Cookie that removes the cookie: an empty value (`createCookie` would encode "" as a value of its own). */
export async function clearCookie(kind: CookieKind, request: Request): Promise<string> {
  return (await cookieOf(kind, request).serialize("", { maxAge: 0 })).replace(/^([^=]+)=[^;]*/, "$1=");
}

/** Whether a response already sets this cookie (a login, a logout, a stale session cleared). */
export const setsCookie = (response: Response, kind: CookieKind, request: Request): boolean =>
  response.headers.getSetCookie().some((line) => line.startsWith(`${cookieName(kind, request)}=`));
