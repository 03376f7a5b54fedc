import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { markupOf } from "../setup/lite-script";
import { openOrder, payQr, playerWithBank, postDeposit, pumpDeliveries, qrPayloadOf } from "../setup/money";
import { loginViaForm, PASSWORD, postForm, sessionFrom } from "../setup/players";
import { getPlayerDetail, limitsPage, login, logout, resolveSession, setLimits, startBreak } from "../../workers/services/players";
import { gameLaunchGuard, playTimeLine } from "../../workers/services/wallets";

beforeAll(seedDemo);

const H = 3600_000;
const NO = { day: "", week: "", month: "", playMinutes: "" };

async function page(path: string, cookie: string) {
  const res = await fetchApp(`http://localhost${path}`, { headers: { Cookie: cookie } });
  return { status: res.status, html: await res.text() };
}

describe("deposit limits (decision 025)", () => {
  it("a day limit refuses an amount over what is left and says how much is left; open and paid orders count, cancelled ones not", async () => {
    const p = await playerWithBank();
    const saved = await postForm("/player/limits", { intent: "limits", day: "100.000", week: "", month: "", playMinutes: "" }, { cookie: p.cookie });
    expect(saved.status).toBe(302);
    expect((await page("/player/limits", p.cookie)).html).toContain("₭100.000");

    // an order cancelled moved no money: it does not count
    expect((await postDeposit(p.cookie, { amount: "60000" })).status).toBe(302);
    const first = (await openOrder(p.cookie))!;
    expect((await postForm("/player/deposit", { intent: "cancel", code: first.code }, { cookie: p.cookie })).status).toBe(302);
    const over = await postDeposit(p.cookie, { amount: "120000" });
    expect(over.status).toBe(400);
    // the deposit page says why, and how much is still allowed today
    const refusal = await shownOf(over);
    expect(refusal).toContain("ເກີນຂີດຈຳກັດການຝາກຕໍ່ມື້ຂອງທ່ານ");
    expect(refusal).toContain("₭100.000");

    // a paid order counts
    expect((await postDeposit(p.cookie, { amount: "60000" })).status).toBe(302);
    const second = (await openOrder(p.cookie))!;
    await payQr(await qrPayloadOf(p.wallet, second.code));
    await pumpDeliveries();
    expect(["PAID", "SUCCESS"]).toContain((await p.wallet.getDeposit(second.code))!.status);
    const left = await postDeposit(p.cookie, { amount: "50000" });
    expect(left.status).toBe(400);
    expect(await left.text()).toContain("₭40.000");
    expect((await postDeposit(p.cookie, { amount: "40000" })).status).toBe(302);
    // while that order is open no new order can be made, so the limit does not judge a repeat post
    expect((await postDeposit(p.cookie, { amount: "90000" })).status).toBe(302);
    expect((await openOrder(p.cookie))!.amount).toBe("40000.00");
  });

  it("lowering applies at once; raising waits 24 h and the page shows it pending, with when", async () => {
    const p = await playerWithBank();
    const now = Date.now();
    expect(await setLimits(env.DB, "demo", p.playerId, { ...NO, week: "500000" }, now)).toContainEqual({ kind: "deposit_week", applied: "now" });
    expect(await setLimits(env.DB, "demo", p.playerId, { ...NO, week: "2000000" }, now + H)).toContainEqual({ kind: "deposit_week", applied: "pending" });
    // the same raise again keeps its time
    expect(await setLimits(env.DB, "demo", p.playerId, { ...NO, week: "2000000" }, now + 2 * H)).toContainEqual({ kind: "deposit_week", applied: "unchanged" });
    const waiting = await limitsPage(env, "demo", p.playerId, now + 2 * H);
    expect(waiting.deposit.week).toEqual({ value: "500000.00", pending: { value: "2000000.00", from: now + 25 * H } });
    expect((await page("/player/limits", p.cookie)).html).toContain('data-testid="pending-week"');
    expect((await limitsPage(env, "demo", p.playerId, now + 25 * H)).deposit.week).toEqual({ value: "2000000.00", pending: null });
    // removing the limit is a raise too
    await setLimits(env.DB, "demo", p.playerId, NO, now + 26 * H);
    expect((await limitsPage(env, "demo", p.playerId, now + 27 * H)).deposit.week).toEqual({
      value: "2000000.00",
      pending: { value: null, from: now + 50 * H },
    });
  });

  it("a lowering and a raise at the same time never lose the lowering", async () => {
    const p = await playerWithBank();
    const now = Date.now();
    await setLimits(env.DB, "demo", p.playerId, { ...NO, day: "500000" }, now);
    await Promise.all([
      setLimits(env.DB, "demo", p.playerId, { ...NO, day: "900000" }, now + 1),
      setLimits(env.DB, "demo", p.playerId, { ...NO, day: "100000" }, now + 1),
      setLimits(env.DB, "demo", p.playerId, { ...NO, day: "800000" }, now + 1),
    ]);
    expect((await limitsPage(env, "demo", p.playerId, now + 2)).deposit.day.value).toBe("100000.00");
  });

  it("the form refuses what is not a whole kip amount or minutes of a day", async () => {
    const p = await playerWithBank();
    const bad = await postForm("/player/limits", { intent: "limits", day: "abc", playMinutes: "2000" }, { cookie: p.cookie });
    expect(bad.status).toBe(400);
    const html = await shownOf(bad);
    expect(html).toContain("ກະລຸນາປ້ອນຈຳນວນກີບເປັນຕົວເລກ");
    expect(html).toContain("ກະລຸນາປ້ອນນາທີ 1 ຫາ 1440");
  });
});

describe("cooling-off and self-exclusion (decision 025)", () => {
  it("cooling-off cancels the open order, refuses deposits and game launches with the end date; login and withdraw still work", async () => {
    const p = await playerWithBank();
    expect((await postDeposit(p.cookie, { amount: "60000" })).status).toBe(302);
    const order = (await openOrder(p.cookie))!;
    const unconfirmed = await postForm("/player/limits", { intent: "break", kind: "cooling_off", length: "1" }, { cookie: p.cookie });
    expect(unconfirmed.status).toBe(400);
    expect((await p.wallet.getDeposit(order.code))!.status).toBe("OPEN");

    const started = await postForm("/player/limits", { intent: "break", kind: "cooling_off", length: "1", confirm: "on" }, { cookie: p.cookie });
    expect(started.status).toBe(302);
    expect((await p.wallet.getDeposit(order.code))!.status).toBe("CANCELED");

    const deposit = await postDeposit(p.cookie, { amount: "60000" });
    expect(deposit.status).toBe(400);
    const text = await shownOf(deposit);
    expect(text).toContain("ທ່ານກຳລັງພັກການຫຼິ້ນຮອດ");
    expect(text).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);
    expect(await openOrder(p.cookie)).toBeNull();

    const launch = await postForm("/player/game/gclub", { game: "gc-baccarat" }, { cookie: p.cookie });
    expect(launch.status).toBe(409);
    expect(await shownOf(launch)).toContain("ທ່ານກຳລັງພັກການຫຼິ້ນຮອດ");

    expect((await page("/player/withdraw", p.cookie)).status).toBe(200);
    expect(sessionFrom(await loginViaForm(p.username, PASSWORD, { ip: "10.61.1.1" }))).toBeTruthy();
    expect((await page("/player/limits", p.cookie)).html).toContain('data-testid="limits-break"');

    const staffView = (await getPlayerDetail(env.DB, "demo", p.playerId))!;
    expect(staffView.limits.break).toMatchObject({ kind: "cooling_off" });
  });

  it("a self-exclusion can be lengthened but not shortened, and the table refuses any change or deletion", async () => {
    const p = await playerWithBank();
    const now = Date.now();
    const excluded = await startBreak(env, "demo", p.playerId, { kind: "self_exclusion", length: 6 }, now);
    expect(excluded.ok).toBe(true);
    expect(await startBreak(env, "demo", p.playerId, { kind: "cooling_off", length: 42 }, now + H)).toEqual({ ok: false, error: "BREAK_SHORTER" });
    expect(await startBreak(env, "demo", p.playerId, { kind: "cooling_off", length: 5 }, now)).toEqual({ ok: false, error: "BREAK_LENGTH" });
    const shorter = await postForm("/player/limits", { intent: "break", kind: "cooling_off", length: "7", confirm: "on" }, { cookie: p.cookie });
    expect(shorter.status).toBe(409);
    expect((await startBreak(env, "demo", p.playerId, { kind: "self_exclusion", length: 12 }, now + H)).ok).toBe(true);

    await expect(env.DB.prepare(`UPDATE player_breaks SET ends_at = ?1 WHERE player_id = ?2`).bind(now, p.playerId).run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare(`DELETE FROM player_breaks WHERE player_id = ?1`).bind(p.playerId).run()).rejects.toThrow(/append-only/);
    const detail = (await getPlayerDetail(env.DB, "demo", p.playerId))!;
    expect(detail.limits.break).toMatchObject({ kind: "self_exclusion" });
    const launch = await gameLaunchGuard(env.DB, "demo", p.playerId);
    expect(launch?.limit.code).toBe("SELF_EXCLUDED");
  });
});

describe("play time (decision 025)", () => {
  it("is the time logged in today; once the day's limit is used a new launch is refused until midnight", async () => {
    const p = await playerWithBank();
    // a fixed Vientiane noon, with a session opened 2 h before and still in use
    const noon = Date.parse("2026-11-24T05:00:00Z");
    await env.DB.prepare(`INSERT INTO sessions (id_hash, agency_id, player_id, created_at, last_seen_at, expires_at) VALUES (?1, 'demo', ?2, ?3, ?4, ?5)`)
      .bind(`test-${crypto.randomUUID()}`, p.playerId, noon - 2 * H, noon - 60_000, noon + 10 * H)
      .run();
    expect((await playTimeLine(env.DB, "demo", p.playerId, noon)).playedMs).toBe(2 * H);
    await setLimits(env.DB, "demo", p.playerId, { ...NO, playMinutes: "180" }, noon - 3 * H);
    expect(await gameLaunchGuard(env.DB, "demo", p.playerId, noon)).toBeNull();
    await setLimits(env.DB, "demo", p.playerId, { ...NO, playMinutes: "120" }, noon - H);
    expect((await gameLaunchGuard(env.DB, "demo", p.playerId, noon))?.limit).toEqual({
      code: "PLAY_TIME_LIMIT_REACHED",
      minutes: 120,
      until: Date.parse("2026-11-24T17:00:00Z"),
    });
    // an hour after the session went idle, nothing more counted
    expect((await playTimeLine(env.DB, "demo", p.playerId, noon + H)).playedMs).toBe(2 * H - 60_000);
  });

  it("a session ended by logout still counts: log in again and the day's limit still refuses a launch", async () => {
    const p = await playerWithBank();
    const client = { ip: "10.0.25.1", userAgent: "vitest" };
    // a day long past: the session playerWithBank opened now is never on it (a date of its own was
    // today on 2026-12-02, and that morning's session counted)
    const noon = Date.parse("2026-11-11T05:00:00Z");
    await setLimits(env.DB, "demo", p.playerId, { ...NO, playMinutes: "60" }, noon - 3 * H);
    const first = await login(env.DB, "demo", { username: p.username, password: PASSWORD }, client, () => noon - 2 * H);
    if (!first.ok) throw new Error(first.code);
    // played: a page view every 10 minutes for 70 minutes, then logout 30 s after the last one
    for (let m = 10; m <= 70; m += 10) expect(await resolveSession(env.DB, "demo", first.sessionId, {}, () => noon - 2 * H + m * 60_000)).not.toBeNull();
    await logout(env.DB, "demo", first.sessionId, () => noon - 2 * H + 70 * 60_000 + 30_000);
    expect(await resolveSession(env.DB, "demo", first.sessionId, {}, () => noon - H)).toBeNull();
    // an hour later the player comes back: the 70.5 minutes are still today's
    const again = await login(env.DB, "demo", { username: p.username, password: PASSWORD }, client, () => noon);
    if (!again.ok) throw new Error(again.code);
    expect((await playTimeLine(env.DB, "demo", p.playerId, noon)).playedMs).toBe(70 * 60_000 + 30_000);
    expect((await gameLaunchGuard(env.DB, "demo", p.playerId, noon))?.limit).toEqual({
      code: "PLAY_TIME_LIMIT_REACHED",
      minutes: 60,
      until: Date.parse("2026-11-11T17:00:00Z"),
    });
    // a new Vientiane day starts from nothing
    expect((await playTimeLine(env.DB, "demo", p.playerId, Date.parse("2026-11-11T17:00:00Z"))).playedMs).toBe(0);
  });

  it("a session that ended idle counts up to its last activity, not to the logout", async () => {
    const p = await playerWithBank();
    const client = { ip: "10.0.25.2", userAgent: "vitest" };
    const noon = Date.parse("2026-11-12T05:00:00Z");
    const s = await login(env.DB, "demo", { username: p.username, password: PASSWORD }, client, () => noon - 3 * H);
    if (!s.ok) throw new Error(s.code);
    await resolveSession(env.DB, "demo", s.sessionId, {}, () => noon - 3 * H + 20 * 60_000);
    // logout two hours later from a forgotten tab: the idle time is not play
    await logout(env.DB, "demo", s.sessionId, () => noon - H);
    expect((await playTimeLine(env.DB, "demo", p.playerId, noon)).playedMs).toBe(20 * 60_000);
  });

  it("every page of a logged-in player shows the time played today, and the footer links to the settings", async () => {
    const p = await playerWithBank();
    const { html } = await page("/player/bank", p.cookie);
    expect(html).toContain('data-testid="time-played"');
    expect(markupOf(html)).toContain("ເວລາຫຼິ້ນມື້ນີ້");
    expect(html).toContain('href="/player/limits"');
    const visitor = await (await fetchApp("http://localhost/")).text();
    expect(visitor).not.toContain('data-testid="time-played"');
    expect(visitor).toContain('href="/player/limits"');
  });
});
