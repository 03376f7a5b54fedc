import { env } from "cloudflare:workers";
import { beforeAll, bench, describe } from "vitest";
import { seedDemo } from "../setup/seed";
import type { ReportRange } from "../../workers/core/report-range";
import { moneyReport, playersReport, promotionsReport } from "../../workers/services/reports";

/**
 * Decision 019: the reports stay fast as data grows. Inside workerd with the local D1 (SQLite),
 * seeded with 10,000 players and 100,000 orders (75,000 deposit orders, 25,000 withdraw
 * orders) plus 15,000 promotion usages and 1,000 unmatched payments, spread over 92 days;
 * a 31-day report (money + players + promotions, grouped by day) must answer with p95 <= 300 ms.
 * Run by `npm run bench` (never by `npm test`); alone: `npx vitest bench --run tests/bench/reports.bench.ts`.
 */
const PLAYERS = 10_000;
const DEPOSITS = 75_000;
const WITHDRAWALS = 25_000;
const USAGES = 15_000;
const UNMATCHED = 1_000;
const RUNS = 40;
/** 2026-08-01T00:00:00+07:00; the data covers 92 days from there. */
const START = Date.parse("2026-08-01T00:00:00+07:00") / 1000;
const SPAN = 92 * 86_400;
const PROVIDERS = `CASE i % 5 WHEN 0 THEN 'askmebet' WHEN 1 THEN 'betflix' WHEN 2 THEN 'gclub' WHEN 3 THEN 'alphabet' ELSE 'gclub_live' END`;
const PROMOTIONS = `CASE i % 3 WHEN 0 THEN 'welcome-100' WHEN 1 THEN 'deposit-60k-bonus-50' ELSE 'daily-10' END`;

/** An ISO time (as the read models store it) spread over the span by a multiplicative hash of i. */
const timeOf = (salt: number) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${START} + ((i * ${salt}) % ${SPAN}), 'unixepoch')`;
const rows = (n: number) => `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < ${n - 1})`;

async function seedVolume(): Promise<void> {
  const db = env.DB;
  await db.batch([
    db.prepare(
      `INSERT INTO players (id, agency_id, username, display_name, phone, password_hash, created_at)
       ${rows(PLAYERS)} SELECT 'bp' || i, 'demo', 'benchplayer' || i, 'Bench ' || i, '02055555555', 'x', strftime('%Y-%m-%dT%H:%M:%fZ', ${START - 30 * 86_400} + ((i * 7907) % ${SPAN + 30 * 86_400}), 'unixepoch') FROM seq`,
    ),
    // 85% SUCCESS (paid), the rest CANCELED / FAILED; 2% manual credits; a third carry a promotion
    db.prepare(
      `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at,
         channel_code, amount_minor, paid_minor, credit_minor, bonus_minor, promotion_id, paid_at, projection_version)
       ${rows(DEPOSITS)} SELECT 'BD' || i, 'demo', 'bp' || ((i * 7) % ${PLAYERS}), ${PROVIDERS}, '60000.00', '100.00',
         CASE WHEN i % 20 < 17 THEN 'SUCCESS' WHEN i % 20 < 19 THEN 'CANCELED' ELSE 'FAILED' END, NULL, ${timeOf(7919)}, ${timeOf(7919)},
         CASE WHEN i % 50 = 0 THEN 'MANUAL' ELSE 'BCEL-QR' END, 6000000 + (i % 97) * 100000, 6000000 + (i % 97) * 100000 + (i % 7) * 100, 10000 + (i % 97) * 16666,
         CASE WHEN i % 3 = 0 THEN 5000 ELSE 0 END, CASE WHEN i % 3 = 0 THEN ${PROMOTIONS} END,
         CASE WHEN i % 20 < 19 AND i % 20 >= 17 THEN NULL ELSE ${timeOf(7919)} END, 1
       FROM seq`,
    ),
    db.prepare(
      `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, created_at, updated_at,
         credit_minor, deducted_minor, paid_lak_minor, promotion_id, paid_at, projection_version)
       ${rows(WITHDRAWALS)} SELECT 'BW' || i, 'demo', 'bp' || ((i * 13) % ${PLAYERS}), ${PROVIDERS}, '100.00', '58000.00',
         CASE WHEN i % 10 < 8 THEN 'SUCCESS' WHEN i % 10 = 8 THEN 'REJECTED' ELSE 'OPEN' END, 'AUTO', ${timeOf(6271)}, ${timeOf(6271)},
         10000 + (i % 50) * 1000, CASE WHEN i % 4 = 0 THEN 5000 ELSE 0 END, (5000 + (i % 50) * 1000) * 58, CASE WHEN i % 4 = 0 THEN ${PROMOTIONS} END,
         CASE WHEN i % 10 < 8 THEN ${timeOf(6271)} END, 1
       FROM seq`,
    ),
    db.prepare(
      `INSERT INTO promotion_usages_view (id, agency_id, player_id, promotion_id, provider, status, deposit_code, bonus, reason, claimed_at, updated_at, used_at, ended_at, projection_version)
       ${rows(USAGES)} SELECT 'BU' || i, 'demo', 'bp' || ((i * 11) % ${PLAYERS}), ${PROMOTIONS}, ${PROVIDERS},
         CASE i % 4 WHEN 0 THEN 'CLAIMED' WHEN 1 THEN 'USED' WHEN 2 THEN 'SUCCESS' ELSE 'CANCELED' END, NULL, NULL, NULL, ${timeOf(5903)}, ${timeOf(5903)},
         ${timeOf(5903)}, CASE WHEN i % 4 >= 2 THEN ${timeOf(5903)} END, 1
       FROM seq`,
    ),
    db.prepare(
      `INSERT INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount, received_at, status, resolved_at)
       ${rows(UNMATCHED)} SELECT 'BUP' || i, 'demo', 'UNKNOWN_REFERENCE', 'BREF' || i, 'BTX' || i, (30000 + i) || '.00', ${timeOf(4409)},
         CASE i % 3 WHEN 0 THEN 'REFUNDED' WHEN 1 THEN 'CREDITED' ELSE 'OPEN' END, CASE WHEN i % 3 < 2 THEN ${timeOf(4409)} END
       FROM seq`,
    ),
  ]);
  // each player's first deposit, as the wallets write it
  await db
    .prepare(
      `UPDATE players SET first_deposit_at = f.first FROM (
         SELECT player_id, MIN(paid_at) AS first FROM deposit_orders_view WHERE agency_id = 'demo' AND status = 'SUCCESS' AND channel_code IS NOT 'MANUAL' GROUP BY player_id) AS f
       WHERE players.id = f.player_id`,
    )
    .run();
  await db
    .prepare(`ANALYZE`)
    .run()
    .catch(() => undefined);
}

const ranges: ReportRange[] = [
  { from: "2026-08-01", to: "2026-08-31", grouping: "day" },
  { from: "2026-09-01", to: "2026-10-01", grouping: "day" },
  { from: "2026-10-01", to: "2026-10-31", grouping: "day" },
];

beforeAll(async () => {
  await seedDemo();
  const start = performance.now();
  await seedVolume();
  const counts = await env.DB.prepare(
    `SELECT (SELECT COUNT(*) FROM players) AS players, (SELECT COUNT(*) FROM deposit_orders_view) + (SELECT COUNT(*) FROM withdraw_orders_view) AS orders`,
  ).first<{ players: number; orders: number }>();
  console.log(`seeded ${counts?.players} players and ${counts?.orders} orders in ${((performance.now() - start) / 1000).toFixed(1)} s`);
}, 600_000);

function quantiles(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
}

describe("reports (31 days, 100,000 orders, 10,000 players)", () => {
  bench(
    "money + players + promotions, one after another",
    async () => {
      const times: number[] = [];
      const parts = { money: [] as number[], players: [] as number[], promotions: [] as number[] };
      for (let i = 0; i < RUNS; i++) {
        const range = ranges[i % ranges.length];
        const t0 = performance.now();
        const money = await moneyReport(env.DB, "demo", range);
        const t1 = performance.now();
        const players = await playersReport(env.DB, "demo", range);
        const t2 = performance.now();
        const promotions = await promotionsReport(env.DB, "demo", range);
        const t3 = performance.now();
        if (money.periods.length !== 31 || players.periods.length !== 31 || promotions.promotions.length === 0) throw new Error("unexpected report shape");
        if (money.total.depositCount === 0) throw new Error("no data in the window");
        times.push(t3 - t0);
        parts.money.push(t1 - t0);
        parts.players.push(t2 - t1);
        parts.promotions.push(t3 - t2);
      }
      const q = quantiles(times);
      const part = (name: keyof typeof parts) => `${name} p95 ${quantiles(parts[name]).p95.toFixed(1)} ms`;
      console.log(
        `31-day report, ${RUNS} runs: p50 ${q.p50.toFixed(1)} ms, p95 ${q.p95.toFixed(1)} ms, max ${q.max.toFixed(1)} ms (${part("money")}, ${part("players")}, ${part("promotions")})`,
      );
      console.log(`budget p95 <= 300 ms: ${q.p95 <= 300 ? "within" : "OVER"}`);
    },
    { iterations: 1, warmupIterations: 0, warmupTime: 0, time: 0 },
  );

  bench(
    "money + players + promotions at once (as a page loader would)",
    async () => {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const range = ranges[i % ranges.length];
        const t0 = performance.now();
        await Promise.all([moneyReport(env.DB, "demo", range), playersReport(env.DB, "demo", range), promotionsReport(env.DB, "demo", range)]);
        times.push(performance.now() - t0);
      }
      const q = quantiles(times);
      console.log(`31-day report in parallel, ${RUNS} runs: p50 ${q.p50.toFixed(1)} ms, p95 ${q.p95.toFixed(1)} ms, max ${q.max.toFixed(1)} ms`);
    },
    { iterations: 1, warmupIterations: 0, warmupTime: 0, time: 0 },
  );
});
