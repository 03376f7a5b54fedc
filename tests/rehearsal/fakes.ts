import { AmbFake } from "../contract/amb-fake";
import { BetflixFake } from "../contract/betflix-fake";

/**
 * The agency's accounts at the two real providers, as the contract fakes of tests/contract
 * (node:http on 127.0.0.1, a random port). The rehearsal's Worker reaches them by the base
 * URL the owner enters in the back office; the walk reads what arrived (members, transfers).
 * The credentials are made up per run, as an agency's would be issued by the provider.
 */
export type ProviderFakes = {
  amb: AmbFake;
  ambUrl: string;
  ambCredentials: { agent: string; key: string; productId: string };
  betflix: BetflixFake;
  betflixUrl: string;
  betflixCredentials: { apiKey: string; apiCat: string; upline: string };
  stop(): Promise<void>;
};

export async function startProviderFakes(): Promise<ProviderFakes> {
  const tag = Math.random().toString(36).slice(2, 8);
  const ambCredentials = { agent: `rh${tag}`, key: `amb-key-${tag}-${Date.now()}`, productId: "PGSOFT" };
  const betflixCredentials = { apiKey: `bfx-key-${tag}-${Date.now()}`, apiCat: `cat${tag}`, upline: `up${tag}` };
  const amb = new AmbFake(ambCredentials.agent, ambCredentials.key, ambCredentials.productId);
  const betflix = new BetflixFake(betflixCredentials.apiKey, betflixCredentials.apiCat, betflixCredentials.upline);
  const ambUrl = await amb.start();
  await betflix.start();
  const betflixUrl = betflix.api.baseUrl;
  return {
    amb,
    ambUrl,
    ambCredentials,
    betflix,
    betflixUrl,
    betflixCredentials,
    async stop() {
      await Promise.all([amb.stop(), betflix.stop()]);
    },
  };
}
