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

const PALETTE = ["#b91c1c", "#c2410c", "#a16207", "#15803d", "#0f766e", "#1d4ed8", "#6d28d9", "#be185d"];

/** Every game code of the catalogue (scripts/render-demo-images.mjs draws one picture per code). */
export function catalogueCodes(): string[] {
  return Object.values(CATALOGUE)
    .flat()
    .map((g) => g.code);
}

/**
 * The drawing of a game's picture (320x240, its initials on a colour of its own), or null.
 * Not served as SVG: real providers serve raster thumbnails, and Chromium builds a page per
 * SVG <img> (decision 037). scripts/render-demo-images.mjs renders it to WebP once, into
 * game-pictures.ts, which the sandbox serves.
 */
export function gameDrawing(code: string): string | null {
  const game = Object.values(CATALOGUE)
    .flat()
    .find((g) => g.code === code);
  if (!game) return null;
  let hash = 0;
  for (const ch of game.code) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const colour = PALETTE[hash % PALETTE.length];
  const initials = game.name
    .split(/[\s-]+/)
    .map((w) => w[0] ?? "")
    .join("")
    .slice(0, 3)
    .toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240" viewBox="0 0 320 240"><rect width="320" height="240" rx="16" fill="${colour}"/><circle cx="260" cy="50" r="90" fill="#ffffff" fill-opacity="0.12"/><text x="160" y="140" font-family="sans-serif" font-size="72" font-weight="700" fill="#ffffff" text-anchor="middle">${initials}</text></svg>`;
}
