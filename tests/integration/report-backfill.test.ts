import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedDemo } from "../setup/seed";
import { openOrder, payQr, playerWithBank, postDeposit, pumpDeliveries, qrPayloadOf } from "../setup/money";
import { walletFromFixture } from "../setup/wallet-fixture";
import fixture from "./fixtures/wallet-v3.json";
import { vientianeDate, type ReportRange } from "../../workers/core/report-range";
import worker from "../../workers/app";
import { backfillReadModels, moneyReport, playersReport, promotionsReport } from "../../workers/services/reports";

/**
 * The reports' backfill (migration 0022, decision 019): rows the wallets projected before the
 * migration have none of the new columns; the scheduled job has every such wallet copy its
 * orders and usages again. Tested on a wallet stored by earlier code (the v3 fixture), whose
 * rows are put in D1 as the projection of that time wrote them, and on a wallet of today
 * whose rows are made to look old.
 */

beforeAll(seedDemo);

const fixtureRows = fixture.tables as unknown as {
  deposit_orders: {
    code: string;
    provider: string;
    amount_minor: string;
    credit_minor: string;
    status: string;
    flag: string | null;
    created_at: number;
    paid_at: number | null;
  }[];
  withdraw_orders: {
    code: string;
    provider: string;
    credit_minor: string;
    net_credit_minor: string;
    received_lak_minor: string;
    status: string;
    review: string;
    return_state: string | null;
    reason: string | null;
    created_at: number;
    completed_at: number | null;
  }[];
  promotion_usages: {
    id: string;
    promotion_id: string;
    provider: string;
    status: string;
    deposit_code: string | null;
    bonus_minor: string | null;
    reason: string | null;
    claimed_at: number;
    ended_at: number | null;
  }[];
};
const iso = (ms: number) => new Date(ms).toISOString();
const money2 = (minor: string) => (Number(minor) / 100).toFixed(2); // display text of the old rows only

/** The fixture's rows in D1 exactly as the projection before migration 0022 wrote them (its SQL, its columns). */
async function oldProjection(playerId: string) {
  const t = fixtureRows;
  await env.DB.batch([
    ...t.deposit_orders.map((d) =>
      env.DB.prepare(
        `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`,
      ).bind(d.code, "demo", playerId, d.provider, money2(d.amount_minor), money2(d.credit_minor), d.status, d.flag, iso(d.created_at), iso(d.created_at)),
    ),
    ...t.withdraw_orders.map((w) =>
      env.DB.prepare(
        `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, return_state, reason, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)`,
      ).bind(
        w.code,
        "demo",
        playerId,
        w.provider,
        money2(w.credit_minor),
        money2(w.received_lak_minor),
        w.status,
        w.review,
        w.return_state,
        w.reason,
        iso(w.created_at),
        iso(w.created_at),
      ),
    ),
    ...t.promotion_usages.map((u) =>
      env.DB.prepare(
        `INSERT INTO promotion_usages_view (id, agency_id, player_id, promotion_id, provider, status, deposit_code, bonus, reason, claimed_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`,
      ).bind(
        u.id,
        "demo",
        playerId,
        u.promotion_id,
        u.provider,
        u.status,
        u.deposit_code,
        u.bonus_minor === null ? null : money2(u.bonus_minor),
        u.reason,
        iso(u.claimed_at),
        iso(u.claimed_at),
      ),
    ),
  ]);
}

/** Rows of this player made to look as before the migration: the new columns NULL, version 0. */
async function ageRows(playerId: string) {
  await env.DB.batch([
    env.DB.prepare(
      `UPDATE deposit_orders_view SET channel_code = NULL, amount_minor = NULL, paid_minor = NULL, credit_minor = NULL, bonus_minor = NULL, promotion_id = NULL, paid_at = NULL, projection_version = 0 WHERE player_id = ?1`,
    ).bind(playerId),
    env.DB.prepare(
      `UPDATE withdraw_orders_view SET credit_minor = NULL, deducted_minor = NULL, paid_lak_minor = NULL, promotion_id = NULL, paid_at = NULL, projection_version = 0 WHERE player_id = ?1`,
    ).bind(playerId),
    env.DB.prepare(`UPDATE promotion_usages_view SET used_at = NULL, ended_at = NULL, projection_version = 0 WHERE player_id = ?1`).bind(playerId),
    env.DB.prepare(`UPDATE players SET first_deposit_at = NULL WHERE id = ?1`).bind(playerId),
  ]);
}

/** Runs the Worker's cron handler as Cloudflare would, waiting for what it hands to waitUntil. */
async function cron() {
  const work: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => work.push(p), passThroughOnException: () => undefined, props: {} } as unknown as ExecutionContext;
  await worker.scheduled!({ cron: "*/5 * * * *", scheduledTime: Date.now(), noRetry: () => undefined } as ScheduledController, env, ctx);
  await Promise.all(work);
}

describe("backfill of the reports' read-model columns", () => {
  it("a wallet stored by earlier code (v3) re-projects its rows: paid times, integer amounts, bonus given and deducted, promotion, first deposit", {
    timeout: 90_000,
  }, async () => {
    const w = await walletFromFixture();
    await oldProjection(w.playerId);
    const day = vientianeDate(fixtureRows.deposit_orders[1].paid_at!);
    const range: ReportRange = { from: day, to: day, grouping: "day" };
    // before: the old rows carry nothing the reports read
    expect((await moneyReport(env.DB, "demo", range)).total).toMatchObject({ depositCount: 0, withdrawCount: 0, bonusGiven: 0 });

    await cron();

    const settled = fixtureRows.deposit_orders.find((d) => d.code === fixture.codes.settledDeposit)!;
    expect(await env.DB.prepare(`SELECT * FROM deposit_orders_view WHERE code = ?1`).bind(settled.code).first()).toMatchObject({
      status: "SUCCESS",
      channel_code: "BCEL-QR",
      amount_minor: 6000000,
      paid_minor: 6000000,
      credit_minor: 10000,
      bonus_minor: 5000,
      promotion_id: "deposit-60k-bonus-50",
      paid_at: iso(settled.paid_at!),
      projection_version: 1,
    });
    expect(
      await env.DB.prepare(`SELECT paid_minor, paid_at, projection_version FROM deposit_orders_view WHERE code = ?1`)
        .bind(fixture.codes.cancelledDeposit)
        .first(),
    ).toEqual({
      paid_minor: null,
      paid_at: null,
      projection_version: 1,
    });
    const paid = fixtureRows.withdraw_orders.find((o) => o.code === fixture.codes.paidWithdraw)!;
    expect(await env.DB.prepare(`SELECT * FROM withdraw_orders_view WHERE code = ?1`).bind(paid.code).first()).toMatchObject({
      credit_minor: 15000,
      deducted_minor: 5000,
      paid_lak_minor: 5800000,
      promotion_id: "deposit-60k-bonus-50",
      paid_at: iso(paid.completed_at!),
      projection_version: 1,
    });
    expect(
      await env.DB.prepare(`SELECT paid_at, projection_version FROM withdraw_orders_view WHERE code = ?1`).bind(fixture.codes.waitingWithdraw).first(),
    ).toEqual({ paid_at: null, projection_version: 1 });
    const usage = fixtureRows.promotion_usages.find((u) => u.promotion_id === "deposit-60k-bonus-50")!;
    expect(await env.DB.prepare(`SELECT ended_at, projection_version FROM promotion_usages_view WHERE id = ?1`).bind(usage.id).first()).toEqual({
      ended_at: iso(usage.ended_at!),
      projection_version: 1,
    });
    expect(await env.DB.prepare(`SELECT first_deposit_at FROM players WHERE id = ?1`).bind(w.playerId).first()).toEqual({
      first_deposit_at: iso(settled.paid_at!),
    });

    // and the reports now see that day's money as the wallet's ledger has it
    const report = (await moneyReport(env.DB, "demo", range)).total;
    expect(report).toMatchObject({
      depositCount: 1,
      depositKip: 6000000,
      depositCredit: 10000,
      bonusGiven: 5000,
      withdrawCount: 1,
      withdrawKipPaid: 5800000,
      bonusDeducted: 5000,
    });
    const ledger = await w.wallet.ledgerFor(settled.code);
    expect(ledger.find((l) => l.entry === "paid" && l.account === "bank:receiving")!.amountMinor).toBe(String(report.depositKip));
    expect(ledger.find((l) => l.entry === "bonus" && l.account === "agency:promotion")!.amountMinor).toBe(String(report.bonusGiven));
    expect((await w.wallet.ledgerFor(paid.code)).find((l) => l.entry === "paid-out" && l.account === "agency:promotion")!.amountMinor).toBe(
      String(-report.bonusDeducted),
    );
    expect((await playersReport(env.DB, "demo", range)).total).toMatchObject({ firstDeposits: 1, activeDepositors: 1 });
    expect((await promotionsReport(env.DB, "demo", range)).promotions.find((p) => p.promotionId === "deposit-60k-bonus-50")).toMatchObject({
      claims: 1,
      cancelled: 1,
      bonusGiven: 5000,
      bonusDeducted: 5000,
      bonusCost: 0,
    });
  });

  it("a wallet of today whose rows look old is re-projected the same; rows no wallet owns are set aside; a second run has nothing to do", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "120000", provider: "betflix" });
    const order = (await openOrder(p.cookie))!;
    await payQr(await qrPayloadOf(p.wallet, order.code));
    await pumpDeliveries();
    await p.wallet.runDueWork();
    const fresh = await env.DB.prepare(`SELECT * FROM deposit_orders_view WHERE code = ?1`).bind(order.code).first<Record<string, unknown>>();
    expect(fresh).toMatchObject({ status: "SUCCESS", paid_minor: 12000000, credit_minor: 20000, projection_version: 1 });
    const firstDeposit = await env.DB.prepare(`SELECT first_deposit_at FROM players WHERE id = ?1`).bind(p.playerId).first<{ first_deposit_at: string }>();
    expect(firstDeposit!.first_deposit_at).toBe(fresh!.paid_at);

    await ageRows(p.playerId);
    // a row no wallet owns (written by hand)
    await env.DB.prepare(
      `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, created_at, updated_at) VALUES ('DHAND1', 'demo', 'nobody', 'askmebet', '1.00', '0.01', 'SUCCESS', ?1, ?1)`,
    )
      .bind(new Date().toISOString())
      .run();

    const first = await backfillReadModels(env);
    expect(first.failed).toBe(0);
    expect(first.wallets).toBeGreaterThanOrEqual(2);
    const after = await env.DB.prepare(`SELECT * FROM deposit_orders_view WHERE code = ?1`).bind(order.code).first<Record<string, unknown>>();
    expect({ ...after, updated_at: null }).toEqual({ ...fresh, updated_at: null });
    expect(await env.DB.prepare(`SELECT first_deposit_at FROM players WHERE id = ?1`).bind(p.playerId).first()).toEqual(firstDeposit);
    expect(await env.DB.prepare(`SELECT projection_version FROM deposit_orders_view WHERE code = 'DHAND1'`).first()).toEqual({ projection_version: -1 });

    expect(await backfillReadModels(env)).toEqual({ wallets: 0, done: 0, failed: 0 });
  });
});
