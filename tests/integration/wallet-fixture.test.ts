import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { seedDemo } from "../setup/seed";
import { providerBalance } from "../setup/money";
import { walletFromFixture } from "../setup/wallet-fixture";
import fixture from "./fixtures/wallet-v3.json";

/**
 * Compatibility of the wallet's storage across code changes. `fixtures/wallet-v3.json` is
 * a wallet's SQLite storage (every table's rows and the schema) as the PlayerWallet of
 * commit 3022d6d left it after real activity through the portal: a claim cancelled, a
 * deposit cancelled, a deposit with a promotion settled (bonus credited), a withdrawal under
 * the promotion paid out (bonus deducted, usage ended), one above the automatic threshold
 * waiting for staff; and what the wallet's RPC methods answered from that storage then.
 * A fresh wallet is given those rows as they were stored; today's code must read them the
 * same way and carry on from them. (Produced by driving a player through the routes as the
 * promotion/withdraw tests do, then dumping `sqlite_master` and `SELECT *` of each table.)
 */

beforeAll(seedDemo);

describe("a wallet stored by earlier code", () => {
  it("has the same schema (tables, columns, indexes, triggers) and schema version, upgraded by the steps added since", async () => {
    const w = await walletFromFixture();
    expect(w.stored).toEqual(fixture.schema);
    // v4 (own-account channels): deposit_orders gains pay_amount_minor; deposit_arrows gains CANCELED -> PAID for such orders
    const upgraded = (fixture.schema as { type: string; name: string; tbl_name: string; sql: string }[]).map((o) => {
      if (o.name === "deposit_orders") return { ...o, sql: o.sql.replace(/\)$/, ", pay_amount_minor TEXT)") };
      // v9 (holds, decision 094): a usage's hold for review
      if (o.name === "promotion_usages") return { ...o, sql: o.sql.replace(/\)$/, ", hold TEXT CHECK (hold IN ('HELD','RELEASED','REFUSED')))") };
      if (o.name === "deposit_arrows")
        return {
          ...o,
          sql: expect.stringContaining("(OLD.status = 'CANCELED' AND NEW.status = 'PAID' AND OLD.gateway_txn IS NULL AND NEW.pay_amount_minor IS NOT NULL)"),
        };
      return o;
    });
    // v5 (rewards, decision 029): a new table and its transition trigger, nothing else changed
    const schema = w.schema as { type: string; name: string; tbl_name: string }[];
    expect(
      schema
        .filter((o) => o.tbl_name === "rewards")
        .map((o) => `${o.type} ${o.name}`)
        .sort(),
    ).toEqual(["table rewards", "trigger reward_arrows"]);
    // v7 (provider attempts, decision 049): the outbox table, nothing else changed
    expect(schema.filter((o) => o.tbl_name === "provider_attempts").map((o) => `${o.type} ${o.name}`)).toEqual(["table provider_attempts"]);
    expect(schema.filter((o) => o.tbl_name !== "rewards" && o.tbl_name !== "provider_attempts")).toEqual(upgraded);
    const version = await runInDurableObject(
      w.wallet,
      (_object, state) => state.storage.sql.exec(`SELECT value FROM meta WHERE key = 'schemaVersion'`).one().value,
    );
    // v6 (staff retry of a FAILED reward, decision 029): three columns and the trigger's FAILED -> PENDING, on the rewards table only;
    // v8 (check-in and streak, decision 095): the table rebuilt with the two new kinds, the same columns
    const rewards = schema.find((o) => o.name === "rewards") as { sql: string } | undefined;
    expect(rewards?.sql).toMatch(/released_key TEXT,\s+reference TEXT,\s+retries INTEGER NOT NULL DEFAULT 0\s*\)$/);
    expect(rewards?.sql).toContain("CHECK (kind IN ('CASHBACK','REFERRAL','CHECKIN','STREAK'))");
    expect((schema.find((o) => o.name === "reward_arrows") as { sql: string } | undefined)?.sql).toContain(
      "(OLD.status = 'FAILED' AND NEW.status = 'PENDING')",
    );
    expect(version).toBe("9");
  });

  it("reads its orders, promotion usages and ledger as before", async () => {
    const w = await walletFromFixture();
    const { codes, expected } = fixture;
    expect(await w.wallet.listDeposits(1, 50)).toEqual(expected.deposits);
    expect(await w.wallet.listWithdraws(1, 50)).toEqual(expected.withdraws);
    // a usage stored before holds (decision 094) was never held
    const unheld = <T>(usage: T) => (usage === null ? null : { ...usage, hold: null });
    expect(await w.wallet.listUsages(1, 50)).toEqual({ ...expected.usages, items: expected.usages.items.map(unheld) });
    expect(await w.wallet.activeUsage()).toEqual(unheld(expected.activeUsage));
    expect(await w.wallet.openWithdraws()).toEqual(expected.openWithdraws);
    expect(await w.wallet.ledgerTotals()).toEqual(expected.ledgerTotals);
    for (const [code, lines] of Object.entries(expected.ledger)) expect(await w.wallet.ledgerFor(code)).toEqual(lines);
    expect(await w.wallet.settlementRetries(codes.settledDeposit)).toBe(expected.settlementRetries);
    expect(await w.wallet.getDeposit(codes.settledDeposit)).toEqual(expected.deposits.items.find((d) => d.code === codes.settledDeposit));
    expect(await w.wallet.getWithdraw(codes.waitingWithdraw)).toEqual(expected.withdraws.items.find((o) => o.code === codes.waitingWithdraw));
    expect(await w.wallet.getUsage(codes.cancelledUsage)).toEqual(unheld(expected.usages.items.find((u) => u.id === codes.cancelledUsage)));
    // what was announced stays announced; what was not is announced once
    expect(await w.wallet.takeSettledNotices()).toEqual([]);
    expect((await w.wallet.takeWithdrawNotices()).map((o) => o.code)).toEqual([codes.paidWithdraw]);
    expect(await w.wallet.takeWithdrawNotices()).toEqual([]);
  });

  it("finishes the withdrawal left waiting for staff: paid once, ledger balanced, projected to D1", async () => {
    const w = await walletFromFixture();
    const code = fixture.codes.waitingWithdraw;
    expect(await w.wallet.getWithdraw(code)).toMatchObject({ status: "OPEN", review: "MANUAL", payoutState: null });
    const paid = await w.wallet.decideWithdraw(code, { by: "staff", action: "paid", bankReference: "BCEL-FIXTURE-1" }, Date.now());
    expect(paid.kind).toBe("applied");
    expect(paid.before).toMatchObject({ status: "OPEN" });
    expect(paid.order).toMatchObject({ status: "SUCCESS", credit: "6000.00", completedAt: expect.any(Number) });
    const again = await w.wallet.decideWithdraw(code, { by: "staff", action: "paid", bankReference: "BCEL-FIXTURE-1" }, Date.now());
    expect(again.kind).toBe("duplicate");
    const other = await w.wallet.decideWithdraw(code, { by: "staff", action: "reject", reason: "LATE" }, Date.now());
    expect(other.kind).toBe("refused");
    expect((await w.wallet.ledgerFor(code)).map((l) => `${l.entry} ${l.account} ${l.currency} ${l.amountMinor}`)).toEqual([
      "taken provider:betflix THB 600000",
      "taken player:withdraw-pending THB -600000",
      "paid-out player:withdraw-pending THB 600000",
      "paid-out fx:conversion THB -600000",
      "paid-out fx:conversion LAK 348000000",
      "paid-out bank:payout LAK -348000000",
    ]);
    expect(await w.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
    expect(await w.wallet.openWithdraws()).toEqual([]);
    await w.wallet.runDueWork();
    const view = await env.DB.prepare(`SELECT agency_id, player_id, provider, status, review FROM withdraw_orders_view WHERE code = ?1`).bind(code).first();
    expect(view).toEqual({ agency_id: "demo", player_id: w.playerId, provider: "betflix", status: "SUCCESS", review: "MANUAL" });
  });

  it("takes a new deposit on top of the old ones: settled once at the provider; the used promotion cannot be claimed again", async () => {
    const w = await walletFromFixture();
    const now = Date.now();
    const code = `DFX${String(now).slice(-9)}`;
    const opened = await w.wallet.openDeposit({
      idempotencyKey: crypto.randomUUID(),
      code,
      provider: "askmebet",
      channelCode: "BCEL-QR",
      amountMinor: 6_000_000n,
      creditMinor: 10_000n,
      rateSell: 600_000_000n,
      expiresAt: now + 15 * 60_000,
      now,
      creditAtProviderMinor: null,
    });
    expect(opened.kind).toBe("created");
    // an old idempotency key still finds its old order
    const repeat = await w.wallet.openDeposit({
      idempotencyKey: fixture.tables.deposit_orders.find((o) => o.code === fixture.codes.settledDeposit)!.idempotency_key,
      code: `DFY${String(now).slice(-9)}`,
      provider: "askmebet",
      channelCode: "BCEL-QR",
      amountMinor: 6_000_000n,
      creditMinor: 10_000n,
      rateSell: 600_000_000n,
      expiresAt: now + 15 * 60_000,
      now,
      creditAtProviderMinor: null,
    });
    expect(repeat).toMatchObject({ kind: "existing", order: { code: fixture.codes.settledDeposit, status: "SUCCESS" } });
    expect((await w.wallet.markPaid(code, { transactionId: `TFX${now}`, amount: "60000" }, now)).kind).toBe("paid");
    expect((await w.wallet.markPaid(code, { transactionId: `TFX${now}`, amount: "60000" }, now)).kind).toBe("duplicate");
    await w.wallet.runDueWork(now);
    await w.wallet.runDueWork(now + 60_000);
    expect(await w.wallet.getDeposit(code)).toMatchObject({ status: "SUCCESS", credit: "100.00" });
    expect(await providerBalance("askmebet", w.username)).toBe("100.00");
    expect(await w.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
    expect((await w.wallet.listDeposits(1, 50)).total).toBe(3);
    const view = await env.DB.prepare(`SELECT player_id, status FROM deposit_orders_view WHERE code = ?1`).bind(code).first();
    expect(view).toEqual({ player_id: w.playerId, status: "SUCCESS" });

    const used = fixture.expected.usages.items.find((u) => u.promotionId === "deposit-60k-bonus-50")!;
    const claim = await w.wallet.claimPromotion({
      usageId: crypto.randomUUID(),
      promotionId: used.promotionId,
      provider: "askmebet",
      rules: used.rules as never,
      facts: { promotionActive: true, enabledProviders: ["askmebet"], hasBankAccount: true, creditAtProviderMinor: 0n },
      now: Date.now(),
    });
    expect(claim).toEqual({ ok: false, error: "PROMOTION_ALREADY_USED" });
    // another promotion may be claimed, on the storage the old code left
    const daily = fixture.expected.usages.items.find((u) => u.promotionId === "daily-10")!;
    const claimed = await w.wallet.claimPromotion({
      usageId: crypto.randomUUID(),
      promotionId: daily.promotionId,
      provider: "betflix",
      rules: daily.rules as never,
      facts: { promotionActive: true, enabledProviders: ["betflix"], hasBankAccount: true, creditAtProviderMinor: 0n },
      now: Date.now(),
    });
    expect(claimed).toMatchObject({ ok: true, usage: { status: "CLAIMED", promotionId: "daily-10" } });
  });
});
