import type { LoginDevice } from "./throttle";

/**
 * Server-side sessions, players' and staff's alike: a random id in the cookie, only its
 * SHA-256 stored (`sha256Hex` in ./tokens), and a lifetime policy. A session ends after
 * `idleMs` without activity or `absoluteMs` after it was opened, whichever comes first;
 * activity is written back at most every `touchIntervalMs`, so a page view is not a D1 write.
 * Players and staff keep their own tables, cookies and policies.
 */
export type SessionPolicy = { idleMs: number; absoluteMs: number; touchIntervalMs: number };

const MINUTE = 60 * 1000;

/** Players (OWASP ASVS L2, 3.3.2 / 3.3.1): 30 minutes idle, 12 hours after login. */
export const SESSION_IDLE_MS = 30 * MINUTE;
export const SESSION_ABSOLUTE_MS = 12 * 60 * MINUTE;
export const PLAYER_SESSION: SessionPolicy = { idleMs: SESSION_IDLE_MS, absoluteMs: SESSION_ABSOLUTE_MS, touchIntervalMs: MINUTE };

/** Back office sessions are shorter than players': 15 min idle, 8 h after login (a shift). */
export const STAFF_IDLE_MS = 15 * MINUTE;
export const STAFF_ABSOLUTE_MS = 8 * 60 * MINUTE;
export const STAFF_SESSION: SessionPolicy = { idleMs: STAFF_IDLE_MS, absoluteMs: STAFF_ABSOLUTE_MS, touchIntervalMs: MINUTE };
/** Time to type the TOTP code after the password (a staff session at its PASSWORD stage). */
export const STAFF_HALF_OPEN_MS = 5 * MINUTE;

export type SessionTimes = { createdAt: number; lastSeenAt: number; expiresAt: number };
export type SessionState = "valid" | "idle-expired" | "expired";

export function sessionState(session: SessionTimes, policy: SessionPolicy, now: number): SessionState {
  if (now >= session.expiresAt || now - session.createdAt >= policy.absoluteMs) return "expired";
  if (now - session.lastSeenAt >= policy.idleMs) return "idle-expired";
  return "valid";
}

export function shouldTouch(session: SessionTimes, policy: SessionPolicy, now: number): boolean {
  return now - session.lastSeenAt >= policy.touchIntervalMs;
}

/** A session opened now that expires `lifetimeMs` later (the policy's absoluteMs, or a shorter stage). */
export function newSessionTimes(now: number, lifetimeMs: number): SessionTimes {
  return { createdAt: now, lastSeenAt: now, expiresAt: now + lifetimeMs };
}

/**
 * The signed-in player as every service takes it (the players' sessions resolve it). Here, not
 * with the players' services, because deposits, promotions and games take it too, and the
 * players' services call those. mustChangePassword: staff reset the password; every /player
 * page leads to /player/password until a new one is set.
 */
export type CurrentPlayer = { id: string; username: string; displayName: string; mustChangePassword?: boolean };

/** The browser: its address, and (for logins) the device cookie entries it showed, verified. */
export type Client = { ip: string; userAgent: string | null; device?: LoginDevice };
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

/** The user agent as stored with a session or an audit row (bounded). */
export const storedUserAgent = (client: Client): string | null => client.userAgent?.slice(0, 300) ?? null;
