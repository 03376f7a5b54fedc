import { deviceKey, strangerKeys, DEFAULT_LOGIN_FAILURE_BUDGET, type DeviceEntry, type LoginAttempt, type LoginDevice } from "../../core/throttle";
import { base64url } from "../../core/tokens";
import { loginFailureBudget } from "../../db/agencies";
import { checkThrottle, clearThrottle, recordFailure, type ThrottleKey } from "./throttle";

/**
 * The gate every login passes (players: page and JSON API; staff: password and second
 * factor), after OWASP's device-cookie scheme (docs/decisions/011-login-throttling.md):
 *
 * - A browser that logged in to this account before holds a device cookie: an HMAC-signed
 *   entry (realm, agency, username, random nonce). Its attempts are judged on that device's
 *   own key only, so no stranger can lock the owner out of their own browser.
 * - Everyone else is a stranger, judged per account+address, per address (IPv6 /64), per
 *   account, and against the agency's budget of strangers' failures.
 * - A throttled attempt is refused before any password is hashed.
 *
 * The cookie holds up to five accounts (a shared family phone), newest first; it lives
 * 180 days and is renewed at every successful login.
 */

export type DeviceCookieConfig = { secrets: string[] };

export const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 60 * 60;
const MAX_ENTRIES = 5;

const encoder = new TextEncoder();

async function mac(secret: string, entry: DeviceEntry): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(`device-cookie:${secret}`), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signed = await crypto.subtle.sign("HMAC", key, encoder.encode(`${entry.realm}|${entry.agencyId}|${entry.username}|${entry.nonce}`));
  return base64url(new Uint8Array(signed)).slice(0, 32);
}

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The entries of a device cookie whose signature holds (any of the rotating secrets). */
export async function readDeviceCookie(config: DeviceCookieConfig, value: string | null): Promise<DeviceEntry[]> {
  if (!value || value.length > 2000) return [];
  const entries: DeviceEntry[] = [];
  for (const part of value.split("~").slice(0, MAX_ENTRIES)) {
    const [realm, agencyId, username, nonce, signature] = part.split(".");
    if ((realm !== "p" && realm !== "s") || !agencyId || !username || !nonce || !signature) continue;
    const entry: DeviceEntry = {
      realm: realm === "p" ? "player" : "staff",
      agencyId: decodeURIComponent(agencyId),
      username: decodeURIComponent(username),
      nonce,
    };
    for (const secret of config.secrets) {
      if (sameText(await mac(secret, entry), signature)) {
        entries.push(entry);
        break;
      }
    }
  }
  return entries;
}

/** The cookie value after a successful login: this account's entry first (a new nonce only if it had none). */
export async function writeDeviceCookie(
  config: DeviceCookieConfig,
  current: DeviceEntry[],
  entry: Omit<DeviceEntry, "nonce"> & { nonce?: string },
): Promise<string> {
  const nonce = entry.nonce ?? base64url(crypto.getRandomValues(new Uint8Array(12)));
  const own: DeviceEntry = { ...entry, nonce };
  const others = current.filter((e) => !(e.realm === own.realm && e.agencyId === own.agencyId && e.username === own.username));
  const list = [own, ...others].slice(0, MAX_ENTRIES);
  const parts = await Promise.all(
    list.map(
      async (e) =>
        `${e.realm === "player" ? "p" : "s"}.${encodeURIComponent(e.agencyId)}.${encodeURIComponent(e.username)}.${e.nonce}.${await mac(config.secrets[0], e)}`,
    ),
  );
  return parts.join("~");
}

export type Gate = { keys: ThrottleKey[]; trusted: boolean };

/**
 * Decides which keys judge this attempt and whether it may go on: `{ ok: false }` means
 * answer 429 without checking the password.
 */
export async function openLoginGate(
  db: D1Database,
  attempt: Omit<LoginAttempt, "deviceNonce">,
  device: LoginDevice | undefined,
  now: number,
): Promise<{ ok: true; gate: Gate } | { ok: false; retryAfterSeconds: number }> {
  const nonce = device?.entries.find((e) => e.realm === attempt.realm && e.agencyId === attempt.agencyId && e.username === attempt.username)?.nonce ?? null;
  const own = deviceKey({ ...attempt, deviceNonce: nonce });
  // a trusted device that keeps failing is a stranger again until its lock runs out
  if (own && !(await checkThrottle(db, [own], now)).locked) return { ok: true, gate: { keys: [own], trusted: true } };
  const budget = (await loginFailureBudget(db, attempt.agencyId)) ?? DEFAULT_LOGIN_FAILURE_BUDGET;
  const keys: ThrottleKey[] = strangerKeys({ ...attempt, deviceNonce: null }).map((k) => (k.kind === "agency" ? { ...k, free: budget } : k));
  const check = await checkThrottle(db, keys, now);
  if (check.locked) return { ok: false, retryAfterSeconds: check.retryAfterSeconds };
  return { ok: true, gate: { keys, trusted: false } };
}

export async function loginFailed(db: D1Database, gate: Gate, now: number): Promise<void> {
  await recordFailure(db, gate.keys, now);
}

/** The owner got in: forget this device's (or this address's) failures on the account, nothing wider. */
export async function loginSucceeded(db: D1Database, gate: Gate): Promise<void> {
  await clearThrottle(db, gate.keys.slice(0, 1));
}
