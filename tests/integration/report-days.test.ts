import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { parseAmount } from "../../workers/core/money";
import { periodsOf, utcBounds, type ReportRange } from "../../workers/core/report-range";
import {
  setFirstDepositStatement,
  upsertDepositOrderViewStatement,
  upsertPromotionUsageViewStatement,
  upsertWithdrawOrderViewStatement,
  type DepositOrderView,
  type PromotionUsageView,
  type WithdrawOrderView,
} from "../../workers/db/order-projection";
import { reportsPage, rollUpReportDays, type MoneyReport, type PlayersReport, type PromotionsReport } from "../../workers/services/reports";
import { recordingDb, type Recorded } from "../setup/d1-record";
import { seeded, type Seeded } from "../setup/random";

/**
 * Decision 078, in workerd with real D1: the reports of a range by day, read from the rollup of
 * closed days (report_days) plus the open days live, equal to the last minor unit what the rows
 * themselves add up to (an oracle computed here from the generated history, not by the
 * portal's SQL), whether nothing, some or every closed day is rolled up; a late write into a
 * rolled-up day (a projection, a backfilled row, a first deposit moved) is in the next report;
 * and a 30-day report reads about as many rows at 10 times the orders a day.
 */

const NOW = Date.parse("2026-06-10T05:00:00.000Z"); // 12:00 in Vientiane: 06-09 and 06-10 are open
const PROVIDERS = ["askmebet", "betflix", "gclub", "gclub_live", "alphabet"] as const;
const PROMOTIONS = ["promo-a", "promo-b"];
const DAY_MS = 86_400_000;

type Player = { id: string; createdAt: string };
type Refund = { id: string; amount: string; resolvedAt: string };
type History = {
  agencyId: string;
  players: Player[];
  deposits: DepositOrderView[];
  withdrawals: WithdrawOrderView[];
  usages: PromotionUsageView[];
  refunds: Refund[];
};

/** An instant within the Vientiane day `day`; now and then its very first or last millisecond. */
function timeIn(day: string, r: Seeded): string {
  const start = Date.parse(`${day}T00:00:00.000+07:00`);
  const edge = r.int(10);
  const at = edge === 0 ? start : edge === 1 ? start + DAY_MS - 1 : start + r.int(DAY_MS);
  return new Date(at).toISOString();
}

const dayOf = (iso: string) => new Date(Date.parse(iso) + 7 * 3_600_000).toISOString().slice(0, 10);
const paidOn = (o: { status: string; paidAt: string | null }, day: string) => o.status === "SUCCESS" && o.paidAt !== null && dayOf(o.paidAt) === day;
const daysFrom = (from: string, count: number) =>
  periodsOf({ from, to: new Date(Date.parse(from) + (count - 1) * DAY_MS).toISOString().slice(0, 10), grouping: "day" });

/** The players' first successful deposit that is no manual credit, as their wallets write it. */
function firstDepositOf(h: History, playerId: string): string | null {
  const paid = h.deposits.filter((d) => d.playerId === playerId && d.status === "SUCCESS" && d.channelCode !== "MANUAL" && d.paidAt).map((d) => d.paidAt!);
  return paid.length === 0 ? null : paid.sort()[0]!;
}

/**
 * A history of `days` days: `perDay` deposits a day (every provider with and without a manual
 * credit each day, so the rollup has the same rows whatever perDay is), withdrawals, promotion
 * usages and refunds; the open days get `openPerDay` deposits.
 */
function generate(agencyId: string, seed: number, days: string[], perDay: (day: string) => number): History {
  // a stream of its own for the players and for each day's deposits, withdrawals, usages and
  // refunds: histories of one seed differ only by the deposits past a day's first ones
  const forPlayers = seeded(seed);
  const h: History = { agencyId, players: [], deposits: [], withdrawals: [], usages: [], refunds: [] };
  const start = Date.parse(`${days[0]}T00:00:00+07:00`);
  for (let i = 0; i < 60; i++) {
    // the first ten (every provider's deposits each day) registered before the history
    const createdAt = i < 10 ? start - 20 * DAY_MS : start - 20 * DAY_MS + forPlayers.int(80 * DAY_MS);
    h.players.push({ id: `${agencyId}-p${i}`, createdAt: new Date(createdAt).toISOString() });
  }
  let seq = 0;
  for (const [n, day] of days.entries()) {
    let r = seeded(seed * 10_000 + n * 10);
    for (let i = 0; i < perDay(day); i++) {
      const player = h.players[i < 10 ? i : r.int(h.players.length)]!;
      const paidAt = timeIn(day, r);
      if (paidAt < player.createdAt) continue;
      const manual = i < 10 ? i % 2 === 1 : r.int(10) === 0;
      const status = i < 10 ? "SUCCESS" : r.pick(["SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "FAILED", "CANCELED", "PAID"]);
      const promotionId = !manual && r.int(5) === 0 ? r.pick(PROMOTIONS) : null;
      const amountMinor = (1 + r.int(200)) * 1_000_000 + r.int(100);
      h.deposits.push({
        code: `${agencyId}-D${++seq}`,
        agencyId,
        playerId: player.id,
        provider: i < 10 ? PROVIDERS[Math.floor(i / 2)]! : r.pick(PROVIDERS),
        amount: "0",
        credit: "0",
        status,
        flag: null,
        createdAt: paidAt,
        updatedAt: paidAt,
        channelCode: manual ? "MANUAL" : "BCEL-QR",
        amountMinor,
        // now and then a paid amount the projection left empty: SUM() skips it, the rollup too
        paidMinor: status === "CANCELED" ? null : r.int(40) === 0 ? null : amountMinor + r.int(7),
        creditMinor: Math.floor(amountMinor / 600),
        bonusMinor: promotionId ? 1 + r.int(5_000) : 0,
        promotionId,
        paidAt: status === "CANCELED" ? null : paidAt,
      });
    }
    r = seeded(seed * 10_000 + n * 10 + 1);
    for (let i = 0; i < 3; i++) {
      const player = r.pick(h.players);
      const paidAt = timeIn(day, r);
      const status = r.pick(["SUCCESS", "SUCCESS", "REJECTED"]);
      const creditMinor = (1 + r.int(500)) * 100;
      h.withdrawals.push({
        code: `${agencyId}-W${++seq}`,
        agencyId,
        playerId: player.id,
        provider: r.pick(PROVIDERS),
        credit: "0",
        received: "0",
        status,
        review: "AUTO",
        returnState: null,
        reason: null,
        createdAt: paidAt,
        updatedAt: paidAt,
        creditMinor,
        deductedMinor: r.int(3) === 0 ? r.int(creditMinor) : 0,
        paidLakMinor: creditMinor * 580,
        promotionId: r.int(3) === 0 ? r.pick(PROMOTIONS) : null,
        paidAt: status === "SUCCESS" ? paidAt : null,
      });
    }
    r = seeded(seed * 10_000 + n * 10 + 2);
    for (let i = 0; i < 2; i++) {
      const claimedAt = timeIn(day, r);
      const status = r.pick(["ACTIVE", "SUCCESS", "CANCELED"]);
      h.usages.push({
        id: `${agencyId}-U${++seq}`,
        agencyId,
        playerId: r.pick(h.players).id,
        promotionId: r.pick(PROMOTIONS),
        provider: "betflix",
        status,
        depositCode: null,
        bonus: null,
        reason: null,
        claimedAt,
        updatedAt: claimedAt,
        usedAt: null,
        endedAt: status === "ACTIVE" ? null : new Date(Date.parse(claimedAt) + r.int(2 * DAY_MS)).toISOString(),
      });
    }
    if (r.int(2) === 0)
      h.refunds.push({ id: `${agencyId}-R${++seq}`, amount: r.pick(["60000", "12345.67", "99.5", "1000000.00"]), resolvedAt: timeIn(day, r) });
  }
  return h;
}

async function store(h: History): Promise<void> {
  await env.DB.prepare(`INSERT OR IGNORE INTO agencies (id, name) VALUES (?1, ?1)`).bind(h.agencyId).run();
  const statements = [
    ...h.players.map((p) =>
      env.DB.prepare(`INSERT INTO players (id, agency_id, username, display_name, phone, password_hash, created_at) VALUES (?1, ?2, ?1, ?1, ?1, 'x', ?3)`).bind(
        p.id,
        h.agencyId,
        p.createdAt,
      ),
    ),
    ...h.deposits.map((d) => upsertDepositOrderViewStatement(env.DB, d)),
    ...h.withdrawals.map((w) => upsertWithdrawOrderViewStatement(env.DB, w)),
    ...h.usages.map((u) => upsertPromotionUsageViewStatement(env.DB, u)),
    ...h.refunds.map((f) =>
      env.DB.prepare(
        `INSERT INTO unmatched_payments (id, agency_id, kind, reference, amount, status, resolved_at) VALUES (?1, ?2, 'NO_ORDER', ?1, ?3, 'REFUNDED', ?4)`,
      ).bind(f.id, h.agencyId, f.amount, f.resolvedAt),
    ),
    ...h.players.map((p) => setFirstDepositStatement(env.DB, h.agencyId, p.id, firstDepositOf(h, p.id))),
  ];
  for (let i = 0; i < statements.length; i += 200) await env.DB.batch(statements.slice(i, i + 200));
}

// ---- what a page sends, recorded ----
/** Tables that grow with an agency's history: a plan may never SCAN them. */
const BIG_TABLES = [
  "deposit_orders_view",
  "withdraw_orders_view",
  "players",
  "bank_accounts",
  "unmatched_payments",
  "audit_log",
  "promotion_usages_view",
  "report_days",
];

/** The plan lines of `sql` (with its bindings) that SCAN a big table. */
async function scansOfBigTables(db: D1Database, sql: string, params: unknown[]): Promise<string[]> {
  const plan = await db
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return plan.results.map((r) => r.detail).filter((detail) => BIG_TABLES.includes(/^SCAN (\S+)/.exec(detail)?.[1] ?? ""));
}

// ---- the oracle: what the rows add up to, counted here ----

type Money = Omit<MoneyReport["total"], "period">;
const MONEY_ZERO: Money = {
  depositCount: 0,
  depositKip: 0,
  depositCredit: 0,
  withdrawCount: 0,
  withdrawCredit: 0,
  withdrawKipPaid: 0,
  netKip: 0,
  bonusGiven: 0,
  bonusDeducted: 0,
  manualCredit: 0,
  manualCreditKip: 0,
  manualCount: 0,
  refundKip: 0,
  refundCount: 0,
};

function expectedMoney(h: History, range: ReportRange): MoneyReport {
  const { fromIso, toIsoExclusive } = utcBounds(range);
  const inRange = (at: string | null) => at !== null && at >= fromIso && at < toIsoExclusive;
  const label = `${range.from}/${range.to}`;
  const periods = new Map(periodsOf(range).map((p) => [p, { period: p, ...MONEY_ZERO }]));
  const total = { period: label, ...MONEY_ZERO };
  const byProvider = new Map<string, MoneyReport["byProvider"][number]>();
  const add = (at: string, provider: string | null, f: (m: Money) => void) => {
    f(periods.get(dayOf(at))!);
    f(total);
    if (provider === null) return;
    if (!byProvider.has(provider)) byProvider.set(provider, { period: label, provider, ...MONEY_ZERO });
    f(byProvider.get(provider)!);
  };
  for (const d of h.deposits.filter((d) => d.status === "SUCCESS" && inRange(d.paidAt))) {
    add(d.paidAt!, d.provider, (m) => {
      if (d.channelCode === "MANUAL") {
        m.manualCount += 1;
        m.manualCreditKip += d.paidMinor ?? 0;
        m.manualCredit += d.creditMinor;
      } else {
        m.depositCount += 1;
        m.depositKip += d.paidMinor ?? 0;
        m.depositCredit += d.creditMinor;
      }
      m.bonusGiven += d.bonusMinor;
    });
  }
  for (const w of h.withdrawals.filter((w) => w.status === "SUCCESS" && inRange(w.paidAt))) {
    add(w.paidAt!, w.provider, (m) => {
      m.withdrawCount += 1;
      m.withdrawCredit += w.creditMinor;
      m.withdrawKipPaid += w.paidLakMinor;
      m.bonusDeducted += w.deductedMinor;
    });
  }
  for (const f of h.refunds.filter((f) => inRange(f.resolvedAt))) {
    add(f.resolvedAt, null, (m) => {
      m.refundCount += 1;
      m.refundKip += Number(parseAmount(f.amount, "LAK"));
    });
  }
  const net = <T extends Money>(m: T): T => ({ ...m, netKip: m.depositKip + m.manualCreditKip - m.withdrawKipPaid });
  return {
    periods: [...periods.values()].map(net),
    byProvider: [...byProvider.values()].map(net).sort((a, b) => a.provider.localeCompare(b.provider)),
    total: net(total),
  };
}

function expectedPlayers(h: History, range: ReportRange): PlayersReport {
  const { fromIso, toIsoExclusive } = utcBounds(range);
  const inRange = (at: string | null) => at !== null && at >= fromIso && at < toIsoExclusive;
  const deposits = h.deposits.filter((d) => d.status === "SUCCESS" && d.channelCode !== "MANUAL" && inRange(d.paidAt));
  const row = (period: string, registered: Player[], firsts: Player[], converted: number, active: number) => ({
    period,
    registrations: registered.length,
    firstDeposits: firsts.length,
    conversion: registered.length === 0 ? null : converted / registered.length,
    activeDepositors: active,
    returningDepositors: active - firsts.length,
  });
  const firstOf = (p: Player) => firstDepositOf(h, p.id);
  const periods = periodsOf(range).map((day) => {
    const registered = h.players.filter((p) => inRange(p.createdAt) && dayOf(p.createdAt) === day);
    const firsts = h.players.filter((p) => inRange(firstOf(p)) && dayOf(firstOf(p)!) === day);
    const converted = firsts.filter((p) => dayOf(p.createdAt) === day).length;
    return row(day, registered, firsts, converted, new Set(deposits.filter((d) => dayOf(d.paidAt!) === day).map((d) => d.playerId)).size);
  });
  const firsts = h.players.filter((p) => inRange(firstOf(p)));
  const total = row(
    `${range.from}/${range.to}`,
    h.players.filter((p) => inRange(p.createdAt)),
    firsts,
    firsts.filter((p) => p.createdAt >= fromIso).length,
    new Set(deposits.map((d) => d.playerId)).size,
  );
  return { periods, total };
}

function expectedPromotions(h: History, range: ReportRange): PromotionsReport {
  const { fromIso, toIsoExclusive } = utcBounds(range);
  const inRange = (at: string | null) => at !== null && at >= fromIso && at < toIsoExclusive;
  const rows = new Map<string, PromotionsReport["promotions"][number]>();
  const row = (id: string) => {
    if (!rows.has(id))
      rows.set(id, { promotionId: id, title: { lo: id }, claims: 0, completed: 0, cancelled: 0, bonusCost: 0, bonusGiven: 0, bonusDeducted: 0 });
    return rows.get(id)!;
  };
  for (const u of h.usages) {
    if (inRange(u.claimedAt)) row(u.promotionId).claims++;
    if (inRange(u.endedAt) && u.status === "SUCCESS") row(u.promotionId).completed++;
    if (inRange(u.endedAt) && u.status === "CANCELED") row(u.promotionId).cancelled++;
  }
  for (const d of h.deposits) if (d.status === "SUCCESS" && inRange(d.paidAt) && d.promotionId) row(d.promotionId).bonusGiven += d.bonusMinor;
  for (const w of h.withdrawals) if (w.status === "SUCCESS" && inRange(w.paidAt) && w.promotionId) row(w.promotionId).bonusDeducted += w.deductedMinor;
  const promotions = [...rows.values()].map((r) => ({ ...r, bonusCost: r.bonusGiven - r.bonusDeducted }));
  promotions.sort((a, b) => b.claims - a.claims || b.bonusCost - a.bonusCost || a.promotionId.localeCompare(b.promotionId));
  return { promotions };
}

async function expectReportsToMatch(h: History, range: ReportRange, db: D1Database = env.DB) {
  const page = await reportsPage(db, h.agencyId, "owner", range, NOW);
  const label = `${h.agencyId} ${range.from}..${range.to}`;
  expect(page.money, label).toEqual(expectedMoney(h, range));
  expect(page.players, label).toEqual(expectedPlayers(h, range));
  expect(page.promotions, label).toEqual(expectedPromotions(h, range));
  // the figures are whole minor units
  for (const value of Object.values(page.money.total)) if (typeof value === "number") expect(Number.isSafeInteger(value)).toBe(true);
}

async function sealedDays(agencyId: string): Promise<string[]> {
  const { results } = await env.DB.prepare(`SELECT day FROM report_days WHERE agency_id = ?1 AND kind = 'sealed' ORDER BY day`)
    .bind(agencyId)
    .all<{ day: string }>();
  return results.map((r) => r.day);
}

const HISTORY_DAYS = daysFrom("2026-04-01", 71); // to 2026-06-10, today
const LAST_30: ReportRange = { from: "2026-05-12", to: "2026-06-10", grouping: "day" };
const CLOSED_MONTH: ReportRange = { from: "2026-05-01", to: "2026-05-31", grouping: "day" };
const ONE_CLOSED_DAY: ReportRange = { from: "2026-05-20", to: "2026-05-20", grouping: "day" };
const LONGEST: ReportRange = { from: "2026-03-11", to: "2026-06-10", grouping: "day" }; // 92 days

let h: History;

beforeAll(async () => {
  h = generate("rollup", 47, HISTORY_DAYS, () => 12);
  await store(h);
}, 60_000);

describe("the rollup path equals what the rows add up to (decision 078)", () => {
  it("with nothing rolled up: the first report rolls up 3 closed days and reads the rest live", async () => {
    expect(await sealedDays(h.agencyId)).toEqual([]);
    await expectReportsToMatch(h, LAST_30);
    expect(await sealedDays(h.agencyId)).toEqual(["2026-05-12", "2026-05-13", "2026-05-14"]);
    // half rolled up, half live
    await expectReportsToMatch(h, CLOSED_MONTH);
    await expectReportsToMatch(h, ONE_CLOSED_DAY);
  });

  it("with every closed day rolled up by the scheduled roll-up: the last 92 days, never today or yesterday", async () => {
    const run = await rollUpReportDays(env, NOW, 1_000);
    expect(run.days).toBeGreaterThan(60);
    const sealed = await sealedDays(h.agencyId);
    expect(sealed[0]).toBe("2026-03-09");
    expect(sealed.at(-1)).toBe("2026-06-08");
    expect(sealed).toHaveLength(92);
    expect((await rollUpReportDays(env, NOW, 1_000)).days).toBe(0);
    for (const range of [LAST_30, CLOSED_MONTH, ONE_CLOSED_DAY, LONGEST]) {
      await expectReportsToMatch(h, range);
      // and the same as every day read live (a "now" before the range: no day closed yet)
      const live = await reportsPage(env.DB, h.agencyId, "owner", range, Date.parse("2026-01-01T00:00:00Z"));
      expect(await reportsPage(env.DB, h.agencyId, "owner", range, NOW)).toEqual(live);
    }
  });

  it("a late write into a rolled-up day drops that day's rollup, and the next report has it", async () => {
    await rollUpReportDays(env, NOW, 1_000);
    const before = await sealedDays(h.agencyId);
    // a player who deposited on the 25th, and whose previous deposit was before the 20th
    const later = h.deposits.find((d) => paidOn(d, "2026-05-25") && d.channelCode !== "MANUAL")!;
    const player = later.playerId;
    // 1. a wallet's late projection: a deposit of the 20th lands now
    const late: DepositOrderView = {
      ...later,
      code: "rollup-LATE",
      paidAt: "2026-05-20T03:00:00.000Z",
      createdAt: "2026-05-20T03:00:00.000Z",
      provider: "gclub",
    };
    // 2. a deposit of the 15th turns out FAILED
    const failed = h.deposits.find((d) => paidOn(d, "2026-05-15"))!;
    // 3. a withdrawal is paid on the 16th, a usage ends on the 17th
    const paid = h.withdrawals.find((w) => w.status === "REJECTED")!;
    const usage = h.usages.find((u) => u.status === "ACTIVE" && dayOf(u.claimedAt) <= "2026-05-17")!;
    expect([later, failed, paid, usage].every(Boolean)).toBe(true);
    h.deposits.push(late);
    Object.assign(failed, { status: "FAILED" });
    Object.assign(paid, { status: "SUCCESS", paidAt: "2026-05-16T10:00:00.000Z" });
    Object.assign(usage, { status: "SUCCESS", endedAt: "2026-05-17T10:00:00.000Z" });
    await env.DB.batch([
      upsertDepositOrderViewStatement(env.DB, late),
      upsertDepositOrderViewStatement(env.DB, failed),
      upsertWithdrawOrderViewStatement(env.DB, paid),
      upsertPromotionUsageViewStatement(env.DB, usage),
      // the wallet writes the player's first deposit with its deposits
      setFirstDepositStatement(env.DB, h.agencyId, player, firstDepositOf(h, player)),
      setFirstDepositStatement(env.DB, h.agencyId, failed.playerId, firstDepositOf(h, failed.playerId)),
    ]);
    const after = await sealedDays(h.agencyId);
    const dropped = before.filter((d) => !after.includes(d));
    expect(dropped).toEqual(expect.arrayContaining(["2026-05-15", "2026-05-16", "2026-05-17", "2026-05-20"]));
    // the player's next deposit day after the 20th counted from an older previous deposit
    const next = h.deposits
      .filter((d) => d.playerId === player && d.status === "SUCCESS" && d.channelCode !== "MANUAL" && d.paidAt! >= "2026-05-20T17:00:00.000Z")
      .map((d) => dayOf(d.paidAt!))
      .sort()[0]!;
    expect(dropped).toContain(next);
    for (const range of [LAST_30, CLOSED_MONTH, { from: "2026-05-20", to: "2026-05-25", grouping: "day" as const }]) await expectReportsToMatch(h, range);
  });

  it("a backfilled row (projected before the reports' columns) is counted once the backfill re-projects it", async () => {
    const old = { code: "rollup-OLD", day: "2026-05-05", player: h.players[3]! };
    await env.DB.prepare(
      `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, created_at, updated_at)
       VALUES (?1, ?2, ?3, 'betflix', '60000.00', '100.00', 'SUCCESS', '2026-05-05T01:00:00.000Z', '2026-05-05T01:00:00.000Z')`,
    )
      .bind(old.code, h.agencyId, old.player.id)
      .run();
    await rollUpReportDays(env, NOW, 1_000);
    expect(await sealedDays(h.agencyId)).toContain(old.day);
    await expectReportsToMatch(h, CLOSED_MONTH);
    // the backfill: the wallet copies the order again with every column (projection version 1)
    const reprojected: DepositOrderView = {
      ...h.deposits.find((d) => d.status === "SUCCESS" && d.channelCode !== "MANUAL")!,
      code: old.code,
      playerId: old.player.id,
      provider: "betflix",
      paidAt: "2026-05-05T01:00:00.000Z",
      createdAt: "2026-05-05T01:00:00.000Z",
      paidMinor: 6_000_003,
    };
    h.deposits.push(reprojected);
    await env.DB.batch([
      upsertDepositOrderViewStatement(env.DB, reprojected),
      setFirstDepositStatement(env.DB, h.agencyId, old.player.id, firstDepositOf(h, old.player.id)),
    ]);
    expect(await sealedDays(h.agencyId)).not.toContain(old.day);
    await expectReportsToMatch(h, CLOSED_MONTH);
    await rollUpReportDays(env, NOW, 1_000);
    expect(await sealedDays(h.agencyId)).toContain(old.day);
    await expectReportsToMatch(h, CLOSED_MONTH);
  });

  it("a projection that copies an unchanged row again keeps the day rolled up", async () => {
    await rollUpReportDays(env, NOW, 1_000);
    const same = h.deposits.find((d) => paidOn(d, "2026-05-22"))!;
    const usage = h.usages.find((u) => dayOf(u.claimedAt) === "2026-05-23")!;
    await env.DB.batch([
      upsertDepositOrderViewStatement(env.DB, { ...same, updatedAt: new Date().toISOString() }),
      upsertPromotionUsageViewStatement(env.DB, { ...usage, updatedAt: new Date().toISOString() }),
      setFirstDepositStatement(env.DB, h.agencyId, same.playerId, firstDepositOf(h, same.playerId)),
    ]);
    expect(await sealedDays(h.agencyId)).toEqual(expect.arrayContaining(["2026-05-22", "2026-05-23"]));
  });
});

describe("rows read and query plans (decision 078)", () => {
  const SMALL = "rollup-small";
  const LARGE = "rollup-large";
  const days = daysFrom("2026-05-01", 41); // to today
  const open = (day: string) => day >= "2026-06-09";
  let small: Recorded[];
  let large: Recorded[];
  const filling: Recorded[] = [];

  async function pageStatements(agencyId: string): Promise<Recorded[]> {
    const log: Recorded[] = [];
    await reportsPage(
      recordingDb(env.DB, () => "page", log),
      agencyId,
      "owner",
      LAST_30,
      NOW,
    );
    return log;
  }

  beforeAll(async () => {
    // the same open days; 10 times the orders on every closed day
    const hs = generate(SMALL, 7, days, () => 12);
    const hl = generate(LARGE, 7, days, (day) => (open(day) ? 12 : 120));
    await store(hs);
    await store(hl);
    // a cold report (it rolls up 3 days and reads the rest live) and the scheduled roll-up, recorded for their plans
    await reportsPage(
      recordingDb(env.DB, () => "cold page", filling),
      LARGE,
      "owner",
      LAST_30,
      NOW,
    );
    await rollUpReportDays({ ...env, DB: recordingDb(env.DB, () => "roll-up", filling) }, NOW, 1_000);
    small = await pageStatements(SMALL);
    large = await pageStatements(LARGE);
  }, 60_000);

  it("a 30-day report reads the rollup's rows and the open days', not the closed days' orders", () => {
    const rows = (log: Recorded[]) => log.reduce((n, r) => n + r.rowsRead, 0);
    console.log(`rows read by a 30-day owner report: ${rows(small)} at 12 orders a closed day, ${rows(large)} at 120`);
    expect(small.length).toBe(large.length);
    // the same kinds of rows a day (the histograms one row a day); what may differ is which
    // promotions' rows a closed day has, never ten times the deposits
    for (const [i, r] of large.entries()) {
      expect(r.rowsRead, r.sql.replace(/\s+/g, " ").slice(0, 120)).toBeLessThanOrEqual(Math.ceil(small[i]!.rowsRead * 1.2) + 5);
    }
    expect(rows(large)).toBeLessThanOrEqual(rows(small) * 1.2);
    // about a row per kind and day: 28 closed days, whatever their orders
    expect(rows(large)).toBeLessThan(2_000);
  });

  it("never SCANs a table that grows with the agency's history: the page's, the roll-up's and the triggers' statements", async () => {
    const scans: string[] = [];
    const seen = new Set<string>();
    for (const r of [...large, ...filling]) {
      if (seen.has(r.sql)) continue;
      seen.add(r.sql);
      for (const scan of await scansOfBigTables(env.DB, r.sql, r.params)) scans.push(`${r.name}: ${scan}\n  ${r.sql.replace(/\s+/g, " ").slice(0, 200)}`);
    }
    expect(seen.size).toBeGreaterThan(12);
    // each statement of each trigger of migration 0042, its NEW./OLD. columns as bindings
    const { results: triggers } = await env.DB.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'report_days_%'`).all<{
      name: string;
      sql: string;
    }>();
    expect(triggers.length).toBe(12);
    for (const trigger of triggers) {
      const body = trigger.sql.slice(trigger.sql.indexOf("BEGIN") + 5, trigger.sql.lastIndexOf("END"));
      for (const statement of body
        .split(";")
        .map((s) => s.trim())
        .filter(Boolean)) {
        const params: unknown[] = [];
        const sql = statement.replace(/\b(NEW|OLD)\.(\w+)/g, (_, _which, column: string) => {
          params.push(column.endsWith("_at") ? "2026-05-20T03:00:00.000Z" : column === "agency_id" ? LARGE : "x");
          return `?${params.length}`;
        });
        for (const scan of await scansOfBigTables(env.DB, sql, params)) scans.push(`${trigger.name}: ${scan}`);
      }
    }
    expect(scans).toEqual([]);
  });
});
