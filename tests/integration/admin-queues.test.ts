import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { fetchApp, seedDemo } from "../setup/seed";
import { addAgency } from "../setup/players";
import { fundProvider, playerWithBank, postDeposit, postWithdraw } from "../setup/money";
import { seedOwnAccountChannel } from "../setup/own-account";
import { createStaff, staffLogin } from "../setup/staff";
import { waitingCounts, type WaitingCounts } from "../../workers/services/staff";
import { decideWithdrawal } from "../../workers/services/withdrawals";
import { decideHold, markOpenDepositPaid, resolveAsRefunded } from "../../workers/services/bank-in";
import { insertHold } from "../../workers/db/forwarder";
import { insertUnmatchedPayment } from "../../workers/db/payments";
import { PAY_AMOUNT_COOL_DOWN_MS } from "../../workers/core/pay-amount";

/**
 * The back office menu's waiting counts (decision 056), against this file's
 * own D1: each queue's count goes up when an item starts waiting, the way it does in the
 * portal (a withdrawal above the automatic limit, an own-account deposit order, a payment the
 * webhook could not match, a forwarded credit above the cap), and down when staff handle it
 * through the service the queue's page calls. Another agency's items never count.
 */

const CHANNEL = "OWN-QUEUE";
const cashier = { agencyId: "demo", staffId: null, staffUsername: "queue-cashier", ip: "local", userAgent: null };

beforeAll(async () => {
  await seedDemo();
  await seedOwnAccountChannel("demo", CHANNEL, "derived");
});

/** The counts now, minus those before: what this test did. */
async function moved(before: WaitingCounts, now?: number): Promise<WaitingCounts> {
  const after = await waitingCounts(env.DB, "demo", now);
  return {
    withdrawals: after.withdrawals - before.withdrawals,
    openDeposits: after.openDeposits - before.openDeposits,
    payments: after.payments - before.payments,
    heldCredits: after.heldCredits - before.heldCredits,
  };
}

const NONE: WaitingCounts = { withdrawals: 0, openDeposits: 0, payments: 0, heldCredits: 0 };

describe("waiting counts of the back office's queues", () => {
  it("a withdrawal above the automatic limit counts until staff decide it", async () => {
    const before = await waitingCounts(env.DB, "demo");
    const p = await playerWithBank();
    await fundProvider("askmebet", p.username, "9000.00");
    expect((await postWithdraw(p.cookie, { provider: "askmebet", amount: "6000" })).status).toBe(302);
    const { items } = await p.wallet.listWithdraws(1, 1);
    await p.wallet.runDueWork(); // projects the order into the read model
    expect(await moved(before)).toEqual({ ...NONE, withdrawals: 1 });
    const decided = await decideWithdrawal(env, "demo", items[0]!.code, { action: "reject", reason: "test" }, { ...cashier, via: "back-office" });
    expect(decided.ok).toBe(true);
    expect(await moved(before)).toEqual(NONE);
  });

  it("an own-account deposit order counts while staff may mark it paid: until marked paid, or its expiry plus the cool-down", async () => {
    const before = await waitingCounts(env.DB, "demo");
    const open = async () => {
      const p = await playerWithBank();
      expect((await postDeposit(p.cookie, { channelCode: CHANNEL, amount: "100000", provider: "betflix" })).status).toBe(302);
      return (await p.wallet.openDepositOrder(Date.now()))!;
    };
    const paid = await open();
    const forgotten = await open();
    expect(await moved(before)).toEqual({ ...NONE, openDeposits: 2 });
    const marked = await markOpenDepositPaid(env, cashier, { orderCode: paid.code, bankTransactionId: `FT${Date.now()}`, bankTime: Date.now() });
    expect(marked).toEqual({ ok: true, orderCode: paid.code });
    expect(await moved(before)).toEqual({ ...NONE, openDeposits: 1 });
    // the unpaid order still shows after its expiry (a payment made in time may be confirmed late), not after the cool-down
    const expiry = forgotten.expiresAt;
    expect((await moved(before, expiry + PAY_AMOUNT_COOL_DOWN_MS - 1000)).openDeposits).toBe(1);
    expect((await moved(before, expiry + PAY_AMOUNT_COOL_DOWN_MS + 1000)).openDeposits).toBe(0);
  });

  it("a payment that matched no order counts until it is credited or refunded", async () => {
    const before = await waitingCounts(env.DB, "demo");
    await insertUnmatchedPayment(env.DB, {
      agencyId: "demo",
      kind: "UNKNOWN_REFERENCE",
      reference: "NOSUCHORDER",
      transactionId: `TX-Q-${Date.now()}`,
      amount: "50000.00",
      orderPlayerId: null,
    });
    expect(await moved(before)).toEqual({ ...NONE, payments: 1 });
    const id = (await env.DB.prepare(`SELECT id FROM unmatched_payments WHERE agency_id = 'demo' AND reference = 'NOSUCHORDER'`).first<{ id: string }>())!.id;
    expect((await resolveAsRefunded(env, cashier, id, "sent back from the bank app")).ok).toBe(true);
    expect(await moved(before)).toEqual(NONE);
  });

  it("a forwarded credit held above the cap counts until staff confirm or reject it; another agency's never counts", async () => {
    const before = await waitingCounts(env.DB, "demo");
    const hold = {
      channelCode: CHANNEL,
      amount: "9000000.00",
      bankTime: Date.now(),
      reference: null,
      sender: "BCEL",
      raw: "BCEL: +9,000,000 LAK",
      receivedAt: Date.now(),
    };
    await insertHold(env.DB, "demo", { ...hold, id: "hold-queue-1", bankTransactionId: "FT-HOLD-1" });
    await addAgency("queues-b", "queues-b.localhost");
    await insertHold(env.DB, "queues-b", { ...hold, id: "hold-queue-b", bankTransactionId: "FT-HOLD-B" });
    expect(await moved(before)).toEqual({ ...NONE, heldCredits: 1 });
    expect(await decideHold(env, cashier, { holdId: "hold-queue-1", decision: "reject" })).toEqual({ ok: true, decision: "reject" });
    expect(await moved(before)).toEqual(NONE);
    expect(await waitingCounts(env.DB, "queues-b")).toEqual({ ...NONE, heldCredits: 1 });
  });

  it("every back-office page carries the counts in its menu: a badge per queue with items, the total on the folded menu", async () => {
    await addAgency("queues-c", "queues-c.localhost");
    const staff = await createStaff(env, { agencyId: "queues-c", username: "cashier1", password: "cashier-pass-1234", role: "cashier" });
    const cookie = await staffLogin(env, { host: "queues-c.localhost", username: "cashier1", password: "cashier-pass-1234", totpSecret: staff.totpSecret });
    const page = async () => (await fetchApp("http://queues-c.localhost/admin/players", { headers: { Cookie: cookie } })).text();
    expect(await page()).not.toContain('data-testid="admin-menu-waiting"');
    const hold = { channelCode: CHANNEL, amount: "9000000.00", bankTime: Date.now(), reference: null, sender: "BCEL", raw: "x", receivedAt: Date.now() };
    await insertHold(env.DB, "queues-c", { ...hold, id: "hold-c-1", bankTransactionId: "FT-C-1" });
    await insertHold(env.DB, "queues-c", { ...hold, id: "hold-c-2", bankTransactionId: "FT-C-2" });
    await insertUnmatchedPayment(env.DB, {
      agencyId: "queues-c",
      kind: "UNKNOWN_REFERENCE",
      reference: "NOSUCHORDER",
      transactionId: `TX-C-${Date.now()}`,
      amount: "50000.00",
      orderPlayerId: null,
    });
    const html = await page();
    expect(html).toMatch(/data-testid="nav-waiting-forwarder"><span aria-hidden="true">2<\/span>/);
    expect(html).toMatch(/data-testid="nav-waiting-payments"><span aria-hidden="true">1<\/span>/);
    expect(html).not.toContain('data-testid="nav-waiting-withdrawals"');
    expect(html).toMatch(/data-testid="admin-menu-waiting">ລໍຖ້າ 3</);
  });
});
