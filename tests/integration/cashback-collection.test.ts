import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { addAgency } from "../setup/players";
import { vientianeDate } from "../../workers/core/report-range";
import { collectProviderStats } from "../../workers/services/reports";
import { sumPlayerProviderDays } from "../../workers/db/player-provider-stats";

/**
 * Per-player collection (decision 058): beside each provider's daily figures, the scheduled job
 * records each player's own day (player_provider_daily) from the sandbox provider, the
 * figures cashback and the referral share are computed from.
 */

const BASE = "http://sandbox-provider";
const AUTH = "Basic " + btoa("demo-agent:sandbox-provider-secret-demo-0001");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.now();
const TODAY = vientianeDate(NOW);
const YESTERDAY = vientianeDate(NOW - DAY);
const TODAY_START = Date.parse(`${TODAY}T00:00:00Z`) - 7 * HOUR;

async function sandbox(path: string, body: unknown) {
  const res = await env.SANDBOX_PROVIDER.fetch(BASE + path, {
    method: "POST",
    headers: { Authorization: AUTH, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: { bet: string; win: string } } };
}

async function depositor(agencyId: string, provider: string) {
  const id = crypto.randomUUID();
  const username = `c${id.slice(0, 8)}`;
  const at = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare(`INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES (?1, ?2, ?3, ?3, '02000000', 'x')`).bind(
      id,
      agencyId,
      username,
    ),
    env.DB.prepare(
      `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, '100000', '1000', 'SUCCESS', NULL, ?5, ?5)`,
    ).bind(`D${id.slice(0, 11).toUpperCase()}`, agencyId, id, provider, at),
  ]);
  const legacy = `${agencyId}_${username}`;
  expect((await sandbox(`/api/${provider}/deposit`, { username: legacy, amount: "1000", transactionRef: `fund-${id}` })).status).toBe(200);
  return { id, legacy };
}

async function bet(provider: string, legacy: string, amount: string, at: number) {
  const res = await sandbox(`/api/${provider}/bet`, {
    username: legacy,
    amount,
    transactionRef: `bet-${crypto.randomUUID()}`,
    placedAt: new Date(at).toISOString(),
  });
  expect(res.status).toBe(200);
  const stake = Math.round(Number(res.body.data.bet) * 100);
  return { turnover: stake, winLoss: stake - Math.round(Number(res.body.data.win) * 100) };
}

describe("collectProviderStats: each player's day at each provider", () => {
  it("records every player's own figures, yesterday and today, and a re-run replaces them", async () => {
    const agency = `cb${Date.now().toString(36)}`;
    await addAgency(agency, `${agency}.test.localhost`);
    const a = await depositor(agency, "askmebet");
    const b = await depositor(agency, "askmebet");
    const aYesterday = await bet("askmebet", a.legacy, "100", TODAY_START - HOUR);
    const bToday = await bet("askmebet", b.legacy, "40", TODAY_START + 5);

    const run = await collectProviderStats(env, NOW);
    expect(run.playerDaysUnavailable).toBe(0);
    expect(run.playerDays).toBeGreaterThanOrEqual(4); // 2 players x 2 days at askmebet

    const rows = await sumPlayerProviderDays(env.DB, agency, YESTERDAY, TODAY);
    const of = (id: string) => rows.find((r) => r.playerId === id && r.provider === "askmebet");
    expect(of(a.id)).toEqual({ playerId: a.id, provider: "askmebet", turnoverMinor: aYesterday.turnover, winLossMinor: aYesterday.winLoss, days: 2 });
    expect(of(b.id)).toEqual({ playerId: b.id, provider: "askmebet", turnoverMinor: bToday.turnover, winLossMinor: bToday.winLoss, days: 2 });

    await collectProviderStats(env, NOW);
    expect(of(a.id)).toEqual((await sumPlayerProviderDays(env.DB, agency, YESTERDAY, TODAY, [a.id])).find((r) => r.provider === "askmebet"));
  });

  it("a provider that fails for a player leaves no row for that day (never 0)", async () => {
    const agency = `cc${Date.now().toString(36)}`;
    await addAgency(agency, `${agency}.test.localhost`);
    const a = await depositor(agency, "gclub");
    const res = await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ provider: "gclub", op: "*", mode: "error-before", count: 1000 }),
    });
    expect(res.status).toBe(201);
    try {
      await collectProviderStats(env, NOW, { budgetMs: 3000 });
    } finally {
      await env.SANDBOX_PROVIDER.fetch(`${BASE}/sandbox/faults`, { method: "DELETE" });
    }
    expect((await sumPlayerProviderDays(env.DB, agency, YESTERDAY, TODAY, [a.id])).filter((r) => r.provider === "gclub")).toEqual([]);
  });
});
