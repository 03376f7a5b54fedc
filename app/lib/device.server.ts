import type { RouterContextProvider } from "react-router";
import type { DeviceEntry, LoginDevice } from "@workers/core/throttle";
import { DEVICE_COOKIE_MAX_AGE_S, readDeviceCookie, writeDeviceCookie } from "@workers/services/login";
import { getBindings } from "./context.server";
import { cookieSecrets, isSecureRequest } from "./secrets.server";

/**
 * The device cookie of OWASP's scheme (docs/decisions/011-login-throttling.md): set at every
 * successful login (player or staff), read at the next one. `__Host-device` over HTTPS
 * (pinned to this agency's host), `device` on plain-HTTP localhost. HttpOnly, SameSite=Lax.
 */
type Ctx = Readonly<RouterContextProvider>;

function cookieName(request: Request): string {
  return isSecureRequest(request) ? "__Host-device" : "device";
}

function rawCookie(request: Request): string | null {
  const name = cookieName(request);
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=") || null;
  }
  return null;
}

/** The verified entries this browser shows (empty without a valid cookie). */
export async function loginDevice(request: Request, context: Ctx): Promise<LoginDevice> {
  return { entries: await readDeviceCookie({ secrets: cookieSecrets(getBindings(context)) }, rawCookie(request)) };
}

/** Set-Cookie after a successful login: this account's entry first, the browser's others kept. */
export async function deviceCookieHeader(request: Request, context: Ctx, device: LoginDevice, entry: Omit<DeviceEntry, "nonce">): Promise<string> {
  const known = device.entries.find((e) => e.realm === entry.realm && e.agencyId === entry.agencyId && e.username === entry.username);
  const value = await writeDeviceCookie({ secrets: cookieSecrets(getBindings(context)) }, device.entries, { ...entry, nonce: known?.nonce });
  return [
    `${cookieName(request)}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${DEVICE_COOKIE_MAX_AGE_S}`,
    ...(isSecureRequest(request) ? ["Secure"] : []),
  ].join("; ");
}
