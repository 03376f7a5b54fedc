import type { LiteContext } from "./context";
import { PENDING } from "./hooks";

/**
 * Pending UI (docs/product.md §9, decision 034) for every form post and link of a lite page: the spinner the
 * root renders hidden (`[data-testid=pending]`, components/feedback.tsx) appears only when the
 * next document takes more than `pendingDelayMs`, and once shown stays at least
 * `pendingMinMs` while this document lives. Another document replaces it when the answer
 * arrives, so the minimum can only hold while the answer is still coming; coming back through
 * the back/forward cache (`pageshow` persisted) hides it. A submit stopped by another part
 * (validation, the offline guard: `defaultPrevented`) or a link to another window, a download
 * or a fragment does not start it.
 */
export function pendingPart({ d, config }: LiteContext): void {
  const box = d.querySelector<HTMLElement>(PENDING.selector);
  if (!box) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shownAt = 0;
  const start = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      shownAt = Date.now();
      box.hidden = false;
    }, config.pendingDelayMs);
  };
  const stop = () => {
    clearTimeout(timer);
    if (box.hidden) return;
    timer = setTimeout(() => (box.hidden = true), Math.max(0, config.pendingMinMs - (Date.now() - shownAt)));
  };
  // Bubble phase, after every part's own (capture or target) handlers had their say.
  d.addEventListener("submit", (event) => {
    if (event.defaultPrevented) return;
    const form = event.target as HTMLFormElement;
    if (form.target && form.target !== "_self") return;
    start();
  });
  d.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest?.("a");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if ((link.target && link.target !== "_self") || link.hasAttribute("download") || link.origin !== location.origin) return;
    if (link.pathname === location.pathname && link.search === location.search && link.hash) return;
    start();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) {
      clearTimeout(timer);
      box.hidden = true;
    }
  });
  // A part that answers a post itself (fetch) says so with these events.
  d.addEventListener("lite:pending", start);
  d.addEventListener("lite:idle", stop);
}
