import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../workers/app";
import { addAgency } from "../setup/players";
import { vientianeDate } from "../../workers/core/report-range";
import { collectProviderStats, continueProviderStats, providersReport } from "../../workers/services/reports";
import { advanceStatsPass, listOpenStatsPasses } from "../../workers/db/provider-stats";
import { sumPlayerProviderDays } from "../../workers/db/player-provider-stats";

/**
 * Decision 051: the hourly collection of the providers' figures works in
 * bounded batches of players with a cursor (provider_stats_progress). One run does what its
 * share allows and stops; the next run (the 5-minute tick) goes on where it stopped; the
 * day's total is the sum of every batch, each counted once. Its own file: the job runs for
 * every active agency of the file's D1 (here the demo seed's and this file's).
 */

const BASE = "http://sandbox-provider";
const AUTH = "Basic " + btoa("demo-agent:sandbox-provider-secret-demo-0001");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.now();
const TODAY = vientianeDate(NOW);
const YESTERDAY = vientianeDate(NOW - DAY);
/** 00:00 of today in Vientiane (UTC+7). */
const TODAY_START = Date.parse(`${TODAY}T00:00:00Z`) - 7 * HOUR;

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's JSON answers, read loosely; the assertions check their shape
type Json = Record<string, any>;

async function sandbox(path: string, body: unknown): Promise<Json> {
  const res = await env.SANDBOX_PROVIDER.fetch(BASE + path, {
    method: "POST",
    headers: { Authorization: AUTH, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

let agencySeq = 0;
async function newAgency(): Promise<string> {
  const id = `pb${Date.now().toString(36)}${++agencySeq}`;
  await addAgency(id, `${id}.test.localhost`);
  await env.DB.prepare(`UPDATE agency_settings SET enabled_providers = '["gclub"]' WHERE agency_id = ?1`).bind(id).run();
  return id;
}

/** A player with a successful deposit at gclub (so the job asks for them) and one bet today; answers the bet's stake and win (minor units). */
async function player(agencyId: string, amount: string): Promise<{ id: string; stake: number; winLoss: number }> {
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
      `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at) VALUES (?1, ?2, ?3, 'gclub', '100000', '1000', 'SUCCESS', NULL, ?4, ?4)`,
    ).bind(`D${id.slice(0, 11).toUpperCase()}`, agencyId, id, at),
  ]);
  const legacy = `${agencyId}_${username}`;
  await sandbox(`/api/gclub/deposit`, { username: legacy, amount: "1000", transactionRef: `fund-${id}` });
  const bet = await sandbox(`/api/gclub/bet`, {
    username: legacy,
    amount,
    transactionRef: `bet-${crypto.randomUUID()}`,
    placedAt: new Date(TODAY_START + 1000).toISOString(),
  });
  const stake = Math.round(Number(bet.data.bet) * 100);
  const win = Math.round(Number(bet.data.win) * 100);
  return { id, stake, winLoss: stake - win };
}

async function progress(agencyId: string, day: string) {
  return env.DB.prepare(
    `SELECT cursor, players, turnover_minor, done_at, failure FROM provider_stats_progress WHERE agency_id = ?1 AND provider = 'gclub' AND day = ?2`,
  )
    .bind(agencyId, day)
    .first<{ cursor: string; players: number; turnover_minor: number; done_at: string | null; failure: string | null }>();
}

describe("the provider figures in bounded batches (decision 051)", () => {
  it("a pass over more players than one batch stops when its run's share is spent, resumes at the cursor, and counts every player once", async () => {
    const a = await newAgency();
    const players = [];
    for (let i = 0; i < 7; i++) players.push(await player(a, `${i + 1}.25`));
    const ids = players.map((p) => p.id).sort();
    const turnover = players.reduce((s, p) => s + p.stake, 0);
    const winLoss = players.reduce((s, p) => s + p.winLoss, 0);
    const small = { playersPerBatch: 3 };

    // this agency's passes only: the demo seed's agency is disabled (a disabled agency's pass waits)
    await env.DB.prepare(`UPDATE agencies SET status = 'DISABLED' WHERE id <> ?1`).bind(a).run();

    // The hourly run starts a pass per provider-day and goes only as far as its share: here
    // (a batch of 3 players costs at most 3 + 1 + 3 subrequests) room for 3 batches:
    // yesterday's pass (players 1-3, 4-6, 7) is done, today's has not started.
    const first = await collectProviderStats(env, NOW, { ...small, runSubrequests: 1 + 3 * 7 });
    expect(first).toMatchObject({ batches: 3, pending: 1, collected: 1, unavailable: [] });
    expect(await progress(a, YESTERDAY)).toMatchObject({ cursor: ids.at(-1), players: 7, failure: null });
    expect((await listOpenStatsPasses(env.DB, 100)).map((p) => `${p.agencyId} ${p.day} ${p.cursor}`)).toEqual([`${a} ${TODAY} `]);
    // not finished: no total for today yet
    expect(await env.DB.prepare(`SELECT day FROM provider_daily_stats WHERE agency_id = ?1`).bind(a).all()).toMatchObject({ results: [{ day: YESTERDAY }] });

    // Runs of one batch each (the 5-minute tick's share made small) go on where the last stopped.
    let runs = 0;
    let sawCursor = false;
    for (; runs < 40; runs++) {
      const before = await progress(a, TODAY);
      const run = await continueProviderStats(env, { ...small, runSubrequests: 1 + 7 });
      expect(run.batches).toBeLessThanOrEqual(1);
      const after = await progress(a, TODAY);
      if (before && after && !before.done_at && !after.done_at && after.cursor !== before.cursor) {
        // the cursor moved one batch on, in id order
        expect(after.cursor).toBe(ids[ids.indexOf(before.cursor) + 3] ?? ids[2]);
        expect(after.players).toBe(before.players + 3);
        sawCursor = true;
      }
      if (run.pending === 0) break;
    }
    expect(sawCursor).toBe(true);
    expect(runs).toBeGreaterThan(1);
    const done = await progress(a, TODAY);
    expect(done).toMatchObject({ cursor: ids.at(-1), players: 7, turnover_minor: turnover, failure: null });
    expect(done?.done_at).not.toBeNull();

    const report = await providersReport(env.DB, a, { from: YESTERDAY, to: TODAY, grouping: "day" });
    expect(report.periods).toEqual([
      { period: YESTERDAY, provider: "gclub", turnover: 0, winLoss: 0 },
      { period: TODAY, provider: "gclub", turnover, winLoss },
    ]);
    const days = await sumPlayerProviderDays(env.DB, a, YESTERDAY, TODAY, ids);
    expect(days).toHaveLength(7);
    for (const p of players) expect(days.find((d) => d.playerId === p.id)).toMatchObject({ turnoverMinor: p.stake, winLossMinor: p.winLoss, days: 2 });

    // The next hour starts the finished passes again: the figures are replaced, never added up.
    const again = await collectProviderStats(env, NOW + HOUR, small);
    expect(again.pending).toBe(0);
    const replaced = await providersReport(env.DB, a, { from: TODAY, to: TODAY, grouping: "day" });
    expect(replaced.periods).toEqual([{ period: TODAY, provider: "gclub", turnover, winLoss }]);
  });

  it("a batch repeated by a second run is not counted twice; a pass in progress is continued by the 5-minute tick, not restarted by the hour", async () => {
    const a = await newAgency();
    const players = [];
    for (let i = 0; i < 5; i++) players.push(await player(a, `${i + 2}`));
    const turnover = players.reduce((s, p) => s + p.stake, 0);
    // this agency's passes only: the others are disabled
    await env.DB.prepare(`UPDATE agencies SET status = 'DISABLED' WHERE id <> ?1`).bind(a).run();
    await collectProviderStats(env, NOW, { playersPerBatch: 2, runSubrequests: 1 });
    const open = await listOpenStatsPasses(env.DB, 100);
    expect(open.map((p) => `${p.agencyId} ${p.day} ${p.cursor}`)).toEqual([`${a} ${YESTERDAY} `, `${a} ${TODAY} `]);
    const pass = open[0]!;

    // one run does one batch (of yesterday's pass, the first); a second run that read the
    // pass before it cannot add the same batch again
    await continueProviderStats(env, { playersPerBatch: 2, runSubrequests: 1 + 6 });
    const moved = await progress(a, YESTERDAY);
    expect(moved).toMatchObject({ players: 2, done_at: null });
    expect(
      await advanceStatsPass(env.DB, pass, { cursor: "zzz", players: 2, turnoverMinor: 999n, winLossMinor: 0n, done: false }, new Date().toISOString()),
    ).toBe(false);
    expect(await progress(a, YESTERDAY)).toEqual(moved);

    // the next hour leaves a pass in progress as it stands (restarting it would never finish a large agency)
    await collectProviderStats(env, NOW + HOUR, { playersPerBatch: 2, runSubrequests: 1 });
    expect(await progress(a, YESTERDAY)).toEqual(moved);

    // the 5-minute tick goes on with it until done
    for (let i = 0; i < 5 && (await listOpenStatsPasses(env.DB, 100)).length > 0; i++) {
      const ctx = createExecutionContext();
      await worker.scheduled!(createScheduledController({ scheduledTime: NOW, cron: "*/5 * * * *" }), env, ctx);
      await waitOnExecutionContext(ctx);
    }
    expect(await listOpenStatsPasses(env.DB, 100)).toEqual([]);
    const report = await providersReport(env.DB, a, { from: TODAY, to: TODAY, grouping: "day" });
    expect(report.periods).toEqual([{ period: TODAY, provider: "gclub", turnover, winLoss: players.reduce((s, p) => s + p.winLoss, 0) }]);
  });
});
