import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AmbSuperApiAdapter } from "../../workers/ports/providers/amb";
import { AmbFake } from "./amb-fake";

/**
 * The AMB period report (decision 058): a Vientiane day's totals for the
 * agency's players, summed from betTransactionsV2 bet records hour by hour and page by page.
 */

const AGENT = "agentx";
const KEY = "amb-key-0001";
const PRODUCT = "ASKMEBET";
const DAY = "2026-11-20";
/** 2026-11-20 00:00 in Vientiane (UTC+7). */
const START = Date.parse("2026-11-19T17:00:00Z");
const HOUR = 3_600_000;
const players = [
  { username: "demo00001", playerId: "p1" },
  { username: "demo00002", playerId: "p2" },
];

let fake: AmbFake;
let amb: AmbSuperApiAdapter;

beforeAll(async () => {
  fake = new AmbFake(AGENT, KEY, PRODUCT);
  await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.server.clearRequests();
  fake.bets.length = 0;
  fake.amountsAsStrings = false;
  fake.pageSize = 2;
  amb = new AmbSuperApiAdapter({ baseUrl: fake.server.baseUrl, agent: AGENT, key: KEY, productId: PRODUCT, timeoutMs: 400 });
});

function dayOfBets() {
  fake.addBet("demo00001", "100", new Date(START), "SETTLED", "250"); // first instant of the day: players won 150
  fake.addBet("demo00001", "50.25", new Date(START + 3 * HOUR + 1), "SETTLED", "0");
  fake.addBet("DEMO00002", "30", new Date(START + 3 * HOUR + 2), "SETTLED", "15.50"); // AMB may answer upper case
  fake.addBet("demo00002", "20", new Date(START + 3 * HOUR + 3), "SETTLED", "20");
  fake.addBet("demo00002", "999", new Date(START + 5 * HOUR), "CANCELLED", "0"); // void: not counted
  fake.addBet("other0001", "777", new Date(START + 6 * HOUR), "SETTLED", "0"); // another agency's member
  fake.addBet("demo00001", "5000", new Date(START - 1), "SETTLED", "0"); // the day before
  fake.addBet("demo00001", "6000", new Date(START + 24 * HOUR), "SETTLED", "0"); // the day after
}

describe("AMB periodSummary", () => {
  it("sums the day's valid stakes of the players named (turnover) and stakes - payouts (the agency's win/loss)", async () => {
    dayOfBets();
    const r = await amb.periodSummary({ from: DAY, to: DAY, players });
    // turnover 100 + 50.25 + 30 + 20; paid back 250 + 0 + 15.50 + 20
    expect(r).toEqual({
      kind: "ok",
      turnoverMinor: 20025n,
      winLossMinor: 20025n - 28550n,
      // each player's part of the same records, under the playerId asked with
      players: new Map([
        ["p1", { turnoverMinor: 15025n, winLossMinor: 15025n - 25000n }],
        ["p2", { turnoverMinor: 5000n, winLossMinor: 5000n - 3550n }],
      ]),
    });
  });

  it("asks the 24 hours of the Vientiane day, at most one hour per call, with Basic auth, and follows the pages", async () => {
    dayOfBets();
    await amb.periodSummary({ from: DAY, to: DAY, players });
    const reqs = fake.server.to("/betTransactionsV2");
    const firstPages = reqs.filter((r) => !r.query.get("nextId"));
    expect(firstPages).toHaveLength(24);
    expect(firstPages[0]!.query.get("startTime")).toBe("2026-11-19T17:00:00.000Z");
    expect(firstPages[23]!.query.get("endTime")).toBe("2026-11-20T17:00:00.000Z");
    for (const r of reqs) {
      expect(r.method).toBe("GET");
      expect(r.query.get("productId")).toBe(PRODUCT);
      expect(Date.parse(r.query.get("endTime")!) - Date.parse(r.query.get("startTime")!)).toBeLessThanOrEqual(HOUR);
      expect(r.headers.authorization).toBe(`Basic ${Buffer.from(`${AGENT}:${KEY}`).toString("base64")}`);
    }
    // Hour 3 holds three bets with pages of two: a second page asked with nextId.
    expect(reqs.filter((r) => r.query.get("nextId"))).toHaveLength(1);
  });

  it("reads amounts answered as strings too, and several days at once", async () => {
    fake.amountsAsStrings = true;
    dayOfBets();
    const r = await amb.periodSummary({ from: "2026-11-19", to: DAY, players });
    expect(r).toEqual({
      kind: "ok",
      turnoverMinor: 20025n + 500000n,
      winLossMinor: 20025n - 28550n + 500000n,
      players: new Map([
        ["p1", { turnoverMinor: 15025n + 500000n, winLossMinor: 15025n - 25000n + 500000n }],
        ["p2", { turnoverMinor: 5000n, winLossMinor: 1450n }],
      ]),
    });
  });

  it("no players: zero, nobody asked; a bad period: unavailable", async () => {
    expect(await amb.periodSummary({ from: DAY, to: DAY, players: [] })).toEqual({ kind: "ok", turnoverMinor: 0n, winLossMinor: 0n, players: new Map() });
    expect(fake.server.requests).toHaveLength(0);
    expect((await amb.periodSummary({ from: DAY, to: "2026-11-19", players })).kind).toBe("unavailable");
    expect((await amb.periodSummary({ from: "2026-02-30", to: "2026-02-30", players })).kind).toBe("unavailable");
  });

  it("each player's figures come from the same scan: a day of 3 players is 24 hourly requests (+ pages), not 24 per player", async () => {
    dayOfBets();
    const three = [...players, { username: "demo00003", playerId: "p3" }];
    const r = await amb.periodSummary({ from: DAY, to: DAY, players: three });
    expect(r.kind === "ok" && [...r.players.keys()]).toEqual(["p1", "p2", "p3"]);
    expect(r.kind === "ok" && r.players.get("p3")).toEqual({ turnoverMinor: 0n, winLossMinor: 0n }); // no bet: zero
    const reqs = fake.server.to("/betTransactionsV2");
    expect(reqs.filter((q) => !q.query.get("nextId"))).toHaveLength(24);
    expect(reqs).toHaveLength(25); // the one second page of hour 3
  });

  it("players' figures add up to the totals; two players AMB cannot tell apart (names equal but for case) get none, and still count in the totals", async () => {
    dayOfBets();
    const r = await amb.periodSummary({ from: DAY, to: DAY, players: [...players, { username: "DEMO00002", playerId: "p2bis" }] });
    expect(r).toEqual({
      kind: "ok",
      turnoverMinor: 20025n,
      winLossMinor: 20025n - 28550n,
      players: new Map([["p1", { turnoverMinor: 15025n, winLossMinor: -9975n }]]),
    });
    const all = await amb.periodSummary({ from: DAY, to: DAY, players });
    if (all.kind !== "ok") throw new Error(all.reason);
    expect([...all.players.values()].reduce((sum, p) => sum + p.turnoverMinor, 0n)).toBe(all.turnoverMinor);
    expect([...all.players.values()].reduce((sum, p) => sum + p.winLossMinor, 0n)).toBe(all.winLossMinor);
  });

  for (const fault of ["timeout", "http500", "garbage", "apply-then-garbage"] as const) {
    it(`one page that fails (${fault}) makes the whole day unavailable, never a partial total`, async () => {
      dayOfBets();
      fake.server.fault("/betTransactionsV2", fault);
      const r = await amb.periodSummary({ from: DAY, to: DAY, players });
      expect(r.kind).toBe("unavailable");
    });
  }

  it("an error code, wrong credentials or an unreadable stake: unavailable", async () => {
    dayOfBets();
    const wrong = new AmbSuperApiAdapter({ baseUrl: fake.server.baseUrl, agent: AGENT, key: "nope", productId: PRODUCT, timeoutMs: 400 });
    expect(await wrong.periodSummary({ from: DAY, to: DAY, players })).toEqual({ kind: "unavailable", reason: "HTTP 401" });
    const otherProduct = new AmbSuperApiAdapter({ baseUrl: fake.server.baseUrl, agent: AGENT, key: KEY, productId: "NOPE", timeoutMs: 400 });
    expect((await otherProduct.periodSummary({ from: DAY, to: DAY, players })).kind).toBe("unavailable");
    fake.bets.push({ username: "demo00001", stake: -1n, payout: 0n, betStatus: "SETTLED", time: START + 7 * HOUR, id: 999 });
    expect(await amb.periodSummary({ from: DAY, to: DAY, players })).toEqual({ kind: "unavailable", reason: "stake unreadable" });
  });

  it("stops when the caller's deadline has passed", async () => {
    dayOfBets();
    const r = await amb.periodSummary({ from: DAY, to: DAY, players, signal: AbortSignal.abort() });
    expect(r).toEqual({ kind: "unavailable", reason: "deadline passed" });
  });
});
