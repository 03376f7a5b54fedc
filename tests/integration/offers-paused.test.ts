import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { markupOf } from "../setup/lite-script";
import { playerWithBank, postDeposit, providerBalance, sandboxProvider } from "../setup/money";
import { postForm, postJson } from "../setup/players";
import { findAgencyByHost } from "../../workers/services/agency";
import { setLimits, startBreak } from "../../workers/services/players";
import { cashbackPage, claimCashback, claimReferralWeek, claimWalletReward, saveCashbackSettings } from "../../workers/services/promotions";
import { offersPaused } from "../../workers/services/wallets";
import { daysOfWeek, lastCompleteWeek } from "../../workers/core/reward-period";
import { periodStart } from "../../workers/core/responsible-gaming";
import { upsertPlayerProviderDayStatement } from "../../workers/db/player-provider-stats";

/**
 * Offers respect the player's own limits (decision 091): on a break, self-excluded, at a
 * deposit limit or at the day's play time, no promotion, cashback or reward is shown or
 * paid, through the pages' forms and the JSON API alike; a reward falling due then lapses.
 */

beforeAll(async () => {
  await seedDemo();
  const actor = { agencyId: "demo", staffId: null, staffUsername: "owner", ip: "127.0.0.1", userAgent: "test" };
  await saveCashbackSettings(env.DB, actor as never, { enabled: true, percent: "10", cap: "50", min: "1", turnoverMultiple: "0", combinable: true });
});

type Player = Awaited<ReturnType<typeof playerWithBank>>;
const NO_LIMITS = { day: "", week: "", month: "", playMinutes: "" };
const PROMO = "deposit-60k-bonus-50";

async function html(path: string, p: Player) {
  const res = await fetchApp(`http://localhost${path}`, { headers: { Cookie: p.cookie } });
  return { status: res.status, markup: markupOf(await res.text()) };
}

async function apiList(p: Player) {
  const res = await fetchApp("http://localhost/api/v2/promotions", { headers: { Cookie: p.cookie } });
  return (await res.json()) as { promotions: { id: string }[]; offersPaused: { reason: string; until: string } | null };
}

/** A lost week at askmebet: 700.00 lost, 10 % -> 50.00 (capped), claimable when offers are not paused. */
async function lostWeek(p: Player) {
  const days = daysOfWeek(lastCompleteWeek(Date.now()));
  await env.DB.batch(
    days.map((day) =>
      upsertPlayerProviderDayStatement(env.DB, {
        agencyId: "demo",
        playerId: p.playerId,
        provider: "askmebet",
        day,
        turnoverMinor: 100_000n,
        winLossMinor: 10_000n,
        collectedAt: new Date().toISOString(),
      }),
    ),
  );
}

const who = (p: Player) => ({ agencyId: "demo", playerId: p.playerId, username: p.username });
const asPlayer = (p: Player) => ({ id: p.playerId, username: p.username, displayName: p.username });

/** Everything a player on a break or at a limit must not see or receive, checked in one place. */
async function expectNothingOffered(p: Player, reason: string) {
  const agency = (await findAgencyByHost(env.DB, "localhost"))!;
  expect((await offersPaused(env, "demo", p.playerId))?.reason).toBe(reason);

  // the promotions page, a promotion's page, the JSON list and detail show no promotion, and say why
  const list = await html("/player/promotion", p);
  expect(list.markup).toContain('data-testid="offers-paused"');
  expect(list.markup).toContain(`data-reason="${reason}"`);
  expect(list.markup).not.toContain("data-promotion-id");
  const detail = await html(`/player/promotion/${PROMO}`, p);
  expect(detail.markup).toContain('data-testid="offers-paused"');
  expect(detail.markup).not.toContain('data-testid="claim-form"');
  const api = await apiList(p);
  expect(api.promotions).toEqual([]);
  expect(api.offersPaused?.reason).toBe(reason);
  const one = await fetchApp(`http://localhost/api/v2/promotions/${PROMO}`, { headers: { Cookie: p.cookie } });
  expect(one.status).toBe(409);

  // claims through the form and the API are refused, and nothing is claimed
  const form = await postForm(`/player/promotion/${PROMO}`, { intent: "claim", provider: "askmebet" }, { cookie: p.cookie });
  expect(form.status).toBe(409);
  const json = await postJson(`/api/v2/promotions/${PROMO}`, { provider: "askmebet" }, { cookie: p.cookie });
  expect(json.status).toBe(409);
  expect(((await json.json()) as { error: { code: string; reason: string } }).error).toMatchObject({ code: "OFFERS_PAUSED", reason });
  expect(await p.wallet.activeUsage()).toBeNull();

  // cashback: no line on offer on the page; a claim (the form's post) is refused and pays nothing
  await lostWeek(p);
  const page = await cashbackPage(env, agency, asPlayer(p));
  expect(page.lines).toEqual([]);
  expect(page.paused?.reason).toBe(reason);
  const cashbackForm = await postForm("/player/cashback", { provider: "askmebet" }, { cookie: p.cookie });
  expect(cashbackForm.status).toBe(302);
  expect(await claimCashback(env, agency, asPlayer(p), { provider: "askmebet" })).toEqual({ ok: false, error: "CASHBACK_PAUSED" });

  // the referral share: refused before any claim row is written
  const week = lastCompleteWeek(Date.now() - 3 * 3600_000);
  expect(await claimReferralWeek(env, agency, asPlayer(p), { week: week.from, provider: "askmebet" })).toEqual({ ok: false, error: "REFERRAL_PAUSED" });
  const rows = await env.DB.prepare(`SELECT COUNT(*) AS n FROM referral_claims WHERE agency_id = 'demo' AND referrer_player_id = ?`)
    .bind(p.playerId)
    .first<{ n: number }>();
  expect(rows?.n).toBe(0);

  // the wallet's reward path itself (every reward kind passes it) writes nothing
  const claim = await claimWalletReward(env, who(p), {
    kind: "CASHBACK",
    period: "2026-W01",
    perProvider: true,
    provider: "askmebet",
    amountMinor: "1000",
    turnoverMultiple: "0",
    basis: {},
  });
  expect(claim.kind).toBe("paused");
  expect((await p.wallet.listRewards(null, 1, 10)).total).toBe(0);
  expect(await providerBalance("askmebet", p.username)).toBe("0.00");

  // the limits page says offers are paused, and why
  const limits = await html("/player/limits", p);
  expect(limits.markup).toContain(`data-reason="${reason}"`);

  // the landing page, logged in: no promotion banner or card
  const landing = await html("/", p);
  expect(landing.status).toBe(200);
  expect(landing.markup).not.toContain("data-promotion-id");
  expect(landing.markup).not.toContain('data-testid="carousel-banner"');
}

describe("offers paused by the player's own break or limit (decision 091)", () => {
  it("a player with no break and no limit is offered promotions and cashback", async () => {
    const p = await playerWithBank();
    await lostWeek(p);
    expect(await offersPaused(env, "demo", p.playerId)).toBeNull();
    expect((await apiList(p)).promotions.length).toBeGreaterThan(0);
    const agency = (await findAgencyByHost(env.DB, "localhost"))!;
    expect((await cashbackPage(env, agency, asPlayer(p))).lines.find((l) => l.provider === "askmebet")?.claimable).toBe(true);
    expect((await html("/player/limits", p)).markup).toContain('data-testid="offers-active"');
    expect((await html("/", p)).markup).toContain("data-promotion-id");
  });

  it("cooling-off: nothing shown or paid, and a promotion claimed before the break is cancelled", async () => {
    const p = await playerWithBank();
    expect((await postForm(`/player/promotion/${PROMO}`, { intent: "claim", provider: "askmebet" }, { cookie: p.cookie })).status).toBe(302);
    expect((await p.wallet.activeUsage())?.status).toBe("CLAIMED");
    expect((await startBreak(env, "demo", p.playerId, { kind: "cooling_off", length: 1 })).ok).toBe(true);
    await expectNothingOffered(p, "COOLING_OFF");
  });

  it("self-exclusion: nothing shown or paid", async () => {
    const p = await playerWithBank();
    expect((await startBreak(env, "demo", p.playerId, { kind: "self_exclusion", length: 6 })).ok).toBe(true);
    await expectNothingOffered(p, "SELF_EXCLUDED");
  });

  it("a deposit window with nothing left: nothing shown or paid", async () => {
    const p = await playerWithBank();
    await setLimits(env.DB, "demo", p.playerId, { ...NO_LIMITS, day: "100000" });
    expect(await offersPaused(env, "demo", p.playerId)).toBeNull();
    // an open order counts against the limit (decision 025): the day's 100000 is used up
    expect((await postDeposit(p.cookie, { amount: "100000" })).status).toBe(302);
    await expectNothingOffered(p, "DEPOSIT_LIMIT_REACHED");
  });

  it("the day's play time reached: nothing shown or paid", async () => {
    const p = await playerWithBank();
    await setLimits(env.DB, "demo", p.playerId, { ...NO_LIMITS, playMinutes: "1" });
    const now = Date.now();
    const from = Math.max(periodStart("day", now), now - 30 * 60_000);
    await env.DB.prepare(`INSERT INTO play_spans (agency_id, player_id, started_at, ended_at) VALUES ('demo', ?, ?, ?)`)
      .bind(p.playerId, from, now - 1)
      .run();
    await expectNothingOffered(p, "PLAY_TIME_LIMIT_REACHED");
  });

  it("a reward falling due during a break lapses: the wallet's alarm does not credit it then or after", async () => {
    const p = await playerWithBank();
    // the first send errors before the provider applies it: the reward waits for the alarm
    await sandboxProvider("/sandbox/faults", {
      method: "POST",
      body: JSON.stringify({ provider: "gclub_live", op: "deposit", mode: "error-before", count: 1 }),
    });
    try {
      const claim = await claimWalletReward(env, who(p), {
        kind: "CASHBACK",
        period: "2026-W02",
        perProvider: true,
        provider: "gclub_live",
        amountMinor: "1250",
        turnoverMultiple: "0",
        basis: {},
      });
      expect(claim.kind === "created" && claim.reward.status).toBe("PENDING");
    } finally {
      await sandboxProvider("/sandbox/faults", { method: "DELETE" });
    }
    expect((await startBreak(env, "demo", p.playerId, { kind: "cooling_off", length: 1 })).ok).toBe(true);
    await p.wallet.runDueWork(Date.now() + 60_000);
    const [reward] = (await p.wallet.listRewards("CASHBACK", 1, 10)).items;
    expect(reward).toMatchObject({ status: "FAILED", reason: "OFFERS_PAUSED" });
    expect(await providerBalance("gclub_live", p.username)).toBe("0.00");
    // after the break the alarm has nothing left to send: lapsed, not waiting
    await p.wallet.runDueWork(Date.now() + 3 * 86_400_000);
    expect((await p.wallet.getReward(reward!.code))?.status).toBe("FAILED");
    expect(await providerBalance("gclub_live", p.username)).toBe("0.00");
  });
});
