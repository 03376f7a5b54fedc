import { guardOfflineSubmits, registerServiceWorker } from "../offline";
import type { LiteContext } from "./context";
import { SCROLL_TOP, TOAST, TOAST_DURATION, USERNAME_AVAILABLE, USERNAME_CHECK, USERNAME_TAKEN } from "./hooks";

/**
 * What every lite page does (decision 021): `html.js`, the `js=1` cookie, toast, scroll-to-top,
 * the password switch, the username check of registration, and the bad-network guard and
 * service worker (decision 028). The fingerprints: lite/fingerprint.ts.
 * The React versions of the same behaviours are in components/feedback.tsx (toast,
 * scroll-to-top), components/fields.tsx (password switch), routes/register.tsx's markup
 * (username check), components/fingerprint-sync.tsx and entry.client (offline).
 */
export function publicPart({ d, config: o }: LiteContext): void {
  // (`html.js` is set by the root's head script, before the first layout.) Tells the server
  // this browser runs scripts, so the pages that hydrate may stream (entry.server), as
  // entry.client does.
  if (!/(?:^|;\s*)js=1(?:;|$)/.test(d.cookie)) d.cookie = "js=1; path=/; max-age=31536000; samesite=lax";

  // Toast (docs/product.md §9): leaves after its duration, on its close button or a 50 px swipe; F8 focuses it.
  const toast = d.querySelector<HTMLElement>(TOAST.selector);
  if (toast) {
    const remove = () => toast.remove();
    setTimeout(remove, Number(toast.getAttribute(TOAST_DURATION.attribute)) || o.toastMs);
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

  // Scroll-to-top (docs/product.md §9): the server renders the button hidden (so it covers
  // nothing without JavaScript). It also stays hidden while a form's actions are on screen
  // (decision 080): in the corner, it covered the QR step's "check payment" on a phone.
  const up = d.querySelector<HTMLElement>(SCROLL_TOP.selector);
  if (up) {
    const actionsInView = new Set<Element>();
    const onScroll = () => (up.hidden = actionsInView.size > 0 || window.scrollY <= o.scrollPx);
    const watch = new IntersectionObserver((entries) => {
      for (const e of entries) e.isIntersecting ? actionsInView.add(e.target) : actionsInView.delete(e.target);
      onScroll();
    });
    for (const actions of d.querySelectorAll("main .form-actions, main .button-block")) watch.observe(actions);
    // Not read now: scrollY forces the page's first layout inside this script (tens of ms on a
    // phone, one long task with the parse; Lighthouse's TBT). The first frame lays out anyway.
    requestAnimationFrame(onScroll);
    window.addEventListener("scroll", onScroll, { passive: true });
    up.addEventListener("click", () => window.scrollTo({ top: 0, behavior: "smooth" }));
  }

  // "Show passwords": flips every password field of its form.
  for (const box of d.querySelectorAll<HTMLInputElement>(".password-toggle input")) {
    const fields = [...(box.form ?? d).querySelectorAll<HTMLInputElement>('input[type="password"]')];
    box.addEventListener("change", () => {
      for (const f of fields) f.type = box.checked ? "text" : "password";
    });
  }

  // Username availability on blur (registration): the form carries the two messages.
  const user = d.querySelector<HTMLInputElement>(`input${USERNAME_CHECK.selector}`);
  if (user) {
    const field = user.closest(".field")!;
    const form = user.form!;
    user.addEventListener("blur", async () => {
      const username = user.value.trim();
      if (!new RegExp(o.usernamePattern).test(username)) return;
      const res = await fetch(user.getAttribute(USERNAME_CHECK.attribute)!, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ username }),
      }).catch(() => null);
      if (!res?.ok || user.value.trim() !== username) return;
      const { available } = (await res.json()) as { available: boolean };
      // its own id: the form's checks (validate part) redraw `${user.id}-error` from the schema,
      // which knows nothing of taken names, and must not erase this answer when they arrive after it
      const errorId = `${user.id}-taken`;
      for (const n of field.querySelectorAll(".field-errors, .field-ok")) n.remove();
      const described = (user.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && id !== errorId);
      if (available) {
        user.removeAttribute("aria-invalid");
        const ok = d.createElement("p");
        ok.className = "field-ok";
        ok.dataset.testid = "username-available";
        ok.textContent = form.getAttribute(USERNAME_AVAILABLE.attribute) ?? "";
        field.appendChild(ok);
      } else {
        user.setAttribute("aria-invalid", "true");
        described.push(errorId);
        const list = d.createElement("ul");
        list.id = errorId;
        list.className = "field-errors";
        list.setAttribute("role", "list");
        const item = d.createElement("li");
        item.textContent = form.getAttribute(USERNAME_TAKEN.attribute) ?? "";
        list.appendChild(item);
        field.appendChild(list);
      }
      if (described.length) user.setAttribute("aria-describedby", described.join(" "));
      else user.removeAttribute("aria-describedby");
    });
  }

  // A bad network (decision 028): the service worker, and no form sent silently into nothing.
  guardOfflineSubmits();
  registerServiceWorker(o.swDelayMs);

  // The stylesheet this page carried as text, into the browser's cache for the next pages
  // (decision 044): fetched once the page has loaded and waited as long as the service worker
  // does, so it never competes with the page's own first bytes; the cookie then tells the
  // server this browser holds it, and the next pages link it instead of carrying it.
  const href = o.stylesheetHref;
  const cookie = o.stylesheetCookie;
  if (href && cookie) {
    // (the body read to its end: only a complete response is stored)
    const fetchIntoCache = () => fetch(href).then((res) => (res.ok ? res.arrayBuffer().then(() => void (d.cookie = cookie)) : undefined));
    const cache = () => setTimeout(() => void fetchIntoCache().catch(() => {}), o.swDelayMs);
    if (d.readyState === "complete") cache();
    else window.addEventListener("load", cache, { once: true });
  }
}
