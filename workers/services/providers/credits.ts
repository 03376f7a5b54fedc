import { PROVIDERS, type Provider } from "../../core/providers";
import { providerUsername } from "../../ports/provider";
import { providerPortFor } from "../../wallet/provider-port";

/** docs/product.md §3 credit: { amount (string), currency } (THB 0 by default), fetched live every time. */
export type Credit = { provider: Provider; credit: { amount: string; currency: string } | null; error?: "UNAVAILABLE" };

export async function fetchCredit(env: Env, agencyId: string, username: string, provider: Provider): Promise<Credit> {
  const result = await providerPortFor(env, agencyId, provider).balance(providerUsername(agencyId, username));
  if (result.kind === "ok") return { provider, credit: { amount: result.amount, currency: result.currency || "THB" } };
  return { provider, credit: null, error: "UNAVAILABLE" };
}

export function enabledProviders(enabled: readonly Provider[]): Provider[] {
  return PROVIDERS.filter((p) => enabled.includes(p));
}
