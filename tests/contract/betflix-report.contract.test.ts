import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BetflixAdapter } from "../../workers/ports/providers/betflix";
import { BetflixFake } from "./betflix-fake";

/**
 * The Betflix period report (decision 058): GET /v4/report/summary per
 * member for the Vientiane (= Bangkok) days, summed: turnover = valid_amount (else turnover),
 * the agency's win/loss = -winloss (Betflix answers the member's side).
 */

const KEY = "bf-key-0001";
const CAT = "bf-cat-0001";
const UPLINE = "ab12";
const DAY = "2026-11-20";
/** 2026-11-20 00:00 in Vientiane / Bangkok (UTC+7). */
const START = Date.parse("2026-11-19T17:00:00Z");
const HOUR = 3_600_000;
const players = [
  { username: "demo0001", playerId: "p1" },
  { username: "demo0002", playerId: "p2" },
];

let fake: BetflixFake;
let bf: BetflixAdapter;

beforeAll(async () => {
  fake = new BetflixFake(KEY, CAT, UPLINE);
  await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.api.clearRequests();
  fake.members.clear();
  fake.summaryValidAmount = true;
  fake.catHeader = "x-api-cat";
  bf = new BetflixAdapter({ baseUrl: fake.api.baseUrl, apiKey: KEY, apiCat: CAT, upline: UPLINE, entrance: fake.entrance.baseUrl, timeoutMs: 400 });
  for (const p of players) fake.members.set(UPLINE + p.username, { balance: 0n, password: "x", history: [], turnover: 0n });
});

function dayOfBets() {
  fake.addBet(UPLINE + "demo0001", "100", "250", new Date(START)); // players won 150
  fake.addBet(UPLINE + "demo0001", "40.50", "0", new Date(START + 23 * HOUR));
  fake.addBet(UPLINE + "demo0001", "500", "0", new Date(START + 2 * HOUR), false); // void: in turnover, not valid
  fake.addBet(UPLINE + "demo0002", "60", "30", new Date(START + 5 * HOUR));
  fake.addBet(UPLINE + "demo0002", "7000", "0", new Date(START - 1)); // the day before
}

describe("Betflix periodSummary", () => {
  it("sums each member's valid amount and the agency's side of winloss for the day", async () => {
    dayOfBets();
    const r = await bf.periodSummary({ from: DAY, to: DAY, players });
    // valid 100 + 40.50 + 60; members' winloss +150 - 40.50 - 30 = 79.50 -> the agency -79.50
    expect(r).toEqual({
      kind: "ok",
      turnoverMinor: 20050n,
      winLossMinor: -7950n,
      // each member's own answer, under the playerId asked with
      players: new Map([
        ["p1", { turnoverMinor: 14050n, winLossMinor: -10950n }],
        ["p2", { turnoverMinor: 6000n, winLossMinor: 3000n }],
      ]),
    });
  });

  it("asks GET /v4/report/summary per member (upline + name) with the day as start and end, and the agent's headers", async () => {
    dayOfBets();
    await bf.periodSummary({ from: DAY, to: DAY, players });
    const reqs = fake.api.to("/v4/report/summary");
    // once per member: the players' own figures are these answers, nobody is asked twice
    expect(reqs.map((r) => r.query.get("username")).sort()).toEqual([UPLINE + "demo0001", UPLINE + "demo0002"]);
    for (const r of reqs) {
      expect(r.method).toBe("GET");
      expect(r.query.get("start")).toBe(DAY);
      expect(r.query.get("end")).toBe(DAY);
      expect(r.headers["x-api-key"]).toBe(KEY);
      expect(r.headers["x-api-cat"]).toBe(CAT);
    }
  });

  it("without valid_amount in the answer, turnover is used", async () => {
    fake.summaryValidAmount = false;
    dayOfBets();
    const r = await bf.periodSummary({ from: DAY, to: DAY, players });
    expect(r).toEqual({
      kind: "ok",
      turnoverMinor: 70050n,
      winLossMinor: -7950n,
      players: new Map([
        ["p1", { turnoverMinor: 64050n, winLossMinor: -10950n }],
        ["p2", { turnoverMinor: 6000n, winLossMinor: 3000n }],
      ]),
    });
  });

  it("a member Betflix does not know has no bets; no players: zero and nobody asked", async () => {
    dayOfBets();
    const r = await bf.periodSummary({ from: DAY, to: DAY, players: [...players, { username: "ghost0001", playerId: "p3" }] });
    expect(r).toMatchObject({ kind: "ok", turnoverMinor: 20050n, winLossMinor: -7950n });
    expect(r.kind === "ok" && r.players.get("p3")).toEqual({ turnoverMinor: 0n, winLossMinor: 0n });
    fake.api.clearRequests();
    expect(await bf.periodSummary({ from: DAY, to: DAY, players: [] })).toEqual({ kind: "ok", turnoverMinor: 0n, winLossMinor: 0n, players: new Map() });
    expect(fake.api.requests).toHaveLength(0);
  });

  for (const fault of ["timeout", "http500", "garbage", "apply-then-500"] as const) {
    it(`one member's summary that fails (${fault}) makes the whole period unavailable`, async () => {
      dayOfBets();
      fake.api.fault("/v4/report/summary", fault);
      expect((await bf.periodSummary({ from: DAY, to: DAY, players })).kind).toBe("unavailable");
    });
  }

  it("wrong keys, an error answer or a bad period: unavailable", async () => {
    const wrong = new BetflixAdapter({
      baseUrl: fake.api.baseUrl,
      apiKey: "nope",
      apiCat: CAT,
      upline: UPLINE,
      entrance: fake.entrance.baseUrl,
      timeoutMs: 400,
    });
    expect((await wrong.periodSummary({ from: DAY, to: DAY, players })).kind).toBe("unavailable");
    expect((await bf.periodSummary({ from: "20-11-2026", to: DAY, players })).kind).toBe("unavailable");
    expect((await bf.periodSummary({ from: DAY, to: "2026-11-19", players })).kind).toBe("unavailable");
  });

  it("stops when the caller's deadline has passed", async () => {
    expect(await bf.periodSummary({ from: DAY, to: DAY, players, signal: AbortSignal.abort() })).toEqual({ kind: "unavailable", reason: "deadline passed" });
  });
});
