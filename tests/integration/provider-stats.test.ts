import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../workers/app";
import { addAgency } from "../setup/players";
import { vientianeDate } from "../../workers/core/report-range";
import { collectProviderStats, providersReport } from "../../workers/services/reports";
import { saveProviderSetup } from "../../workers/services/providers";
import { PROVIDER_USERNAME_RULES, providerUsernameFor } from "../../workers/core/provider-username";
import { sumPlayerProviderDays } from "../../workers/db/player-provider-stats";

/**
 * Provider figures (decision 058): the sandbox provider records bets at a time
 * and reports a period per set of players; the scheduled job collects yesterday and today
 * of every active agency and offered provider into provider_daily_stats; the reports read
 * them per agency.
 */

const BASE = "http://sandbox-provider";
const AUTH = "Basic " + btoa("demo-agent:sandbox-provider-secret-demo-0001");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's JSON answers, read loosely; the assertions check their shape
type Json = Record<string, any>;

async function sandbox(path: string, body?: unknown, auth = true): Promise<{ status: number; body: Json }> {
  const res = await env.SANDBOX_PROVIDER.fetch(BASE + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...(auth ? { Authorization: AUTH } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
}

async function addFault(fault: Json): Promise<void> {
  const res = await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(fault),
  });
  expect(res.status).toBe(201);
}
afterEach(async () => {
  vi.unstubAllGlobals();
  await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults`, { method: "DELETE" });
});

/** "12.50" -> 1250 (test arithmetic on the sandbox's 2-decimal strings). */
const minor = (text: string) => Math.round(Number(text) * 100);

/** Each test's own agency, so figures never mix between tests. */
let agencySeq = 0;
async function newAgency(status: "ACTIVE" | "DISABLED" = "ACTIVE"): Promise<string> {
  const id = `ps${Date.now().toString(36)}${++agencySeq}`;
  await addAgency(id, `${id}.test.localhost`);
  if (status === "DISABLED") await env.DB.prepare(`UPDATE agencies SET status = 'DISABLED' WHERE id = ?1`).bind(id).run();
  return id;
}

/** A player of the agency who received credit at `provider` (a successful deposit in the read model, funded at the sandbox). */
async function depositor(agencyId: string, provider: string, funds = "1000"): Promise<{ id: string; username: string; legacy: string }> {
  const id = crypto.randomUUID();
  const username = `u${id.slice(0, 8)}`;
  const at = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare(`INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES (?1, ?2, ?3, ?3, '02000000', 'x')`).bind(
      id,
      agencyId,
      username,
    ),
    env.DB.prepare(
      `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, '100000', ?5, 'SUCCESS', NULL, ?6, ?6)`,
    ).bind(`D${id.slice(0, 11).toUpperCase()}`, agencyId, id, provider, funds, at),
  ]);
  const legacy = `${agencyId}_${username}`;
  const funded = await sandbox(`/api/${provider}/deposit`, { username: legacy, amount: funds, transactionRef: `fund-${id}` });
  expect(funded.status).toBe(200);
  return { id, username, legacy };
}

/** One bet at the sandbox placed at `at`; answers what it staked and paid back (minor units). */
async function bet(provider: string, legacy: string, amount: string, at: number): Promise<{ stake: number; win: number }> {
  const res = await sandbox(`/api/${provider}/bet`, {
    username: legacy,
    amount,
    transactionRef: `bet-${crypto.randomUUID()}`,
    placedAt: new Date(at).toISOString(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { stake: minor(res.body.data.bet), win: minor(res.body.data.win) };
}

function sum(bets: { stake: number; win: number }[]): { turnover: number; winLoss: number } {
  return { turnover: bets.reduce((s, b) => s + b.stake, 0), winLoss: bets.reduce((s, b) => s + b.stake - b.win, 0) };
}

const NOW = Date.now();
const TODAY = vientianeDate(NOW);
const YESTERDAY = vientianeDate(NOW - DAY);
/** 00:00 of today in Vientiane (UTC+7). */
const TODAY_START = Date.parse(`${TODAY}T00:00:00Z`) - 7 * HOUR;

beforeAll(() => {
  // The job runs for every active agency of this file's D1: only this file's agencies exist.
  expect(TODAY_START).toBeLessThanOrEqual(NOW);
});

describe("the sandbox provider's period report", () => {
  it("sums the bets of the players named, placed in the window, over its authenticated API", async () => {
    const agency = await newAgency();
    const a = await depositor(agency, "gclub");
    const b = await depositor(agency, "gclub");
    const inside = [await bet("gclub", a.legacy, "10", TODAY_START + 1000), await bet("gclub", b.legacy, "7.50", TODAY_START + 2000)];
    await bet("gclub", a.legacy, "99", TODAY_START - 1000); // before the window
    const other = await depositor(agency, "gclub");
    await bet("gclub", other.legacy, "55", TODAY_START + 3000); // not named
    const window = { startTime: new Date(TODAY_START).toISOString(), endTime: new Date(TODAY_START + DAY).toISOString() };

    const res = await sandbox("/api/gclub/report", { ...window, usernames: [a.legacy, b.legacy] });
    expect(res.status).toBe(200);
    const expected = sum(inside);
    expect(minor(res.body.data.turnover)).toBe(expected.turnover);
    expect(minor(res.body.data.winLoss)).toBe(expected.winLoss);
    expect(minor(res.body.data.turnover) - minor(res.body.data.payout)).toBe(expected.winLoss);
    expect(res.body.data.bets).toBe(2);
    // each named member's part, one row per member with a bet, adding up to the totals
    expect(res.body.data.rows.map((r: Json) => [r.username, r.bets])).toEqual([
      [a.legacy, 1],
      [b.legacy, 1],
    ]);
    inside.forEach((one, i) => {
      expect(minor(res.body.data.rows[i].turnover)).toBe(one.stake);
      expect(minor(res.body.data.rows[i].payout)).toBe(one.win);
      expect(minor(res.body.data.rows[i].winLoss)).toBe(one.stake - one.win);
    });
    const quiet = await depositor(agency, "gclub");
    const withQuiet = await sandbox("/api/gclub/report", { ...window, usernames: [a.legacy, quiet.legacy] });
    expect(withQuiet.body.data.rows.map((r: Json) => r.username)).toEqual([a.legacy]); // no bet: no row

    expect((await sandbox("/api/gclub/report", { ...window, usernames: [a.legacy] }, false)).status).toBe(401);
    expect((await sandbox("/api/gclub/report", { startTime: window.endTime, endTime: window.startTime, usernames: [] })).status).toBe(400);
    expect((await sandbox("/api/gclub/report", { ...window, usernames: "x" })).status).toBe(400);
    // A bet is never recorded in the future.
    expect(
      (
        await sandbox("/api/gclub/bet", {
          username: a.legacy,
          amount: "1",
          transactionRef: `bet-${crypto.randomUUID()}`,
          placedAt: new Date(Date.now() + HOUR).toISOString(),
        })
      ).status,
    ).toBe(400);
  });
});

describe("collectProviderStats and providersReport", () => {
  it("collects yesterday and today per provider for each agency, scoped to that agency's players", async () => {
    const a = await newAgency();
    const b = await newAgency();
    const a1 = await depositor(a, "askmebet");
    const a2 = await depositor(a, "betflix");
    const b1 = await depositor(b, "askmebet");
    const a1Yesterday = [await bet("askmebet", a1.legacy, "100", TODAY_START - HOUR), await bet("askmebet", a1.legacy, "40.25", TODAY_START - 20 * HOUR)];
    const a1Today = [await bet("askmebet", a1.legacy, "12", TODAY_START)];
    await bet("askmebet", a1.legacy, "500", TODAY_START - DAY - HOUR); // two days ago: not collected
    const a2Today = [await bet("betflix", a2.legacy, "30", TODAY_START + 1)];
    const b1Yesterday = [await bet("askmebet", b1.legacy, "77", TODAY_START - 2 * HOUR)];

    const run = await collectProviderStats(env, NOW);
    expect(run.unavailable).toEqual([]);

    const report = await providersReport(env.DB, a, { from: YESTERDAY, to: TODAY, grouping: "day" });
    const row = (period: string, provider: string) => report.periods.find((p) => p.period === period && p.provider === provider);
    expect(row(YESTERDAY, "askmebet")).toEqual({ period: YESTERDAY, provider: "askmebet", ...sum(a1Yesterday) });
    expect(row(TODAY, "askmebet")).toEqual({ period: TODAY, provider: "askmebet", ...sum(a1Today) });
    expect(row(TODAY, "betflix")).toEqual({ period: TODAY, provider: "betflix", ...sum(a2Today) });
    expect(row(YESTERDAY, "betflix")).toEqual({ period: YESTERDAY, provider: "betflix", turnover: 0, winLoss: 0 });
    // Every offered provider has its two days, even with nobody playing there.
    expect(report.periods).toHaveLength(2 * 5);
    expect(report.total.find((t) => t.provider === "askmebet")).toEqual({ provider: "askmebet", ...sum([...a1Yesterday, ...a1Today]), missingDays: 0 });
    expect(report.unavailable).toEqual([]);
    expect(report.granularity).toBe("day");

    // Agency b sees its own player's bets only, and a never sees b's.
    const reportB = await providersReport(env.DB, b, { from: YESTERDAY, to: TODAY, grouping: "day" });
    expect(reportB.periods.find((p) => p.period === YESTERDAY && p.provider === "askmebet")).toEqual({
      period: YESTERDAY,
      provider: "askmebet",
      ...sum(b1Yesterday),
    });
    expect(reportB.periods.find((p) => p.period === TODAY && p.provider === "askmebet")).toMatchObject({ turnover: 0, winLoss: 0 });
    // A range the job never collected: nothing, and the days are counted missing.
    const older = await providersReport(env.DB, a, { from: vientianeDate(NOW - 5 * DAY), to: vientianeDate(NOW - 3 * DAY), grouping: "day" });
    expect(older.periods).toEqual([]);
  });

  it("a re-run replaces the figures (never adds them up), and picks up a bet placed since", async () => {
    const a = await newAgency();
    const p = await depositor(a, "alphabet");
    const first = [await bet("alphabet", p.legacy, "20", TODAY_START + 5)];
    await collectProviderStats(env, NOW);
    await collectProviderStats(env, NOW);
    const once = await providersReport(env.DB, a, { from: TODAY, to: TODAY, grouping: "day" });
    expect(once.periods.find((r) => r.provider === "alphabet")).toMatchObject(sum(first));
    const rows = await env.DB.prepare(`SELECT COUNT(*) AS n FROM provider_daily_stats WHERE agency_id = ?1`).bind(a).first<{ n: number }>();
    expect(rows?.n).toBe(2 * 5);

    const later = [...first, await bet("alphabet", p.legacy, "3.33", TODAY_START + 10)];
    await collectProviderStats(env, NOW);
    const again = await providersReport(env.DB, a, { from: TODAY, to: TODAY, grouping: "day" });
    expect(again.periods.find((r) => r.provider === "alphabet")).toMatchObject(sum(later));
  });

  it("a failing provider is recorded unavailable (not 0) and does not stop the others; the next run fills it", async () => {
    const a = await newAgency();
    const amb = await depositor(a, "askmebet");
    const bfx = await depositor(a, "betflix");
    const ambBets = [await bet("askmebet", amb.legacy, "15", TODAY_START + 20)];
    const bfxBets = [await bet("betflix", bfx.legacy, "25", TODAY_START + 30)];
    await addFault({ provider: "askmebet", op: "report", mode: "error-before" });

    const run = await collectProviderStats(env, NOW);
    expect(
      run.unavailable
        .filter((u) => u.agencyId === a)
        .map((u) => `${u.provider} ${u.day}`)
        .sort(),
    ).toEqual([`askmebet ${YESTERDAY}`, `askmebet ${TODAY}`]);
    const failed = await providersReport(env.DB, a, { from: YESTERDAY, to: TODAY, grouping: "day" });
    expect(failed.periods.some((r) => r.provider === "askmebet")).toBe(false);
    expect(failed.unavailable.map((u) => u.provider)).toEqual(["askmebet", "askmebet"]);
    expect(failed.total.find((t) => t.provider === "askmebet")).toEqual({ provider: "askmebet", turnover: 0, winLoss: 0, missingDays: 2 });
    expect(failed.periods.find((r) => r.provider === "betflix" && r.period === TODAY)).toMatchObject(sum(bfxBets));
    const stored = await env.DB.prepare(`SELECT status, turnover_minor FROM provider_daily_stats WHERE agency_id = ?1 AND provider = 'askmebet' AND day = ?2`)
      .bind(a, TODAY)
      .first();
    expect(stored).toEqual({ status: "unavailable", turnover_minor: null });

    await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults`, { method: "DELETE" });
    await collectProviderStats(env, NOW);
    const filled = await providersReport(env.DB, a, { from: TODAY, to: TODAY, grouping: "day" });
    expect(filled.periods.find((r) => r.provider === "askmebet")).toMatchObject(sum(ambBets));
    expect(filled.unavailable).toEqual([]);

    // A later failure keeps the figures already collected.
    await addFault({ provider: "askmebet", op: "report", mode: "error-before" });
    await collectProviderStats(env, NOW);
    const kept = await providersReport(env.DB, a, { from: TODAY, to: TODAY, grouping: "day" });
    expect(kept.periods.find((r) => r.provider === "askmebet")).toMatchObject(sum(ambBets));
  });

  it("a provider slower than its time budget is left for the next run, the others are collected", async () => {
    const a = await newAgency();
    await depositor(a, "gclub_live");
    const g = await depositor(a, "gclub");
    const gBets = [await bet("gclub", g.legacy, "9", TODAY_START + 40)];
    await addFault({ provider: "gclub_live", op: "report", mode: "slow", delayMs: 3000 });
    const run = await collectProviderStats(env, NOW, { budgetMs: 1000 });
    const mine = run.unavailable.filter((u) => u.agencyId === a);
    expect(mine.map((u) => u.provider)).toEqual(["gclub_live", "gclub_live"]);
    expect(mine[0]!.reason).toMatch(/budget/);
    const report = await providersReport(env.DB, a, { from: TODAY, to: TODAY, grouping: "day" });
    expect(report.periods.find((r) => r.provider === "gclub")).toMatchObject(sum(gBets));
  });

  it("skips a disabled agency", async () => {
    const off = await newAgency("DISABLED");
    const p = await depositor(off, "askmebet");
    await bet("askmebet", p.legacy, "10", TODAY_START + 50);
    await collectProviderStats(env, NOW);
    const rows = await env.DB.prepare(`SELECT COUNT(*) AS n FROM provider_daily_stats WHERE agency_id = ?1`).bind(off).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("only offered providers are collected, and hour grouping shows the day's figures (providers report per day)", async () => {
    const a = await newAgency();
    await env.DB.prepare(`UPDATE agency_settings SET enabled_providers = '["betflix"]' WHERE agency_id = ?1`).bind(a).run();
    const p = await depositor(a, "betflix");
    const bets = [await bet("betflix", p.legacy, "11", TODAY_START + 60)];
    await collectProviderStats(env, NOW);
    const report = await providersReport(env.DB, a, { from: TODAY, to: TODAY, grouping: "hour" });
    expect(report.periods).toEqual([{ period: TODAY, provider: "betflix", ...sum(bets) }]);
    expect(report.total).toEqual([{ provider: "betflix", ...sum(bets), missingDays: 0 }]);
  });

  it("the scheduled handler collects on the hourly cron", async () => {
    const a = await newAgency();
    await env.DB.prepare(`UPDATE agency_settings SET enabled_providers = '["gclub"]' WHERE agency_id = ?1`).bind(a).run();
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: NOW, cron: "17 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const rows = await env.DB.prepare(`SELECT day FROM provider_daily_stats WHERE agency_id = ?1 ORDER BY day`).bind(a).all<{ day: string }>();
    expect(rows.results.map((r) => r.day)).toEqual([YESTERDAY, TODAY]);
  });
});

/** The real adapters' outgoing calls (global fetch) answered by `answer`; the URLs asked, in order. */
function stubProviderFetch(answer: (url: URL) => Response): URL[] {
  const asked: URL[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(typeof input === "string" || input instanceof URL ? input.toString() : input.url);
      asked.push(url);
      return answer(url);
    }),
  );
  return asked;
}

describe("through the agency's provider setup (the port factory)", () => {
  it("AMB is asked under the players' AMB names, once per day for the agency and every player; a disabled provider is recorded unavailable; the sandbox still serves the rest", async () => {
    const a = await newAgency();
    await env.DB.prepare(`UPDATE agency_settings SET enabled_providers = '["askmebet","gclub","alphabet"]' WHERE agency_id = ?1`).bind(a).run();
    const actor = { agencyId: a, staffId: "s-owner", staffUsername: "boss", ip: "10.78.0.9", userAgent: "vitest" };
    const AMB = "https://api.amb.example";
    const saved = await saveProviderSetup(env, actor, {
      provider: "askmebet",
      adapter: "amb",
      baseUrl: AMB,
      productCode: "AMBSLOT",
      lobbyUrl: "https://play.amb.example",
      imageUrl: null,
      agent: "agent-one",
      secret: "secret-key-0001",
    });
    expect(saved).toEqual({ ok: true });
    expect(
      await saveProviderSetup(env, actor, {
        provider: "gclub",
        adapter: "disabled",
        baseUrl: null,
        productCode: null,
        lobbyUrl: null,
        imageUrl: null,
        agent: null,
        secret: null,
      }),
    ).toEqual({ ok: true });
    const player = await depositor(a, "askmebet");
    const second = await depositor(a, "askmebet");
    const idle = await depositor(a, "askmebet"); // no bet: a zero day, not a missing one
    const alpha = await depositor(a, "alphabet");
    const alphaBets = [await bet("alphabet", alpha.legacy, "8", TODAY_START + 70)];
    const ambNameOf = (p: { username: string; id: string }) =>
      providerUsernameFor(PROVIDER_USERNAME_RULES.askmebet, { agencyId: a, username: p.username, playerId: p.id }).name;
    const ambName = ambNameOf(player);
    const asked = stubProviderFetch((url) => {
      if (url.origin !== AMB || url.pathname !== "/betTransactionsV2") return Response.json({ code: 20, message: "Invalid payload" });
      // One bet in the first hour of each day, of our player and of someone else's member.
      const first = url.searchParams.get("startTime")!.endsWith("T17:00:00.000Z");
      const txns = first
        ? [
            { username: ambName, stake: 40, payout: 10, betStatus: "SETTLED" },
            { username: ambNameOf(second), stake: 25, payout: 50, betStatus: "SETTLED" },
            { username: "someoneelse1", stake: 999, payout: 0, betStatus: "SETTLED" },
          ]
        : [];
      return Response.json({ reqId: "r", code: 0, message: "OK", data: { txns, nextId: null } });
    });
    const run = await collectProviderStats(env, NOW);
    const report = await providersReport(env.DB, a, { from: YESTERDAY, to: TODAY, grouping: "day" });
    expect(report.periods.filter((r) => r.provider === "askmebet")).toEqual([
      { period: YESTERDAY, provider: "askmebet", turnover: 6500, winLoss: 500 },
      { period: TODAY, provider: "askmebet", turnover: 6500, winLoss: 500 },
    ]);
    // 2 days x 24 hourly windows answer the agency AND its three players (was 24 more per player and day: 192)
    expect(asked.filter((u) => u.pathname === "/betTransactionsV2")).toHaveLength(48);
    const days = await sumPlayerProviderDays(env.DB, a, YESTERDAY, TODAY, [player.id, second.id, idle.id]);
    expect(days.filter((d) => d.provider === "askmebet").sort((x, y) => x.turnoverMinor - y.turnoverMinor)).toEqual([
      { playerId: idle.id, provider: "askmebet", turnoverMinor: 0, winLossMinor: 0, days: 2 },
      { playerId: second.id, provider: "askmebet", turnoverMinor: 5000, winLossMinor: -5000, days: 2 },
      { playerId: player.id, provider: "askmebet", turnoverMinor: 8000, winLossMinor: 6000, days: 2 },
    ]);
    expect(run.playerDaysUnavailable).toBe(0);
    expect(asked.every((u) => u.searchParams.get("productId") === "AMBSLOT")).toBe(true);
    expect(run.unavailable.filter((u) => u.agencyId === a).map((u) => u.provider)).toEqual(["gclub", "gclub"]);
    expect(report.unavailable.map((u) => `${u.provider} ${u.day}`)).toEqual([`gclub ${YESTERDAY}`, `gclub ${TODAY}`]);
    expect(report.periods.find((r) => r.provider === "alphabet" && r.period === TODAY)).toMatchObject(sum(alphaBets));
  });

  it("Betflix is asked once per member and day: the players' days are those answers, nobody twice", async () => {
    const a = await newAgency();
    await env.DB.prepare(`UPDATE agency_settings SET enabled_providers = '["betflix"]' WHERE agency_id = ?1`).bind(a).run();
    const actor = { agencyId: a, staffId: "s-owner", staffUsername: "boss", ip: "10.78.0.10", userAgent: "vitest" };
    const BFX = "https://api.bfx.example";
    const saved = await saveProviderSetup(env, actor, {
      provider: "betflix",
      adapter: "betflix",
      baseUrl: BFX,
      productCode: null,
      lobbyUrl: "https://play.bfx.example",
      imageUrl: null,
      agent: "bf-cat-1",
      secret: "bf-key-00001",
    });
    expect(saved).toEqual({ ok: true });
    const players = [await depositor(a, "betflix"), await depositor(a, "betflix"), await depositor(a, "betflix")];
    const nameOf = (p: { username: string; id: string }) =>
      providerUsernameFor(PROVIDER_USERNAME_RULES.betflix, { agencyId: a, username: p.username, playerId: p.id }).name;
    // each member's day: [valid amount, the member's winloss] ([RWD]: the member's side)
    const answers = new Map([
      [nameOf(players[0]!), ["120.50", "-20.50"]],
      [nameOf(players[1]!), ["10", "35"]],
      [nameOf(players[2]!), ["0", "0"]],
    ]);
    const asked = stubProviderFetch((url) => {
      const answer = url.origin === BFX && url.pathname === "/v4/report/summary" ? answers.get(url.searchParams.get("username") ?? "") : undefined;
      if (!answer) return Response.json({ status: "error", msg: "unexpected" });
      return Response.json({ status: "success", error_code: 0, data: { turnover: answer[0], valid_amount: answer[0], winloss: answer[1] } });
    });
    const run = await collectProviderStats(env, NOW);
    expect(run.unavailable.filter((u) => u.agencyId === a)).toEqual([]);
    // 2 days x 3 members (was 2 x 3 x 2: the agency's pass, then each player alone)
    expect(asked.filter((u) => u.pathname === "/v4/report/summary")).toHaveLength(6);
    const report = await providersReport(env.DB, a, { from: TODAY, to: TODAY, grouping: "day" });
    expect(report.periods).toEqual([{ period: TODAY, provider: "betflix", turnover: 13050, winLoss: 2050 - 3500 }]);
    const days = await sumPlayerProviderDays(
      env.DB,
      a,
      YESTERDAY,
      TODAY,
      players.map((p) => p.id),
    );
    const of = (i: number) => days.find((d) => d.playerId === players[i]!.id);
    expect(of(0)).toEqual({ playerId: players[0]!.id, provider: "betflix", turnoverMinor: 2 * 12050, winLossMinor: 2 * 2050, days: 2 });
    expect(of(1)).toEqual({ playerId: players[1]!.id, provider: "betflix", turnoverMinor: 2 * 1000, winLossMinor: 2 * -3500, days: 2 });
    expect(of(2)).toEqual({ playerId: players[2]!.id, provider: "betflix", turnoverMinor: 0, winLossMinor: 0, days: 2 });
  });
});
