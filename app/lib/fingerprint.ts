/**
 * Device fingerprint (docs/product.md §1, §3): collected in the browser, sent to
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

/**
 * A logged-in player's daily fingerprint (docs/product.md §1) is collected this long after the page's
 * `load`, then in idle time: collecting opens a WebGL context and an AudioContext, one long
 * task (about 340 ms in headless Chromium, tens of ms on a phone's GPU) that would otherwise
 * land in the page's first second, when the player reaches for it (Lighthouse's TBT: the
 * largest task of every player page; decision 036). Nothing waits for it; a page left sooner
 * simply leaves it to the next one (it is sent at most once a day anyway).
 */
export const FINGERPRINT_SYNC_DELAY_MS = 5_000;

/**
 * Runs `start` `delayMs` after the page's load, in idle time. Self-contained (the lite
 * script inlines its source): only its arguments and the browser's globals. Returns a cancel.
 */
export function afterLoadWhenIdle(start: () => void, delayMs: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  const wait = () => {
    timer = setTimeout(() => {
      if (typeof window.requestIdleCallback === "function") idle = window.requestIdleCallback(start, { timeout: 2000 });
      else start();
    }, delayMs);
  };
  if (document.readyState === "complete") wait();
  else window.addEventListener("load", wait, { once: true });
  return () => {
    window.removeEventListener("load", wait);
    clearTimeout(timer);
    if (idle !== undefined) window.cancelIdleCallback(idle);
  };
}

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
