import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { COUNT_BOUND, firstListPage, listAskOf } from "../../workers/core/keyset";
import { listDeposits } from "../../workers/services/deposits";
import { getPlayerDetail, searchPlayers, sharedFingerprints } from "../../workers/services/players";
import { loadDashboard } from "../../workers/services/reports";
import { auditLogPage } from "../../workers/services/staff";
import { unmatchedPaymentsPage } from "../../workers/services/bank-in";
import { listManualQueue } from "../../workers/services/withdrawals";
import { recordingDb, type Recorded } from "../setup/d1-record";
import { seedDemo } from "../setup/seed";

/**
 * Decision 077, in workerd with real D1: every statement the back office's lists send (through
 * the same service doors their pages call) is recorded with the rows D1 says it read, at two
 * sizes of one agency's history (10 times apart), and its EXPLAIN QUERY PLAN is read. A list
 * that reads its history (an offset, a filter no index serves, an unbounded count) reads about
 * 10 times more at the second size and fails here; so does a plan that scans a big table.
 */

const AGENCY = "plans";
const SMALL = { players: 300, orders: 3_000 };
const LARGE = { players: 3_000, orders: 30_000 };
/**
 * The one search that reads a table (decision 050, kept by 077): a part of a display name, on
 * the agency's players table alone.
 */
const READS_PLAYERS = "players by a part of a Lao name";
/** Tables that grow with the agency's history: a plan may never SCAN them. */
const BIG_TABLES = [
  "fingerprints",
  "fingerprint_groups",
  "deposit_orders_view",
  "withdraw_orders_view",
  "players",
  "bank_accounts",
  "unmatched_payments",
  "audit_log",
  "promotion_usages_view",
];

/** Grows the agency's history to `size` (rows numbered from where the last size ended). */
async function seedHistory(from: { players: number; orders: number }, size: { players: number; orders: number }) {
  const range = (start: number, end: number) => `WITH RECURSIVE n(i) AS (SELECT ${start} UNION ALL SELECT i + 1 FROM n WHERE i < ${end - 1})`;
  const at = (offset: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', '2026-06-01', '+' || (${offset}) || ' minutes')`;
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO players (id, agency_id, username, display_name, phone, password_hash, created_at)
       ${range(from.players, size.players)}
       SELECT 'pp-' || i, '${AGENCY}', 'user' || printf('%06d', i), 'ສົມສັກ ' || i, '020' || printf('%08d', i), 'x', ${at("i * 10")} FROM n`,
    ),
    env.DB.prepare(
      `INSERT INTO bank_accounts (id, agency_id, player_id, bank_code, account_number, account_name, currency, owner)
       ${range(from.players, size.players)}
       SELECT 'pb-' || i, '${AGENCY}', 'pp-' || i, 'BCEL', '0101' || printf('%09d', i), 'SOMSAK', 'LAK', 'SELF' FROM n`,
    ),
    env.DB.prepare(
      `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at, projection_version)
       ${range(from.orders, size.orders)}
       SELECT 'PD' || printf('%08d', i), '${AGENCY}', 'pp-' || (i % ${size.players}),
              CASE i % 5 WHEN 0 THEN 'askmebet' WHEN 1 THEN 'betflix' WHEN 2 THEN 'gclub' WHEN 3 THEN 'gclub_live' ELSE 'alphabet' END,
              '60000.00', '100.00',
              CASE i % 20 WHEN 0 THEN 'FAILED' WHEN 1 THEN 'OPEN' WHEN 2 THEN 'EXPIRED' ELSE 'SUCCESS' END,
              CASE i % 97 WHEN 0 THEN 'LATE_PAYMENT' WHEN 1 THEN 'PROVIDER_REFUSED' ELSE NULL END,
              ${at("i")}, ${at("i")}, 1 FROM n`,
    ),
    env.DB.prepare(
      `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, created_at, updated_at)
       ${range(from.orders, size.orders)}
       SELECT 'PW' || printf('%08d', i), '${AGENCY}', 'pp-' || (i % ${size.players}), 'betflix', '100.00', '60000.00',
              CASE WHEN i < 60 THEN 'OPEN' ELSE 'SUCCESS' END, CASE WHEN i < 60 THEN 'MANUAL' ELSE 'AUTO' END,
              ${at("i")}, ${at("i")} FROM n WHERE i % 3 = 0`,
    ),
    env.DB.prepare(
      `INSERT INTO unmatched_payments (id, agency_id, kind, reference, amount, received_at, status)
       ${range(from.orders, size.orders)}
       SELECT 'pu-' || i, '${AGENCY}', 'UNKNOWN_REFERENCE', 'REF' || i, '60000.00', ${at("i")},
              CASE WHEN i < 300 THEN 'OPEN' ELSE 'REFUNDED' END FROM n WHERE i % 10 = 0`,
    ),
    // two players on each device
    env.DB.prepare(
      `INSERT INTO fingerprints (agency_id, player_id, fingerprint, payload, first_seen_at, last_seen_at)
       ${range(from.players, size.players)}
       SELECT '${AGENCY}', 'pp-' || i, 'fp-' || (i / 2), '{}', ${at("i * 10")}, ${at("i * 10")} FROM n`,
    ),
    env.DB.prepare(
      `INSERT OR REPLACE INTO fingerprint_groups (agency_id, fingerprint, players, first_seen_at, last_seen_at)
       SELECT agency_id, fingerprint, COUNT(*), MIN(first_seen_at), MAX(last_seen_at) FROM fingerprints
        WHERE agency_id = '${AGENCY}' GROUP BY agency_id, fingerprint HAVING COUNT(*) >= 2`,
    ),
    env.DB.prepare(
      `INSERT INTO audit_log (agency_id, staff_username, action, target, created_at)
       ${range(from.orders, size.orders)}
       SELECT '${AGENCY}', 'boss', CASE i % 3 WHEN 0 THEN 'deposit.retry' WHEN 1 THEN 'payment.refund' ELSE 'staff.create' END, 'T' || i, ${at("i")}
       FROM n WHERE i % 2 = 0`,
    ),
  ]);
}

/** What each list page sends, by name, through the services its page calls. */
async function readEveryList(db: D1Database, setName: (name: string) => void) {
  const lists: [string, () => Promise<unknown>][] = [
    ["deposits", () => listDeposits(db, AGENCY, {}, firstListPage(25))],
    ["deposits by status", () => listDeposits(db, AGENCY, { status: "FAILED" }, firstListPage(25))],
    ["deposits by flag", () => listDeposits(db, AGENCY, { flag: "LATE_PAYMENT" }, firstListPage(25))],
    ["deposits by any provider flag", () => listDeposits(db, AGENCY, { flag: "PROVIDER_*" }, firstListPage(25))],
    ["deposits without flag", () => listDeposits(db, AGENCY, { flag: "NONE" }, firstListPage(25))],
    ["deposits by provider", () => listDeposits(db, AGENCY, { provider: "gclub" }, firstListPage(25))],
    ["deposits by username", () => listDeposits(db, AGENCY, { username: "user000123" }, firstListPage(25))],
    ["deposits by username start", () => listDeposits(db, AGENCY, { username: "user00012" }, firstListPage(25))],
    ["deposits by code", () => listDeposits(db, AGENCY, { code: "PD0000012" }, firstListPage(25))],
    ["deposits of a day", () => listDeposits(db, AGENCY, { from: "2026-06-02", to: "2026-06-02" }, firstListPage(25))],
    ["deposits far down the list", () => listDeposits(db, AGENCY, {}, listAskOf(new URLSearchParams({ after: "2026-06-01T00:30:00.000Z~PD00000030" }), 25))],
    ["deposits back up the list", () => listDeposits(db, AGENCY, {}, listAskOf(new URLSearchParams({ before: "2026-06-01T00:30:00.000Z~PD00000030" }), 25))],
    ["players", () => searchPlayers(db, AGENCY, "", firstListPage(25))],
    ["players by username", () => searchPlayers(db, AGENCY, "USER000123", firstListPage(25))],
    ["players by phone start", () => searchPlayers(db, AGENCY, "020 0000012", firstListPage(25))],
    ["players by account number", () => searchPlayers(db, AGENCY, "0101000000123", firstListPage(25))],
    ["players by a part of a Lao name", () => searchPlayers(db, AGENCY, "ສົມສັກ 12", firstListPage(25))],
    ["players far down the list", () => searchPlayers(db, AGENCY, "", listAskOf(new URLSearchParams({ after: "2026-06-01T01:00:00.000Z~pp-6" }), 25))],
    ["shared devices", () => sharedFingerprints(db, AGENCY, firstListPage(20))],
    ["a player's page", () => getPlayerDetail(db, AGENCY, "pp-5")],
    ["audit", () => auditLogPage(db, AGENCY, { action: null, ask: firstListPage(25) })],
    ["audit by action", () => auditLogPage(db, AGENCY, { action: "payment.refund", ask: firstListPage(25) })],
    ["audit far down", () => auditLogPage(db, AGENCY, { action: null, ask: listAskOf(new URLSearchParams({ after: "x~40" }), 25) })],
    ["payments waiting", () => unmatchedPaymentsPage(db, AGENCY, { status: "", ask: firstListPage(25), id: null })],
    ["payments refunded", () => unmatchedPaymentsPage(db, AGENCY, { status: "REFUNDED", ask: firstListPage(25), id: null })],
    ["manual withdraw queue", () => listManualQueue(db, AGENCY, firstListPage(10))],
    ["dashboard", () => loadDashboard(db, AGENCY, Date.parse("2026-06-03T05:00:00Z"))],
  ];
  for (const [name, read] of lists) {
    setName(name);
    await read();
  }
}

async function measure(): Promise<Recorded[]> {
  const log: Recorded[] = [];
  let current = "";
  await readEveryList(
    recordingDb(env.DB, () => current, log),
    (name) => (current = name),
  );
  return log;
}

/** The statements that are counts bounded at COUNT_BOUND (boundedCountSql), by their names in rowsByStatement. */
function countStatements(log: Recorded[]): Set<string> {
  const names = new Set<string>();
  const seen = new Map<string, number>();
  for (const r of log) {
    const n = (seen.get(r.name) ?? 0) + 1;
    seen.set(r.name, n);
    if (r.sql.startsWith("SELECT COUNT(*) AS n FROM (SELECT 1 ")) names.add(`${r.name} #${n}`);
  }
  return names;
}

/** Rows read per statement of each list ("deposits #2": its second statement). */
function rowsByStatement(log: Recorded[]): Map<string, number> {
  const rows = new Map<string, number>();
  const seen = new Map<string, number>();
  for (const r of log) {
    const n = (seen.get(r.name) ?? 0) + 1;
    seen.set(r.name, n);
    rows.set(`${r.name} #${n}`, r.rowsRead);
  }
  return rows;
}

let small: Recorded[];
let large: Recorded[];

beforeAll(async () => {
  await seedDemo();
  await env.DB.prepare(`INSERT OR IGNORE INTO agencies (id, name) VALUES (?1, 'Plans')`).bind(AGENCY).run();
  await seedHistory({ players: 0, orders: 0 }, SMALL);
  small = await measure();
  await seedHistory(SMALL, LARGE);
  large = await measure();
}, 120_000);

describe("the back office's lists at two sizes of history (decision 077)", () => {
  it("read about a page of rows, not the agency's history: no list reads much more at 10 times the history", () => {
    const counts = countStatements(large);
    const before = rowsByStatement(small);
    const after = rowsByStatement(large);
    const table = [...after].map(([name, rows]) => ({ name, small: before.get(name), large: rows }));
    console.log(table.map((r) => `${r.name.padEnd(40)} ${String(r.small).padStart(6)} ${String(r.large).padStart(6)}`).join("\n"));
    expect(new Set(large.map((r) => r.name)).size).toBeGreaterThan(20);
    for (const { name, small: rowsSmall, large: rowsLarge } of table) {
      if (name.startsWith(`${READS_PLAYERS} #`)) {
        // the agency's players once, and the page's lookups
        expect(rowsLarge, name).toBeLessThanOrEqual(LARGE.players + 100);
        continue;
      }
      // a page of 25 and its lookups, or a count bounded at 1,001; never the history
      // (30,000 orders, 3,000 players at the larger size)
      const bound = counts.has(name) ? Math.max(2 * (rowsSmall ?? 0), COUNT_BOUND + 1 + 100) : 2 * (rowsSmall ?? 0) + 50;
      expect(rowsLarge, `${name}: ${rowsSmall} -> ${rowsLarge} rows read`).toBeLessThanOrEqual(bound);
    }
  });

  it("never SCAN a table that grows with the agency's history (EXPLAIN QUERY PLAN of every statement sent)", async () => {
    const scans: string[] = [];
    const seen = new Set<string>();
    for (const r of large) {
      if (seen.has(r.sql)) continue;
      seen.add(r.sql);
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${r.sql}`)
        .bind(...r.params)
        .all<{ detail: string }>();
      for (const { detail } of plan.results) {
        const scanned = /^SCAN (\S+)/.exec(detail)?.[1];
        if (scanned && BIG_TABLES.includes(scanned)) scans.push(`${r.name}: ${detail}\n  ${r.sql.replace(/\s+/g, " ").slice(0, 300)}`);
      }
    }
    expect(scans).toEqual([]);
  });
});
