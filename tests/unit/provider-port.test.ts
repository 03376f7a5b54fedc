import { describe, expect, it } from "vitest";
import { sandboxPort } from "../../workers/ports/provider";

/**
 * The game provider port (the sandbox provider's adapter, shaped like AMB's transfer API) when
 * the provider misbehaves: a page that cannot be filled is "unavailable"; a transfer or its
 * status that cannot be read is "unknown", never taken as done nor as refused, because the
 * credit may or may not have moved (the wallet asks again by reference, never sends twice).
 * The provider here is a fake Fetcher answering what a provider can answer.
 */

type Answer = Response | (() => never);

function providerAnswering(answer: Answer) {
  const urls: string[] = [];
  const fetcher = {
    fetch: async (url: string) => {
      urls.push(url);
      return typeof answer === "function" ? answer() : answer;
    },
  };
  const env = { SANDBOX_PROVIDER: fetcher, SANDBOX_PROVIDER_AGENT: "agent", SANDBOX_PROVIDER_SECRET: "secret" } as unknown as Env;
  return { port: sandboxPort(env, "betflix"), urls };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const timedOut = () => {
  throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
};
const transferOut = { username: "demo_somchai", amountMinor: 10_000n, direction: "out" as const, reference: "W1" };

describe("what a player sees when the provider is out of reach", () => {
  it("games, the game link, the balance and the bets are unavailable, with the cause, rather than an error page", async () => {
    const { port } = providerAnswering(timedOut);
    const reason = "TimeoutError: The operation was aborted due to timeout";
    expect(await port.games(null)).toEqual({ kind: "unavailable", reason });
    expect(await port.launchUrl("demo_somchai", "lo")).toEqual({ kind: "unavailable", reason });
    expect(await port.balance("demo_somchai")).toEqual({ kind: "unavailable", reason });
    expect(await port.turnover("demo_somchai")).toEqual({ kind: "unavailable", reason });
  });
});

describe("a transfer the provider answered in a way that cannot be read", () => {
  it("a 2xx that does not say SUCCESS is unknown: neither credited nor refused", async () => {
    const { port, urls } = providerAnswering(json(200, { data: { status: "PENDING" } }));
    expect(await port.transfer(transferOut)).toEqual({ kind: "unknown", reason: "unexpected answer 200" });
    expect(urls).toEqual(["http://sandbox-provider/api/betflix/withdraw"]);
  });

  it("its status by reference: an unknown status word or no answer is unknown, so the wallet asks again later", async () => {
    const { port, urls } = providerAnswering(json(200, { data: { status: "REVERSED" } }));
    expect(await port.transferStatus("W 1/R")).toEqual({ kind: "unknown", reason: "bad answer" });
    // the reference is escaped so the provider looks up the right transfer
    expect(urls).toEqual(["http://sandbox-provider/api/betflix/transactions/W%201%2FR"]);
    expect(await providerAnswering(timedOut).port.transferStatus("W1")).toEqual({
      kind: "unknown",
      reason: "TimeoutError: The operation was aborted due to timeout",
    });
  });
});

describe("a deployment with no provider adapter", () => {
  it("sends nothing anywhere: no games, game link, balance nor bets, a transfer refused (it never happened), its status unknown", async () => {
    const port = sandboxPort({ SANDBOX_PROVIDER_AGENT: "agent", SANDBOX_PROVIDER_SECRET: "secret" } as unknown as Env, "betflix");
    const reason = "no game provider adapter configured";
    expect(await port.games(null)).toEqual({ kind: "unavailable", reason });
    expect(await port.launchUrl("demo_somchai", "lo")).toEqual({ kind: "unavailable", reason });
    expect(await port.balance("demo_somchai")).toEqual({ kind: "unavailable", reason });
    expect(await port.turnover("demo_somchai")).toEqual({ kind: "unavailable", reason });
    expect(await port.transfer(transferOut)).toEqual({ kind: "refused", code: "NOT_CONFIGURED" });
    expect(await port.transferStatus("W1")).toEqual({ kind: "unknown", reason });
  });
});
