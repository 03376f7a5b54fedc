import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { markupOf } from "../setup/lite-script";
import { openOrder, payQr, playerWithBank, postDeposit, providerBalance, pumpDeliveries, qrPayloadOf } from "../setup/money";
import { postForm } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";
import { findAgencyByHost } from "../../workers/services/agency";
import { startBreak } from "../../workers/services/players";
import { cashbackPage, levelPage, playerLevel, saveCashbackSettings, saveLevel } from "../../workers/services/promotions";
import { confirmWithdraw, reviewWithdraw } from "../../workers/services/withdrawals";
import { daysOfWeek, lastCompleteWeek } from "../../workers/core/reward-period";
import { upsertPlayerProviderDayStatement } from "../../workers/db/player-provider-stats";

/**
 * VIP levels (decision 091) on real D1: the owner's page (plain posts, audited), the player's
 * level and the way to the next, the level's cashback terms and its daily withdrawal limit,
 * and nothing of it shown to a player whose offers are paused.
 */

const actor = { agencyId: "demo", staffId: null, staffUsername: "owner", ip: "127.0.0.1", userAgent: "test" };
type Player = Awaited<ReturnType<typeof playerWithBank>>;
const asPlayer = (p: Player) => ({ id: p.playerId, username: p.username, displayName: p.username });

beforeAll(async () => {
  await seedDemo();
  // Bronze from 50000 kip, Silver from 200000 (10 % cashback capped at 30.00, 250.00 credit withdrawn a day)
  for (const level of [
    { name: "Bronze", threshold: "50000", cashbackPercent: "6", cashbackCap: "0", withdrawDay: "" },
    { name: "Silver", threshold: "200000", cashbackPercent: "10", cashbackCap: "30", withdrawDay: "250" },
  ])
    expect(await saveLevel(env.DB, actor as never, level)).toEqual({ ok: true });
  await saveCashbackSettings(env.DB, actor as never, { enabled: true, percent: "5", cap: "1000", min: "1", turnoverMultiple: "0", combinable: true });
});

/** A deposit of `amount` kip paid and credited at `provider`, with its D1 copy written. */
async function deposit(p: Player, amount: string, provider = "askmebet") {
  expect((await postDeposit(p.cookie, { provider, amount })).status).toBe(302);
  const order = (await openOrder(p.cookie))!;
  await payQr(await qrPayloadOf(p.wallet, order.code));
  await pumpDeliveries();
  await p.wallet.runDueWork();
  await p.wallet.runDueWork(Date.now() + 60_000);
  expect((await p.wallet.getDeposit(order.code))?.status).toBe("SUCCESS");
}

async function html(path: string, cookie: string) {
  const res = await fetchApp(`http://localhost${path}`, { headers: { Cookie: cookie } });
  return { status: res.status, markup: markupOf(await res.text()) };
}

describe("VIP levels (decision 091)", () => {
  it("the owner adds, changes and deletes levels through the page's plain forms, audited; a threshold is one level's", async () => {
    const username = `lv-owner-${crypto.randomUUID().slice(0, 6)}`;
    const created = await createStaff(env, { agencyId: "demo", username, password: "levels-pass-1234", role: "owner" });
    const cookie = await staffLogin(env, { username, password: "levels-pass-1234", totpSecret: created.totpSecret });
    const fields = { intent: "save", name: "Gold", threshold: "1000000", cashbackPercent: "12.5", cashbackCap: "100", withdrawDay: "500" };
    expect((await postForm("/admin/levels", fields, { cookie })).status).toBe(302);
    expect((await html("/admin/levels", cookie)).markup).toContain('data-level="Gold"');
    // the same threshold as Silver's: refused on the field, nothing written
    const taken = await postForm("/admin/levels", { ...fields, name: "Platinum", threshold: "200000" }, { cookie });
    expect(taken.status).toBe(409);
    expect((await html("/admin/levels", cookie)).markup).not.toContain('data-level="Platinum"');
    // a percent above 100 is refused by the form's schema
    expect((await postForm("/admin/levels", { ...fields, cashbackPercent: "120" }, { cookie })).status).toBe(400);
    expect((await postForm("/admin/levels", { intent: "period", periodDays: "400" }, { cookie })).status).toBe(400);
    expect((await postForm("/admin/levels", { intent: "delete", name: "Gold" }, { cookie })).status).toBe(302);
    expect((await html("/admin/levels", cookie)).markup).not.toContain('data-level="Gold"');
    const audit = await env.DB.prepare(`SELECT action FROM audit_log WHERE agency_id = 'demo' AND target = 'Gold' ORDER BY rowid`).all<{ action: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["levels.save", "levels.delete"]);
    // a cashier may not open it
    const cashier = `lv-cashier-${crypto.randomUUID().slice(0, 6)}`;
    const c = await createStaff(env, { agencyId: "demo", username: cashier, password: "levels-pass-1234", role: "cashier" });
    const cashierCookie = await staffLogin(env, { username: cashier, password: "levels-pass-1234", totpSecret: c.totpSecret });
    expect((await html("/admin/levels", cashierCookie)).status).toBe(403);
  });

  it("the player sees their level and what is left to the next; the level's cashback percent and cap apply", async () => {
    const p = await playerWithBank();
    const none = await levelPage(env, "demo", p.playerId);
    expect(none).toMatchObject({ paused: null, level: null, next: { level: { name: "Bronze" }, remaining: "50000.00" } });
    await deposit(p, "60000");
    expect((await playerLevel(env.DB, "demo", p.playerId)).level?.name).toBe("Bronze");
    const page = await html("/player/level", p.cookie);
    expect(page.markup).toContain('data-level="Bronze"');
    expect(page.markup).toContain('data-testid="level-next"');
    expect(page.markup).toContain("140.000"); // 200000 - 60000 kip still to deposit for Silver

    await deposit(p, "150000");
    expect((await playerLevel(env.DB, "demo", p.playerId)).level?.name).toBe("Silver");
    expect((await html("/player/level", p.cookie)).markup).toContain('data-testid="level-top"');
    // Silver's 10 % capped at 30.00 replaces the agency's 5 %: 700.00 lost -> 70.00 -> 30.00
    const days = daysOfWeek(lastCompleteWeek(Date.now()));
    await env.DB.batch(
      days.map((day) =>
        upsertPlayerProviderDayStatement(env.DB, {
          agencyId: "demo",
          playerId: p.playerId,
          provider: "gclub",
          day,
          turnoverMinor: 100_000n,
          winLossMinor: 10_000n,
          collectedAt: new Date().toISOString(),
        }),
      ),
    );
    const agency = (await findAgencyByHost(env.DB, "localhost"))!;
    const cashback = await cashbackPage(env, agency, asPlayer(p));
    expect(cashback.settings.percent).toBe("10");
    expect(cashback.lines.find((l) => l.provider === "gclub")?.cashback).toBe("30.00");
  });

  it("the level's daily withdrawal limit refuses what goes over it, at review and at confirm", async () => {
    const p = await playerWithBank();
    await deposit(p, "250000", "gclub");
    expect((await playerLevel(env.DB, "demo", p.playerId)).level?.name).toBe("Silver");
    const agency = (await findAgencyByHost(env.DB, "localhost"))!;
    const player = asPlayer(p);
    const first = await confirmWithdraw(
      env,
      agency,
      player,
      { provider: "gclub", amountMinor: 10_000n, idempotencyKey: crypto.randomUUID() },
      "http://localhost",
    );
    expect(first.ok).toBe(true);
    // 100.00 taken today (the agency's minimum); 160.00 more would pass Silver's 250.00, 150.00 fits
    expect(await reviewWithdraw(env, agency, player, { provider: "gclub", amountMinor: 16_000n })).toMatchObject({ ok: false, error: "LEVEL_WITHDRAW_LIMIT" });
    expect(
      await confirmWithdraw(env, agency, player, { provider: "gclub", amountMinor: 16_000n, idempotencyKey: crypto.randomUUID() }, "http://localhost"),
    ).toMatchObject({ ok: false, error: "LEVEL_WITHDRAW_LIMIT" });
    expect((await reviewWithdraw(env, agency, player, { provider: "gclub", amountMinor: 15_000n })).ok).toBe(true);
    // through the page's form: the refusal in the player's language
    const form = await postForm(
      "/player/withdraw",
      { intent: "review", provider: "gclub", amount: "160", idempotencyKey: crypto.randomUUID() },
      { cookie: p.cookie },
    );
    expect(form.status).toBe(400);
    expect(markupOf(await form.text())).toContain("ເກີນຂີດຈຳກັດການຖອນຕໍ່ມື້ຂອງລະດັບທ່ານ");
    expect(await providerBalance("gclub", p.username)).not.toBe("0.00");
  });

  it("a player whose offers are paused sees neither the level nor the way to the next", async () => {
    const p = await playerWithBank();
    await deposit(p, "60000");
    expect((await startBreak(env, "demo", p.playerId, { kind: "cooling_off", length: 1 })).ok).toBe(true);
    expect(await levelPage(env, "demo", p.playerId)).toMatchObject({ paused: { reason: "COOLING_OFF" } });
    const page = await html("/player/level", p.cookie);
    expect(page.markup).toContain('data-testid="offers-paused"');
    expect(page.markup).not.toContain('data-testid="level-next"');
    expect(page.markup).not.toContain("Bronze");
  });
});
