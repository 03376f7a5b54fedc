import { beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, createScheduledController, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../workers/app";
import { seedDemo } from "../setup/seed";
import type { PlayerWallet } from "../../workers/wallet/player-wallet";
import { openOrder, playerWithBank, postDeposit, providerBalance } from "../setup/money";

beforeAll(seedDemo);

// Decision 012: the wallet's alarm must be armed in the same storage step as the
// command's writes, and a cron must re-arm every wallet with due work, so a PAID order is
// never left with nothing to wake it.

/** The Worker's own scheduled handler, as the cron trigger calls it. */
async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled!(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("wallet alarm: armed with the command, re-armed by the cron", () => {
  it("markPaid arms the alarm in its own synchronous step (no callback left to run)", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000" });
    const order = (await openOrder(p.cookie))!;
    await runInDurableObject(p.wallet, async (object, state) => {
      const instance = object as unknown as PlayerWallet;
      await state.storage.deleteAlarm();
      const now = Date.now();
      // the command, then at once the storage: the alarm that wakes the settlement is there
      expect(instance.markPaid(order.code, { transactionId: `TA${now}`, amount: "60000" }, now).kind).toBe("paid");
      const armed = await state.storage.getAlarm();
      expect(armed).not.toBeNull();
      expect(armed!).toBeLessThanOrEqual(now + 1000); // due now (the runtime may round it up to its clock)
    });
  });

  it("a PAID order whose alarm is gone settles, once, after the scheduled handler runs", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000" });
    const order = (await openOrder(p.cookie))!;
    // PAID and its alarm lost, in one step (nothing can run in between)
    await runInDurableObject(p.wallet, async (object, state) => {
      const instance = object as unknown as PlayerWallet;
      instance.markPaid(order.code, { transactionId: `TC${Date.now()}`, amount: "60000" }, Date.now());
      await state.storage.deleteAlarm();
    });
    expect(await runDurableObjectAlarm(p.wallet)).toBe(false); // nothing would ever wake it
    expect((await p.wallet.getDeposit(order.code))!.status).toBe("PAID");

    await runCron();
    // the cron armed it; it is due now, so the runtime may already be running it (the cron
    // tick also runs the reports backfill, which calls the same wallet): wait for the run
    // to finish, running the alarm ourselves if it is still only armed
    await vi.waitFor(
      async () => {
        await runDurableObjectAlarm(p.wallet);
        expect((await p.wallet.getDeposit(order.code))!.status).toBe("SUCCESS");
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(await providerBalance("askmebet", p.username)).toBe("100.00");
    // the cron again, and every alarm it leaves: still credited once
    await runCron();
    while (await runDurableObjectAlarm(p.wallet));
    expect(await providerBalance("askmebet", p.username)).toBe("100.00");
    expect((await p.wallet.ledgerFor(order.code)).filter((l) => l.entry === "credited" && l.account === "provider:askmebet")).toHaveLength(1);
  });
});
