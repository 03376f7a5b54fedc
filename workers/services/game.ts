import { parseAmount } from "../core/money";
import { isProvider, type Provider } from "../core/providers";
import { providerPort, providerUsername, type GameList } from "../ports/provider";
import type { Agency } from "./agency";
import type { CurrentPlayer } from "./auth";

/** The tab a provider's lobby opens on (SPEC §2 menu links: askmebet Slot, betflix pp.txt). */
export const DEFAULT_TAB: Partial<Record<Provider, string>> = { askmebet: "Slot", betflix: "pp.txt" };

export function lobbyProvider(agency: Agency, value: string | undefined): Provider | null {
  return isProvider(value) && agency.enabledProviders.includes(value) ? value : null;
}

export async function lobby(env: Env, provider: Provider, tab: string | null): Promise<GameList | null> {
  const result = await providerPort(env, provider).games(tab);
  return result.kind === "ok" ? result.list : null;
}

export type LaunchResult = { ok: true; url: string } | { ok: false; error: "NO_CREDIT" | "PROVIDER_UNAVAILABLE" };

/** SPEC §8: without credit at that provider the game does not open ("please deposit"). */
export async function launchGame(env: Env, agency: Agency, player: CurrentPlayer, provider: Provider, lang: string): Promise<LaunchResult> {
  const port = providerPort(env, provider);
  const username = providerUsername(agency.id, player.username);
  const balance = await port.balance(username);
  if (balance.kind !== "ok") return { ok: false, error: "PROVIDER_UNAVAILABLE" };
  const minor = parseAmount(balance.amount, "THB");
  if (minor === null || minor <= 0n) return { ok: false, error: "NO_CREDIT" };
  const launch = await port.launchUrl(username, lang);
  return launch.kind === "ok" ? { ok: true, url: launch.url } : { ok: false, error: "PROVIDER_UNAVAILABLE" };
}
