/**
 * Session lifetime (OWASP ASVS L2, 3.3.2 / 3.3.1): a player re-authenticates after 30
 * minutes without activity or 12 hours after logging in, whichever comes first.
 * Activity is written back at most once a minute, so a page view is not a D1 write.
 */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

export type SessionTimes = { createdAt: number; lastSeenAt: number; expiresAt: number };
export type SessionState = "valid" | "idle-expired" | "expired";

export function sessionState(session: SessionTimes, now: number): SessionState {
  if (now >= session.expiresAt || now - session.createdAt >= SESSION_ABSOLUTE_MS) return "expired";
  if (now - session.lastSeenAt >= SESSION_IDLE_MS) return "idle-expired";
  return "valid";
}

export function shouldTouch(session: SessionTimes, now: number): boolean {
  return now - session.lastSeenAt >= SESSION_TOUCH_INTERVAL_MS;
}

export function newSessionTimes(now: number): SessionTimes {
  return { createdAt: now, lastSeenAt: now, expiresAt: now + SESSION_ABSOLUTE_MS };
}
