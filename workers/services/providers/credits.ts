import type { KnownCredit } from "../../core/credit-chip";
import { PROVIDERS, type Provider } from "../../core/providers";
import type { CurrentPlayer } from "../../core/session";
import { lastCreditsRead, recordLastCredit } from "../../db/last-credits";
import { writeAfterAnswer } from "../../db/metered";
import { readOne } from "../../db/reads";
import { providerUsername } from "../../ports/provider";
import { providerPortFor } from "../../wallet/provider-port";

/** docs/product.md §3 credit: { amount (string), currency } (THB 0 by default), fetched live every time. */
export type Credit = { provider: Provider; credit: { amount: string; currency: string } | null; error?: "UNAVAILABLE" };

/**
 * A provider's credit, live. A successful read is also kept as the player's last known credit
 * there (decision 081), written after the answer (`waitUntil`: the page's or the API's) so no
 * reader waits on it; a failed read keeps what was known.
 */
export async function fetchCredit(
  env: Env,
  agencyId: string,
  player: Pick<CurrentPlayer, "id" | "username">,
  provider: Provider,
  waitUntil?: (promise: Promise<unknown>) => void,
): Promise<Credit> {
  const result = await providerPortFor(env, agencyId, provider).balance(providerUsername(agencyId, player.username));
  if (result.kind !== "ok") return { provider, credit: null, error: "UNAVAILABLE" };
  const credit = { amount: result.amount, currency: result.currency || "THB" };
  await writeAfterAnswer(env.DB, waitUntil, (db) => recordLastCredit(db, agencyId, player.id, { provider, ...credit, seenAt: Date.now() }));
  return { provider, credit };
}

/** The player's last known credits at the agency's enabled providers (no provider asked). */
export async function lastCredits(db: D1Database, agency: { id: string; enabledProviders: readonly Provider[] }, playerId: string): Promise<KnownCredit[]> {
  const known = await readOne(lastCreditsRead(db, agency.id, playerId));
  return known.filter((c) => agency.enabledProviders.includes(c.provider as Provider));
}

export function enabledProviders(enabled: readonly Provider[]): Provider[] {
  return PROVIDERS.filter((p) => enabled.includes(p));
}
