import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedDemo } from "../setup/seed";
import { playerWithBank, providerBalance } from "../setup/money";
import { findAgencyByHost } from "../../workers/services/agency";
import { cashbackAdminPage, cashbackPage, claimCashback, saveCashbackSettings } from "../../workers/services/promotions";
import { lastCompleteWeek, daysOfWeek } from "../../workers/core/reward-period";
import { upsertPlayerProviderDayStatement } from "../../workers/db/player-provider-stats";

/** Cashback service on real D1 and the player's wallet (decision 029). */

beforeAll(seedDemo);

const actor = { agencyId: "demo", staffId: null, staffUsername: "owner", ip: "127.0.0.1", userAgent: "test" };
const agency = async () => (await findAgencyByHost(env.DB, "localhost"))!;

async function seedWeek(playerId: string, provider: "askmebet" | "betflix" | "gclub", winLossMinor: number, days = 7) {
  const week = daysOfWeek(lastCompleteWeek(Date.now())).slice(0, days);
  await env.DB.batch(
    week.map((day) =>
      upsertPlayerProviderDayStatement(env.DB, {
        agencyId: "demo",
        playerId,
        provider,
        day,
        turnoverMinor: 100_000n,
        winLossMinor: BigInt(winLossMinor),
        collectedAt: new Date().toISOString(),
      }),
    ),
  );
}

describe("cashback service", () => {
  it("settings are validated and audited", async () => {
    expect(
      await saveCashbackSettings(env.DB, actor as never, { enabled: true, percent: "101", cap: "50", min: "1", turnoverMultiple: "1", combinable: false }),
    ).toMatchObject({ ok: false, field: "percent" });
    expect(
      await saveCashbackSettings(env.DB, actor as never, { enabled: true, percent: "10", cap: "50", min: "1", turnoverMultiple: "1", combinable: false }),
    ).toEqual({ ok: true });
    const audit = await env.DB.prepare(
      `SELECT action, after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'settings.cashback' ORDER BY rowid DESC LIMIT 1`,
    ).first<{ action: string; after_json: string }>();
    expect(audit?.action).toBe("settings.cashback");
    expect((await cashbackAdminPage(env.DB, "demo")).settings).toMatchObject({
      enabled: true,
      percent: "10",
      cap: "50.00",
      min: "1.00",
      turnoverMultiple: "1",
    });
  });

  it("last week per provider: pays the capped percent once, says why the others cannot be claimed", async () => {
    await saveCashbackSettings(env.DB, actor as never, { enabled: true, percent: "10", cap: "50", min: "1", turnoverMultiple: "1", combinable: false });
    const a = await agency();
    const p = await playerWithBank();
    const player = { id: p.playerId, username: p.username, displayName: p.username };
    await seedWeek(p.playerId, "askmebet", 10_000); // 700.00 lost -> 70.00 -> capped 50.00
    await seedWeek(p.playerId, "betflix", 10_000, 6); // a day missing
    await seedWeek(p.playerId, "gclub", -5_000); // won
    const page = await cashbackPage(env, a, player);
    const line = (provider: string) => page.lines.find((l) => l.provider === provider)!;
    expect(line("askmebet")).toMatchObject({ netLoss: "700.00", cashback: "50.00", claimable: true });
    expect(line("betflix")).toMatchObject({ claimable: false, refusal: "CASHBACK_PERIOD_INCOMPLETE" });
    expect(line("gclub")).toMatchObject({ claimable: false, refusal: "CASHBACK_NOTHING_LOST" });

    const claimed = await claimCashback(env, a, player, { provider: "askmebet" });
    expect(claimed).toMatchObject({ ok: true, reward: { amount: "50.00", status: "SUCCESS", kind: "CASHBACK", turnoverTarget: "50.00" } });
    expect(await providerBalance("askmebet", p.username)).toBe("50.00");
    expect(await claimCashback(env, a, player, { provider: "askmebet" })).toEqual({ ok: false, error: "CASHBACK_ALREADY_CLAIMED" });
    expect(await claimCashback(env, a, player, { provider: "gclub" })).toEqual({ ok: false, error: "CASHBACK_NOTHING_LOST" });
    const after = await cashbackPage(env, a, player);
    expect(after.history).toHaveLength(1);
    expect(after.lines.find((l) => l.provider === "askmebet")).toMatchObject({ refusal: "CASHBACK_ALREADY_CLAIMED", claimed: { status: "SUCCESS" } });
    // the wallet's ledger: the agency's cashback account gave it
    const ledger = await p.wallet.ledgerFor(claimed.ok ? claimed.reward.code : "");
    expect(ledger.find((l) => l.account === "agency:cashback")?.amountMinor).toBe("5000");
  }, 120_000);

  it("not with an active promotion unless the owner allows it", async () => {
    await saveCashbackSettings(env.DB, actor as never, { enabled: true, percent: "10", cap: "0", min: "1", turnoverMultiple: "0", combinable: false });
    const a = await agency();
    const p = await playerWithBank();
    const player = { id: p.playerId, username: p.username, displayName: p.username };
    await seedWeek(p.playerId, "betflix", 1_000);
    const promo = await env.DB.prepare(`SELECT id FROM promotions WHERE agency_id = 'demo' AND status = 'ACTIVE' LIMIT 1`).first<{ id: string }>();
    expect(promo).toBeTruthy();
    const { claimPromotion } = await import("../../workers/services/promotions");
    const usage = await claimPromotion(env, a, player, { promotionId: promo!.id, provider: "betflix" });
    expect(usage.ok).toBe(true);
    expect(await claimCashback(env, a, player, { provider: "betflix" })).toEqual({ ok: false, error: "CASHBACK_PROMOTION_ACTIVE" });
    await saveCashbackSettings(env.DB, actor as never, { enabled: true, percent: "10", cap: "0", min: "1", turnoverMultiple: "0", combinable: true });
    expect(await claimCashback(env, a, player, { provider: "betflix" })).toMatchObject({ ok: true, reward: { amount: "7.00" } });
  }, 120_000);
});
