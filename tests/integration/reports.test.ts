import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { firstListPage } from "../../workers/core/keyset";
import { seedDemo } from "../setup/seed";
import { postForm } from "../setup/players";
import {
  openOrder,
  payOutNow,
  payQr,
  playerWithBank,
  postDeposit,
  postWithdraw,
  pumpDeliveries,
  qrPayloadOf,
  sandboxProvider,
  signedWebhook,
} from "../setup/money";
import { depositCredit, formatAmount, parseAmount, parseRate, withdrawPayout, type Rate } from "../../workers/core/money";
import { periodOf, presetRange, type ReportRange } from "../../workers/core/report-range";
import type { AuditActor } from "../../workers/db/audit";
import { findPromotion } from "../../workers/db/promotions";
import { listUnmatched, resolveAsRefunded, resolveWithCredit } from "../../workers/services/bank-in";
import { findAgencyByHost } from "../../workers/services/agency";
import { loadDashboard, moneyReport, playersReport, promotionsReport, type MoneyRow } from "../../workers/services/reports";
import type { Provider } from "../../workers/core/providers";

/**
 * Decision 019: every figure of the reports against known activity over several days. Past days
 * are driven through real wallets with their own clock (the wallet's commands take `now`: the
 * deposit's paid time, the payout's time), today's through the routes and the staff services
 * (manual credit, refund, a promotion with its bonus given and taken back). Each period's
 * totals must equal what was created, and agree with those players' wallet ledgers.
 */

const RATE: Rate = { currency: "THB", buy: parseRate("580")!, sell: parseRate("600")! }; // scripts/seed.sql
const staff: AuditActor = { agencyId: "demo", staffId: "staff-r", staffUsername: "cashier-r", ip: "10.200.9.1", userAgent: "vitest" };
type Player = Awaited<ReturnType<typeof playerWithBank>>;

/** ms of a Vientiane wall-clock time 'YYYY-MM-DDTHH:MM:SS(.sss)'. */
const vte = (local: string) => Date.parse(`${local}+07:00`);
const kip = (text: string) => Number(parseAmount(text, "LAK"));
const thb = (text: string) => Number(parseAmount(text, "THB"));

let seq = 0;
const newCode = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase().slice(-5)}${(++seq).toString().padStart(3, "0")}`;

/** What the test created, to check the reports against the wallets' ledgers. */
const created: { p: Player; code: string; kind: "deposit" | "manual" | "withdraw"; at: number }[] = [];

async function registeredAt(p: Player, at: number) {
  await env.DB.prepare(`UPDATE players SET created_at = ?1 WHERE id = ?2`).bind(new Date(at).toISOString(), p.playerId).run();
}

async function player(registered: number): Promise<Player> {
  const p = await playerWithBank();
  await p.wallet.identify("demo", p.playerId, p.username, "http://localhost");
  await registeredAt(p, registered);
  return p;
}

/** A deposit opened and paid at `at` (the wallet's clock), then settled at the provider. */
async function depositAt(p: Player, o: { provider: Provider; amount: string; at: number; pay?: string; creditAtProvider?: bigint }) {
  const code = newCode("RD");
  const amountMinor = parseAmount(o.amount, "LAK")!;
  const opened = await p.wallet.openDeposit({
    idempotencyKey: code,
    code,
    provider: o.provider,
    channelCode: "BCEL-QR",
    amountMinor,
    creditMinor: depositCredit(amountMinor, RATE),
    rateSell: RATE.sell,
    // expiry is not what this test is about: an order already past its expiry by the wall
    // clock would be lapsed by the wallet's alarm before it is paid
    expiresAt: Date.now() + 60 * 60_000,
    now: o.at,
    creditAtProviderMinor: o.creditAtProvider ?? null,
    payAmountMinor: o.pay ? parseAmount(o.pay, "LAK")! : null,
  });
  expect(opened.kind).toBe("created");
  expect((await p.wallet.markPaid(code, { transactionId: `TX${code}`, amount: o.pay ?? o.amount }, o.at)).kind).toBe("paid");
  await p.wallet.runDueWork(o.at);
  await p.wallet.runDueWork(); // a bonus is credited at the wall clock's now
  expect((await p.wallet.getDeposit(code))!.status).toBe("SUCCESS");
  created.push({ p, code, kind: "deposit", at: o.at });
  return code;
}

/** A withdrawal created at `at` (credit taken at once), then paid (or rejected) by staff at `decided`. */
async function withdrawAt(p: Player, o: { provider: Provider; credit: string; at: number; decided: number; reject?: boolean }) {
  const code = newCode("RW");
  const creditMinor = parseAmount(o.credit, "THB")!;
  const opened = await p.wallet.openWithdraw({
    idempotencyKey: code,
    code,
    provider: o.provider,
    creditMinor,
    netCreditMinor: creditMinor,
    receivedLakMinor: withdrawPayout(creditMinor, RATE),
    rateBuy: RATE.buy,
    bankCode: "BCEL",
    accountNumber: "0101234567890",
    accountName: "Test Player",
    review: "MANUAL",
    now: o.at,
    promotion: null,
  });
  expect(opened.kind).toBe("created");
  // the transfer-out at the provider, under the order code (as the withdraw service does it)
  const out = await sandboxProvider(`/api/${o.provider}/withdraw`, {
    method: "POST",
    body: JSON.stringify({ username: `demo_${p.username}`, amount: o.credit, transactionRef: code }),
  });
  expect(out.ok).toBe(true);
  await p.wallet.transferOutResult(code, "ok", o.at);
  const decision = o.reject
    ? ({ by: "staff", action: "reject", reason: "KYC" } as const)
    : ({ by: "staff", action: "paid", bankReference: `BR${code}` } as const);
  expect((await p.wallet.decideWithdraw(code, decision, o.decided)).kind).toBe("applied");
  await p.wallet.runDueWork(o.decided);
  expect((await p.wallet.getWithdraw(code))!.status).toBe(o.reject ? "REJECTED" : "SUCCESS");
  if (!o.reject) created.push({ p, code, kind: "withdraw", at: o.decided });
  return code;
}

/** The report's figures recomputed from the wallets' ledgers of what was created in [from, to). */
async function fromLedgers(
  from: number,
  to: number,
): Promise<
  Pick<MoneyRow, "depositKip" | "depositCredit" | "withdrawCredit" | "withdrawKipPaid" | "bonusGiven" | "bonusDeducted" | "manualCredit" | "manualCreditKip">
> {
  const sums = { depositKip: 0, depositCredit: 0, withdrawCredit: 0, withdrawKipPaid: 0, bonusGiven: 0, bonusDeducted: 0, manualCredit: 0, manualCreditKip: 0 };
  for (const c of created.filter((c) => c.at >= from && c.at < to)) {
    const lines = await c.p.wallet.ledgerFor(c.code);
    const sum = (entry: string, account: string, currency: string) =>
      lines.filter((l) => l.entry === entry && l.account === account && l.currency === currency).reduce((n, l) => n + Number(l.amountMinor), 0);
    if (c.kind === "deposit") {
      sums.depositKip += sum("paid", "bank:receiving", "LAK");
      sums.depositCredit += sum("credited", "fx:conversion", "THB");
      sums.bonusGiven += sum("bonus", "agency:promotion", "THB");
    } else if (c.kind === "manual") {
      sums.manualCreditKip += sum("paid", "bank:receiving", "LAK");
      sums.manualCredit += sum("credited", "fx:conversion", "THB");
    } else {
      sums.withdrawCredit += sum("paid-out", "player:withdraw-pending", "THB");
      sums.withdrawKipPaid += -sum("paid-out", "bank:payout", "LAK");
      sums.bonusDeducted += -sum("paid-out", "agency:promotion", "THB");
    }
  }
  return sums;
}

const DAYS: ReportRange = { from: "2026-06-10", to: "2026-06-12", grouping: "day" };
let a: Player, b: Player, c: Player, d: Player;

beforeAll(async () => {
  await seedDemo();
  a = await player(vte("2026-06-10T08:00:00"));
  b = await player(vte("2026-06-09T12:00:00")); // registered before the range
  c = await player(vte("2026-06-11T09:00:00")); // never deposits
  d = await player(vte("2026-06-12T23:59:59.000"));

  // 06-10: A's first deposit, the last second of the day
  await depositAt(a, { provider: "askmebet", amount: "60000", at: vte("2026-06-10T23:59:59.999") });
  // a cancelled deposit counts nowhere
  const cancelled = newCode("RC");
  await a.wallet.openDeposit({
    idempotencyKey: cancelled,
    code: cancelled,
    provider: "askmebet",
    channelCode: "BCEL-QR",
    amountMinor: 9_000_000n,
    creditMinor: 15_000n,
    rateSell: RATE.sell,
    expiresAt: Date.now() + 3_600_000,
    now: vte("2026-06-10T20:00:00"),
    creditAtProviderMinor: null,
  });
  await a.wallet.cancelDeposit(cancelled, "PLAYER", vte("2026-06-10T20:01:00"));
  // a withdrawal created on the 10th, paid on the 11th: it counts on the 11th
  await withdrawAt(a, { provider: "askmebet", credit: "50.00", at: vte("2026-06-10T21:00:00"), decided: vte("2026-06-11T10:00:00") });

  // 06-11: A again at midnight sharp; B's first deposit on an own-account amount (pays 60,003 for 60,000 asked)
  await depositAt(a, { provider: "betflix", amount: "120000", at: vte("2026-06-11T00:00:00") });
  await depositAt(b, { provider: "askmebet", amount: "60000", pay: "60003", at: vte("2026-06-11T14:30:00") });
  await withdrawAt(b, { provider: "askmebet", credit: "30.00", at: vte("2026-06-11T15:00:00"), decided: vte("2026-06-12T10:00:00") });
  await withdrawAt(b, { provider: "askmebet", credit: "20.00", at: vte("2026-06-11T15:10:00"), decided: vte("2026-06-11T15:20:00"), reject: true });

  // 06-12: B claims daily-10 (10% bonus) for betflix and deposits 120,000 (credit 200, bonus 20)
  const daily = (await findPromotion(env.DB, "demo", "daily-10"))!;
  const claimed = await b.wallet.claimPromotion({
    usageId: `U${newCode("")}`,
    promotionId: "daily-10",
    provider: "betflix",
    rules: daily.rules,
    facts: { promotionActive: true, enabledProviders: ["askmebet", "betflix"], hasBankAccount: true, creditAtProviderMinor: 0n },
    now: vte("2026-06-12T09:00:00"),
  });
  expect(claimed.ok).toBe(true);
  await depositAt(b, { provider: "betflix", amount: "120000", at: vte("2026-06-12T09:05:00"), creditAtProvider: 0n });
  // D registers and deposits in the last second of the 12th
  await depositAt(d, { provider: "gclub", amount: "30000", at: vte("2026-06-12T23:59:59.500") });
  // the next day is outside the range
  await depositAt(c, { provider: "gclub", amount: "30000", at: vte("2026-06-13T00:00:00") });
}, 120_000);

describe("reports over past days (wallets driven with their own clock)", () => {
  it("money per day: each day's deposits, withdrawals, bonus and net equal what was created, by paid time", async () => {
    const report = await moneyReport(env.DB, "demo", DAYS);
    expect(report.periods.map((p) => p.period)).toEqual(["2026-06-10", "2026-06-11", "2026-06-12"]);
    const [d10, d11, d12] = report.periods;
    expect(d10).toMatchObject({
      depositCount: 1,
      depositKip: kip("60000"),
      depositCredit: thb("100"),
      withdrawCount: 0,
      withdrawKipPaid: 0,
      netKip: kip("60000"),
      bonusGiven: 0,
    });
    // 120,000 + the 60,003 the bank received (credit follows the 60,000 asked); A's withdrawal of 50 paid 29,000
    expect(d11).toMatchObject({
      depositCount: 2,
      depositKip: kip("180003"),
      depositCredit: thb("300"),
      withdrawCount: 1,
      withdrawCredit: thb("50"),
      withdrawKipPaid: kip("29000"),
      netKip: kip("151003"),
    });
    // B's promotion deposit (bonus 20 counted with it) and D's; B's 30 paid (17,400); the rejected one nowhere
    expect(d12).toMatchObject({
      depositCount: 2,
      depositKip: kip("150000"),
      depositCredit: thb("250"),
      withdrawCount: 1,
      withdrawCredit: thb("30"),
      withdrawKipPaid: kip("17400"),
      bonusGiven: thb("20"),
      bonusDeducted: 0,
      netKip: kip("132600"),
    });
    expect(report.total).toMatchObject({
      period: "2026-06-10/2026-06-12",
      depositCount: 5,
      depositKip: kip("390003"),
      withdrawCount: 2,
      withdrawKipPaid: kip("46400"),
      bonusGiven: thb("20"),
      netKip: kip("343603"),
    });
    for (const key of ["depositCount", "depositKip", "depositCredit", "withdrawCount", "withdrawCredit", "withdrawKipPaid", "bonusGiven", "netKip"] as const) {
      expect(report.total[key], key).toBe(report.periods.reduce((n, p) => n + p[key], 0));
      expect(report.total[key], key).toBe(report.byProvider.reduce((n, p) => n + p[key], 0));
    }
    expect(report.byProvider.map((p) => p.provider)).toEqual(["askmebet", "betflix", "gclub"]);
    expect(report.byProvider.find((p) => p.provider === "askmebet")).toMatchObject({
      depositCount: 2,
      depositKip: kip("120003"),
      withdrawCount: 2,
      withdrawKipPaid: kip("46400"),
    });
    expect(report.byProvider.find((p) => p.provider === "betflix")).toMatchObject({ depositCount: 2, depositKip: kip("240000"), bonusGiven: thb("20") });
    // integers, never decimal text
    for (const value of Object.values(report.total)) if (typeof value === "number") expect(Number.isInteger(value)).toBe(true);
  });

  it("agrees with the players' wallet ledgers, day by day", async () => {
    const report = await moneyReport(env.DB, "demo", DAYS);
    for (const row of report.periods) {
      const start = vte(`${row.period}T00:00:00`);
      const ledgers = await fromLedgers(start, start + 86_400_000);
      expect(row, row.period).toMatchObject(ledgers);
    }
  });

  it("by hour for one day: the Vientiane hours 00..23, midnight sharp in hour 00", async () => {
    const report = await moneyReport(env.DB, "demo", { from: "2026-06-11", to: "2026-06-11", grouping: "hour" });
    expect(report.periods).toHaveLength(24);
    const hour = (h: string) => report.periods.find((p) => p.period === `2026-06-11T${h}`)!;
    expect(hour("00")).toMatchObject({ depositCount: 1, depositKip: kip("120000") });
    expect(hour("10")).toMatchObject({ withdrawCount: 1, withdrawKipPaid: kip("29000") });
    expect(hour("14")).toMatchObject({ depositCount: 1, depositKip: kip("60003") });
    expect(report.periods.filter((p) => p.depositCount + p.withdrawCount > 0)).toHaveLength(3);
    expect(report.total).toMatchObject({ depositCount: 2, withdrawCount: 1, netKip: kip("151003") });
  });

  it("players per day: registrations, first deposits, conversion, active and returning depositors", async () => {
    const report = await playersReport(env.DB, "demo", DAYS);
    expect(report.periods).toEqual([
      // A registered and deposited the same day
      { period: "2026-06-10", registrations: 1, firstDeposits: 1, conversion: 1, activeDepositors: 1, returningDepositors: 0 },
      // C registered, did not deposit; B's first deposit (registered on the 9th); A deposited again
      { period: "2026-06-11", registrations: 1, firstDeposits: 1, conversion: 0, activeDepositors: 2, returningDepositors: 1 },
      // D registered and deposited in the day's last second; B deposited again
      { period: "2026-06-12", registrations: 1, firstDeposits: 1, conversion: 1, activeDepositors: 2, returningDepositors: 1 },
    ]);
    // over the range: A, C, D registered; A, B, D deposited first (A and D of those registered); nobody deposited before
    expect(report.total).toEqual({
      period: "2026-06-10/2026-06-12",
      registrations: 3,
      firstDeposits: 3,
      conversion: 2 / 3,
      activeDepositors: 3,
      returningDepositors: 0,
    });
    const oneDay = await playersReport(env.DB, "demo", { from: "2026-06-13", to: "2026-06-13", grouping: "day" });
    expect(oneDay.total).toMatchObject({ registrations: 0, conversion: null, firstDeposits: 1, activeDepositors: 1, returningDepositors: 0 });
  });

  it("promotions: the claim and its bonus counted on their days", async () => {
    const report = await promotionsReport(env.DB, "demo", DAYS);
    const daily = report.promotions.find((p) => p.promotionId === "daily-10")!;
    expect(daily).toMatchObject({ claims: 1, completed: 0, cancelled: 0, bonusGiven: thb("20"), bonusDeducted: 0, bonusCost: thb("20") });
    expect(daily.title.lo).toBeTruthy();
    expect(typeof daily.title).toBe("object");
    const before = await promotionsReport(env.DB, "demo", { from: "2026-06-01", to: "2026-06-11", grouping: "day" });
    expect(before.promotions.find((p) => p.promotionId === "daily-10")).toMatchObject({ claims: 0, bonusGiven: 0 });
    // every active promotion is listed, even without activity
    expect(before.promotions.map((p) => p.promotionId)).toEqual(expect.arrayContaining(["welcome-100", "deposit-60k-bonus-50", "daily-10"]));
    expect(before.promotions.map((p) => p.promotionId)).not.toContain("songkran"); // inactive and no activity
  });
});

describe("today: manual credits, refunds, a promotion given and taken back, and the dashboard", () => {
  let today: ReportRange;
  let manualCode = "";
  let promoDeposit = "";
  let promoWithdraw = "";
  let startOfToday = 0;

  beforeAll(async () => {
    // Two payments that matched no order: one credited by hand, one refunded.
    const e = await playerWithBank();
    const agency = (await findAgencyByHost(env.DB, "localhost"))!;
    for (const [reference, amount] of [
      ["NOORDER1", "30000"],
      ["NOORDER2", "45000"],
    ]) {
      const res = await signedWebhook({
        event: "payment.succeeded",
        reference,
        transactionId: `TU${reference}${Date.now()}`,
        amount,
        currency: "LAK",
        paidAt: new Date().toISOString(),
      });
      expect(res.status).toBe(200);
    }
    const queue = (await listUnmatched(env.DB, "demo", { ask: firstListPage(50) })).items;
    const credited = await resolveWithCredit(env, agency, staff, queue.find((i) => i.reference === "NOORDER1")!.id, {
      username: e.username,
      provider: "betflix",
    });
    expect(credited.ok).toBe(true);
    manualCode = credited.ok ? credited.order.code : "";
    await e.wallet.runDueWork();
    created.push({ p: e, code: manualCode, kind: "manual", at: Date.now() });
    expect((await resolveAsRefunded(env, staff, queue.find((i) => i.reference === "NOORDER2")!.id, "sent back by BCEL")).ok).toBe(true);

    // A promotion through the routes: claim, deposit 60,000 (bonus 50), withdraw all before the turnover (50 taken back).
    const f = await playerWithBank();
    expect((await postForm("/player/promotion/deposit-60k-bonus-50", { intent: "claim", provider: "askmebet" }, { cookie: f.cookie })).status).toBe(302);
    expect((await postDeposit(f.cookie, { provider: "askmebet", amount: "60000" })).status).toBe(302);
    promoDeposit = (await openOrder(f.cookie))!.code;
    await payQr(await qrPayloadOf(f.wallet, promoDeposit));
    await pumpDeliveries();
    await f.wallet.runDueWork();
    await f.wallet.runDueWork(Date.now() + 60_000);
    expect((await f.wallet.getDeposit(promoDeposit))!.bonusState).toBe("DONE");
    created.push({ p: f, code: promoDeposit, kind: "deposit", at: Date.now() });
    expect((await postWithdraw(f.cookie, { all: true })).status).toBe(302);
    promoWithdraw = (await f.wallet.listWithdraws(1, 1)).items[0]!.code;
    await payOutNow(f.wallet, promoWithdraw);
    expect((await f.wallet.getWithdraw(promoWithdraw))!.status).toBe("SUCCESS");
    await f.wallet.runDueWork();
    created.push({ p: f, code: promoWithdraw, kind: "withdraw", at: Date.now() });

    // A claim cancelled by its player.
    const g = await playerWithBank();
    await postForm("/player/promotion/deposit-60k-bonus-50", { intent: "claim", provider: "askmebet" }, { cookie: g.cookie });
    const usage = (await g.wallet.activeUsage())!;
    expect((await postForm("/player/promotion", { intent: "cancel", usageId: usage.id }, { cookie: g.cookie })).status).toBe(302);
    await g.wallet.runDueWork();

    today = presetRange("today", new Date());
    startOfToday = vte(`${today.from}T00:00:00`);
  }, 120_000);

  it("manual credits and refunds are reported apart from deposits; net cash counts the manual credit's kip", async () => {
    const report = await moneyReport(env.DB, "demo", { ...today, grouping: "day" });
    expect(report.total).toMatchObject({
      manualCount: 1,
      manualCreditKip: kip("30000"),
      manualCredit: thb("50"),
      refundCount: 1,
      refundKip: kip("45000"),
      depositCount: 1, // the promotion's deposit; the manual credit is not a deposit
      depositKip: kip("60000"),
      bonusGiven: thb("50"),
      bonusDeducted: thb("50"),
      withdrawCount: 1,
      withdrawCredit: thb("150"),
      withdrawKipPaid: kip("58000"),
      netKip: kip("60000") + kip("30000") - kip("58000"),
    });
    expect(report.byProvider.find((p) => p.provider === "betflix")).toMatchObject({ manualCount: 1, manualCredit: thb("50"), refundKip: 0 });
    expect(report.total).toMatchObject(await fromLedgers(startOfToday, startOfToday + 86_400_000));
    // by hour, the same total
    const hourly = await moneyReport(env.DB, "demo", today);
    expect(hourly.periods).toHaveLength(24);
    expect(hourly.total).toEqual({ ...report.total });
    expect(hourly.periods.reduce((n, p) => n + p.refundCount, 0)).toBe(1);
    expect(hourly.periods.find((p) => p.period === periodOf(Date.now(), "hour"))).toBeDefined();
  });

  it("promotions: claims, completed, cancelled and the bonus cost (given minus taken back)", async () => {
    const report = await promotionsReport(env.DB, "demo", today);
    expect(report.promotions.find((p) => p.promotionId === "deposit-60k-bonus-50")).toMatchObject({
      claims: 2,
      completed: 0,
      cancelled: 2,
      bonusGiven: thb("50"),
      bonusDeducted: thb("50"),
      bonusCost: 0,
    });
    const money = await moneyReport(env.DB, "demo", today);
    expect(report.promotions.reduce((n, p) => n + p.bonusCost, 0)).toBe(money.total.bonusGiven - money.total.bonusDeducted);
  });

  it("the dashboard's today is the reports' today: the same figures", async () => {
    const dashboard = await loadDashboard(env.DB, "demo");
    const money = (await moneyReport(env.DB, "demo", { ...today, grouping: "day" })).total;
    expect(dashboard.date).toBe(today.from);
    expect(dashboard.deposits).toEqual({
      count: money.depositCount,
      amountLak: formatAmount(BigInt(money.depositKip), "LAK"),
      credit: formatAmount(BigInt(money.depositCredit), "THB"),
    });
    expect(dashboard.withdrawals).toEqual({
      count: money.withdrawCount,
      credit: formatAmount(BigInt(money.withdrawCredit), "THB"),
      paidLak: formatAmount(BigInt(money.withdrawKipPaid), "LAK"),
    });
    expect(dashboard.deposits).toEqual({ count: 1, amountLak: "60000.00", credit: "100.00" });
  });

  it("players registered today, and their first deposits", async () => {
    const report = await playersReport(env.DB, "demo", { ...today, grouping: "day" });
    // e, f, g registered today (playerWithBank) ; f made a first deposit (e's manual credit is not one)
    expect(report.total).toMatchObject({ registrations: 3, firstDeposits: 1, conversion: 1 / 3, activeDepositors: 1, returningDepositors: 0 });
  });
});
