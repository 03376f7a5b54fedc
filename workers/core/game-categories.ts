import type { Provider } from "./providers";

/**
 * What a lobby tab holds, read from its name, and the landing's game categories: which
 * provider and tab each one opens (decision 082).
 *
 * Tabs are the providers' own: AMB groups its games by `category` ("SLOT", "FISHING",
 * "CARD"...; the sandbox spells them "Slot", "Fishing", "Card"), Betflix by brand file
 * ("pp.txt", "pg.txt"; a sport book is "sport.txt"), GClub's lists are "Casino" and "Live",
 * Alphabet's "Chicken" and "Card". A tab's kind is what a player is told in their language;
 * a tab of no known kind (a Betflix brand) shows its own name, tidied.
 */
const TAB_KINDS = ["slot", "fishing", "card", "casino", "live", "sport", "chicken", "lottery", "table", "arcade", "all"] as const;
export type TabKind = (typeof TAB_KINDS)[number];

/** The words providers use for each kind (a tab's name lower-cased, ".txt" and non-letters dropped). */
const KIND_WORDS: Record<TabKind, readonly string[]> = {
  slot: ["slot", "slots", "slotgame", "slotgames"],
  fishing: ["fish", "fishing", "fishgame", "fishgames", "fishshooting"],
  card: ["card", "cards", "cardgame", "cardgames", "poker", "boardgame"],
  casino: ["casino", "livecasino", "baccarat"],
  live: ["live", "livegame", "livegames"],
  sport: ["sport", "sports", "sportsbook", "sportbook", "football", "esport", "esports"],
  chicken: ["chicken", "cockfight", "cockfighting", "sabong"],
  lottery: ["lotto", "lottery", "keno"],
  table: ["table", "tablegame", "tablegames"],
  arcade: ["arcade", "mini", "minigame", "minigames"],
  all: ["all"],
};

function bareName(tab: string): string {
  return tab
    .trim()
    .replace(/\.txt$/i, "")
    .toLowerCase()
    .replace(/[^a-z]/g, "");
}

/** The kind a tab's name says, or null (a brand, or a word no provider was seen using). */
export function tabKind(tab: string): TabKind | null {
  const bare = bareName(tab);
  return TAB_KINDS.find((kind) => KIND_WORDS[kind].includes(bare)) ?? null;
}

/**
 * A tab of no known kind as a player reads it: the file extension gone, separators as
 * spaces, a short code in capitals ("pp.txt" -> "PP"), a word with a capital first
 * ("pgsoft" -> "Pgsoft"), a name already cased kept ("JILI", "Red Tiger").
 */
export function tidyTabName(tab: string): string {
  const name = tab
    .trim()
    .replace(/\.txt$/i, "")
    .replace(/[_-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (name === "") return tab;
  if (name !== name.toLowerCase()) return name;
  if (name.length <= 4 && !name.includes(" ")) return name.toUpperCase();
  return name.replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase());
}

const GAME_CATEGORIES = ["slot", "sport", "casino", "fish", "card", "chicken"] as const;
export type GameCategory = (typeof GAME_CATEGORIES)[number];

/**
 * Where each category's games are, in the order a player is sent: the first enabled
 * provider whose lobby has the tab. The tab named is the sandbox's and the adapters'
 * documented one; when the provider's own list is known, its spelling of the same kind is
 * taken instead (AMB's "SLOT" for "Slot").
 */
const CATEGORY_SOURCES: Record<GameCategory, { kinds: readonly TabKind[]; sources: readonly { provider: Provider; tab: string }[] }> = {
  slot: {
    kinds: ["slot"],
    sources: [
      { provider: "askmebet", tab: "Slot" },
      { provider: "betflix", tab: "pp.txt" },
    ],
  },
  sport: { kinds: ["sport"], sources: [{ provider: "betflix", tab: "sport.txt" }] },
  casino: {
    kinds: ["casino", "live"],
    sources: [
      { provider: "gclub", tab: "Casino" },
      { provider: "gclub_live", tab: "Live" },
    ],
  },
  fish: { kinds: ["fishing"], sources: [{ provider: "askmebet", tab: "Fishing" }] },
  card: {
    kinds: ["card"],
    sources: [
      { provider: "askmebet", tab: "Card" },
      { provider: "alphabet", tab: "Card" },
    ],
  },
  chicken: { kinds: ["chicken"], sources: [{ provider: "alphabet", tab: "Chicken" }] },
};

export type CategoryLink = { category: GameCategory; provider: Provider; tab: string };

/**
 * The tab of `provider` that holds a category: the documented name when the provider's
 * tabs are not known (its list not loaded yet) or include it; else the provider's tab of
 * the same kind; null when its known tabs hold none.
 */
function tabHolding(source: { tab: string }, kinds: readonly TabKind[], knownTabs: readonly string[] | undefined): string | null {
  if (knownTabs === undefined || knownTabs.includes(source.tab)) return source.tab;
  return (
    knownTabs.find((tab) => {
      const kind = tabKind(tab);
      return kind !== null && kinds.includes(kind);
    }) ?? null
  );
}

/**
 * The landing's categories for an agency: each one that an enabled provider holds, with
 * the provider and tab it opens; a category none of them holds is left out.
 */
export function categoryLinks(enabled: readonly Provider[], knownTabs: Partial<Record<Provider, readonly string[]>> = {}): CategoryLink[] {
  const links: CategoryLink[] = [];
  for (const category of GAME_CATEGORIES) {
    const { kinds, sources } = CATEGORY_SOURCES[category];
    for (const source of sources) {
      if (!enabled.includes(source.provider)) continue;
      const tab = tabHolding(source, kinds, knownTabs[source.provider]);
      if (tab === null) continue;
      links.push({ category, provider: source.provider, tab });
      break;
    }
  }
  return links;
}

/** A lobby's address on a tab (and a search), as the landing and the menu link to it. */
export function lobbyHref(provider: Provider, tab: string | null, q?: string): string {
  const query = new URLSearchParams();
  if (tab) query.set("tab", tab);
  if (q) query.set("q", q);
  const search = query.toString();
  return `/player/game/${provider}${search ? `?${search}` : ""}`;
}
