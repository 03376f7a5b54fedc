import type { RouterContextProvider } from "react-router";
import type { DeviceEntry, LoginDevice } from "@workers/core/throttle";
import { readDeviceCookie, writeDeviceCookie } from "@workers/services/login";
import { getBindings } from "./context.server";
import { readCookie, writeCookie } from "./cookies.server";
import { cookieSecrets } from "./secrets.server";

/**
 * The device cookie of OWASP's scheme (docs/decisions/011-login-throttling.md): set at every
 * successful login (player or staff), read at the next one; signed by login-guard, named and
 * encoded by cookies.server.ts.
 */
type Ctx = Readonly<RouterContextProvider>;

/** The verified entries this browser shows (empty without a valid cookie). */
export async function loginDevice(request: Request, context: Ctx): Promise<LoginDevice> {
  return { entries: await readDeviceCookie({ secrets: cookieSecrets(getBindings(context)) }, (await readCookie("device", request)).value) };
}

/** Set-Cookie after a successful login: this account's entry first, the browser's others kept. */
export async function deviceCookieHeader(request: Request, context: Ctx, device: LoginDevice, entry: Omit<DeviceEntry, "nonce">): Promise<string> {
  const known = device.entries.find((e) => e.realm === entry.realm && e.agencyId === entry.agencyId && e.username === entry.username);
  const value = await writeDeviceCookie({ secrets: cookieSecrets(getBindings(context)) }, device.entries, { ...entry, nonce: known?.nonce });
  return writeCookie("device", request, value);
}
