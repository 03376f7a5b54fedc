import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BetflixAdapter } from "../../workers/ports/providers/betflix";
import type { MemberBook } from "../../workers/ports/providers/betflix-members";
import { buildProviderPort, type PortWiring } from "../../workers/ports/provider-factory";
import type { ProviderSetup } from "../../workers/core/provider-setup";
import { BetflixFake } from "./betflix-fake";

/**
 * Decision 048: Betflix puts its agent prefix before the name we register
 * (OUTSIDE.md "Betflix v4": "the agent prefix appears to be added by Betflix; use what it
 * returns"; [EXP] in workers/ports/providers/betflix.ts hands `data.username` on as the
 * member). The name Betflix answers is kept per player and used for every later call; a
 * member that already exists is adopted; the prefix in the settings only finds members
 * registered before names were kept.
 */

const KEY = "bf-key-0048";
const CAT = "bf-cat-0048";
/** What Betflix adds; the portal is NOT told (the back office had no field for it). */
const PREFIX = "bf7x";
const TIMEOUT_MS = 400;

let fake: BetflixFake;
let kept: Map<string, string>;
let n = 0;
const nextRef = () => `D${Date.now()}${++n}`;

/** The book as the wallet keeps it (D1 provider_members), in memory. */
function memoryBook(store: Map<string, string>, over: Partial<MemberBook> = {}): MemberBook {
  return {
    find: async (username) => store.get(username) ?? null,
    findMany: async (usernames) => new Map(usernames.filter((u) => store.has(u)).map((u) => [u, store.get(u)!])),
    keep: async (username, member) => {
      const holder = [...store].find(([, m]) => m === member)?.[0];
      if (holder !== undefined && holder !== username) return false; // one member, one player
      if (!store.has(username)) store.set(username, member);
      return store.get(username) === member;
    },
    ...over,
  };
}

function adapter(over: Partial<ConstructorParameters<typeof BetflixAdapter>[0]> = {}) {
  return new BetflixAdapter({
    baseUrl: fake.api.baseUrl,
    apiKey: KEY,
    apiCat: CAT,
    entrance: fake.entrance.baseUrl,
    timeoutMs: TIMEOUT_MS,
    turnoverSince: "2026-01-01",
    members: memoryBook(kept),
    ...over,
  });
}

const paths = () => fake.api.requests.map((r) => `${r.method} ${r.path}`);
const usernames = () => fake.api.requests.map((r) => (r.method === "GET" ? r.query.get("username") : new URLSearchParams(r.body).get("username")));

beforeAll(async () => {
  fake = new BetflixFake(KEY, CAT, PREFIX);
  await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.api.clearRequests();
  fake.members.clear();
  fake.refs.clear();
  fake.registerAnswersUsername = true;
  kept = new Map();
});

describe("Betflix answers register with its prefix before our name", () => {
  it("the first deposit registers, keeps the name Betflix answered and credits that member (today: REGISTER_FAILED)", async () => {
    const bf = adapter(); // no prefix configured: what every agency had
    const reference = nextRef();
    const outcome = await bf.transfer({ username: "demo0001", amountMinor: 10_000n, direction: "in", reference });
    expect(outcome).toEqual({ kind: "ok", balance: "100.00", txId: reference });
    expect(kept.get("demo0001")).toBe("bf7xdemo0001");
    expect(paths()).toEqual(["POST /v4/user/register", "POST /v4/user/transfer"]);
    expect(new URLSearchParams(fake.api.requests[0]!.body).get("username")).toBe("demo0001"); // Betflix adds the prefix itself
    expect(usernames()[1]).toBe("bf7xdemo0001");
    expect(fake.members.get("bf7xdemo0001")!.balance).toBe(10000n);
  });

  it("every later call uses the kept name: deposit, balance, withdrawal, lobby, game, turnover, history, report; nothing is registered again", async () => {
    const bf = adapter();
    const first = nextRef();
    await bf.transfer({ username: "demo0001", amountMinor: 10_000n, direction: "in", reference: first });
    fake.api.clearRequests();
    expect(await bf.transfer({ username: "demo0001", amountMinor: 2000n, direction: "in", reference: nextRef() })).toMatchObject({
      kind: "ok",
      balance: "120.00",
    });
    expect(await bf.balance("demo0001")).toEqual({ kind: "ok", amount: "120.00", currency: "THB" });
    expect(await bf.transfer({ username: "demo0001", amountMinor: 5000n, direction: "out", reference: nextRef() })).toMatchObject({
      kind: "ok",
      balance: "70.00",
    });
    expect(await bf.launchUrl("demo0001", "lo")).toEqual({ kind: "ok", url: `${fake.entrance.baseUrl}/login/apilogin/tok_bf7xdemo0001` });
    expect(await bf.launchUrl("demo0001", "lo", { code: "fortune-tiger", tab: "pg" })).toMatchObject({
      kind: "ok",
      url: expect.stringContaining("user=bf7xdemo0001"),
    });
    expect((await bf.turnover("demo0001")).kind).toBe("ok");
    expect(await bf.transferStatusOf(first, { username: "demo0001", direction: "in", at: Date.now() })).toEqual({ kind: "success" });
    const day = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
    expect((await bf.periodSummary({ from: day, to: day, players: [{ username: "demo0001", playerId: "p1" }] })).kind).toBe("ok");
    expect(paths()).not.toContain("POST /v4/user/register");
    expect(paths()[0]).toBe("POST /v4/user/transfer"); // a kept member needs no check before a deposit
    expect(new Set(usernames())).toEqual(new Set(["bf7xdemo0001"]));
  });

  it("a register answer without data.username keeps prefix + name (what [BFP] falls back to)", async () => {
    fake.registerAnswersUsername = false;
    const bf = adapter({ upline: PREFIX });
    expect((await bf.transfer({ username: "demo0003", amountMinor: 100n, direction: "in", reference: nextRef() })).kind).toBe("ok");
    expect(kept.get("demo0003")).toBe("bf7xdemo0003");
  });
});

describe("a member that already exists at Betflix", () => {
  it("is adopted: register says 'already exists', the prefix from the settings finds it, its name is kept and credited", async () => {
    fake.members.set("bf7xdemo0002", { balance: 5000n, password: "x", history: [], turnover: 0n });
    const bf = adapter({ upline: PREFIX });
    const outcome = await bf.transfer({ username: "demo0002", amountMinor: 1000n, direction: "in", reference: nextRef() });
    expect(outcome).toMatchObject({ kind: "ok", balance: "60.00" });
    expect(paths()).toEqual(["POST /v4/user/register", "POST /v4/user/balance", "POST /v4/user/transfer"]);
    expect(kept.get("demo0002")).toBe("bf7xdemo0002");
    expect(fake.api.requests[0]!.body).toContain("username=demo0002");
  });

  it("is adopted by a game launch too (a player who played before names were kept)", async () => {
    fake.members.set("bf7xdemo0002", { balance: 0n, password: "x", history: [], turnover: 0n });
    const bf = adapter({ upline: PREFIX });
    expect(await bf.launchUrl("demo0002", "lo")).toEqual({ kind: "ok", url: `${fake.entrance.baseUrl}/login/apilogin/tok_bf7xdemo0002` });
    expect(kept.get("demo0002")).toBe("bf7xdemo0002");
  });

  it("without the prefix its name cannot be found: refused, nothing moved, nothing kept", async () => {
    fake.members.set("bf7xdemo0002", { balance: 5000n, password: "x", history: [], turnover: 0n });
    const bf = adapter();
    expect(await bf.transfer({ username: "demo0002", amountMinor: 1000n, direction: "in", reference: nextRef() })).toEqual({
      kind: "refused",
      code: "REGISTER_FAILED",
    });
    expect(fake.api.to("/v4/user/transfer")).toHaveLength(0);
    expect(kept.size).toBe(0);
    expect(fake.members.get("bf7xdemo0002")!.balance).toBe(5000n);
  });

  it("held by another player (a derived-name collision) is refused: one member, one player", async () => {
    kept.set("other001", "bf7xdemo0002");
    fake.members.set("bf7xdemo0002", { balance: 5000n, password: "x", history: [], turnover: 0n });
    const bf = adapter({ upline: PREFIX });
    expect(await bf.transfer({ username: "demo0002", amountMinor: 1000n, direction: "in", reference: nextRef() })).toEqual({
      kind: "refused",
      code: "REGISTER_FAILED",
    });
    expect(fake.api.to("/v4/user/transfer")).toHaveLength(0);
  });
});

describe("the kept names themselves", () => {
  it("a name that could not be kept moves nothing (the next attempt adopts the member)", async () => {
    const failing = adapter({ members: memoryBook(kept, { keep: async () => false }) });
    expect(await failing.transfer({ username: "demo0004", amountMinor: 1000n, direction: "in", reference: nextRef() })).toEqual({
      kind: "refused",
      code: "REGISTER_FAILED",
    });
    expect(fake.api.to("/v4/user/transfer")).toHaveLength(0);
    const bf = adapter({ upline: PREFIX });
    expect((await bf.transfer({ username: "demo0004", amountMinor: 1000n, direction: "in", reference: nextRef() })).kind).toBe("ok");
    expect(kept.get("demo0004")).toBe("bf7xdemo0004");
  });

  it("two calls for one new player at once: the one Betflix answers 'exists' uses the name the other kept", async () => {
    fake.members.set("bf7xdemo0005", { balance: 0n, password: "x", history: [], turnover: 0n }); // registered by the other call
    let finds = 0;
    // The other call keeps its name between this call's first look and its failed adoption.
    const racing = adapter({
      members: memoryBook(kept, {
        find: async (u) => {
          if (++finds === 1) return null;
          kept.set(u, "bf7xdemo0005");
          return kept.get(u)!;
        },
      }),
    });
    expect(await racing.transfer({ username: "demo0005", amountMinor: 1000n, direction: "in", reference: nextRef() })).toMatchObject({
      kind: "ok",
      balance: "10.00",
    });
    expect(usernames().at(-1)).toBe("bf7xdemo0005");
  });

  it("a book that cannot be read: transfers refused before anything is sent, balance unavailable", async () => {
    const down = adapter({
      members: memoryBook(kept, { find: () => Promise.reject(new Error("D1 down")), findMany: () => Promise.reject(new Error("D1 down")) }),
    });
    expect(await down.transfer({ username: "demo0001", amountMinor: 1000n, direction: "in", reference: nextRef() })).toEqual({
      kind: "refused",
      code: "MEMBER_NAME_UNAVAILABLE",
    });
    expect(await down.transfer({ username: "demo0001", amountMinor: 1000n, direction: "out", reference: nextRef() })).toEqual({
      kind: "refused",
      code: "MEMBER_NAME_UNAVAILABLE",
    });
    expect((await down.balance("demo0001")).kind).toBe("unavailable");
    expect((await down.periodSummary({ from: "2026-11-20", to: "2026-11-20", players: [{ username: "demo0001", playerId: "p1" }] })).kind).toBe("unavailable");
    expect(fake.api.requests).toHaveLength(0);
  });
});

describe("through the port factory (what the wallet and services call)", () => {
  const setup: ProviderSetup = {
    provider: "betflix",
    adapter: "betflix",
    baseUrl: "",
    productCode: null,
    lobbyUrl: null,
    imageUrl: null,
    memberPrefix: null,
    createdAt: "2026-11-01T00:00:00.000Z",
  };
  /** The wallet's side: names kept per player id (D1 provider_members), players by legacy name. */
  function wiring(byPlayer: Map<string, string>): PortWiring {
    return {
      credentials: { agent: CAT, secret: KEY },
      ownerOf: async () => null,
      playerIdOf: async (legacy) => (legacy === "demo_alice" ? "0b7e5c1e-2f4a-4c39-9d51-3f0a7c2b9e11" : null),
      members: {
        find: async (playerId) => byPlayer.get(playerId) ?? null,
        findAll: async () => new Map(byPlayer),
        keep: async (playerId, _username, member) => {
          if (!byPlayer.has(playerId)) byPlayer.set(playerId, member);
          return byPlayer.get(playerId) === member;
        },
      },
    };
  }

  it("a deposit for a player (legacy name) registers under the derived name, keeps Betflix's answer under the player id, and the balance reads it", async () => {
    const byPlayer = new Map<string, string>();
    const port = buildProviderPort({} as Env, "betflix", { ...setup, baseUrl: fake.api.baseUrl, lobbyUrl: fake.entrance.baseUrl }, wiring(byPlayer));
    expect((await port.transfer({ username: "demo_alice", amountMinor: 10_000n, direction: "in", reference: nextRef() })).kind).toBe("ok");
    const sent = new URLSearchParams(fake.api.requests[0]!.body).get("username")!;
    expect(sent).toMatch(/^demo[a-z0-9]{10}$/); // the derived name (core/provider-username.ts)
    expect(byPlayer.get("0b7e5c1e-2f4a-4c39-9d51-3f0a7c2b9e11")).toBe(`${PREFIX}${sent}`);
    // A new port (every call builds one) reads the kept name: no register, the prefixed member.
    fake.api.clearRequests();
    const again = buildProviderPort({} as Env, "betflix", { ...setup, baseUrl: fake.api.baseUrl, lobbyUrl: fake.entrance.baseUrl }, wiring(byPlayer));
    expect(await again.balance("demo_alice")).toEqual({ kind: "ok", amount: "100.00", currency: "THB" });
    expect(usernames()).toEqual([`${PREFIX}${sent}`]);
  });

  it("the prefix from the settings reaches the adapter (adoption of an existing member)", async () => {
    const byPlayer = new Map<string, string>();
    const probe = buildProviderPort({} as Env, "betflix", { ...setup, baseUrl: fake.api.baseUrl, lobbyUrl: fake.entrance.baseUrl }, wiring(new Map()));
    await probe.transfer({ username: "demo_alice", amountMinor: 100n, direction: "in", reference: nextRef() }); // creates bf7x<derived>
    const member = [...fake.members.keys()][0]!;
    const port = buildProviderPort(
      {} as Env,
      "betflix",
      { ...setup, baseUrl: fake.api.baseUrl, lobbyUrl: fake.entrance.baseUrl, memberPrefix: PREFIX },
      wiring(byPlayer),
    );
    expect((await port.transfer({ username: "demo_alice", amountMinor: 100n, direction: "in", reference: nextRef() })).kind).toBe("ok");
    expect(byPlayer.get("0b7e5c1e-2f4a-4c39-9d51-3f0a7c2b9e11")).toBe(member);
  });
});
