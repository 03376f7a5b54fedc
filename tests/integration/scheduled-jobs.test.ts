import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../workers/app";
import { PLAYER_SESSION } from "../../workers/core/session";
import { SANDBOX_TELEGRAM_TOKEN } from "../../workers/ports/alert-channel-factory";
import { optimizeDatabase } from "../../workers/services/agency";
import { saveAlertSettings, sweepAlerts } from "../../workers/services/alerts";
import { deriveUnplacedReports } from "../../workers/services/bank-in";
import { pruneExpiredPlayerSessions } from "../../workers/services/players";
import { pruneProviderAttempts } from "../../workers/services/providers";
import { backfillReadModels } from "../../workers/services/reports";
import { pruneExpiredStaffSessions } from "../../workers/services/staff";
import { playTimeLine, rearmWallets } from "../../workers/services/wallets";
import { insertUnmatchedPayment } from "../../workers/db/payments";
import { listProviderPlayersPage } from "../../workers/db/provider-stats";
import { recordAudit } from "../../workers/db/audit";
import { countingD1, fullScans, planOf, type D1Count } from "../setup/d1-count";
import { newSandboxChat } from "../setup/sandbox-telegram";
import { seedDemo } from "../setup/seed";

/**
 * The scheduled jobs at the size of a large agency (decision 075): each job's statements
 * counted through a D1 that counts them (tests/setup/d1-count.ts), its rows read compared at
 * two sizes, its query plans read for scans of the big tables.
 */

const owner = { agencyId: "demo", staffId: null, staffUsername: "jobs-owner", ip: "local", userAgent: null };
const MINUTE = 60_000;

beforeAll(async () => {
  await seedDemo();
});

/** `n` withdrawals waiting for staff (the manual queue), created `minutesAgo` ago, each with its player. */
async function waitingWithdrawals(n: number, minutesAgo: number): Promise<void> {
  const at = new Date(Date.now() - minutesAgo * MINUTE).toISOString();
  const statements = Array.from({ length: n }, (_, i) => {
    const id = `jobs-w-${minutesAgo}-${i}`;
    return [
      env.DB.prepare(
        `INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES (?1, 'demo', ?1, 'Jobs Player', '02011111111', 'x')`,
      ).bind(id),
      env.DB.prepare(
        `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, created_at, updated_at, projection_version)
         VALUES (?1, 'demo', ?2, 'askmebet', '6000.00', '3480000.00', 'OPEN', 'MANUAL', ?3, ?3, 1)`,
      ).bind(`W${id}`, id, at),
    ];
  });
  await env.DB.batch(statements.flat());
}

describe("the staff alerts' sweep, every minute", () => {
  it("writes only what is new, in one batch: a sweep that finds nothing new writes nothing, and its statements do not grow with what waits", async () => {
    const chat = await newSandboxChat();
    await saveAlertSettings(env, owner, {
      token: SANDBOX_TELEGRAM_TOKEN,
      chatIds: [chat],
      language: "lo",
      quietStart: null,
      quietEnd: null,
      topics: ["withdrawals", "payments", "providers", "forwarder", "security", "summary"],
      withdrawalReminderMinutes: 15,
      depositWaitMinutes: 10,
      summaryHour: null,
      primaryHost: "localhost",
    });
    await waitingWithdrawals(10, 20);
    for (let i = 0; i < 5; i++) {
      await insertUnmatchedPayment(env.DB, {
        agencyId: "demo",
        kind: "UNKNOWN_REFERENCE",
        reference: `JOBSREF${i}`,
        transactionId: `JOBSTX${i}`,
        amount: "250000.00",
        orderPlayerId: null,
      });
    }
    await recordAudit(env.DB, { ...owner, staffUsername: "cashier-new-phone" }, { action: "auth.login", target: "staff:x", after: { newDevice: true } });
    const now = Date.now();

    const first = countingD1(env.DB);
    await sweepAlerts({ ...env, DB: first.db }, now);
    const raised = 10 + 10 + 5 + 1; // waiting + reminders + payments + new device
    expect((await env.DB.prepare(`SELECT COUNT(*) AS n FROM alert_events WHERE agency_id = 'demo'`).first<{ n: number }>())?.n).toBe(raised);

    const quiet = countingD1(env.DB);
    await sweepAlerts({ ...env, DB: quiet.db }, now + 30_000);
    console.log("alerts sweep, first:", JSON.stringify({ ...first.count, sql: undefined }), "nothing new:", JSON.stringify({ ...quiet.count, sql: undefined }));
    // every event found was raised the minute before: read, nothing written
    expect(quiet.count.writeStatements).toBe(0);
    expect(quiet.count.rowsWritten).toBe(0);
    // the first sweep's only difference: its new events, recorded in one batch
    expect(first.count.writeStatements).toBe(raised);
    expect(first.count.roundTrips).toBe(quiet.count.roundTrips + 1);
    // the sweep's reads: settings, what to send again, the manual queue (count and page), unmatched
    // payments (count and page), held credits, the audit log, waiting deposits, provider
    // failures, provider episodes, silent forwarders, and which events are known
    expect(quiet.count.statements).toBeLessThanOrEqual(13);

    // thirty more waiting: thirty more events in the same one batch, and then again nothing
    await waitingWithdrawals(30, 1);
    const more = countingD1(env.DB);
    await sweepAlerts({ ...env, DB: more.db }, now + 60_000);
    expect(more.count.writeStatements).toBe(30);
    expect(more.count.roundTrips).toBe(quiet.count.roundTrips + 1);
    const still = countingD1(env.DB);
    await sweepAlerts({ ...env, DB: still.db }, now + 90_000);
    expect(still.count.statements).toBe(quiet.count.statements);
    expect(still.count.writeStatements).toBe(0);
  });
});

const H = 3_600_000;
/** Tables that grow with the agency's history: no job statement may read one whole. */
const BIG_TABLES = [
  "players",
  "sessions",
  "staff_sessions",
  "play_spans",
  "deposit_orders_view",
  "withdraw_orders_view",
  "promotion_usages_view",
  "deposit_refs",
  "withdraw_refs",
  "bank_witnesses",
  "bank_transactions",
  "provider_attempts",
  "audit_log",
  "alert_events",
  "unmatched_payments",
  "player_provider_daily",
];
/** Partial indexes that hold only the rows a job is after: reading one whole is reading what is due. */
const DUE_ONLY = [
  "deposit_orders_view_due",
  "withdraw_orders_view_due",
  "deposit_orders_view_unprojected",
  "withdraw_orders_view_unprojected",
  "promotion_usages_view_unprojected",
];

/**
 * A slice of an agency's history: `players` players, each with three successful deposits at
 * askmebet (their references a week old, past the wake-up's window), a paid withdrawal, a
 * bank report placed in its transfer, and an audit row, in a handful of statements.
 */
async function history(tag: string, players: number): Promise<void> {
  const old = new Date(Date.now() - 8 * 86_400_000).toISOString();
  const n = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)`;
  const k = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2 * 3)`;
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO players (id, agency_id, username, display_name, phone, password_hash)
       ${n} SELECT printf('%s-%06d', ?1, i), 'demo', printf('%s-%06d', ?1, i), 'History', '02012345678', 'x' FROM n`,
    ).bind(tag, players),
    env.DB.prepare(
      `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, created_at, updated_at, projection_version)
       ${k} SELECT printf('D%s-%07d', ?1, i), 'demo', printf('%s-%06d', ?1, 1 + (i - 1) % ?2), 'askmebet', '60000', '100', 'SUCCESS', ?3, ?3, 1 FROM n`,
    ).bind(tag, players, old),
    env.DB.prepare(
      `INSERT INTO deposit_refs (code, agency_id, player_id, created_at) SELECT code, agency_id, player_id, created_at FROM deposit_orders_view WHERE code LIKE ?1`,
    ).bind(`D${tag}-%`),
    env.DB.prepare(
      `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, created_at, updated_at, projection_version)
       ${n} SELECT printf('W%s-%06d', ?1, i), 'demo', printf('%s-%06d', ?1, i), 'askmebet', '100', '58000', 'SUCCESS', 'AUTO', ?3, ?3, 1 FROM n`,
    ).bind(tag, players, old),
    env.DB.prepare(
      `INSERT INTO withdraw_refs (code, agency_id, player_id, created_at) SELECT code, agency_id, player_id, created_at FROM withdraw_orders_view WHERE code LIKE ?1`,
    ).bind(`W${tag}-%`),
    env.DB.prepare(
      `INSERT INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, link, recorded_at)
       ${n} SELECT 'demo', 'BCEL-QR', 'forwarder', printf('%s-%06d', ?1, i), printf('T%s-%06d', ?1, i), '60000', ?3, 'key', ?3 FROM n`,
    ).bind(tag, players, Date.parse(old)),
    env.DB.prepare(
      `INSERT INTO audit_log (agency_id, action, target, created_at) ${n} SELECT 'demo', 'deposit.retry', printf('%s-%06d', ?1, i), ?3 FROM n`,
    ).bind(tag, players, old),
  ]);
}

/** Every job of the 5-minute tick but the provider figures' (their query is measured on its own below). */
async function fiveMinuteJobs(db: D1Database, now: number): Promise<void> {
  const jobsEnv = { ...env, DB: db };
  await rearmWallets(jobsEnv, now);
  await backfillReadModels(jobsEnv);
  await pruneProviderAttempts(db, now);
  await deriveUnplacedReports(jobsEnv);
  await pruneExpiredPlayerSessions(db, now);
  await pruneExpiredStaffSessions(db, now);
}

/** What each job reads at one size of the agency's history: rows read, and the statements (for their plans). */
async function measure(): Promise<{ fiveMinutes: D1Count; playersPage: D1Count; sweep: D1Count }> {
  const now = Date.now();
  const five = countingD1(env.DB);
  await fiveMinuteJobs(five.db, now);
  const page = countingD1(env.DB);
  const first = await listProviderPlayersPage(page.db, "demo", "askmebet", "", 100);
  await listProviderPlayersPage(page.db, "demo", "askmebet", first.lastId ?? "", 100);
  const sweep = countingD1(env.DB);
  await sweepAlerts({ ...env, DB: sweep.db }, now);
  return { fiveMinutes: five.count, playersPage: page.count, sweep: sweep.count };
}

describe("the jobs at two sizes of an agency's history", () => {
  it("read the same rows whatever the history: every statement through an index, none reading a big table whole", async () => {
    await history("small", 200);
    const small = await measure();
    await history("large", 2_000);
    const large = await measure();
    console.log(
      "rows read, 200 players -> 2,200:",
      JSON.stringify({
        fiveMinutes: [small.fiveMinutes.rowsRead, large.fiveMinutes.rowsRead],
        playersPage: [small.playersPage.rowsRead, large.playersPage.rowsRead],
        sweep: [small.sweep.rowsRead, large.sweep.rowsRead],
      }),
    );
    // eleven times the players, orders, references, witnesses and audit rows: the same reads
    expect(large.fiveMinutes.rowsRead).toBeLessThanOrEqual(small.fiveMinutes.rowsRead + 10);
    expect(large.sweep.rowsRead).toBeLessThanOrEqual(small.sweep.rowsRead + 10);
    // two pages of 100 players: a few index entries per player, whatever the agency's size
    expect(large.playersPage.rowsRead).toBeLessThanOrEqual(small.playersPage.rowsRead + 10);
    expect(large.playersPage.rowsRead).toBeLessThan(200 * 10);

    const scans: string[] = [];
    for (const statement of [...large.fiveMinutes.sql, ...large.playersPage.sql, ...large.sweep.sql]) {
      for (const step of fullScans(await planOf(env.DB, statement), statement.text, BIG_TABLES, DUE_ONLY)) scans.push(`${step} in: ${statement.text}`);
    }
    expect(scans).toEqual([]);
  });
});

describe("the hourly job's players", () => {
  it("a page is the next players in id order with a successful deposit at the provider; the cursor passes a player whose row is gone", async () => {
    const at = new Date().toISOString();
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES ('page-a', 'demo', 'page-a', 'A', '020', 'x'), ('page-c', 'demo', 'page-c', 'C', '020', 'x'), ('page-d', 'demo', 'page-d', 'D', '020', 'x')`,
      ),
      env.DB.prepare(
        `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, created_at, updated_at, projection_version) VALUES
         ('DPAGE1', 'demo', 'page-a', 'gclub_live', '1', '1', 'SUCCESS', ?1, ?1, 1), ('DPAGE2', 'demo', 'page-a', 'gclub_live', '1', '1', 'SUCCESS', ?1, ?1, 1),
         ('DPAGE3', 'demo', 'page-b', 'gclub_live', '1', '1', 'SUCCESS', ?1, ?1, 1), ('DPAGE4', 'demo', 'page-c', 'gclub_live', '1', '1', 'FAILED', ?1, ?1, 1),
         ('DPAGE5', 'demo', 'page-d', 'gclub_live', '1', '1', 'SUCCESS', ?1, ?1, 1), ('DPAGE6', 'demo', 'page-c', 'alphabet', '1', '1', 'SUCCESS', ?1, ?1, 1)`,
      ).bind(at),
    ]);
    // page-b has an order but no player row (written by hand): passed, never asked about
    expect(await listProviderPlayersPage(env.DB, "demo", "gclub_live", "", 2)).toEqual({
      players: [{ playerId: "page-a", username: "page-a" }],
      lastId: "page-b",
      more: true,
    });
    expect(await listProviderPlayersPage(env.DB, "demo", "gclub_live", "page-b", 2)).toEqual({
      players: [{ playerId: "page-d", username: "page-d" }],
      lastId: "page-d",
      more: false,
    });
    expect(await listProviderPlayersPage(env.DB, "demo", "gclub_live", "page-d", 2)).toEqual({ players: [], lastId: null, more: false });
  });
});

describe("expired sessions pruned (every 5 minutes)", () => {
  /** A session row as the login writes it (times in epoch ms). */
  function session(playerId: string, created: number, lastSeen: number, expires: number) {
    return env.DB.prepare(
      `INSERT INTO sessions (id_hash, agency_id, player_id, created_at, last_seen_at, expires_at) VALUES (?1, 'demo', ?2, ?3, ?4, ?5)`,
    ).bind(`prune-${crypto.randomUUID()}`, playerId, created, lastSeen, expires);
  }

  it("deletes the sessions expired for longer than the idle time, and today's time played stays exact to the millisecond", async () => {
    const player = "prune-player";
    await env.DB.prepare(`INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES (?1, 'demo', ?1, 'P', '020', 'x')`)
      .bind(player)
      .run();
    // a day long past, 20:00 Vientiane; the sessions of its morning, evening and the day before
    const now = Date.parse("2026-11-13T13:00:00Z");
    const idle = PLAYER_SESSION.idleMs;
    const life = PLAYER_SESSION.absoluteMs;
    await env.DB.batch([
      // 06:00-07:00, expired at 18:00: pruned
      session(player, now - 14 * H, now - 13 * H, now - 14 * H + life),
      // the day before: pruned, counts nothing today
      session(player, now - 30 * H, now - 29 * H, now - 30 * H + life),
      // 07:45 until 19:40, expired at 19:45 (less than the idle time ago): kept
      session(player, now - 12.25 * H, now - 20 * 60_000, now - 12.25 * H + life),
      // 08:00-09:00, idle since, expires at 20:00+: kept (still stored until it expires)
      session(player, now - 12 * H, now - 11 * H, now - 12 * H + life + 60_000),
      // in use now
      session(player, now - H, now - 60_000, now - H + life),
    ]);
    const before = (await playTimeLine(env.DB, "demo", player, now)).playedMs;
    const later = (await playTimeLine(env.DB, "demo", player, now + 10 * 60_000)).playedMs;

    expect(await pruneExpiredPlayerSessions(env.DB, now)).toBe(2);
    const left = await env.DB.prepare(`SELECT created_at FROM sessions WHERE player_id = ?1 ORDER BY created_at`).bind(player).all<{ created_at: number }>();
    expect(left.results.map((r) => (now - r.created_at) / H)).toEqual([12.25, 12, 1]);
    const spans = await env.DB.prepare(`SELECT started_at, ended_at FROM play_spans WHERE player_id = ?1 ORDER BY started_at`).bind(player).all();
    expect(spans.results).toEqual([
      { started_at: now - 30 * H, ended_at: now - 29 * H },
      { started_at: now - 14 * H, ended_at: now - 13 * H },
    ]);
    expect((await playTimeLine(env.DB, "demo", player, now)).playedMs).toBe(before);
    expect((await playTimeLine(env.DB, "demo", player, now + 10 * 60_000)).playedMs).toBe(later);
    // once every session of the evening has expired past the idle time, all are spans: the day's total holds
    const night = now + 3.5 * H;
    const beforeNight = (await playTimeLine(env.DB, "demo", player, night)).playedMs;
    expect(await pruneExpiredPlayerSessions(env.DB, night)).toBe(2);
    expect((await playTimeLine(env.DB, "demo", player, night)).playedMs).toBe(beforeNight);
    expect(before).toBeGreaterThan(13 * H); // 06:00-07:00 and 07:45-20:00
    expect(idle).toBe(30 * 60_000);
  });

  it("deletes staff sessions past their expiry, and keeps the others", async () => {
    const now = Date.now();
    await env.DB.prepare(
      `INSERT INTO staff (id, agency_id, username, password_hash, role) VALUES ('prune-staff', 'demo', 'prune-staff', 'x', 'cashier')`,
    ).run();
    const statement = (id: string, expires: number) =>
      env.DB.prepare(
        `INSERT INTO staff_sessions (id_hash, agency_id, staff_id, stage, created_at, last_seen_at, expires_at) VALUES (?1, 'demo', 'prune-staff', 'FULL', ?2, ?2, ?3)`,
      ).bind(id, expires - H, expires);
    await env.DB.batch([statement("staff-gone", now - 1), statement("staff-kept", now + H)]);
    expect(await pruneExpiredStaffSessions(env.DB, now)).toBe(1);
    const left = await env.DB.prepare(`SELECT id_hash FROM staff_sessions WHERE staff_id = 'prune-staff'`).all<{ id_hash: string }>();
    expect(left.results).toEqual([{ id_hash: "staff-kept" }]);
  });

  it("a backlog goes in bounded deletes, 5,000 sessions a run at most; the next run goes on", async () => {
    const now = Date.now();
    await pruneExpiredPlayerSessions(env.DB, now); // what the tests above left expired
    await env.DB.prepare(
      `INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES ('backlog', 'demo', 'backlog', 'B', '020', 'x')`,
    ).run();
    await env.DB.prepare(
      `INSERT INTO sessions (id_hash, agency_id, player_id, created_at, last_seen_at, expires_at)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5500)
       SELECT printf('backlog-%05d', i), 'demo', 'backlog', ?1 - i * 1000, ?1 - i * 1000, ?1 - i * 1000 + 1 FROM n`,
    )
      .bind(now - 2 * H)
      .run();
    const first = countingD1(env.DB);
    expect(await pruneExpiredPlayerSessions(first.db, now)).toBe(5_000);
    expect(first.count.statements).toBe(10);
    expect(await pruneExpiredPlayerSessions(env.DB, now)).toBe(500);
    expect((await env.DB.prepare(`SELECT COUNT(*) AS n FROM sessions WHERE player_id = 'backlog'`).first<{ n: number }>())?.n).toBe(0);
  });
});

describe("the planner's statistics", () => {
  // last in the file: statistics change the plans the tests above read
  it("PRAGMA optimize runs through D1 (hourly, and after migrations)", async () => {
    const counted = countingD1(env.DB);
    const errors: unknown[] = [];
    const log = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      await optimizeDatabase(counted.db);
    } finally {
      console.error = log;
    }
    expect(errors).toEqual([]);
    expect(counted.count.sql.map((s) => s.text)).toEqual(["PRAGMA optimize"]);
  });
});

describe("the Worker's scheduled handler", () => {
  /** One tick of a cron trigger, as Cloudflare calls it, with a D1 that counts. */
  async function tick(cron: string, at: number): Promise<D1Count> {
    const counted = countingD1(env.DB);
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: at, cron }), { ...env, DB: counted.db }, ctx);
    await waitOnExecutionContext(ctx);
    return counted.count;
  }

  it("the 5-minute tick deletes expired player and staff sessions; the hourly one runs PRAGMA optimize", async () => {
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO sessions (id_hash, agency_id, player_id, created_at, last_seen_at, expires_at) VALUES ('tick-gone', 'demo', 'prune-player', ?1, ?1, ?2)`,
      ).bind(now - 13 * H, now - H),
      env.DB.prepare(
        `INSERT INTO staff_sessions (id_hash, agency_id, staff_id, stage, created_at, last_seen_at, expires_at) VALUES ('tick-gone', 'demo', 'prune-staff', 'FULL', ?1, ?1, ?2)`,
      ).bind(now - 9 * H, now - H),
    ]);
    await tick("*/5 * * * *", now);
    const left = await env.DB.prepare(
      `SELECT (SELECT COUNT(*) FROM sessions WHERE id_hash = 'tick-gone') + (SELECT COUNT(*) FROM staff_sessions WHERE id_hash = 'tick-gone') AS n`,
    ).first<{
      n: number;
    }>();
    expect(left?.n).toBe(0);
    // no provider to ask: the hourly tick's collection has nothing to do here
    await env.DB.prepare(`UPDATE agency_settings SET enabled_providers = '[]'`).run();
    const hourly = await tick("17 * * * *", now);
    expect(hourly.sql.map((s) => s.text)).toContain("PRAGMA optimize");
  });
});
