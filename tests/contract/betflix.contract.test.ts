import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BetflixAdapter } from "../../workers/ports/providers/betflix";
import { bangkokDate } from "../../workers/ports/providers/betflix-api";
import type { TransferOwner } from "../../workers/ports/providers/http";
import { BetflixFake } from "./betflix-fake";

const KEY = "bf-key-0001";
const CAT = "bf-cat-0001";
const UPLINE = "ab12";
const TIMEOUT_MS = 400;

let fake: BetflixFake;
let owners: Map<string, TransferOwner>;
/** The member names kept per player (the wallet's D1 table in production, decision 048). */
let kept: Map<string, string>;
let bf: BetflixAdapter;
let n = 0;
const nextRef = () => `D${Date.now()}${++n}`;

beforeAll(async () => {
  fake = new BetflixFake(KEY, CAT, UPLINE);
  await fake.start();
});
afterAll(() => fake.stop());

beforeEach(() => {
  fake.api.clearRequests();
  fake.entrance.clearRequests();
  fake.members.clear();
  fake.refs.clear();
  fake.launchField = "launch_url";
  fake.catHeader = "x-api-cat";
  fake.historyRefField = "ref";
  fake.historyDropsEntries = false;
  owners = new Map();
  kept = new Map();
  bf = adapter();
});

function adapter(overrides: Partial<ConstructorParameters<typeof BetflixAdapter>[0]> = {}) {
  return new BetflixAdapter({
    baseUrl: fake.api.baseUrl,
    apiKey: KEY,
    apiCat: CAT,
    upline: UPLINE,
    entrance: fake.entrance.baseUrl,
    timeoutMs: TIMEOUT_MS,
    ownerOf: async (reference) => owners.get(reference) ?? null,
    members: {
      find: async (username) => kept.get(username) ?? null,
      findMany: async (usernames) => new Map(usernames.filter((u) => kept.has(u)).map((u) => [u, kept.get(u)!])),
      keep: async (username, member) => {
        kept.set(username, kept.get(username) ?? member);
        return kept.get(username) === member;
      },
    },
    ...overrides,
  });
}

function seed(name: string, balance: bigint) {
  fake.members.set(UPLINE + name, { balance, password: "x", history: [], turnover: 0n });
}

async function transfer(username: string, amountMinor: bigint, direction: "in" | "out", reference = nextRef()) {
  owners.set(reference, { username, direction, at: Date.now() });
  return { reference, outcome: await bf.transfer({ username, amountMinor, direction, reference }) };
}

const form = (i: number) => Object.fromEntries(new URLSearchParams(fake.api.requests[i]!.body));

describe("Betflix requests", () => {
  it("the first transfer-in registers the member (no name kept yet), keeps the name Betflix answered, then transfers with ref; form bodies, x-api-key and x-api-cat on every call", async () => {
    const { reference, outcome } = await transfer("demo0001", 10_050n, "in");
    expect(outcome).toEqual({ kind: "ok", balance: "100.50", txId: reference });
    expect(fake.api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v4/user/register", "POST /v4/user/transfer"]);
    for (const r of fake.api.requests) {
      expect(r.headers["x-api-key"]).toBe(KEY);
      expect(r.headers["x-api-cat"]).toBe(CAT);
      expect(r.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    }
    const reg = form(0);
    expect(Object.keys(reg).sort()).toEqual(["name", "note", "password", "tel", "username"]);
    expect(reg.username).toBe("demo0001"); // Betflix adds the upline itself
    expect(reg.password!.length).toBeGreaterThanOrEqual(12);
    expect(kept.get("demo0001")).toBe("ab12demo0001");
    expect(form(1)).toEqual({ username: "ab12demo0001", amount: "100.50", ref: reference });
  });

  it("a member that exists is adopted once (register says exists, balance finds upline + name), then never registered again; a transfer-out sends a negative amount", async () => {
    seed("demo0001", 50000n);
    const a = await transfer("demo0001", 1000n, "in");
    expect(a.outcome).toMatchObject({ kind: "ok", balance: "510.00" });
    expect(fake.api.requests.map((r) => r.path)).toEqual(["/v4/user/register", "/v4/user/balance", "/v4/user/transfer"]);
    fake.api.clearRequests();
    expect((await transfer("demo0001", 1000n, "in")).outcome).toMatchObject({ kind: "ok", balance: "520.00" });
    expect(fake.api.requests.map((r) => r.path)).toEqual(["/v4/user/transfer"]);
    fake.api.clearRequests();
    const b = await transfer("demo0001", 2025n, "out");
    expect(b.outcome).toEqual({ kind: "ok", balance: "499.75", txId: b.reference });
    expect(fake.api.requests.map((r) => r.path)).toEqual(["/v4/user/transfer"]);
    expect(form(0)).toEqual({ username: "ab12demo0001", amount: "-20.25", ref: b.reference });
  });

  it("the older header name x-api-betflix is supported", async () => {
    fake.catHeader = "x-api-betflix";
    seed("demo0001", 100n);
    const old = adapter({ catHeader: "x-api-betflix" });
    expect(await old.balance("demo0001")).toEqual({ kind: "ok", amount: "1.00", currency: "THB" });
    expect(fake.api.requests[0]!.headers["x-api-betflix"]).toBe(CAT);
  });

  it("an invalid amount is refused without sending anything", async () => {
    expect((await transfer("demo0001", 0n, "in")).outcome).toEqual({ kind: "refused", code: "INVALID_AMOUNT" });
    expect((await transfer("demo0001", -100n, "out")).outcome).toEqual({ kind: "refused", code: "INVALID_AMOUNT" });
    expect(fake.api.requests).toHaveLength(0);
  });
});

describe("Betflix answers", () => {
  it("not enough credit and an unknown member are refusals", async () => {
    seed("demo0001", 500n);
    expect((await transfer("demo0001", 1000n, "out")).outcome).toEqual({ kind: "refused", code: "INSUFFICIENT_CREDIT" });
    expect((await transfer("ghost001", 1000n, "out")).outcome).toEqual({ kind: "refused", code: "MEMBER_NOT_FOUND" });
    expect(fake.members.get(UPLINE + "demo0001")!.balance).toBe(500n);
  });

  it("a repeated ref is resolved from the credit history under the same ref: success without a second credit", async () => {
    seed("demo0001", 0n);
    const first = await transfer("demo0001", 3000n, "in");
    fake.api.clearRequests();
    const again = await bf.transfer({ username: "demo0001", amountMinor: 3000n, direction: "in", reference: first.reference });
    expect(again).toEqual({ kind: "ok", balance: "30.00", txId: first.reference });
    const history = fake.api.to("/v4/user/creditHistory")[0]!;
    expect(history.method).toBe("GET");
    expect(history.query.get("username")).toBe("ab12demo0001");
    expect(history.query.get("start")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(history.query.get("end")! >= bangkokDate(Date.now())).toBe(true);
    expect(fake.members.get(UPLINE + "demo0001")!.balance).toBe(3000n);
  });

  it("a repeated ref that the history does not show stays UNKNOWN (never guessed)", async () => {
    seed("demo0001", 0n);
    const first = await transfer("demo0001", 3000n, "in");
    fake.historyDropsEntries = true;
    const again = await bf.transfer({ username: "demo0001", amountMinor: 3000n, direction: "in", reference: first.reference });
    expect(again.kind).toBe("unknown");
  });

  it("a timeout after Betflix applied the transfer is UNKNOWN; transferStatus finds our ref in the history: success", async () => {
    seed("demo0001", 0n);
    fake.api.fault("/v4/user/transfer", "apply-then-timeout");
    const { reference, outcome } = await transfer("demo0001", 4000n, "in");
    expect(outcome.kind).toBe("unknown");
    expect(await bf.transferStatus(reference)).toEqual({ kind: "success" });
    fake.historyRefField = "ref_id";
    expect(await bf.transferStatus(reference)).toEqual({ kind: "success" });
  });

  it("a timeout before anything was applied is UNKNOWN, and the status stays UNKNOWN (not-found is never claimed)", async () => {
    seed("demo0001", 0n);
    fake.api.fault("/v4/user/transfer", "timeout");
    const { reference, outcome } = await transfer("demo0001", 4000n, "in");
    expect(outcome.kind).toBe("unknown");
    const status = await bf.transferStatus(reference);
    expect(status.kind).toBe("unknown");
    expect(fake.members.get(UPLINE + "demo0001")!.balance).toBe(0n);
  });

  it("a history entry with our ref but the other direction is not taken as success", async () => {
    seed("demo0001", 10000n);
    const out = await transfer("demo0001", 1000n, "out");
    expect((await bf.transferStatusOf(out.reference, { username: "demo0001", direction: "in" })).kind).toBe("unknown");
    expect(await bf.transferStatusOf(out.reference, { username: "demo0001", direction: "out" })).toEqual({ kind: "success" });
  });

  it("HTTP 5xx is UNKNOWN; the history tells when it was applied", async () => {
    seed("demo0001", 0n);
    fake.api.fault("/v4/user/transfer", "http500");
    const a = await transfer("demo0001", 500n, "in");
    expect(a.outcome.kind).toBe("unknown");
    expect((await bf.transferStatus(a.reference)).kind).toBe("unknown");
    fake.api.fault("/v4/user/transfer", "apply-then-500");
    const b = await transfer("demo0001", 600n, "in");
    expect(b.outcome.kind).toBe("unknown");
    expect(await bf.transferStatus(b.reference)).toEqual({ kind: "success" });
  });

  it("an unparsable answer is never a success", async () => {
    seed("demo0001", 0n);
    fake.api.fault("/v4/user/transfer", "garbage");
    expect((await transfer("demo0001", 500n, "in")).outcome.kind).toBe("unknown");
    fake.api.fault("/v4/user/transfer", "apply-then-garbage");
    const b = await transfer("demo0001", 600n, "in");
    expect(b.outcome.kind).toBe("unknown");
    expect(await bf.transferStatus(b.reference)).toEqual({ kind: "success" });
    fake.api.fault("/v4/user/creditHistory", "garbage");
    expect((await bf.transferStatus(b.reference)).kind).toBe("unknown");
  });

  it("HTTP 200 with an error text that is not a known refusal is UNKNOWN on a transfer-out; on a transfer-in the failed member check moves nothing: refused", async () => {
    seed("demo0001", 10000n);
    const wrong = adapter({ apiKey: "wrong" });
    expect((await wrong.transfer({ username: "demo0001", amountMinor: 100n, direction: "out", reference: nextRef() })).kind).toBe("unknown");
    expect(await wrong.transfer({ username: "demo0001", amountMinor: 100n, direction: "in", reference: nextRef() })).toEqual({
      kind: "refused",
      code: "REGISTER_FAILED",
    });
    expect(fake.members.get(UPLINE + "demo0001")!.balance).toBe(10000n);
  });

  it("when the registration before a transfer-in times out, nothing is transferred and nothing kept: refused (the next attempt adopts the member)", async () => {
    fake.api.fault("/v4/user/register", "timeout");
    expect((await transfer("demo0001", 500n, "in")).outcome).toEqual({ kind: "refused", code: "REGISTER_FAILED" });
    expect(fake.api.to("/v4/user/transfer")).toHaveLength(0);
    expect(kept.size).toBe(0);
  });

  it("transferStatus without an owner lookup, or for a reference it does not know, is unknown and asks nothing", async () => {
    expect((await adapter({ ownerOf: undefined }).transferStatus("X")).kind).toBe("unknown");
    expect((await bf.transferStatus("NOT-OURS")).kind).toBe("unknown");
    expect(fake.api.requests).toHaveLength(0);
  });
});

describe("Betflix balance, launch, games, turnover", () => {
  it("balance: POST username (with the upline) -> data.balance, a number", async () => {
    seed("demo0001", 12345n);
    expect(await bf.balance("demo0001")).toEqual({ kind: "ok", amount: "123.45", currency: "THB" });
    expect(form(0)).toEqual({ username: "ab12demo0001" });
    expect((await bf.balance("ghost001")).kind).toBe("unavailable");
  });

  it("lobby: /v4/play/login with the username -> login_token, opened at {entrance}/login/apilogin/{token}; a new player is registered first", async () => {
    const lobby = await bf.launchUrl("demo0002", "lo");
    expect(lobby).toEqual({ kind: "ok", url: `${fake.entrance.baseUrl}/login/apilogin/tok_ab12demo0002` });
    expect(fake.api.requests.map((r) => r.path)).toEqual(["/v4/user/register", "/v4/play/login"]);
    expect(form(1)).toEqual({ username: "ab12demo0002" });
  });

  it("a game: provider + game code in both spellings public clients use; launch_url or url in the answer", async () => {
    seed("demo0001", 0n);
    kept.set("demo0001", UPLINE + "demo0001");
    const game = await bf.launchGame("demo0001", "pg", "fortune-tiger", "th", { returnUrl: "https://portal.example.test/games" });
    expect(game).toEqual({ kind: "ok", url: "https://launch.example.test/pg/fortune-tiger?user=ab12demo0001&lang=thai" });
    expect(form(0)).toEqual({
      username: "ab12demo0001",
      provider: "pg",
      gamecode: "fortune-tiger",
      game: "fortune-tiger",
      language: "thai",
      lang: "thai",
      openGame: "true",
      returnUrl: "https://portal.example.test/games",
      return_url: "https://portal.example.test/games",
    });
    // through the port: the lobby's tab names the brand, the return URL is the portal's lobby
    const back = "https://portal.example.test/player/game/betflix?tab=pg.txt";
    expect((await bf.launchUrl("demo0001", "lo", { code: "fortune-tiger", tab: "pg.txt" }, back)).kind).toBe("ok");
    expect(form(1)).toMatchObject({ provider: "pg", gamecode: "fortune-tiger", returnUrl: back, return_url: back });
    fake.launchField = "url";
    expect((await bf.launchGame("demo0001", "pp", "vs20olympgate", "cn")).kind).toBe("ok");
    fake.api.fault("/v4/play/login", "garbage");
    expect((await bf.launchUrl("demo0001", "lo")).kind).toBe("unavailable");
  });

  it("games: brands from games_share/list.txt are the tabs, each brand's file gives the games with absolute pictures; no API keys go to the static host", async () => {
    const first = await bf.games(null);
    expect(first).toEqual({
      kind: "ok",
      list: {
        tabs: ["pg", "pp", "jl"],
        games: [
          { code: "fortune-tiger", name: "Fortune Tiger", tab: "pg", img: `${fake.entrance.baseUrl}/games/pg/fortune-tiger.png` },
          { code: "mahjong-ways", name: "Mahjong Ways", tab: "pg", img: `${fake.entrance.baseUrl}/games/pg/mahjong-ways.png` },
        ],
      },
    });
    const pp = await bf.games("pp");
    expect(pp.kind === "ok" && pp.list.games[0]!.img).toBe("https://cdn.example.test/pp/gates.png");
    expect((await bf.games("jl")).kind).toBe("unavailable");
    expect(fake.entrance.requests.map((r) => r.path)).toEqual([
      "/games_share/list.txt",
      "/games_share/pg.txt",
      "/games_share/list.txt",
      "/games_share/pp.txt",
      "/games_share/list.txt",
      "/games_share/jl.txt",
    ]);
    for (const r of fake.entrance.requests) expect(r.headers["x-api-key"]).toBeUndefined();
    const configured = adapter({ brands: ["pp"], imageBase: "https://img.example.test" });
    const c = await configured.games(null);
    expect(c.kind === "ok" && c.list.tabs).toEqual(["pp"]);
  });

  it("turnover: the summary from turnoverSince to today (Bangkok) -> data.turnover; without turnoverSince it is unavailable", async () => {
    seed("demo0001", 0n);
    fake.members.get(UPLINE + "demo0001")!.turnover = 123456n;
    expect((await bf.turnover("demo0001")).kind).toBe("unavailable");
    const counted = adapter({ turnoverSince: "2026-01-01" });
    expect(await counted.turnover("demo0001")).toEqual({ kind: "ok", amountMinor: 123456n });
    const req = fake.api.to("/v4/report/summary")[0]!;
    expect(req.method).toBe("GET");
    expect(Object.fromEntries(req.query)).toEqual({ username: "ab12demo0001", start: "2026-01-01", end: bangkokDate(Date.now()) });
    fake.api.fault("/v4/report/summary", "http500");
    expect((await counted.turnover("demo0001")).kind).toBe("unavailable");
  });
});
