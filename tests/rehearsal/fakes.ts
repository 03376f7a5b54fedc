import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { AmbFake } from "../contract/amb-fake";
import { BetflixFake } from "../contract/betflix-fake";

/**
 * The agency's accounts at the two real providers, as the contract fakes of tests/contract
 * (node:http on 127.0.0.1, a random port), each behind a TLS front on 127.0.0.1: a
 * production environment accepts only https base URLs (workers/core/provider-setup.ts), so
 * the Worker reaches the fakes as it would reach AMB and Betflix. The certificate is made
 * per run by scripts/rehearsal.mjs (a throwaway CA, given to `wrangler dev` through
 * NODE_EXTRA_CA_CERTS, which Miniflare adds to workerd's trusted certificates).
 * The walk reads what arrived at the fakes (members, transfers).
 */
export type ProviderFakes = {
  amb: AmbFake;
  ambUrl: string;
  ambCredentials: { agent: string; key: string; productId: string };
  betflix: BetflixFake;
  betflixUrl: string;
  betflixEntranceUrl: string;
  betflixCredentials: { apiKey: string; apiCat: string };
  stop(): Promise<void>;
};

/** An https server on 127.0.0.1 that forwards every request to a local http one. */
async function tlsFront(target: string, tls: { cert: string; key: string }): Promise<{ url: string; server: Server }> {
  const to = new URL(target);
  const server = createServer(tls, (req, res) => {
    const upstream = httpRequest(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

export async function startProviderFakes(): Promise<ProviderFakes> {
  const certFile = process.env.REHEARSAL_TLS_CERT;
  const keyFile = process.env.REHEARSAL_TLS_KEY;
  if (!certFile || !keyFile) throw new Error("REHEARSAL_TLS_CERT / REHEARSAL_TLS_KEY are not set: run the rehearsal with `npm run test:production`");
  const tls = { cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8") };
  const tag = Math.random().toString(36).slice(2, 8);
  const ambCredentials = { agent: `rh${tag}`, key: `amb-key-${tag}-${Date.now()}`, productId: "PGSOFT" };
  const betflixCredentials = { apiKey: `bfx-key-${tag}-${Date.now()}`, apiCat: `cat${tag}` };
  const amb = new AmbFake(ambCredentials.agent, ambCredentials.key, ambCredentials.productId);
  // No upline: the adapter's settings have none (the agency's members carry its prefix).
  const betflix = new BetflixFake(betflixCredentials.apiKey, betflixCredentials.apiCat, "");
  await amb.start();
  await betflix.start();
  const fronts = await Promise.all([amb.server.baseUrl, betflix.api.baseUrl, betflix.entrance.baseUrl].map((target) => tlsFront(target, tls)));
  return {
    amb,
    ambUrl: fronts[0]!.url,
    ambCredentials,
    betflix,
    betflixUrl: fronts[1]!.url,
    betflixEntranceUrl: fronts[2]!.url,
    betflixCredentials,
    async stop() {
      for (const { server } of fronts) server.closeAllConnections();
      await Promise.all(fronts.map(({ server }) => new Promise<void>((resolve) => server.close(() => resolve()))));
      await Promise.all([amb.stop(), betflix.stop()]);
    },
  };
}
