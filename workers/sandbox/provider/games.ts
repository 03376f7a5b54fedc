import type { Provider } from "../../core/providers";

/** The sandbox's game catalogue: a few games per provider, grouped by the tab the lobby shows. */
type SandboxGame = { code: string; name: string; tab: string };
type ListedGame = SandboxGame & { img: string };

const CATALOGUE: Record<Provider, SandboxGame[]> = {
  askmebet: [
    { code: "amb-lucky-reels", name: "Lucky Reels", tab: "Slot" },
    { code: "amb-golden-dragon", name: "Golden Dragon", tab: "Slot" },
    { code: "amb-mekong-fortune", name: "Mekong Fortune", tab: "Slot" },
    { code: "amb-fish-hunter", name: "Fish Hunter", tab: "Fishing" },
    { code: "amb-pokdeng", name: "Pok Deng", tab: "Card" },
  ],
  betflix: [
    { code: "bf-sweet-bonanza", name: "Sweet Bonanza", tab: "pp.txt" },
    { code: "bf-gates-olympus", name: "Gates of Olympus", tab: "pp.txt" },
    { code: "bf-football-live", name: "Football Live", tab: "sport.txt" },
  ],
  gclub: [
    { code: "gc-baccarat", name: "Baccarat", tab: "Casino" },
    { code: "gc-roulette", name: "Roulette", tab: "Casino" },
    { code: "gc-sicbo", name: "Sic Bo", tab: "Casino" },
  ],
  gclub_live: [{ code: "gcl-baccarat-live", name: "Live Baccarat", tab: "Live" }],
  alphabet: [
    { code: "ab-chicken-fight", name: "Chicken Fight", tab: "Chicken" },
    { code: "ab-hi-lo", name: "Hi-Lo", tab: "Card" },
  ],
};

/** Games as listed: each with its picture, a path of this Worker (GET /img/<code>.webp, no credentials). */
export function gamesOf(provider: Provider, tab: string | null): { tabs: string[]; games: ListedGame[] } {
  const all = CATALOGUE[provider].map((g) => ({ ...g, img: `/img/${g.code}.webp` }));
  const tabs = [...new Set(all.map((g) => g.tab))];
  return { tabs, games: tab ? all.filter((g) => g.tab === tab) : all };
}

/** Every game of the catalogue (scripts/render-demo-images.mjs draws one picture per game). */
export function catalogueGames(): SandboxGame[] {
  return Object.values(CATALOGUE).flat();
}
