import { chipTime, sumDecimals } from "../../../workers/core/credit-chip";
import { formatMoney } from "../../../workers/core/format";
import type { LiteContext } from "./context";
import { CHIP_AMOUNT, CHIP_UNKNOWN, CREDIT_CHIP } from "./hooks";

/**
 * The header's credit, live (decision 081). The server renders the last credit it knows with
 * its time; here each provider the chip is made of (one on its lobby, else every enabled one)
 * is asked on the credits API, which also stores the answer for the next page. Asked once
 * when the page loads and again when the player comes back to the tab, at most once per
 * `creditGapMs` across the tab's pages (sessionStorage): a player going from page to page does
 * not send a provider call per page. The figure changes only when every provider answered: a
 * total with a part missing would be wrong, the stored one says how old it is.
 */
export function creditChipPart({ d, config }: LiteContext): void {
  const chip = d.querySelector<HTMLElement>(CREDIT_CHIP.selector);
  const amount = chip?.querySelector(CHIP_AMOUNT.selector);
  const time = chip?.querySelector("time");
  if (!chip || !amount || !time) return;
  const providers = (chip.getAttribute(CREDIT_CHIP.attribute) ?? "").split(" ").filter(Boolean);
  const key = `credit-chip:${providers.join(",")}`;
  let loading = false;

  const refresh = async (asked: boolean) => {
    if (loading || d.hidden || !navigator.onLine || providers.length === 0) return;
    if (!asked && Date.now() - lastAsked(key) < config.creditGapMs) return;
    loading = true;
    const seenAt = Date.now();
    remember(key, seenAt);
    const answers = await Promise.all(providers.map(creditOf));
    loading = false;
    // the figure of workers/core/credit-chip.ts chipFigure: one currency, summed exactly
    const currency = answers[0]?.currency;
    const total = answers.every((a) => a?.currency === currency) ? sumDecimals(answers.map((a) => a!.amount)) : null;
    if (total === null || !currency) return;
    const when = chipTime(seenAt, seenAt);
    amount.textContent = formatMoney(total, currency);
    time.textContent = when.short;
    time.title = when.full;
    time.dateTime = new Date(seenAt).toISOString();
    chip.dataset.live = "true";
    // a screen reader now hears "updated" before the time, no longer "not known yet"
    chip.querySelector(CHIP_UNKNOWN.selector)?.remove();
    chip.querySelector("[hidden]")?.removeAttribute("hidden");
  };

  void refresh(false);
  d.addEventListener("visibilitychange", () => void refresh(false));
  // a part that knows the credits moved (a transfer) asks for them anew
  d.addEventListener("lite:credits", () => void refresh(true));
}

/** One provider's credit from the JSON API (docs/product.md §7), or null when it did not answer. */
async function creditOf(provider: string): Promise<{ amount: string; currency: string } | null> {
  try {
    const res = await fetch(`/api/v2/players/credits/${encodeURIComponent(provider)}`, { credentials: "same-origin" });
    if (!res.ok) return null;
    const body = (await res.json()) as { credit?: { amount?: unknown; currency?: unknown } };
    const { amount, currency } = body.credit ?? {};
    return typeof amount === "string" && typeof currency === "string" ? { amount, currency } : null;
  } catch {
    return null; // offline or a dropped connection: the figure shown stays
  }
}

/** When this tab last asked for these credits (0: never, or no storage). */
function lastAsked(key: string): number {
  try {
    return Number(sessionStorage.getItem(key)) || 0;
  } catch {
    return 0;
  }
}

function remember(key: string, at: number): void {
  try {
    sessionStorage.setItem(key, String(at));
  } catch {
    // private mode without storage: each page asks once
  }
}
