import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AmbSuperApiAdapter } from "../../workers/ports/providers/amb";
import type { TransferOwner } from "../../workers/ports/providers/http";
import { AmbFake } from "./amb-fake";

const AGENT = "agentx";
const KEY = "amb-key-0001";
const PRODUCT = "ASKMEBET";
const TIMEOUT_MS = 400;

let fake: AmbFake;
let owners: Map<string, TransferOwner>;
let amb: AmbSuperApiAdapter;
let ref = 0;
const nextRef = () => `DEP${Date.now()}${++ref}`;

beforeAll(async () => {
  fake = new AmbFake(AGENT, KEY, PRODUCT);
  await fake.start();
});
afterAll(() => fake.stop());

beforeEach(() => {
  fake.server.clearRequests();
  fake.members.clear();
  fake.txns.clear();
  fake.bets.length = 0;
  fake.balanceAtTop = false;
  fake.amountsAsStrings = false;
  owners = new Map();
  amb = adapter();
});

function adapter(overrides: Partial<ConstructorParameters<typeof AmbSuperApiAdapter>[0]> = {}) {
  return new AmbSuperApiAdapter({
    baseUrl: fake.server.baseUrl,
    agent: AGENT,
    key: KEY,
    productId: PRODUCT,
    timeoutMs: TIMEOUT_MS,
    ownerOf: async (reference) => owners.get(reference) ?? null,
    ...overrides,
  });
}

/** What the wiring does: remember whose reference it is before sending. */
async function transfer(username: string, amountMinor: bigint, direction: "in" | "out", reference = nextRef()) {
  owners.set(reference, { username, direction });
  return { reference, outcome: await amb.transfer({ username, amountMinor, direction, reference }) };
}

function body(i: number) {
  return JSON.parse(fake.server.requests[i]!.body) as Record<string, unknown>;
}

describe("AMB requests", () => {
  it("a deposit is a JSON POST with Basic agent:key, our reference as transactionRef and the amount as a 2-decimal string", async () => {
    fake.members.set("demo00001", 0n);
    const { reference, outcome } = await transfer("demo00001", 10_050n, "in");
    expect(outcome).toEqual({ kind: "ok", balance: "100.50", txId: reference });
    const [req] = fake.server.requests;
    expect(req!.method).toBe("POST");
    expect(req!.path).toBe("/deposit");
    expect(req!.headers.authorization).toBe(`Basic ${Buffer.from(`${AGENT}:${KEY}`).toString("base64")}`);
    expect(req!.headers["content-type"]).toMatch(/^application\/json/);
    expect(body(0)).toEqual({ username: "demo00001", amount: "100.50", transactionRef: reference, productId: PRODUCT });
  });

  it("a withdrawal goes to /withdraw with the same fields", async () => {
    fake.members.set("demo00001", 50000n);
    const { reference, outcome } = await transfer("demo00001", 12_000n, "out");
    expect(outcome).toEqual({ kind: "ok", balance: "380.00", txId: reference });
    expect(fake.server.requests.map((r) => r.path)).toEqual(["/withdraw"]);
    expect(body(0)).toEqual({ username: "demo00001", amount: "120.00", transactionRef: reference, productId: PRODUCT });
  });

  it("a first deposit for a player AMB does not know creates the member, then sends the SAME reference again", async () => {
    const { reference, outcome } = await transfer("demo00002", 1000n, "in");
    expect(outcome).toMatchObject({ kind: "ok", balance: "10.00" });
    expect(fake.server.requests.map((r) => r.path)).toEqual(["/deposit", "/seamless/member", "/deposit"]);
    expect(body(1)).toEqual({ username: "demo00002", productId: PRODUCT });
    expect(body(0).transactionRef).toBe(reference);
    expect(body(2).transactionRef).toBe(reference);
    expect(fake.members.get("demo00002")).toBe(1000n);
  });

  it("an amount that is not positive is refused without sending anything", async () => {
    for (const amount of [0n, -500n]) {
      const { outcome } = await transfer("demo00001", amount, "in");
      expect(outcome).toEqual({ kind: "refused", code: "INVALID_AMOUNT" });
    }
    expect(fake.server.requests).toHaveLength(0);
  });
});

describe("AMB answers", () => {
  it("not enough credit (5003) is a refusal and moves nothing", async () => {
    fake.members.set("demo00001", 1000n);
    const { outcome } = await transfer("demo00001", 2000n, "out");
    expect(outcome).toEqual({ kind: "refused", code: "INSUFFICIENT_CREDIT" });
    expect(fake.members.get("demo00001")).toBe(1000n);
  });

  it("member not found (9002) on a withdrawal is a refusal (no member is created)", async () => {
    const { outcome } = await transfer("ghost0001", 2000n, "out");
    expect(outcome).toEqual({ kind: "refused", code: "MEMBER_NOT_FOUND" });
    expect(fake.server.requests.map((r) => r.path)).toEqual(["/withdraw"]);
  });

  it("a repeated reference (4001) is resolved by verifyDepositWithdraw under the same reference, without a second credit", async () => {
    fake.members.set("demo00001", 0n);
    const first = await transfer("demo00001", 3000n, "in");
    fake.server.clearRequests();
    const again = await amb.transfer({ username: "demo00001", amountMinor: 3000n, direction: "in", reference: first.reference });
    expect(again).toEqual({ kind: "ok", balance: "30.00", txId: first.reference });
    expect(fake.server.requests.map((r) => r.path)).toEqual(["/deposit", "/verifyDepositWithdraw"]);
    expect(body(1)).toEqual({ username: "demo00001", transactionRef: first.reference, productId: PRODUCT, type: "DEPOSIT" });
    expect(fake.members.get("demo00001")).toBe(3000n);
  });

  it("a repeated withdrawal reference (5001) is checked with type WITHDRAW", async () => {
    fake.members.set("demo00001", 10000n);
    const first = await transfer("demo00001", 3000n, "out");
    fake.server.clearRequests();
    const again = await amb.transfer({ username: "demo00001", amountMinor: 3000n, direction: "out", reference: first.reference });
    expect(again).toEqual({ kind: "ok", balance: "70.00", txId: first.reference });
    expect(body(1).type).toBe("WITHDRAW");
    expect(fake.members.get("demo00001")).toBe(7000n);
  });

  it("a timeout after AMB applied the deposit is UNKNOWN; the status under the same reference says success; a resend is a duplicate, not a second credit", async () => {
    fake.members.set("demo00001", 0n);
    fake.server.fault("/deposit", "apply-then-timeout");
    const started = Date.now();
    const { reference, outcome } = await transfer("demo00001", 4000n, "in");
    expect(outcome.kind).toBe("unknown");
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2000);
    expect(await amb.transferStatus(reference)).toEqual({ kind: "success" });
    const verify = fake.server.to("/verifyDepositWithdraw");
    expect(JSON.parse(verify[0]!.body)).toMatchObject({ transactionRef: reference, type: "DEPOSIT", username: "demo00001" });
    const resend = await amb.transfer({ username: "demo00001", amountMinor: 4000n, direction: "in", reference });
    expect(resend).toMatchObject({ kind: "ok", balance: "40.00" });
    expect(fake.members.get("demo00001")).toBe(4000n);
    expect(fake.server.to("/deposit").every((r) => JSON.parse(r.body).transactionRef === reference)).toBe(true);
  });

  it("a timeout before AMB processed anything is UNKNOWN, and the status says not-found", async () => {
    fake.members.set("demo00001", 0n);
    fake.server.fault("/deposit", "timeout");
    const { reference, outcome } = await transfer("demo00001", 4000n, "in");
    expect(outcome.kind).toBe("unknown");
    expect(await amb.transferStatus(reference)).toEqual({ kind: "not-found" });
    expect(fake.members.get("demo00001")).toBe(0n);
  });

  it("HTTP 5xx is UNKNOWN whether or not the credit moved; the status tells which", async () => {
    fake.members.set("demo00001", 0n);
    fake.server.fault("/deposit", "http500");
    const a = await transfer("demo00001", 500n, "in");
    expect(a.outcome.kind).toBe("unknown");
    expect(await amb.transferStatus(a.reference)).toEqual({ kind: "not-found" });
    fake.server.fault("/deposit", "apply-then-500");
    const b = await transfer("demo00001", 600n, "in");
    expect(b.outcome.kind).toBe("unknown");
    expect(await amb.transferStatus(b.reference)).toEqual({ kind: "success" });
  });

  it("an unparsable answer is never a success, even when the credit moved", async () => {
    fake.members.set("demo00001", 0n);
    fake.server.fault("/deposit", "garbage");
    expect((await transfer("demo00001", 500n, "in")).outcome.kind).toBe("unknown");
    fake.server.fault("/deposit", "apply-then-garbage");
    const b = await transfer("demo00001", 600n, "in");
    expect(b.outcome.kind).toBe("unknown");
    expect(await amb.transferStatus(b.reference)).toEqual({ kind: "success" });
  });

  it("HTTP 200 with an error code that is not a known refusal is UNKNOWN (900 upstream error, 4000 deposit failed)", async () => {
    fake.members.set("demo00001", 0n);
    fake.nextTransferCode = 900;
    const a = await transfer("demo00001", 500n, "in");
    expect(a.outcome).toMatchObject({ kind: "unknown" });
    expect(await amb.transferStatus(a.reference)).toEqual({ kind: "not-found" });
    fake.nextTransferCode = 4000;
    const b = await transfer("demo00001", 500n, "in");
    expect(b.outcome).toMatchObject({ kind: "unknown" });
    expect(await amb.transferStatus(b.reference)).toEqual({ kind: "failed" });
  });

  it("a first deposit for a name AMB will not make a member of is refused, and the deposit is not sent again", async () => {
    const { outcome } = await transfer("Bad_Name", 1000n, "in");
    expect(outcome).toEqual({ kind: "refused", code: "MEMBER_INVALID_PAYLOAD" });
    expect(fake.server.requests.map((r) => r.path)).toEqual(["/deposit", "/seamless/member"]);
    expect(fake.members.has("Bad_Name")).toBe(false);
  });

  it("a resent reference that AMB had failed is a refusal: the duplicate answer is never taken as a credit", async () => {
    fake.members.set("demo00001", 0n);
    fake.nextTransferCode = 4000;
    const first = await transfer("demo00001", 2500n, "in");
    expect(first.outcome).toMatchObject({ kind: "unknown" });
    const again = await amb.transfer({ username: "demo00001", amountMinor: 2500n, direction: "in", reference: first.reference });
    expect(again).toEqual({ kind: "refused", code: "DUPLICATE_REFERENCE_FAILED" });
    expect(fake.members.get("demo00001")).toBe(0n);
  });

  it("a duplicate answer whose reference AMB cannot find for this player and direction, or whose status does not come, is unknown", async () => {
    fake.members.set("demo00001", 10000n);
    const deposit = await transfer("demo00001", 500n, "in");
    // the same reference as a withdrawal: AMB says duplicate, but has no withdrawal under it
    expect(await amb.transfer({ username: "demo00001", amountMinor: 500n, direction: "out", reference: deposit.reference })).toEqual({
      kind: "unknown",
      reason: "duplicate answer but the reference is not found",
    });
    fake.server.fault("/verifyDepositWithdraw", "timeout");
    const resent = await amb.transfer({ username: "demo00001", amountMinor: 500n, direction: "in", reference: deposit.reference });
    expect(resent).toMatchObject({ kind: "unknown", reason: expect.stringMatching(/^duplicate reference: /) });
    // neither moved any credit a second time
    expect(fake.members.get("demo00001")).toBe(10500n);
  });

  it("answers with amounts as strings are read the same", async () => {
    fake.amountsAsStrings = true;
    fake.members.set("demo00001", 12345n);
    const { outcome } = await transfer("demo00001", 45n, "in");
    expect(outcome).toMatchObject({ kind: "ok", balance: "123.90" });
  });

  it("wrong credentials (HTTP 401) are a refusal", async () => {
    fake.members.set("demo00001", 0n);
    const wrong = adapter({ key: "wrong" });
    expect(await wrong.transfer({ username: "demo00001", amountMinor: 100n, direction: "in", reference: nextRef() })).toEqual({
      kind: "refused",
      code: "UNAUTHORIZED",
    });
    expect(fake.members.get("demo00001")).toBe(0n);
  });

  it("transferStatus without an owner lookup, or for a reference it does not know, is unknown (it never asks AMB with a guessed player)", async () => {
    const bare = adapter({ ownerOf: undefined });
    expect((await bare.transferStatus("X1")).kind).toBe("unknown");
    expect((await amb.transferStatus("NOT-OURS")).kind).toBe("unknown");
    expect(fake.server.requests).toHaveLength(0);
  });

  it("a status that times out is unknown", async () => {
    owners.set("R-T", { username: "demo00001", direction: "in" });
    fake.server.fault("/verifyDepositWithdraw", "timeout");
    expect((await amb.transferStatus("R-T")).kind).toBe("unknown");
  });
});

describe("AMB balance, launch, games, turnover", () => {
  it("balance: GET with username and productId; `balance` under data or at the top level; a member AMB does not know holds 0.00", async () => {
    fake.members.set("demo00001", 98765n);
    expect(await amb.balance("demo00001")).toEqual({ kind: "ok", amount: "987.65", currency: "THB" });
    const req = fake.server.requests[0]!;
    expect(req.method).toBe("GET");
    expect(req.path).toBe("/balance");
    expect(Object.fromEntries(req.query)).toEqual({ username: "demo00001", productId: PRODUCT });
    fake.balanceAtTop = true;
    expect(await amb.balance("demo00001")).toEqual({ kind: "ok", amount: "987.65", currency: "THB" });
    expect(await amb.balance("nobody001")).toEqual({ kind: "ok", amount: "0.00", currency: "THB" });
    fake.server.fault("/balance", "garbage");
    expect((await amb.balance("demo00001")).kind).toBe("unavailable");
  });

  it("launch: POST /logIn with username, productId, isMobileLogin and language; answers data.url; a new player becomes a member first", async () => {
    const lobby = await amb.launchUrl("demo00003", "lo");
    expect(lobby).toEqual({ kind: "ok", url: expect.stringMatching(/^https:\/\/play\.example\.test\/launch\?/) });
    expect(fake.server.requests.map((r) => r.path)).toEqual(["/logIn", "/seamless/member", "/logIn"]);
    expect(body(0)).toEqual({ username: "demo00003", productId: PRODUCT, isMobileLogin: true, language: "en" });
    fake.server.clearRequests();
    const game = await amb.launchGame("demo00003", "PGS-1", "cn", { mobile: false, callbackUrl: "https://portal.example.test/games" });
    expect(game.kind).toBe("ok");
    expect(body(0)).toEqual({
      username: "demo00003",
      productId: PRODUCT,
      gameCode: "PGS-1",
      isMobileLogin: false,
      language: "cn",
      callbackUrl: "https://portal.example.test/games",
    });
    // the port's return URL (the portal's lobby) is AMB's callbackUrl: the game's "home" button leads back to it
    fake.server.clearRequests();
    const back = "https://portal.example.test/player/game/askmebet?tab=SLOT";
    expect((await amb.launchUrl("demo00003", "lo", { code: "PGS-1", tab: "SLOT" }, back)).kind).toBe("ok");
    expect(body(0)).toMatchObject({ gameCode: "PGS-1", callbackUrl: back });
    fake.server.fault("/logIn", "http500");
    expect((await amb.launchUrl("demo00003", "lo")).kind).toBe("unavailable");
  });

  it("games: GET /seamless/games?productId; categories become tabs, rank orders the games, pictures come along", async () => {
    const all = await amb.games(null);
    expect(all.kind).toBe("ok");
    if (all.kind !== "ok") return;
    expect(all.list.tabs).toEqual(["SLOT", "LIVE"]);
    expect(all.list.games.map((g) => g.code)).toEqual(["PGS-1", "PGS-2", "EVO-1"]);
    expect(all.list.games[0]).toEqual({ code: "PGS-1", name: "Mahjong Ways", tab: "SLOT", img: "https://img.example.test/pg/mahjong-ways.png" });
    expect(Object.fromEntries(fake.server.requests[0]!.query)).toEqual({ productId: PRODUCT });
    const live = await amb.games("LIVE");
    expect(live.kind === "ok" && live.list.games.map((g) => g.code)).toEqual(["EVO-1"]);
  });

  it("turnover: no growing counter at AMB (unavailable); turnoverBetween sums the player's stakes in windows of at most one hour, all pages, without cancelled bets", async () => {
    expect((await amb.turnover("demo00001")).kind).toBe("unavailable");
    const t0 = Date.parse("2026-11-20T10:00:00.000Z");
    fake.addBet("demo00001", "10", new Date(t0 + 5 * 60_000));
    fake.addBet("demo00001", "20.50", new Date(t0 + 10 * 60_000));
    fake.addBet("other0001", "999", new Date(t0 + 11 * 60_000));
    fake.addBet("demo00001", "5", new Date(t0 + 12 * 60_000));
    fake.addBet("demo00001", "7", new Date(t0 + 13 * 60_000), "CANCELLED");
    fake.addBet("demo00001", "100", new Date(t0 + 150 * 60_000));
    fake.addBet("demo00001", "1000", new Date(t0 + 200 * 60_000)); // outside
    const r = await amb.turnoverBetween("demo00001", new Date(t0), new Date(t0 + 3 * 60 * 60_000));
    expect(r).toEqual({ kind: "ok", amountMinor: 13550n, bets: 4 });
    const calls = fake.server.to("/betTransactionsV2");
    for (const c of calls) expect(Date.parse(c.query.get("endTime")!) - Date.parse(c.query.get("startTime")!)).toBeLessThanOrEqual(3_600_000);
    expect(calls.some((c) => c.query.get("nextId"))).toBe(true);
    fake.server.fault("/betTransactionsV2", "http500");
    expect((await amb.turnoverBetween("demo00001", new Date(t0), new Date(t0 + 60_000))).kind).toBe("unavailable");
  });

  it("turnover since a promotion's start: 0 right at the start, then the player's stakes since it (AMB reports by time window)", async () => {
    const t0 = Date.parse("2026-11-20T10:00:00.000Z");
    fake.addBet("demo00001", "10", new Date(t0 + 5 * 60_000));
    fake.addBet("demo00001", "2.50", new Date(t0 + 20 * 60_000));
    fake.addBet("demo00001", "99", new Date(t0 - 5 * 60_000)); // before the start: not counted
    const at = (now: number) => adapter({ now: () => now });
    expect(await at(t0 + 30_000).turnover("demo00001", t0)).toEqual({ kind: "ok", amountMinor: 0n });
    expect(fake.server.to("/betTransactionsV2")).toHaveLength(0); // nobody asked: a window that starts now holds no bets
    expect(await at(t0 + 30 * 60_000).turnover("demo00001", t0)).toEqual({ kind: "ok", amountMinor: 1250n });
    fake.server.fault("/betTransactionsV2", "http500");
    expect((await at(t0 + 30 * 60_000).turnover("demo00001", t0)).kind).toBe("unavailable");
  });
});
