import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { fetchApp, seedDemo } from "../setup/seed";
import { markupOf } from "../setup/lite-script";
import { playerWithBank, postDeposit, providerBalance, sandboxProvider } from "../setup/money";
import { postForm, postJson } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";
import { findAgencyByHost, type Agency } from "../../workers/services/agency";
import { setLimits, startBreak } from "../../workers/services/players";
import { checkIn, checkinPage, claimStreak, claimWalletReward, saveCheckinSettings } from "../../workers/services/promotions";
import { checkinDay } from "../../workers/core/checkin";
import { migrateWalletSchema } from "../../workers/wallet/schema";

/**
 * Daily check-in and deposit-streak rewards (decision 095) on real D1 and the real wallet:
 * once per Vientiane day however many presses arrive at once, the streak claimed once per N
 * days in a row, nothing shown or paid to a player on a break or at a limit (through the
 * service, the page's form and the JSON API), the owner's settings form, and the wallet's
 * rewards table rebuilt for the new kinds with its old rows kept.
 */

const actor = { agencyId: "demo", staffId: null, staffUsername: "owner", ip: "127.0.0.1", userAgent: "test" };
type Player = Awaited<ReturnType<typeof playerWithBank>>;
const asPlayer = (p: Player) => ({ id: p.playerId, username: p.username, displayName: p.username });
const who = (p: Player) => ({ agencyId: "demo", playerId: p.playerId, username: p.username });
const DAY = 86_400_000;
let agency: Agency;

beforeAll(async () => {
  await seedDemo();
  agency = (await findAgencyByHost(env.DB, "localhost"))!;
  const saved = await saveCheckinSettings(env.DB, actor as never, {
    checkinEnabled: true,
    checkinAmount: "5",
    checkinMultiple: "0",
    streakEnabled: true,
    streakDays: "3",
    streakAmount: "20",
    streakMultiple: "2",
  });
  expect(saved).toEqual({ ok: true });
});

async function html(path: string, cookie: string) {
  const res = await fetchApp(`http://localhost${path}`, { headers: { Cookie: cookie } });
  return { status: res.status, markup: markupOf(await res.text()) };
}

async function apiStatus(p: Player) {
  const res = await fetchApp("http://localhost/api/v2/rewards/checkin", { headers: { Cookie: p.cookie } });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    offer: { checkin: { refusal: string | null }; streak: { progress: { days: number; of: number; reached: boolean }; refusal: string | null } } | null;
    offersPaused: { reason: string; until: string } | null;
    history: { kind: string; amount: string; status: string }[];
  };
}

/** Settled deposits of the player paid `daysAgo` Vientiane days before now (D1's copy, what the streak reads). */
async function depositsOn(p: Player, daysAgo: number[], channel = "BCEL-QR") {
  const now = Date.now();
  await env.DB.batch(
    daysAgo.map((ago, i) => {
      const paidAt = new Date(now - ago * DAY).toISOString();
      return env.DB.prepare(
        `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, created_at, updated_at, channel_code, amount_minor, paid_minor, credit_minor, bonus_minor, paid_at)
         VALUES (?1, 'demo', ?2, 'askmebet', '100000', '170.00', 'SUCCESS', ?3, ?3, ?4, 10000000, 10000000, 17000, 0, ?3)`,
      ).bind(`DSTK${p.playerId.slice(0, 6)}${ago}${i}${crypto.randomUUID().slice(0, 4)}`, p.playerId, paidAt, channel);
    }),
  );
}

describe("daily check-in (decision 095)", () => {
  it("the page offers the check-in; twenty presses at once make one reward, credited once at the chosen provider", async () => {
    const p = await playerWithBank();
    const page = await html("/player/checkin", p.cookie);
    expect(page.status).toBe(200);
    expect(page.markup).toContain('data-testid="checkin-form"');
    const results = await Promise.all(Array.from({ length: 20 }, () => checkIn(env, agency, asPlayer(p), { provider: "betflix" })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && !r.repeated)).toHaveLength(1);
    const rewards = await p.wallet.listRewards("CHECKIN", 1, 50);
    expect(rewards.total).toBe(1);
    expect(rewards.items[0]).toMatchObject({ kind: "CHECKIN", period: checkinDay(Date.now()), provider: "betflix", amount: "5.00", status: "SUCCESS" });
    expect(await providerBalance("betflix", p.username)).toBe("5.00");
    // the page says it is done for today; the form posts again and changes nothing
    expect((await html("/player/checkin", p.cookie)).markup).toContain('data-refusal="CHECKIN_ALREADY_TODAY"');
    expect((await postForm("/player/checkin", { intent: "checkin", provider: "askmebet" }, { cookie: p.cookie })).status).toBe(302);
    const json = await postJson("/api/v2/rewards/checkin", { provider: "askmebet" }, { cookie: p.cookie });
    expect(json.status).toBe(409);
    expect(((await json.json()) as { error: { code: string } }).error.code).toBe("CHECKIN_ALREADY_TODAY");
    expect((await p.wallet.listRewards("CHECKIN", 1, 50)).total).toBe(1);
    expect(await providerBalance("askmebet", p.username)).toBe("0.00");
    // the back office's copy takes the new kind (0054)
    await p.wallet.runDueWork();
    const copy = await env.DB.prepare(`SELECT kind, status FROM reward_claims WHERE player_id = ?1`).bind(p.playerId).first();
    expect(copy).toEqual({ kind: "CHECKIN", status: "SUCCESS" });
  });

  it("through the form and the JSON API: a check-in credited, history shown; a provider outside the list is refused", async () => {
    const p = await playerWithBank();
    const bad = await postJson("/api/v2/rewards/checkin", { provider: "nowhere" }, { cookie: p.cookie });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string; field: string } }).error).toMatchObject({ code: "VALIDATION_FAILED", field: "provider" });
    expect((await postForm("/player/checkin", { intent: "checkin", provider: "askmebet" }, { cookie: p.cookie })).status).toBe(302);
    expect(await providerBalance("askmebet", p.username)).toBe("5.00");
    const status = await apiStatus(p);
    expect(status.offer?.checkin.refusal).toBe("CHECKIN_ALREADY_TODAY");
    expect(status.history).toMatchObject([{ kind: "CHECKIN", amount: "5.00", status: "SUCCESS" }]);
    expect((await html("/player/checkin", p.cookie)).markup).toContain('data-kind="CHECKIN"');
  });
});

describe("deposit streak (decision 095)", () => {
  it("three days in a row with a deposit: claimed once through the API, the next streak needs three new days", async () => {
    const p = await playerWithBank();
    await depositsOn(p, [2, 1]);
    // two days so far: today's deposit is still to come
    expect((await apiStatus(p)).offer?.streak).toMatchObject({ progress: { days: 2, of: 3, reached: false }, refusal: "STREAK_NOT_REACHED" });
    const early = await postJson("/api/v2/rewards/streak", { provider: "gclub" }, { cookie: p.cookie });
    expect(early.status).toBe(409);
    expect(((await early.json()) as { error: { code: string } }).error.code).toBe("STREAK_NOT_REACHED");
    await depositsOn(p, [0, 0]); // two deposits today count as one day
    expect((await apiStatus(p)).offer?.streak.progress).toMatchObject({ days: 3, reached: true });
    expect((await html("/player/checkin", p.cookie)).markup).toContain('data-testid="streak-form"');
    const claimed = await postJson("/api/v2/rewards/streak", { provider: "gclub" }, { cookie: p.cookie });
    expect(claimed.status).toBe(201);
    expect(((await claimed.json()) as { reward: { kind: string; amount: string; turnoverTarget: string } }).reward).toMatchObject({
      kind: "STREAK",
      amount: "20.00",
      turnoverTarget: "40.00",
    });
    expect(await providerBalance("gclub", p.username)).toBe("20.00");
    const again = await postJson("/api/v2/rewards/streak", { provider: "gclub" }, { cookie: p.cookie });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("STREAK_ALREADY_CLAIMED");
    // the claimed days do not count again: tomorrow starts from nothing
    expect(await claimStreak(env, agency, asPlayer(p), { provider: "gclub" }, Date.now() + DAY)).toEqual({ ok: false, error: "STREAK_NOT_REACHED" });
    expect((await p.wallet.listRewards("STREAK", 1, 10)).total).toBe(1);
  });

  it("a gap breaks the streak; hand credits are not deposits", async () => {
    const p = await playerWithBank();
    await depositsOn(p, [3, 2, 0]);
    await depositsOn(p, [1], "MANUAL");
    expect((await apiStatus(p)).offer?.streak.progress).toMatchObject({ days: 1, reached: false });
    expect(await claimStreak(env, agency, asPlayer(p), { provider: "gclub" })).toEqual({ ok: false, error: "STREAK_NOT_REACHED" });
  });
});

describe("check-in and streak while offers are paused (decisions 091, 095)", () => {
  /** Nothing shown or paid: service, page and its forms, JSON API, the wallet's door itself. */
  async function expectNothingOffered(p: Player, reason: string) {
    await depositsOn(p, [2, 1, 0]);
    // the service refuses both, with the pause
    const checkin = await checkIn(env, agency, asPlayer(p), { provider: "askmebet" });
    expect(checkin).toMatchObject({ ok: false, error: "OFFERS_PAUSED", pause: { reason } });
    expect(await claimStreak(env, agency, asPlayer(p), { provider: "askmebet" })).toMatchObject({ ok: false, error: "OFFERS_PAUSED", pause: { reason } });
    const page = await checkinPage(env, agency, asPlayer(p));
    expect(page.offer).toBeNull();
    expect(page.paused?.reason).toBe(reason);
    // the page: only why, no form, no streak progress
    const markup = (await html("/player/checkin", p.cookie)).markup;
    expect(markup).toContain(`data-reason="${reason}"`);
    expect(markup).not.toContain('data-testid="checkin-form"');
    expect(markup).not.toContain('data-testid="streak"');
    // the forms post and nothing is credited
    expect((await postForm("/player/checkin", { intent: "checkin", provider: "askmebet" }, { cookie: p.cookie })).status).toBe(302);
    expect((await postForm("/player/checkin", { intent: "streak", provider: "askmebet" }, { cookie: p.cookie })).status).toBe(302);
    // the JSON API: no offer in the status, 409 OFFERS_PAUSED with the reason for both claims
    const status = await apiStatus(p);
    expect(status.offer).toBeNull();
    expect(status.offersPaused?.reason).toBe(reason);
    for (const path of ["/api/v2/rewards/checkin", "/api/v2/rewards/streak"]) {
      const res = await postJson(path, { provider: "askmebet" }, { cookie: p.cookie });
      expect(res.status).toBe(409);
      expect(((await res.json()) as { error: { code: string; reason: string } }).error).toMatchObject({ code: "OFFERS_PAUSED", reason });
    }
    // the wallet's door refuses the new kinds too, writing nothing
    for (const kind of ["CHECKIN", "STREAK"] as const) {
      const door = await claimWalletReward(env, who(p), {
        kind,
        period: "2026-12-01",
        perProvider: false,
        provider: "askmebet",
        amountMinor: "500",
        turnoverMultiple: "0",
      });
      expect(door.kind).toBe("paused");
    }
    expect((await p.wallet.listRewards(null, 1, 10)).total).toBe(0);
    expect(await providerBalance("askmebet", p.username)).toBe("0.00");
    // the limits page says offers are paused
    expect((await html("/player/limits", p.cookie)).markup).toContain(`data-reason="${reason}"`);
  }

  it("a cooling-off", async () => {
    const p = await playerWithBank();
    expect((await startBreak(env, "demo", p.playerId, { kind: "cooling_off", length: 1 })).ok).toBe(true);
    await expectNothingOffered(p, "COOLING_OFF");
  });

  it("a self-exclusion", async () => {
    const p = await playerWithBank();
    expect((await startBreak(env, "demo", p.playerId, { kind: "self_exclusion", length: 6 })).ok).toBe(true);
    await expectNothingOffered(p, "SELF_EXCLUDED");
  });

  it("a deposit limit reached", async () => {
    const p = await playerWithBank();
    await setLimits(env.DB, "demo", p.playerId, { day: "100000", week: "", month: "", playMinutes: "" });
    expect((await postDeposit(p.cookie, { amount: "100000" })).status).toBe(302);
    await expectNothingOffered(p, "DEPOSIT_LIMIT_REACHED");
  });

  it("a check-in falling due during a break lapses: the alarm does not credit it then or after", async () => {
    const p = await playerWithBank();
    await sandboxProvider("/sandbox/faults", {
      method: "POST",
      body: JSON.stringify({ provider: "gclub_live", op: "deposit", mode: "error-before", count: 1 }),
    });
    try {
      const result = await checkIn(env, agency, asPlayer(p), { provider: "gclub_live" });
      expect(result.ok && result.reward.status).toBe("PENDING");
    } finally {
      await sandboxProvider("/sandbox/faults", { method: "DELETE" });
    }
    expect((await startBreak(env, "demo", p.playerId, { kind: "cooling_off", length: 1 })).ok).toBe(true);
    await p.wallet.runDueWork(Date.now() + 60_000);
    const [reward] = (await p.wallet.listRewards("CHECKIN", 1, 10)).items;
    expect(reward).toMatchObject({ status: "FAILED", reason: "OFFERS_PAUSED" });
    await p.wallet.runDueWork(Date.now() + 3 * DAY);
    expect(await providerBalance("gclub_live", p.username)).toBe("0.00");
  });
});

describe("the owner's check-in settings (decision 095)", () => {
  it("saved through the page's plain form, audited; a wrong field is refused; a FAILED claim retried from its list", async () => {
    const username = `ck-owner-${crypto.randomUUID().slice(0, 6)}`;
    const created = await createStaff(env, { agencyId: "demo", username, password: "checkin-pass-1234", role: "owner" });
    const cookie = await staffLogin(env, { username, password: "checkin-pass-1234", totpSecret: created.totpSecret });
    const fields = {
      checkinEnabled: "on",
      checkinAmount: "5",
      checkinMultiple: "0",
      streakEnabled: "on",
      streakDays: "3",
      streakAmount: "20",
      streakMultiple: "2",
    };
    const wrong = await postForm("/admin/checkin", { ...fields, streakDays: "31" }, { cookie });
    expect(wrong.status).toBe(400);
    expect((await postForm("/admin/checkin", { ...fields, checkinAmount: "7.5" }, { cookie })).status).toBe(302);
    const page = await html("/admin/checkin", cookie);
    expect(page.markup).toContain('data-testid="checkin-settings-form"');
    expect(page.markup).toContain('value="7.50"');
    const audit = await env.DB.prepare(
      `SELECT action, after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'settings.checkin' ORDER BY rowid DESC`,
    ).first<{
      action: string;
      after_json: string;
    }>();
    expect(JSON.parse(audit!.after_json)).toMatchObject({ checkinEnabled: true, checkinAmount: "7.50", streakDays: 3 });
    // back to the figures the other tests expect
    expect((await postForm("/admin/checkin", fields, { cookie })).status).toBe(302);

    // a streak the provider refused: listed FAILED with a retry; the owner's retry credits the same reward once
    const p = await playerWithBank();
    await depositsOn(p, [2, 1, 0]);
    await sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify({ provider: "alphabet", op: "deposit", mode: "refuse", count: 1 }) });
    try {
      expect(await claimStreak(env, agency, asPlayer(p), { provider: "alphabet" })).toEqual({ ok: false, error: "REWARD_CREDIT_FAILED" });
    } finally {
      await sandboxProvider("/sandbox/faults", { method: "DELETE" });
    }
    await p.wallet.runDueWork(); // copied to D1, as the alarm would
    const [failed] = (await p.wallet.listRewards("STREAK", 1, 10)).items;
    expect(failed).toMatchObject({ status: "FAILED" });
    const row = new RegExp(`<tr[^>]*data-code="${failed!.code}"[^>]*>([\\s\\S]*?)</tr>`);
    const line = (await html("/admin/checkin", cookie)).markup.match(row)?.[1] ?? "";
    expect(line).toContain('data-status="FAILED"');
    expect(line).toContain('data-testid="reward-retry"');
    expect((await postForm("/admin/checkin", { intent: "retry", code: failed!.code, retries: "0" }, { cookie })).status).toBe(302);
    expect((await p.wallet.getReward(failed!.code))?.status).toBe("SUCCESS");
    expect(await providerBalance("alphabet", p.username)).toBe("20.00");
    expect((await p.wallet.listRewards("STREAK", 1, 10)).total).toBe(1);
  });
});

describe("the wallet's rewards table rebuilt for the new kinds (schema v8)", () => {
  it("keeps every row of a wallet stored before, with its claim keys and trigger", async () => {
    const p = await playerWithBank();
    await p.wallet.identify("demo", p.playerId, p.username, "http://localhost");
    const { before, after, refused } = await runInDurableObject(p.wallet, (_object, state) => {
      const sql = state.storage.sql;
      // the table as v7 left it: only CASHBACK and REFERRAL
      sql.exec(`DROP TABLE rewards`);
      sql.exec(`CREATE TABLE rewards (
         code TEXT PRIMARY KEY, claim_key TEXT UNIQUE, kind TEXT NOT NULL CHECK (kind IN ('CASHBACK','REFERRAL')), period TEXT NOT NULL,
         provider TEXT NOT NULL, amount_minor TEXT NOT NULL, turnover_multiple TEXT NOT NULL, turnover_target_minor TEXT NOT NULL,
         turnover_start_minor TEXT, turnover_since INTEGER, turnover_met_at INTEGER, basis_json TEXT NOT NULL DEFAULT '{}',
         status TEXT NOT NULL CHECK (status IN ('PENDING','SUCCESS','FAILED')), reason TEXT, attempts INTEGER NOT NULL DEFAULT 0,
         next_attempt_at INTEGER, created_at INTEGER NOT NULL, settled_at INTEGER, projected INTEGER NOT NULL DEFAULT 0,
         released_key TEXT, reference TEXT, retries INTEGER NOT NULL DEFAULT 0)`);
      sql.exec(
        `INSERT INTO rewards (code, claim_key, kind, period, provider, amount_minor, turnover_multiple, turnover_target_minor, turnover_start_minor, turnover_since, basis_json, status, attempts, created_at, settled_at, projected)
         VALUES ('KOLD1', 'CASHBACK:2026-W40:askmebet', 'CASHBACK', '2026-W40', 'askmebet', '1500', '1', '1500', '0', 1, '{"netLoss":"150.00"}', 'SUCCESS', 1, 1, 2, 1)`,
      );
      sql.exec(
        `INSERT INTO rewards (code, claim_key, kind, period, provider, amount_minor, turnover_multiple, turnover_target_minor, status, reason, attempts, created_at, settled_at, released_key, reference, retries)
         VALUES ('KOLD2', NULL, 'REFERRAL', '2026-W41', 'gclub', '700', '0', '0', 'FAILED', 'PROVIDER_REFUSED', 2, 3, 4, 'REFERRAL:2026-W41', 'KOLD2-1', 1)`,
      );
      // back to v7: the later steps (v9, holds: a usage's column) run again too
      sql.exec(`ALTER TABLE promotion_usages DROP COLUMN hold`);
      sql.exec(`UPDATE meta SET value = '7' WHERE key = 'schemaVersion'`);
      const rows = () => sql.exec(`SELECT * FROM rewards ORDER BY code`).toArray();
      const before = rows();
      migrateWalletSchema(state.storage);
      const after = rows();
      // the transition trigger is back: SUCCESS -> PENDING is refused
      let refused = false;
      try {
        sql.exec(`UPDATE rewards SET status = 'PENDING' WHERE code = 'KOLD1'`);
      } catch {
        refused = true;
      }
      return { before, after, refused };
    });
    expect(before).toHaveLength(2);
    expect(after).toEqual(before);
    expect(refused).toBe(true);
    expect((await p.wallet.getReward("KOLD1"))?.basis).toEqual({ netLoss: "150.00" });
    // the new kinds are stored now; the old claim key still holds its period
    const result = await checkIn(env, agency, asPlayer(p), { provider: "askmebet" });
    expect(result.ok).toBe(true);
    expect((await p.wallet.listRewards(null, 1, 10)).total).toBe(3);
  });
});
