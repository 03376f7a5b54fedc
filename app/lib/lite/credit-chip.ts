import type { LiteContext } from "./context";
import { CHIP_AMOUNT, CHIP_UNKNOWN, CREDIT_CHIP } from "./hooks";

/**
 * The header's credit, live (decision 081). The server renders the last credit it knows with
 * its time; here the chip's figure is asked anew (`/player/credit-chip`, which asks the
 * providers, keeps their answers for the next page and formats the figure as the page does:
 * no money formatting travels in the script). Asked once when the page loads and again when
 * the player comes back to the tab, at most once per `creditGapMs` across the tab's pages
 * (sessionStorage): a player going from page to page does not send a provider call per page.
 */
export function creditChipPart({ d, config }: LiteContext): void {
  const chip = d.querySelector<HTMLElement>(CREDIT_CHIP.selector);
  const amount = chip?.querySelector(CHIP_AMOUNT.selector);
  const time = chip?.querySelector("time");
  if (!chip || !amount || !time) return;
  const provider = chip.dataset.provider;
  const key = `credit-chip:${provider ?? ""}`;
  let loading = false;

  const refresh = async (asked: boolean) => {
    if (loading || d.hidden || !navigator.onLine) return;
    if (!asked && Date.now() - lastAsked(key) < config.creditGapMs) return;
    loading = true;
    remember(key);
    try {
      const res = await fetch(`/player/credit-chip${provider ? `?provider=${encodeURIComponent(provider)}` : ""}`, { credentials: "same-origin" });
      if (!res.ok || res.redirected) return;
      const figure = (await res.json()) as { amount: string; short: string; full: string; at: string } | null;
      // a provider did not answer: the figure shown stays, with its time
      if (!figure) return;
      amount.textContent = figure.amount;
      time.textContent = figure.short;
      time.title = figure.full;
      time.dateTime = figure.at;
      chip.dataset.live = "true";
      // a screen reader now hears "updated" before the time, no longer "not known yet"
      chip.querySelector(CHIP_UNKNOWN.selector)?.remove();
      chip.querySelector("[hidden]")?.removeAttribute("hidden");
    } catch {
      // offline or a dropped connection: the figure shown stays, with its time
    } finally {
      loading = false;
    }
  };

  void refresh(false);
  d.addEventListener("visibilitychange", () => void refresh(false));
  // a part that knows the credits moved (a transfer) asks for them anew
  d.addEventListener("lite:credits", () => void refresh(true));
}

/** When this tab last asked for this chip (0: never, or no storage). */
function lastAsked(key: string): number {
  try {
    return Number(sessionStorage.getItem(key)) || 0;
  } catch {
    return 0;
  }
}

function remember(key: string): void {
  try {
    sessionStorage.setItem(key, String(Date.now()));
  } catch {
    // private mode without storage: each page asks once
  }
}
