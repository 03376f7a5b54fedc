import { deviceKey, strangerKeys, DEFAULT_LOGIN_FAILURE_BUDGET, type DeviceEntry, type LoginAttempt, type LoginDevice } from "../../core/throttle";
import { base64url } from "../../core/tokens";
import { loginFailureBudgetRead } from "../../db/agencies";
import { readTogether } from "../../db/reads";
import { clearThrottle, lockedUntilRead, recordFailure, throttleCheck, type ThrottleKey } from "./throttle";

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

/** The device key of this attempt, when the browser's cookie holds an entry for this account. */
function ownKey(attempt: Omit<LoginAttempt, "deviceNonce">, device: LoginDevice | undefined): ThrottleKey | null {
  const nonce = device?.entries.find((e) => e.realm === attempt.realm && e.agencyId === attempt.agencyId && e.username === attempt.username)?.nonce ?? null;
  return deviceKey({ ...attempt, deviceNonce: nonce });
}

/**
 * What the gate reads, in one round trip that the caller may share with its own reads (the
 * account): the device key's lock, the stranger keys' lock, the agency's budget of strangers'
 * failures (decision 076). Decide with loginGateOf.
 */
export function loginGateReads(db: D1Database, attempt: Omit<LoginAttempt, "deviceNonce">, device: LoginDevice | undefined) {
  const own = ownKey(attempt, device);
  return [
    lockedUntilRead(db, own ? [own] : []),
    lockedUntilRead(db, strangerKeys({ ...attempt, deviceNonce: null })),
    loginFailureBudgetRead(db, attempt.agencyId),
  ] as const;
}

/**
 * Decides which keys judge this attempt and whether it may go on: `{ ok: false }` means
 * answer 429 without checking the password. `read`: what loginGateReads read.
 */
export function loginGateOf(
  attempt: Omit<LoginAttempt, "deviceNonce">,
  device: LoginDevice | undefined,
  [ownLockedUntil, strangersLockedUntil, storedBudget]: readonly [number, number, number | null],
  now: number,
): { ok: true; gate: Gate } | { ok: false; retryAfterSeconds: number } {
  const own = ownKey(attempt, device);
  // a trusted device that keeps failing is a stranger again until its lock runs out
  if (own && !throttleCheck(ownLockedUntil, now).locked) return { ok: true, gate: { keys: [own], trusted: true } };
  const budget = storedBudget ?? DEFAULT_LOGIN_FAILURE_BUDGET;
  const keys: ThrottleKey[] = strangerKeys({ ...attempt, deviceNonce: null }).map((k) => (k.kind === "agency" ? { ...k, free: budget } : k));
  const check = throttleCheck(strangersLockedUntil, now);
  if (check.locked) return { ok: false, retryAfterSeconds: check.retryAfterSeconds };
  return { ok: true, gate: { keys, trusted: false } };
}

/** The gate alone: its reads, then its decision (one round trip). */
export async function openLoginGate(
  db: D1Database,
  attempt: Omit<LoginAttempt, "deviceNonce">,
  device: LoginDevice | undefined,
  now: number,
): Promise<{ ok: true; gate: Gate } | { ok: false; retryAfterSeconds: number }> {
  return loginGateOf(attempt, device, await readTogether(db, loginGateReads(db, attempt, device)), now);
}

export async function loginFailed(db: D1Database, gate: Gate, now: number): Promise<void> {
  await recordFailure(db, gate.keys, now);
}

/** The owner got in: forget this device's (or this address's) failures on the account, nothing wider. */
export async function loginSucceeded(db: D1Database, gate: Gate): Promise<void> {
  await clearThrottle(db, succeededKeys(gate));
}

/** The keys a successful login clears (its writes may go with the login's others: clearThrottleStatements). */
export const succeededKeys = (gate: Gate): ThrottleKey[] => gate.keys.slice(0, 1);
