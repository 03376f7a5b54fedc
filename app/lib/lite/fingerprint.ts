import { afterLoadWhenIdle, FINGERPRINT_VERSION } from "../fingerprint";
import { collectFingerprint, syncFingerprint } from "../fingerprint-collect";
import type { LiteContext } from "./context";

/**
 * The device fingerprint (docs/product.md §1, §3) on a lite page: registration's form carries it, and a
 * logged-in player's page sends it once a day. Only on those pages (lite-page.server.ts): the
 * collector is most of the script's weight. The React version: components/fingerprint-sync.tsx.
 */
export function fingerprintPart({ d, config: o }: LiteContext): void {
  // Registration carries the fingerprint (docs/product.md §3). Collected when the visitor starts on the
  // form, not at load: a WebGL context costs a long task on a phone (Lighthouse's TBT), and
  // there are seconds of typing before the submit. A submit before it is ready waits for it.
  const input = o.fingerprintField ? d.querySelector<HTMLInputElement>('input[name="fingerprint"]') : null;
  if (input?.form) {
    const form = input.form;
    let ready = false;
    let collected: Promise<void> | null = null;
    const start = () =>
      (collected ??= collectFingerprint(FINGERPRINT_VERSION)
        .then((payload) => void (input.value = payload.fingerprint))
        .catch(() => {})
        .then(() => void (ready = true)));
    form.addEventListener("focusin", start, { once: true });
    // On the document, bubbling: after the form's own validation (the validate part), so a
    // submit it stopped for an error stays stopped instead of being posted once this is ready.
    d.addEventListener("submit", (e) => {
      if (e.target !== form || ready || e.defaultPrevented) return;
      e.preventDefault();
      void start().then(() => form.submit());
    });
  }
  // A logged-in player's daily fingerprint (docs/product.md §1), after the page's first seconds, in idle
  // time, like FingerprintSync.
  const agencyId = o.syncAgencyId;
  if (agencyId) afterLoadWhenIdle(() => void syncFingerprint(agencyId).catch(() => {}), o.fingerprintDelayMs);
}
