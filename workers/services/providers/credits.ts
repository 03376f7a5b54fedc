import { chipFigure, type ChipFigure, type KnownCredit } from "../../core/credit-chip";
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

/**
 * The header chip's figure, live (decision 081): each provider it is made of (`provider` on its
 * lobby, else every enabled one) asked now, and kept as the last known credit. Null when one
 * of them did not answer: a total with a part missing would be wrong, the shown one says how
 * old it is.
 */
export async function liveChipFigure(
  env: Env,
  agency: { id: string; enabledProviders: readonly Provider[] },
  player: Pick<CurrentPlayer, "id" | "username">,
  provider: Provider | null,
  waitUntil?: (promise: Promise<unknown>) => void,
): Promise<ChipFigure> {
  const providers = provider ? [provider] : enabledProviders(agency.enabledProviders);
  const seenAt = Date.now();
  const answers = await Promise.all(providers.map((p) => fetchCredit(env, agency.id, player, p, waitUntil)));
  if (answers.some((a) => !a.credit)) return null;
  return chipFigure(
    answers.map((a) => ({ provider: a.provider, ...a.credit!, seenAt })),
    providers,
    provider,
  );
}

export function enabledProviders(enabled: readonly Provider[]): Provider[] {
  return PROVIDERS.filter((p) => enabled.includes(p));
}
