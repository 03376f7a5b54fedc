import { chipFigure, chipTime, type ChipFigure, type KnownCredit } from "../../../workers/core/credit-chip";
import { formatMoney } from "../../../workers/core/format";
import type { LiteContext } from "./context";
import { CHIP_AMOUNT, CHIP_AS_OF, CREDIT_CHIP } from "./hooks";

/**
 * The header's credit, live (decision 081). The server renders the last credit it knows with
 * its time; here each provider the chip is made of (one on its lobby, else every enabled one)
 * is asked on the credits API, which also stores the answer for the next page. Asked once
 * when the page loads and again when the player comes back to the tab, at most once per
 * `creditGapMs` across the tab's pages (sessionStorage): a player going from page to page does
 * not send a provider call per page. The figure changes only when every provider answered: a
 * total with a part missing would be wrong, the stored one says how old it is.
 */
export function creditChipPart({ d, t, config }: LiteContext): void {
  const chip = d.querySelector<HTMLElement>(CREDIT_CHIP.selector);
  const amount = chip?.querySelector(CHIP_AMOUNT.selector);
  const asOf = chip?.querySelector(CHIP_AS_OF.selector);
  const time = chip?.querySelector("time");
  if (!chip || !amount || !asOf || !time) return;
  const providers = (chip.getAttribute(CREDIT_CHIP.attribute) ?? "").split(" ").filter(Boolean);
  const key = `credit-chip:${providers.join(",")}`;
  let loading = false;

  const show = (figure: NonNullable<ChipFigure>) => {
    const when = chipTime(figure.seenAt, Date.now());
    amount.textContent = formatMoney(figure.amount, figure.currency);
    asOf.textContent = t("creditChip.asOf", { time: when.full });
    time.textContent = when.short;
    time.title = when.full;
    time.dateTime = new Date(figure.seenAt).toISOString();
    chip.dataset.live = "true";
  };

  const refresh = async (asked: boolean) => {
    if (loading || d.hidden || !navigator.onLine || providers.length === 0) return;
    if (!asked && Date.now() - lastAsked(key) < config.creditGapMs) return;
    loading = true;
    chip.setAttribute("aria-busy", "true");
    try {
      const seenAt = Date.now();
      remember(key, seenAt);
      const answers = await Promise.all(providers.map((provider) => creditOf(provider, seenAt)));
      if (answers.some((a) => a === null)) return;
      const figure = chipFigure(answers as KnownCredit[], providers, null);
      if (figure) show(figure);
    } finally {
      loading = false;
      chip.setAttribute("aria-busy", "false");
    }
  };

  void refresh(false);
  d.addEventListener("visibilitychange", () => void refresh(false));
  // a part that knows the credits moved (a transfer) asks for them anew
  d.addEventListener("lite:credits", () => void refresh(true));
}

/** One provider's credit from the JSON API (docs/product.md §7), or null when it did not answer. */
async function creditOf(provider: string, seenAt: number): Promise<KnownCredit | null> {
  try {
    const res = await fetch(`/api/v2/players/credits/${encodeURIComponent(provider)}`, { credentials: "same-origin" });
    if (!res.ok) return null;
    const body = (await res.json()) as { credit?: { amount?: unknown; currency?: unknown } };
    const { amount, currency } = body.credit ?? {};
    return typeof amount === "string" && typeof currency === "string" ? { provider, amount, currency, seenAt } : null;
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
