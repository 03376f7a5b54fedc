import { AUTH_LIMITS } from "./schemas/auth";
import { SCROLL_TOP_THRESHOLD_PX, TOAST_DURATION_MS, TOAST_SWIPE_PX } from "../components/feedback";
import { FINGERPRINT_VERSION, fingerprintStorageKey, localDate, parseStored, shouldSendFingerprint } from "./fingerprint";
import { collectFingerprint, syncFingerprintWith, type SyncDeps } from "./fingerprint-collect";
import type { LitePageAssets, PublicScriptOptions } from "./page-scripts";
import { guardOfflineSubmits, registerServiceWorker, SW_REGISTER_DELAY_MS } from "./offline";
// The processed stylesheet as text (Vite `?inline`), for the lite pages' <style>.
import appCss from "../styles/app.css?inline";

type LiteConfig = PublicScriptOptions & {
  version: string;
  toastMs: number;
  swipePx: number;
  scrollPx: number;
  usernamePattern: string;
  swDelayMs: number;
};
type FingerprintKit = SyncDeps & { sync: typeof syncFingerprintWith };
type OfflineKit = { register: typeof registerServiceWorker; guard: typeof guardOfflineSubmits };

/**
 * The whole client side of a "lite" page (decision 021), run once when the document is
 * parsed. Self-contained: the server inlines its source (Function#toString), so it may use
 * nothing but its arguments and the browser's globals. Each part looks for its markup and
 * does nothing when the page has none. The React versions of the same behaviours are in
 * components/feedback.tsx (toast, scroll-to-top), components/forms.tsx (password switch),
 * routes/register.tsx's markup (username check) and components/fingerprint-sync.tsx.
 */
function lite(o: LiteConfig, fp: FingerprintKit | null, off: OfflineKit) {
  const d = document;
  const root = d.documentElement;
  // Shows the `.js-only` controls; and tells the server this browser runs scripts, so the
  // pages that hydrate may stream (entry.server), as entry.client does.
  root.classList.add("js");
  if (!/(?:^|;\s*)js=1(?:;|$)/.test(d.cookie)) d.cookie = "js=1; path=/; max-age=31536000; samesite=lax";

  // Toast (SPEC §9): leaves after its duration, on its close button or a 50 px swipe; F8 focuses it.
  const toast = d.querySelector<HTMLElement>('[data-testid="toast"]');
  if (toast) {
    const remove = () => toast.remove();
    setTimeout(remove, Number(toast.dataset.duration) || o.toastMs);
    toast.querySelector("button")?.addEventListener("click", remove);
    let startX: number | null = null;
    toast.addEventListener("pointerdown", (e) => (startX = e.clientX));
    toast.addEventListener("pointerup", (e) => {
      if (startX !== null && Math.abs(e.clientX - startX) >= o.swipePx) remove();
      startX = null;
    });
    d.addEventListener("keydown", (e) => {
      if (e.key === "F8" && toast.isConnected) {
        e.preventDefault();
        toast.focus();
      }
    });
  }

  // Scroll-to-top (SPEC §9): the server renders the button hidden.
  const up = d.querySelector<HTMLElement>('[data-testid="scroll-top"]');
  if (up) {
    const onScroll = () => (up.hidden = window.scrollY <= o.scrollPx);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    up.addEventListener("click", () => window.scrollTo({ top: 0, behavior: "smooth" }));
  }

  // "Show passwords": flips every password field of its form.
  for (const box of d.querySelectorAll<HTMLInputElement>(".password-toggle input")) {
    const fields = [...(box.form ?? d).querySelectorAll<HTMLInputElement>('input[type="password"]')];
    box.addEventListener("change", () => fields.forEach((f) => (f.type = box.checked ? "text" : "password")));
  }

  // Username availability on blur (registration): the form carries the two messages.
  const user = d.querySelector<HTMLInputElement>("input[data-availability]");
  if (user) {
    const field = user.closest(".field")!;
    const form = user.form!;
    user.addEventListener("blur", async () => {
      const username = user.value.trim();
      if (!new RegExp(o.usernamePattern).test(username)) return;
      const res = await fetch(user.dataset.availability!, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username }),
      }).catch(() => null);
      if (!res?.ok || user.value.trim() !== username) return;
      const { available } = (await res.json()) as { available: boolean };
      const errorId = `${user.id}-error`;
      field.querySelectorAll(".field-errors, .field-ok").forEach((n) => n.remove());
      const described = (user.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && id !== errorId);
      if (available) {
        user.removeAttribute("aria-invalid");
        const ok = d.createElement("p");
        ok.className = "field-ok";
        ok.dataset.testid = "username-available";
        ok.textContent = form.dataset.usernameAvailable ?? "";
        field.appendChild(ok);
      } else {
        user.setAttribute("aria-invalid", "true");
        described.push(errorId);
        const list = d.createElement("ul");
        list.id = errorId;
        list.className = "field-errors";
        list.setAttribute("role", "list");
        const item = d.createElement("li");
        item.textContent = form.dataset.usernameTaken ?? "";
        list.appendChild(item);
        field.appendChild(list);
      }
      if (described.length) user.setAttribute("aria-describedby", described.join(" "));
      else user.removeAttribute("aria-describedby");
    });
  }

  if (fp) {
    // Registration carries the fingerprint (SPEC §3). Collected when the visitor starts on the
    // form, not at load: a WebGL context costs a long task on a phone (Lighthouse's TBT), and
    // there are seconds of typing before the submit. A submit before it is ready waits for it.
    const input = o.fingerprintField ? d.querySelector<HTMLInputElement>('input[name="fingerprint"]') : null;
    if (input?.form) {
      const form = input.form;
      let ready = false;
      let collected: Promise<void> | null = null;
      const start = () =>
        (collected ??= fp
          .collect(o.version)
          .then((payload) => void (input.value = payload.fingerprint))
          .catch(() => {})
          .then(() => void (ready = true)));
      form.addEventListener("focusin", start, { once: true });
      form.addEventListener("submit", (e) => {
        if (ready) return;
        e.preventDefault();
        void start().then(() => form.submit());
      });
    }
    // A logged-in player's daily fingerprint (SPEC §1), in idle time like FingerprintSync.
    const agencyId = o.syncAgencyId;
    if (agencyId) {
      const start = () => void fp.sync(fp, o.version, agencyId).catch(() => {});
      if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(start);
      else setTimeout(start, 1500);
    }
  }
  // A bad network (decision 028): the service worker, and no form sent silently into nothing.
  off.guard();
  off.register(o.swDelayMs);
  root.dataset.enhanced = "true";
}

/** The fingerprint functions as source, only for the pages that need them (most of the script's weight). */
const FINGERPRINT_KIT = `{collect:${collectFingerprint},sync:${syncFingerprintWith},storageKey:${fingerprintStorageKey},localDate:${localDate},parseStored:${parseStored},shouldSend:${shouldSendFingerprint}}`;
const OFFLINE_KIT = `{register:${registerServiceWorker},guard:${guardOfflineSubmits}}`;
const LITE = String(lite);

/** The inline script of a lite page (rendered with the CSP nonce by the root Layout). */
function publicScript(options: PublicScriptOptions): string {
  const config: LiteConfig = {
    ...options,
    version: FINGERPRINT_VERSION,
    toastMs: TOAST_DURATION_MS,
    swipePx: TOAST_SWIPE_PX,
    scrollPx: SCROLL_TOP_THRESHOLD_PX,
    usernamePattern: `^[a-z0-9_-]{${AUTH_LIMITS.usernameMin},${AUTH_LIMITS.usernameMax}}$`,
    swDelayMs: SW_REGISTER_DELAY_MS,
  };
  const kit = options.fingerprintField || options.syncAgencyId ? FINGERPRINT_KIT : "null";
  // JSON in a script: "<" escaped so a value can never close the element.
  return `(${LITE})(${JSON.stringify(config).replace(/</g, "\\u003c")},${kit},${OFFLINE_KIT});`;
}

export const litePageAssets: Omit<LitePageAssets, "nonce"> = { script: publicScript, css: appCss };
