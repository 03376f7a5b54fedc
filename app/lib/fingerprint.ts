/**
 * Device fingerprint (SPEC §1, §3): collected in the browser, sent to
 * POST /api/v2/fingerprint only when it changed or the stored copy is not from today.
 * The decision is a pure function so it can be tested without a browser.
 */
export type FingerprintPayload = {
  screen: string;
  version: string;
  timezone: string;
  userAgent: string;
  plugins: string;
  webGL: {
    version: string;
    vendor: string;
    vendorUnmasked: string;
    renderer: string;
    rendererUnmasked: string;
    shadingLanguageVersion: string;
  };
  audio: string;
  platform: string;
  fingerprint: string;
  memory: string;
  fonts: string;
  languages: string;
  hardwareConcurrency: string;
  vendor: string;
};

export type StoredFingerprint = { date: string; fingerprint: string };

export const FINGERPRINT_VERSION = "1";

export function fingerprintStorageKey(agencyId: string): string {
  return `fingerprint:${agencyId}`;
}

/** YYYY-MM-DD of the player's own day. */
export function localDate(now: Date): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, "0");
  const d = String(now.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

export function shouldSendFingerprint(stored: StoredFingerprint | null, fingerprint: string, today: string): boolean {
  return !stored || stored.fingerprint !== fingerprint || stored.date !== today;
}

export function parseStored(raw: string | null): StoredFingerprint | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredFingerprint>;
    return typeof value.date === "string" && typeof value.fingerprint === "string" ? { date: value.date, fingerprint: value.fingerprint } : null;
  } catch {
    return null;
  }
}
