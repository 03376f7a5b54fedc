import { parseAmount } from "../../core/money";
import { isProvider, type Provider } from "../../core/providers";
import { lobbyHref } from "../../core/game-categories";
import { providerUsername, type GameList, type LaunchGame } from "../../ports/provider";
import { providerPortFor } from "../../wallet/provider-port";
import type { Agency } from "../agency";
import type { CurrentPlayer } from "../../core/session";
import { gameLaunchGuard } from "../wallets";

/** The tab a provider's lobby opens on (docs/product.md §2 menu links: askmebet Slot, betflix pp.txt). */
const DEFAULT_TAB: Partial<Record<Provider, string>> = { askmebet: "Slot", betflix: "pp.txt" };

function lobbyProvider(agency: Agency, value: string | undefined): Provider | null {
  return isProvider(value) && agency.enabledProviders.includes(value) ? value : null;
}

/**
 * How long a provider's game list is fresh (docs/product.md §9: 5 minutes). askmebet's menu is never
 * treated as stale (docs/product.md §2): once loaded it is kept (a day, the Cache API's bound here)
 * instead of being asked again on every lobby view.
 */
export const LOBBY_FRESH_MS = 5 * 60 * 1000;
const NEVER_STALE: readonly Provider[] = ["askmebet"];
const LOBBY_CACHE_SECONDS = 24 * 60 * 60;

type CachedLobby = { fetchedAt: number; list: GameList };

/** Per agency: two agencies may reach the same provider through different adapters or products. */
function lobbyCacheKey(agencyId: string, provider: Provider, tab: string | null): Request {
  return new Request(`https://lobby.invalid/${encodeURIComponent(agencyId)}/${provider}?tab=${encodeURIComponent(tab ?? "")}`);
}

/**
 * A provider's games for a tab, from this data centre's cache while fresh; a stale copy
 * still answers when the provider is down (a lobby is better old than empty).
 */
export async function lobby(env: Env, agencyId: string, provider: Provider, tab: string | null, now: number = Date.now()): Promise<GameList | null> {
  const cached = await cachedLobby(agencyId, provider, tab);
  if (cached && (NEVER_STALE.includes(provider) || now - cached.fetchedAt < LOBBY_FRESH_MS)) return cached.list;
  const result = await providerPortFor(env, agencyId, provider).games(tab);
  if (result.kind !== "ok") return cached?.list ?? null;
  const body: CachedLobby = { fetchedAt: now, list: result.list };
  await (await caches.open("lobby")).put(
    lobbyCacheKey(agencyId, provider, tab),
    new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json", "Cache-Control": `max-age=${LOBBY_CACHE_SECONDS}` } }),
  );
  return result.list;
}

async function cachedLobby(agencyId: string, provider: Provider, tab: string | null): Promise<CachedLobby | null> {
  const hit = await (await caches.open("lobby")).match(lobbyCacheKey(agencyId, provider, tab));
  return hit ? ((await hit.json()) as CachedLobby) : null;
}

/** The tab a provider's lobby opens on; null: all its games. */
export function defaultTab(provider: Provider): string | null {
  return DEFAULT_TAB[provider] ?? null;
}

/**
 * A provider's games for a page that must not wait on the provider (the landing page,
 * decision 020): any cached copy however old; else the provider is asked, but the caller
 * waits at most until `deadline` (ms since the epoch) and gets null after it. The answer
 * that comes later still fills the cache (`waitUntil` keeps the request alive), so the next
 * view has it. A provider that fails is null, like one that is slow.
 */
export async function lobbyWithin(
  env: Env,
  agencyId: string,
  provider: Provider,
  tab: string | null,
  deadline: number,
  waitUntil?: (promise: Promise<unknown>) => void,
): Promise<GameList | null> {
  const cached = await cachedLobby(agencyId, provider, tab).catch(() => null);
  if (cached) return cached.list;
  const asked = lobby(env, agencyId, provider, tab).catch(() => null);
  waitUntil?.(asked);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}

export type LaunchResult =
  | { ok: true; url: string }
  | { ok: false; error: "NO_CREDIT" | "PROVIDER_UNAVAILABLE" }
  | NonNullable<Awaited<ReturnType<typeof gameLaunchGuard>>>;

/** docs/product.md §8: without credit at that provider the game does not open ("please deposit"). */
async function launchGame(
  env: Env,
  agency: Agency,
  player: CurrentPlayer,
  provider: Provider,
  lang: string,
  game: LaunchGame | null,
  returnUrl: string | null,
): Promise<LaunchResult> {
  const limited = await gameLaunchGuard(env.DB, agency.id, player.id); // a break or the day's play time (decision 025)
  if (limited) return limited;
  const port = providerPortFor(env, agency.id, provider);
  const username = providerUsername(agency.id, player.username);
  const balance = await port.balance(username);
  if (balance.kind !== "ok") return { ok: false, error: "PROVIDER_UNAVAILABLE" };
  const minor = parseAmount(balance.amount, "THB");
  if (minor === null || minor <= 0n) return { ok: false, error: "NO_CREDIT" };
  const launch = await port.launchUrl(username, lang, game, returnUrl);
  return launch.kind === "ok" ? { ok: true, url: launch.url } : { ok: false, error: "PROVIDER_UNAVAILABLE" };
}

/** The lobby page of a provider of this agency (null: no such provider here), its games filtered by a search. */
export async function lobbyPage(env: Env, agency: Agency, providerName: string | undefined, search: { tab: string | null; q: string }) {
  const provider = lobbyProvider(agency, providerName);
  if (!provider) return null;
  const tab = search.tab ?? defaultTab(provider);
  const q = search.q.trim().slice(0, 50);
  const list = await lobby(env, agency.id, provider, tab);
  const games = (list?.games ?? []).filter((g) => !q || g.name.toLowerCase().includes(q.toLowerCase()));
  return { provider, tab, q, tabs: list?.tabs ?? [], games, unavailable: list === null };
}

/** The game a lobby form names: its code and tab as posted (the provider checks the code). */
export type LaunchChoice = { game: string | null; tab: string | null };

/**
 * Launch from a lobby page (null: no such provider here): the game chosen, else the provider's
 * lobby. `origin` (the portal's, as the player reached it) makes the address the game's own
 * "back to lobby" button leads to: this lobby, on the game's tab.
 */
export async function launchFromLobby(
  env: Env,
  agency: Agency,
  player: CurrentPlayer,
  providerName: string | undefined,
  lang: string,
  choice: LaunchChoice = { game: null, tab: null },
  origin: string | null = null,
): Promise<LaunchResult | null> {
  const provider = lobbyProvider(agency, providerName);
  if (!provider) return null;
  const code = choice.game?.trim().slice(0, 100) || null;
  const tab = choice.tab?.trim().slice(0, 100) || null;
  const returnUrl = origin ? `${origin}${lobbyHref(provider, tab ?? defaultTab(provider))}` : null;
  return launchGame(env, agency, player, provider, lang, code ? { code, tab } : null, returnUrl);
}
