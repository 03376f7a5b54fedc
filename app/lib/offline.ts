/**
 * The browser side of a bad network (docs/decisions/028-offline.md).
 *
 * `registerServiceWorker` and `guardOfflineSubmits` run on every page that has JavaScript:
 * entry.client calls them on the pages that hydrate, and the lite pages' public part
 * (lib/lite/public.ts, bundled by the build, decision 066).
 */
import { BUILD_VERSION, LOCALE, OFFLINE_ALERT } from "./lite/hooks";

/**
 * Registers /sw.js for this build (`<html data-sw>` holds React Router's manifest version)
 * once the page has loaded and a few seconds passed, so the worker's install (the offline
 * pages, the fonts) never competes with the page's first load on a slow connection; then tells
 * the worker the page's language, which the offline page follows.
 */
export function registerServiceWorker(delayMs: number): void {
  const root = document.documentElement;
  const version = root.getAttribute(BUILD_VERSION.attribute);
  const sw = navigator.serviceWorker;
  if (!version || !sw || !window.isSecureContext) return;
  const tell = () => void sw.ready.then((r) => r.active?.postMessage({ lng: root.getAttribute(LOCALE.attribute) })).catch(() => {});
  const start = () =>
    setTimeout(() => {
      sw.register(`/sw.js?v=${encodeURIComponent(version)}`).then(tell, () => {});
    }, delayMs);
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}

/**
 * A form submitted while the browser knows it is offline is stopped before anything leaves:
 * the page stays as it is (every field keeps what the player typed) and the alert the root
 * renders hidden (`[data-offline-alert]`, in the player's language) says plainly that nothing
 * was sent. Capture phase on window: before React's own submit handler on the document.
 * Back online, the alert goes away and the player sends again.
 */
export function guardOfflineSubmits(): void {
  const alert = () => document.querySelector<HTMLElement>(OFFLINE_ALERT.selector);
  window.addEventListener(
    "submit",
    (event) => {
      if (navigator.onLine) return;
      event.preventDefault();
      event.stopPropagation();
      const box = alert();
      if (box) {
        box.hidden = false;
        box.focus();
      }
    },
    true,
  );
  window.addEventListener("online", () => {
    const box = alert();
    if (box) box.hidden = true;
  });
}

/** How long a poll waits after `previousMs`: starts at `min`, grows by half each time, up to `max`. */
export function nextPollDelay(previousMs: number | null, min: number, max: number): number {
  if (previousMs === null) return min;
  return Math.min(max, Math.round(previousMs * 1.5));
}

/** Deposit QR status: first check after 3 s, then 4.5, 6.75, ... up to 15 s (decision 028). */
export const QR_POLL = { min: 3_000, max: 15_000 } as const;
/** Credits: refreshed every 60 s while the page is visible, and on focus at most every 15 s. */
export const CREDIT_REFRESH = { everyMs: 60_000, minGapMs: 15_000 } as const;
/** The service worker registers this long after the page's `load`. */
export const SW_REGISTER_DELAY_MS = 3_000;
