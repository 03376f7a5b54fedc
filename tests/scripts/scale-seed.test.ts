import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScaleBase, generateScaleDatabase, scaleParams, tableCounts } from "../../scripts/scale-seed.mjs";

/**
 * The scale bench's generator (scripts/scale-seed.mjs) at a tiny size: the same parameters give
 * the same rows, the rows are the agency's own (every order, session, account and bank report
 * belongs to a player or staff member of the same agency), and the counts are the parameters'.
 * The bench itself (npm run bench:scale) is a benchmark, not a test.
 */

const DIR = mkdtempSync(join(tmpdir(), "scale-seed-"));
const params = scaleParams({}, { players: 200, orders: 2000, days: 5, historyDays: 20, seed: "test", now: "2026-11-20T05:30:00Z" });
const file = (name: string) => join(DIR, name);

type Row = Record<string, unknown>;
let db: DatabaseSync;
const all = (sql: string) => db.prepare(sql).all() as Row[];
const count = (sql: string) => Number((db.prepare(sql).get() as { n: number }).n);

/** Every row of every table, in storage order, hashed. */
function digest(path: string): string {
  const file = new DatabaseSync(path, { readOnly: true });
  try {
    const hash = createHash("sha256");
    for (const table of Object.keys(tableCounts(file))) {
      hash.update(table);
      for (const row of file.prepare(`SELECT * FROM "${table}"`).all()) hash.update(JSON.stringify(row));
    }
    return hash.digest("hex");
  } finally {
    file.close();
  }
}

beforeAll(() => {
  createScaleBase(file("base.sqlite"), params);
  for (const name of ["a.sqlite", "b.sqlite"]) {
    copyFileSync(file("base.sqlite"), file(name));
    generateScaleDatabase(file(name), params);
  }
  copyFileSync(file("base.sqlite"), file("other-seed.sqlite"));
  generateScaleDatabase(file("other-seed.sqlite"), { ...params, seed: "another" });
  db = new DatabaseSync(file("a.sqlite"), { readOnly: true });
});

afterAll(() => {
  db?.close();
  rmSync(DIR, { recursive: true, force: true });
});

describe("the scale data", () => {
  it("is the same for the same parameters, and another for another seed", () => {
    expect(digest(file("a.sqlite"))).toBe(digest(file("b.sqlite")));
    expect(digest(file("other-seed.sqlite"))).not.toBe(digest(file("a.sqlite")));
  });

  it("has the parameters' players and orders, and a second agency a hundredth its size", () => {
    expect(count(`SELECT COUNT(*) AS n FROM players WHERE agency_id = 'demo' AND id <> '00000000-0000-4000-8000-00000000d3e0'`)).toBe(200);
    // orders the players made (MANUAL deposits are staff's credits from the payments queue)
    const orders = (agency: string) =>
      count(`SELECT COUNT(*) AS n FROM deposit_orders_view WHERE agency_id = '${agency}' AND channel_code <> 'MANUAL'`) +
      count(`SELECT COUNT(*) AS n FROM withdraw_orders_view WHERE agency_id = '${agency}'`);
    expect(orders("demo")).toBe(2000);
    expect(orders("scale-b")).toBe(20);
    expect(count(`SELECT COUNT(*) AS n FROM players WHERE agency_id = 'scale-b'`)).toBe(20);
    expect(count(`SELECT COUNT(*) AS n FROM deposit_refs`)).toBe(count(`SELECT COUNT(*) AS n FROM deposit_orders_view`));
    expect(count(`SELECT COUNT(*) AS n FROM withdraw_refs`)).toBe(count(`SELECT COUNT(*) AS n FROM withdraw_orders_view`));
  });

  it("keeps the schema's rules: foreign keys, unique indexes, checks", () => {
    expect(all(`PRAGMA integrity_check`)).toEqual([{ integrity_check: "ok" }]);
    expect(all(`PRAGMA foreign_key_check`)).toEqual([]);
  });

  it("ties every order, session, account and report to a player or staff member of its own agency", () => {
    const orphans = {
      deposits: `SELECT COUNT(*) AS n FROM deposit_orders_view o LEFT JOIN players p ON p.id = o.player_id AND p.agency_id = o.agency_id WHERE p.id IS NULL`,
      withdrawals: `SELECT COUNT(*) AS n FROM withdraw_orders_view o LEFT JOIN players p ON p.id = o.player_id AND p.agency_id = o.agency_id WHERE p.id IS NULL`,
      depositRefs: `SELECT COUNT(*) AS n FROM deposit_refs r LEFT JOIN deposit_orders_view o ON o.code = r.code AND o.agency_id = r.agency_id AND o.player_id = r.player_id WHERE o.code IS NULL`,
      withdrawRefs: `SELECT COUNT(*) AS n FROM withdraw_refs r LEFT JOIN withdraw_orders_view o ON o.code = r.code AND o.agency_id = r.agency_id AND o.player_id = r.player_id WHERE o.code IS NULL`,
      sessions: `SELECT COUNT(*) AS n FROM sessions s LEFT JOIN players p ON p.id = s.player_id AND p.agency_id = s.agency_id WHERE p.id IS NULL`,
      accounts: `SELECT COUNT(*) AS n FROM bank_accounts b LEFT JOIN players p ON p.id = b.player_id AND p.agency_id = b.agency_id WHERE p.id IS NULL`,
      usages: `SELECT COUNT(*) AS n FROM promotion_usages_view u LEFT JOIN deposit_orders_view o ON o.code = u.deposit_code AND o.agency_id = u.agency_id AND o.player_id = u.player_id WHERE o.code IS NULL`,
      reservations: `SELECT COUNT(*) AS n FROM pay_amount_reservations r LEFT JOIN deposit_orders_view o ON o.code = r.order_code AND o.agency_id = r.agency_id AND o.player_id = r.player_id AND o.channel_code = r.channel_code WHERE o.code IS NULL`,
      reviews: `SELECT COUNT(*) AS n FROM withdraw_reviews r LEFT JOIN withdraw_orders_view o ON o.code = r.code AND o.agency_id = r.agency_id WHERE o.code IS NULL`,
      reviewers: `SELECT COUNT(*) AS n FROM withdraw_reviews r LEFT JOIN staff s ON s.id = r.staff_id AND s.agency_id = r.agency_id WHERE s.id IS NULL`,
      staffSessions: `SELECT COUNT(*) AS n FROM staff_sessions x LEFT JOIN staff s ON s.id = x.staff_id AND s.agency_id = x.agency_id WHERE s.id IS NULL`,
      audit: `SELECT COUNT(*) AS n FROM audit_log a LEFT JOIN staff s ON s.id = a.staff_id AND s.agency_id = a.agency_id AND s.username = a.staff_username WHERE s.id IS NULL`,
      witnesses: `SELECT COUNT(*) AS n FROM bank_witnesses w LEFT JOIN bank_transactions t ON t.agency_id = w.agency_id AND t.channel_code = w.channel_code AND t.bank_transaction_id = w.transfer_id WHERE t.bank_transaction_id IS NULL`,
      credits: `SELECT COUNT(*) AS n FROM bank_credits c LEFT JOIN bank_witnesses w ON w.agency_id = c.agency_id AND w.channel_code = c.channel_code AND w.source = c.source AND w.witness_id = c.witness_id WHERE w.witness_id IS NULL`,
      creditedOrders: `SELECT COUNT(*) AS n FROM bank_credits c LEFT JOIN deposit_orders_view o ON o.code = c.code AND o.agency_id = c.agency_id AND o.player_id = c.player_id AND o.paid_at IS NOT NULL WHERE o.code IS NULL`,
      appliedTransfers: `SELECT COUNT(*) AS n FROM bank_transactions t LEFT JOIN deposit_orders_view o ON o.code = t.order_code AND o.agency_id = t.agency_id AND o.player_id = t.player_id WHERE t.order_code IS NOT NULL AND o.code IS NULL`,
      channels: `SELECT COUNT(*) AS n FROM bank_transactions t LEFT JOIN payment_channels c ON c.agency_id = t.agency_id AND c.code = t.channel_code AND c.gateway = 'own_account' WHERE c.code IS NULL`,
      queue: `SELECT COUNT(*) AS n FROM unmatched_payments u LEFT JOIN players p ON p.id = COALESCE(u.resolved_player_id, u.order_player_id) AND p.agency_id = u.agency_id WHERE COALESCE(u.resolved_player_id, u.order_player_id) IS NOT NULL AND p.id IS NULL`,
      queueTransfers: `SELECT COUNT(*) AS n FROM bank_transactions t LEFT JOIN unmatched_payments u ON u.id = t.queue_id AND u.agency_id = t.agency_id WHERE t.queue_id IS NOT NULL AND u.id IS NULL`,
      members: `SELECT COUNT(*) AS n FROM provider_members m LEFT JOIN players p ON p.id = m.player_id AND p.agency_id = m.agency_id WHERE p.id IS NULL`,
      playerDays: `SELECT COUNT(*) AS n FROM player_provider_daily d LEFT JOIN players p ON p.id = d.player_id AND p.agency_id = d.agency_id WHERE p.id IS NULL`,
      attempts: `SELECT COUNT(*) AS n FROM provider_attempts a LEFT JOIN players p ON p.id = a.player_id AND p.agency_id = a.agency_id WHERE p.id IS NULL`,
    };
    const found = Object.fromEntries(Object.entries(orphans).map(([name, sql]) => [name, count(sql)]));
    expect(found).toEqual(Object.fromEntries(Object.keys(orphans).map((name) => [name, 0])));
    // and there is something to tie: both agencies have their own bank reports and queue
    for (const agency of ["demo", "scale-b"]) expect(count(`SELECT COUNT(*) AS n FROM bank_witnesses WHERE agency_id = '${agency}'`)).toBeGreaterThan(0);
  });

  it("writes money and times in the formats the code writes", () => {
    const amount = /^\d+\.\d{2}$/;
    for (const row of all(`SELECT amount, credit, amount_minor, credit_minor, paid_minor, paid_at, status, created_at FROM deposit_orders_view`)) {
      expect(row.amount).toMatch(amount);
      expect(row.credit).toMatch(amount);
      expect(Math.round(Number(row.amount) * 100)).toBe(row.amount_minor);
      expect(Math.round(Number(row.credit) * 100)).toBe(row.credit_minor);
      expect(row.paid_minor === null).toBe(row.paid_at === null);
      expect(["OPEN", "CANCELED", "PAID", "SUCCESS", "FAILED", "REJECTED"]).toContain(row.status);
      expect(new Date(String(row.created_at)).toISOString()).toBe(row.created_at);
    }
    for (const row of all(`SELECT credit, received, credit_minor, paid_lak_minor FROM withdraw_orders_view`)) {
      expect(Math.round(Number(row.credit) * 100)).toBe(row.credit_minor);
      expect(Math.round(Number(row.received) * 100)).toBe(row.paid_lak_minor);
    }
    for (const row of all(`SELECT amount FROM bank_transactions UNION ALL SELECT pay_amount FROM pay_amount_reservations`)) expect(row.amount).toMatch(amount);
    // a derived transfer counts the credits of its reports
    expect(
      count(`SELECT COUNT(*) AS n FROM bank_transactions t WHERE credits <> (SELECT COUNT(*) FROM bank_credits c JOIN bank_witnesses w
               ON w.agency_id = c.agency_id AND w.channel_code = c.channel_code AND w.source = c.source AND w.witness_id = c.witness_id
             WHERE w.agency_id = t.agency_id AND w.channel_code = t.channel_code AND w.transfer_id = t.bank_transaction_id)`),
    ).toBe(0);
  });

  it("has the proportions of a working agency: most orders paid, a few waiting, a queue for staff", () => {
    const deposits = count(`SELECT COUNT(*) AS n FROM deposit_orders_view WHERE agency_id = 'demo'`);
    const paid = count(`SELECT COUNT(*) AS n FROM deposit_orders_view WHERE agency_id = 'demo' AND status = 'SUCCESS'`);
    expect(paid / deposits).toBeGreaterThan(0.7);
    expect(count(`SELECT COUNT(*) AS n FROM deposit_orders_view WHERE status = 'CANCELED' AND flag = 'EXPIRED'`)).toBeGreaterThan(0);
    expect(count(`SELECT COUNT(*) AS n FROM withdraw_orders_view WHERE status = 'SUCCESS'`)).toBeGreaterThan(0);
    expect(count(`SELECT COUNT(*) AS n FROM unmatched_payments`)).toBeGreaterThan(0);
    expect(count(`SELECT COUNT(*) AS n FROM audit_log`)).toBeGreaterThan(0);
  });
});
