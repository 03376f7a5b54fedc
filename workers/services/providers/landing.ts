import { BANKS } from "../../core/banks";
import { brandText, type BrandImage } from "../../core/brand";
import { sameOriginImage } from "../../core/brand-style";
import type { Language } from "../../core/languages";
import { categoryLinks } from "../../core/game-categories";
import type { Provider } from "../../core/providers";
import type { GameList } from "../../ports/provider";
import type { Agency } from "../agency";
import { defaultTab, lobbyWithin } from "./game";
import { promotionCards } from "../promotions";
import { offersPaused } from "../wallets";

/**
 * The landing page (decision 020): what the agency already has, gathered in one
 * call. Promotions come from the catalogue (D1); featured games from the providers' game
 * lists as the lobbies cache them. The page never waits long on a provider and never fails
 * because of one: a cached list (however old) is used at once; a provider with no cached
 * list is asked, but only until one shared deadline, and left out if it has not answered
 * by then or fails (its answer, when it comes, still fills the cache for the next view).
 */

/** How many games the landing page features, at most. */
export const FEATURED_GAMES = 8;
/** How long the landing page waits, at most, for providers with no cached game list. */
export const FEATURED_WAIT_MS = 800;

export type FeaturedGame = { provider: Provider; code: string; name: string; tab: string; img: string };

type LandingOptions = {
  /** ms since the epoch; the deadline for providers is now + waitMs */
  now?: number;
  waitMs?: number;
  /** keeps a late provider answer alive after the page is sent, so it fills the cache */
  waitUntil?: (promise: Promise<unknown>) => void;
  /** the player logged in, if any: while their offers are paused the promotions are left out (decision 091) */
  playerId?: string | null;
};

export async function landingPage(env: Env, agency: Agency, lang: Language, options: LandingOptions = {}) {
  const deadline = (options.now ?? Date.now()) + (options.waitMs ?? FEATURED_WAIT_MS);
  const [cards, lists, paused] = await Promise.all([
    promotionCards(env.DB, agency.id, lang),
    openingLists(env, agency, deadline, options.waitUntil),
    options.playerId ? offersPaused(env, agency.id, options.playerId) : null,
  ]);
  const promotions = paused ? [] : cards;
  const { brand } = agency;
  return {
    // null title/subtitle: the page shows its own translated text
    hero: { title: brandText(brand.heroTitle, lang), subtitle: brandText(brand.heroSubtitle, lang), ...heroImages(brand.hero, brand.heroPhone) },
    promotions,
    /** the agency's providers: the page offers categories and lobbies of these only */
    providers: agency.enabledProviders,
    /** each game category an enabled provider holds, with the lobby tab that holds it (decision 082) */
    categories: categoryLinks(agency.enabledProviders, knownTabs(lists)),
    featured: featuredGames(lists),
    /** the Lao banks a player may deposit from and withdraw to (drawn by app/components/bank-mark.tsx) */
    banks: BANKS.map((bank) => bank.code),
  };
}

/**
 * The hero picture and, when the agency uploaded both, the phone's own (decision 038): the
 * page offers `phoneImage` to narrow screens and `image` to the rest. An agency with only a
 * phone hero shows it everywhere (the only picture it has).
 */
function heroImages(hero: BrandImage | null, heroPhone: BrandImage | null): { image: BrandImage | null; phoneImage: BrandImage | null } {
  const wide = sameOriginImage(hero);
  const phone = sameOriginImage(heroPhone);
  return wide ? { image: wide, phoneImage: phone } : { image: phone, phoneImage: null };
}

type OpeningList = { provider: Provider; list: GameList | null };

/**
 * Each enabled provider's list as its lobby opens on it (the same cache entry), or null
 * when the provider has not answered by the deadline.
 */
async function openingLists(env: Env, agency: Agency, deadline: number, waitUntil?: (promise: Promise<unknown>) => void): Promise<OpeningList[]> {
  return Promise.all(
    agency.enabledProviders.map(async (provider) => ({
      provider,
      list: await lobbyWithin(env, agency.id, provider, defaultTab(provider), deadline, waitUntil).catch(() => null),
    })),
  );
}

/** The tabs of the providers whose list is in hand: a category is checked against them. */
function knownTabs(lists: OpeningList[]): Partial<Record<Provider, readonly string[]>> {
  return Object.fromEntries(lists.filter((l) => l.list !== null && l.list.tabs.length > 0).map((l) => [l.provider, l.list!.tabs]));
}

/**
 * Up to FEATURED_GAMES games that have a picture, taken in turn from each enabled provider
 * (the first game of each, then the second, ...) so every provider shows, in the agency's
 * provider order.
 */
function featuredGames(opening: OpeningList[]): FeaturedGame[] {
  const lists = opening.map(({ provider, list }) =>
    (list?.games ?? [])
      .filter((g) => typeof g.img === "string" && g.img !== "")
      .map((g) => ({ provider, code: g.code, name: g.name, tab: g.tab, img: g.img as string })),
  );
  const picked: FeaturedGame[] = [];
  for (let round = 0; picked.length < FEATURED_GAMES && lists.some((list) => list.length > round); round++) {
    for (const list of lists) {
      const game = list[round];
      if (game && picked.length < FEATURED_GAMES) picked.push(game);
    }
  }
  return picked;
}
