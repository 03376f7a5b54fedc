/**
 * Login and registration throttling policy (pure). Each key counts failures in a window;
 * once a key passes its free allowance, every further failure locks it for a growing time,
 * capped so that an attacker cannot lock a real owner out for long.
 *
 * - account+client (`acct-ip`): the brute-force wall. 5 free failures, then 2 s doubling
 *   to at most 15 min. An attacker hammering one account from one address gets a few
 *   guesses an hour; the owner on another address is not affected at all.
 * - client (`ip`): credential stuffing across many accounts. 20 free, then 10 s doubling
 *   to at most 1 h.
 * - account (`acct`): a distributed attack on one account. OWASP/ASVS 2.2.1 allow at most
 *   100 failures per hour per account: 88 free, then a 5 min lock per failure, so at most
 *   88 + 12 = 100 guesses get checked in an hour, and the owner waits 5 min at worst.
 * - registration per client (`reg`): every registration counts; the 10th in an hour locks
 *   the address for an hour (so at most 10 accounts per address per hour).
 * - registration per device (`reg-device`): every registration from one device fingerprint of
 *   an agency counts for 24 h; past the owner's allowance (the hold rules' registrations per
 *   device, given as the key's own `free`) the device waits 1 h, doubling to 24 h: a family
 *   phone registers its two or three, a bonus ring's phone gets a few accounts a day.
 *
 * Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies",
 * docs/decisions/011-login-throttling.md): a browser that logged in to the account before
 * shows a signed device cookie and is judged only on its own key (`device`), so strangers
 * cannot lock the owner out of their own browser. Every other attempt is a stranger's:
 * `acct-ip`, `ip` and `acct` as above (addresses grouped: an IPv6 /64 is one address), plus
 * - agency (`agency`): an agency-wide budget of strangers' failures (a setting, per 10
 *   minutes); past it, every stranger waits 1 s doubling to 1 min: a stuffing wave slows
 *   to a trickle, while players with a device cookie are not held back at all.
 * - device (`device`): a device cookie that keeps failing (10 an hour) stops being trusted
 *   and its attempts are a stranger's again.
 * - availability (`avail`): every username availability check counts per address.
 *
 * (Brand uploads have a budget of their own, counted where the images are recorded:
 * workers/services/agency/brand.ts, decision 053.)
 */
export type ThrottleKind = "acct-ip" | "ip" | "acct" | "reg" | "reg-device" | "device" | "agency" | "avail";

export type ThrottlePolicy = {
  windowMs: number;
  freeFailures: number;
  baseLockMs: number;
  maxLockMs: number;
  /** "double": base * 2^(excess-1); "fixed": always base. */
  growth: "double" | "fixed";
};

const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;
const DAY = 24 * HOUR;

export const THROTTLE_POLICIES: Record<ThrottleKind, ThrottlePolicy> = {
  "acct-ip": { windowMs: HOUR, freeFailures: 5, baseLockMs: 2000, maxLockMs: 15 * MINUTE, growth: "double" },
  ip: { windowMs: HOUR, freeFailures: 20, baseLockMs: 10_000, maxLockMs: HOUR, growth: "double" },
  acct: { windowMs: HOUR, freeFailures: 88, baseLockMs: 5 * MINUTE, maxLockMs: 5 * MINUTE, growth: "fixed" },
  reg: { windowMs: HOUR, freeFailures: 9, baseLockMs: HOUR, maxLockMs: HOUR, growth: "fixed" },
  // free: the default rules' six a day, the sixth locking; each key brings the owner's own
  "reg-device": { windowMs: DAY, freeFailures: 5, baseLockMs: HOUR, maxLockMs: DAY, growth: "double" },
  device: { windowMs: HOUR, freeFailures: 10, baseLockMs: MINUTE, maxLockMs: HOUR, growth: "double" },
  agency: { windowMs: 10 * MINUTE, freeFailures: 100, baseLockMs: 1000, maxLockMs: MINUTE, growth: "double" },
  avail: { windowMs: HOUR, freeFailures: 30, baseLockMs: 10_000, maxLockMs: HOUR, growth: "double" },
};

/** The default agency-wide budget of strangers' login failures per 10 minutes. */
export const DEFAULT_LOGIN_FAILURE_BUDGET = THROTTLE_POLICIES.agency.freeFailures;

/**
 * The address a throttle key counts: IPv4 as is, IPv6 by its /64 (one customer's line or
 * phone usually holds a whole /64, so each of its addresses is the same client).
 */
export function addressKey(ip: string): string {
  const address = ip.trim().toLowerCase();
  if (!address.includes(":")) return address;
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // an embedded IPv4 tail (::ffff:1.2.3.4) takes two groups
  const groups = address.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  if (groups.length < 4) return address;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, "") || "0")
    .join(":")}::/64`;
}

/** One signed entry of a device cookie: this browser logged in to that account before. */
export type DeviceEntry = { realm: "player" | "staff"; agencyId: string; username: string; nonce: string };
/** What the login services know of the browser: its verified device entries. */
export type LoginDevice = { entries: DeviceEntry[] };

/** Who is trying to log in, and from where: the keys their attempt is judged on. */
export type LoginAttempt = { realm: "player" | "staff"; agencyId: string; username: string; ip: string; deviceNonce: string | null };

export function deviceKey(a: LoginAttempt): { kind: "device"; id: string } | null {
  return a.deviceNonce ? { kind: "device", id: `${a.realm}:${a.agencyId}:${a.username}:${a.deviceNonce}` } : null;
}

/** A stranger's keys (no trusted device cookie for this account). Player keys keep their old names. */
export function strangerKeys(a: LoginAttempt): { kind: ThrottleKind; id: string }[] {
  const prefix = a.realm === "staff" ? "staff:" : "";
  const address = addressKey(a.ip);
  return [
    { kind: "acct-ip", id: `${prefix}${a.agencyId}:${a.username}:${address}` },
    { kind: "ip", id: `${prefix}${a.agencyId}:${address}` },
    { kind: "acct", id: `${prefix}${a.agencyId}:${a.username}` },
    { kind: "agency", id: `${a.realm}:${a.agencyId}` },
  ];
}

/** How long a key is locked after its `failures`-th failure in the window (0 = not locked). */
export function lockDurationMs(policy: ThrottlePolicy, failures: number): number {
  const excess = failures - policy.freeFailures;
  if (excess <= 0) return 0;
  if (policy.growth === "fixed") return policy.baseLockMs;
  // 2^(excess-1) overflows quickly: stop doubling once past the cap.
  const doublings = Math.min(excess - 1, 40);
  return Math.min(policy.baseLockMs * 2 ** doublings, policy.maxLockMs);
}

/** Failures older than the window are forgotten: the count restarts at this failure. */
export function nextFailureCount(
  previous: number,
  windowStartedAt: number,
  now: number,
  policy: ThrottlePolicy,
): { failures: number; windowStartedAt: number } {
  if (now - windowStartedAt >= policy.windowMs) return { failures: 1, windowStartedAt: now };
  return { failures: previous + 1, windowStartedAt };
}

/** Seconds to tell the player, rounded up, at least 1. */
export function retryAfterSeconds(lockedUntil: number, now: number): number {
  return Math.max(1, Math.ceil((lockedUntil - now) / 1000));
}
