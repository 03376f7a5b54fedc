import type { LiteContext } from "./context";
import { CREDITS, DEPOSIT_SUCCESS, WITHDRAW_NOTICE } from "./hooks";

/**
 * Live credits on a lite page (decision 028; the React version is
 * components/credits.tsx `useLiveCredits`): every provider's credit is asked anew when the
 * player comes back to the tab or the window, when the browser is back online, every
 * `creditEveryMs` while the page is visible, and on the panel's refresh link; never within
 * `creditGapMs` of the last time (the link excepted), never while hidden, offline or already
 * loading. A part that knows the credits moved dispatches `lite:credits` on the document.
 *
 * How (decision 034): the page itself is fetched again (header `X-Whole-Document`, so
 * entry.server answers the whole document, not a stream) and the panel's list is replaced by
 * the new one; the settlement notices the layout announces once come with it, as React's
 * revalidation showed them. One request instead of one per provider on the JSON API, and the
 * amounts, "unavailable" and "retry" come formatted and translated by the same component, so
 * no money formatting or provider names travel in the script.
 */
export function creditsPart({ d, config }: LiteContext): void {
  const panel = d.querySelector<HTMLElement>(CREDITS.selector);
  const list = panel?.querySelector<HTMLElement>(".credit-list");
  if (!panel || !list) return;
  let last = Date.now();
  let loading = false;
  const refresh = async (asked: boolean) => {
    if (loading || !navigator.onLine || (!asked && (d.hidden || Date.now() - last < config.creditGapMs))) return;
    loading = true;
    last = Date.now();
    list.setAttribute("aria-busy", "true");
    try {
      const res = await fetch(location.href, { headers: { "X-Whole-Document": "1" }, credentials: "same-origin" });
      // a session that ended answers with the login page: the next navigation shows it
      if (!res.ok || res.redirected) return;
      const next = new DOMParser().parseFromString(await res.text(), "text/html");
      const fresh = next.querySelector(`${CREDITS.selector} .credit-list`);
      if (fresh) list.replaceChildren(...[...fresh.childNodes].map((n) => d.importNode(n, true)));
      const main = d.getElementById("main");
      const nextMain = next.getElementById("main");
      if (main && nextMain) {
        [...nextMain.children].forEach((notice, index) => {
          // (the settlement notices of routes/player/layout.tsx, not the time played)
          if (!notice.matches(`${DEPOSIT_SUCCESS.selector}, ${WITHDRAW_NOTICE.selector}`)) return;
          main.insertBefore(d.importNode(notice, true), main.children[index] ?? null);
        });
      }
    } catch {
      // offline or a dropped connection: the amounts shown stay until the next try
    } finally {
      loading = false;
      list.setAttribute("aria-busy", "false");
    }
  };
  setInterval(() => void refresh(false), config.creditEveryMs);
  window.addEventListener("focus", () => void refresh(false));
  window.addEventListener("online", () => void refresh(false));
  d.addEventListener("visibilitychange", () => void refresh(false));
  d.addEventListener("lite:credits", () => void refresh(true));
  // Without JavaScript the link reloads the page; the retry links inside the list too.
  panel.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest?.('a[href="?refresh=1"]');
    if (!link) return;
    event.preventDefault();
    void refresh(true);
  });
}
