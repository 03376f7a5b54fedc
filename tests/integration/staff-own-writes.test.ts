import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { fetchApp, seedDemo } from "../setup/seed";
import { postForm } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";
import {
  fundProvider,
  openOrder,
  payQr,
  playerWithBank,
  postDeposit,
  postWithdraw,
  pumpDeliveries,
  qrPayloadOf,
  sandboxProvider,
  signedWebhook,
  credited,
} from "../setup/money";
import { claimWalletReward } from "../../workers/services/promotions";
import { firstListPage } from "../../workers/core/keyset";
import { listDeposits, retryDeposit } from "../../workers/services/deposits";
import { listUnmatched, resolveWithCredit } from "../../workers/services/bank-in";
import { findAgencyByHost } from "../../workers/services/agency";
import type { PlayerWallet } from "../../workers/wallet/player-wallet";

/**
 * Staff read their own writes (decision 069): staff lists read the D1 copies of the wallets'
 * rows, which the wallet's alarm writes later. A staff command on a wallet answers only after
 * the copy of what it changed is written, so the page that confirms it shows the new state.
 * In every case here the wallet's alarm is held (it fires, if armed, but does nothing): what
 * D1 holds after the answer was written by the command itself. The due work the setup needs
 * is run by hand (runDueWork, which the hold does not touch).
 */

beforeAll(seedDemo);

const actor = { agencyId: "demo", staffId: null, staffUsername: "own-writes-test", ip: "10.201.0.1", userAgent: "vitest" };

type Wallet = Awaited<ReturnType<typeof playerWithBank>>["wallet"];

/**
 * Holds the wallet's alarm: the instance's alarm handler is replaced by one that only counts,
 * and any armed alarm is deleted. Returns the release, which says whether the same instance
 * was held throughout (an evicted and restarted wallet would have its own alarm back).
 */
async function holdAlarm(wallet: Wallet): Promise<() => Promise<{ held: boolean }>> {
  const mark = Symbol("held");
  await runInDurableObject(wallet, async (object, state) => {
    const instance = object as PlayerWallet & { [mark]?: true };
    instance[mark] = true;
    Object.defineProperty(instance, "alarm", { configurable: true, writable: true, value: async () => {} });
    await state.storage.deleteAlarm();
  });
  return () =>
    runInDurableObject(wallet, (object) => {
      const instance = object as PlayerWallet & { [mark]?: true };
      const held = instance[mark] === true;
      delete instance[mark];
      delete (instance as { alarm?: unknown }).alarm; // the class's own again
      return { held };
    });
}

async function faults(body: object | null) {
  if (body === null) return sandboxProvider("/sandbox/faults", { method: "DELETE" });
  return sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify(body) });
}

async function staffCookie(role: "owner" | "cashier") {
  const username = `ow-${role}-${crypto.randomUUID().slice(0, 6)}`;
  const created = await createStaff(env, { agencyId: "demo", username, password: "own-writes-pass-1234", role });
  return staffLogin(env, { username, password: "own-writes-pass-1234", totpSecret: created.totpSecret });
}

const page = async (path: string, cookie: string) => (await fetchApp(`http://localhost${path}`, { headers: { Cookie: cookie } })).text();

/** The line of `code` in a claims table: its status cell and whether it has a retry button. */
function claimLine(html: string, code: string): { status: string | null; retry: boolean } {
  const row = html.match(new RegExp(`<tr[^>]*data-code="${code}"[^>]*>([\\s\\S]*?)</tr>`))?.[1] ?? "";
  return { status: row.match(/data-status="([A-Z]+)"/)?.[1] ?? null, retry: row.includes('data-testid="reward-retry"') };
}

const rewardCopy = (code: string) => env.DB.prepare(`SELECT status, retries FROM reward_claims WHERE code = ?`).bind(code).first();

describe("staff read their own writes: the D1 copy is written before the answer", () => {
  it("a FAILED cashback and referral share retried from their lists: the lists show them credited at once", async () => {
    const p = await playerWithBank();
    const release = await holdAlarm(p.wallet);
    const codes: Record<"CASHBACK" | "REFERRAL", string> = { CASHBACK: "", REFERRAL: "" };
    await faults({ provider: "gclub_live", op: "deposit", mode: "refuse", count: 2 });
    try {
      for (const kind of ["CASHBACK", "REFERRAL"] as const) {
        const claim = await credited(
          claimWalletReward(
            env,
            { agencyId: "demo", playerId: p.playerId, username: p.username },
            { kind, period: "2026-W45", perProvider: kind === "CASHBACK", provider: "gclub_live", amountMinor: "1250", turnoverMultiple: "1", basis: {} },
          ),
        );
        expect(claim.reward.status).toBe("FAILED");
        codes[kind] = claim.reward.code;
      }
    } finally {
      await faults(null);
    }
    await p.wallet.runDueWork(); // the FAILED claims copied to D1, as the alarm would
    const owner = await staffCookie("owner");
    expect(claimLine(await page("/admin/cashback", owner), codes.CASHBACK)).toEqual({ status: "FAILED", retry: true });
    expect(claimLine(await page("/admin/referrals", owner), codes.REFERRAL)).toEqual({ status: "FAILED", retry: true });

    const cashback = await postForm("/admin/cashback", { intent: "retry", code: codes.CASHBACK, retries: "0" }, { cookie: owner });
    expect(cashback.status).toBe(302);
    // the row the list reads, right after the answer: credited, no second retry offered
    expect(await rewardCopy(codes.CASHBACK)).toEqual({ status: "SUCCESS", retries: 1 });
    expect(claimLine(await page("/admin/cashback", owner), codes.CASHBACK)).toEqual({ status: "SUCCESS", retry: false });

    const referral = await postForm("/admin/referrals", { intent: "retry", code: codes.REFERRAL, retries: "0" }, { cookie: owner });
    expect(referral.status).toBe(302);
    expect(await rewardCopy(codes.REFERRAL)).toEqual({ status: "SUCCESS", retries: 1 });
    expect(await page("/admin/referrals", owner)).not.toContain(codes.REFERRAL); // the list keeps only the shares to retry

    expect(await release()).toEqual({ held: true });
    // the alarm's copy later is the same write again: nothing changes
    await p.wallet.runDueWork();
    expect(await rewardCopy(codes.CASHBACK)).toEqual({ status: "SUCCESS", retries: 1 });
    expect(await rewardCopy(codes.REFERRAL)).toEqual({ status: "SUCCESS", retries: 1 });
  }, 120_000);

  it("a FAILED deposit retried: the deposits list shows it credited at once", async () => {
    const p = await playerWithBank();
    const release = await holdAlarm(p.wallet);
    await postDeposit(p.cookie, { amount: "60000", provider: "betflix" });
    const order = (await openOrder(p.cookie))!;
    await payQr(await qrPayloadOf(p.wallet, order.code));
    await faults({ provider: "betflix", op: "deposit", mode: "refuse", count: 1, username: `demo_${p.username}` });
    try {
      await pumpDeliveries();
      await p.wallet.runDueWork();
    } finally {
      await faults(null);
    }
    const listed = async () => (await listDeposits(env.DB, "demo", { code: order.code }, firstListPage(5))).items[0]?.status;
    expect(await listed()).toBe("FAILED");

    expect((await retryDeposit(env, actor, order.code, 0)).order?.status).toBe("SUCCESS");
    expect(await listed()).toBe("SUCCESS");
    expect(await release()).toEqual({ held: true });
  }, 120_000);

  it("a payment credited by hand: its MANUAL order is in the deposits list at once", async () => {
    const p = await playerWithBank();
    const release = await holdAlarm(p.wallet);
    const reference = `ZW${Date.now()}`;
    const paid = await signedWebhook({
      event: "payment.succeeded",
      reference,
      transactionId: `TW${Date.now()}`,
      amount: "60000",
      currency: "LAK",
      paidAt: new Date().toISOString(),
    });
    expect(paid.status).toBe(200);
    const payment = (await listUnmatched(env.DB, "demo", { ask: firstListPage(50) })).items.find((i) => i.reference === reference)!;
    const agency = (await findAgencyByHost(env.DB, "localhost"))!;
    const done = await resolveWithCredit(env, agency, actor, payment.id, { username: p.username, provider: "askmebet" });
    expect(done.ok && done.order.status).toBe("SUCCESS");
    const code = done.ok ? done.order.code : "";
    expect((await listDeposits(env.DB, "demo", { code }, firstListPage(5))).items).toMatchObject([{ code, status: "SUCCESS" }]);
    expect(await release()).toEqual({ held: true });
  }, 120_000);

  it("a withdrawal rejected or marked paid from its page: the withdrawals' copy is the wallet's at once", async () => {
    const p = await playerWithBank();
    const release = await holdAlarm(p.wallet);
    await fundProvider("askmebet", p.username, "20000.00");
    const cashier = await staffCookie("cashier");
    const copy = (code: string) =>
      env.DB.prepare(`SELECT status, review, return_state AS returnState, reason FROM withdraw_orders_view WHERE code = ?`).bind(code).first();
    const codes: string[] = [];
    for (const amount of ["6000", "7000"]) {
      expect((await postWithdraw(p.cookie, { provider: "askmebet", amount })).status).toBe(302);
      codes.push((await p.wallet.listWithdraws(1, 1)).items[0]!.code);
    }
    await p.wallet.runDueWork(); // copied to D1 (above the automatic threshold: no payout asked)
    const [rejected, paid] = codes as [string, string];
    expect(await copy(rejected)).toMatchObject({ status: "OPEN", review: "MANUAL" });

    expect((await postForm(`/admin/withdrawals/${rejected}`, { intent: "reject", reason: "wrong account" }, { cookie: cashier })).status).toBe(302);
    expect((await postForm(`/admin/withdrawals/${paid}`, { intent: "paid", bankReference: "BCEL-OWN-1" }, { cookie: cashier })).status).toBe(302);
    for (const code of codes) {
      const order = (await p.wallet.getWithdraw(code))!;
      expect(order.status).not.toBe("OPEN");
      expect(await copy(code)).toEqual({ status: order.status, review: order.review, returnState: order.returnState, reason: order.reason });
    }
    expect(await release()).toEqual({ held: true });
  }, 120_000);
});
