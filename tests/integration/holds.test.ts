import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import lo from "../../locales/lo/player.json";
import { fetchApp, seedDemo } from "../setup/seed";
import { loginViaForm, PASSWORD, postForm, sessionFrom, uniqueName, uniquePhone } from "../setup/players";
import { payQr, postDeposit, providerBalance, pumpDeliveries, postWithdraw } from "../setup/money";
import { createStaff, staffLogin } from "../setup/staff";
import { walletOf } from "../../workers/services/wallets";
import { getPlayerDetail, replaceBankAccount } from "../../workers/services/players";
import { personalLaoQr, qrPng } from "./fixtures/qr-images";

/**
 * Holds (decision 094), driven over HTTP only: registration (with the device the form reports),
 * the bank form, the promotion claim, the deposit and the sandbox bank's payment, the staff
 * page's release and refusal. Nothing is written into a link or hold table by the test; the
 * model is the test's own list of who claimed first. The wallet's due work is run by hand (what
 * its alarm does a moment later).
 */

const WELCOME = "welcome-100"; // first order only, 100% up to 500 credit
let ownerCookie = "";
let ipCounter = 0;
const nextIp = () => `10.171.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}`;
const hex = (bytes: number) => [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");

type Ring = { username: string; id: string; cookie: string };

/** A player registered by the form on `device` (its hidden fingerprint field), signed in, with a bank account in `holder`'s name. */
async function register(opts: { device?: string; phone?: string; holder: string }): Promise<Ring> {
  const username = uniqueName("ring");
  const ip = nextIp();
  const fields = {
    username,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    phone: opts.phone ?? uniquePhone(),
    adult: "on",
    displayName: `Player ${username}`,
    fingerprint: opts.device ?? "",
  };
  const reg = await postForm("/register", fields, { ip });
  expect(reg.status, await reg.clone().text()).toBe(302);
  const cookie = sessionFrom(await loginViaForm(username, PASSWORD, { ip }))!;
  const bank = await postForm(
    "/player/bank",
    {
      bankCode: "BCEL",
      accountNumber: `0101${hex(4).replace(/\D/g, "7").padEnd(9, "3").slice(0, 9)}`,
      accountName: opts.holder,
      currency: "LAK",
      owner: "SELF",
    },
    { cookie },
  );
  expect(bank.status, await bank.clone().text()).toBe(302);
  const row = await env.DB.prepare(`SELECT id FROM players WHERE agency_id = 'demo' AND username = ?1`).bind(username).first<{ id: string }>();
  return { username, id: row!.id, cookie };
}

/** The text of the element a page shows under `testId` (the page's inline translations hold every text of its groups: a page is read by its elements). */
function shownIn(html: string, testId: string): string | undefined {
  return new RegExp(`data-testid="${testId}"[^>]*>([^<]+)<`).exec(html)?.[1];
}

const claim = (p: Ring) => postForm(`/player/promotion/${WELCOME}`, { intent: "claim", provider: "askmebet" }, { cookie: p.cookie });

type Current = { id: string; status: string; bonus: string | null; bonusCredited: boolean; hold: string | null; reason: string | null } | null;
async function current(p: Ring): Promise<Current> {
  const res = await fetchApp("http://localhost/api/v2/promotions/current", { headers: { Cookie: p.cookie } });
  return ((await res.json()) as { current: Current }).current;
}

/** Deposit 60,000 kip with the claim, pay the QR the deposit page shows, let the wallet settle. */
async function depositAndPay(p: Ring): Promise<void> {
  expect((await postDeposit(p.cookie, { amount: "60000" })).status).toBe(302);
  const page = await (await fetchApp("http://localhost/player/deposit", { headers: { Cookie: p.cookie } })).text();
  const payload = /data-testid="qr-payload"[^>]*>([^<]+)</.exec(page)?.[1] ?? /<textarea[^>]*readOnly[^>]*>([^<]+)</i.exec(page)?.[1];
  expect(payload, "the deposit page shows the QR's text").toBeTruthy();
  expect((await payQr(payload!.replace(/&amp;/g, "&"))).status).toBe(200);
  await pumpDeliveries();
  await settle(p);
}

async function settle(p: Ring) {
  const wallet = walletOf(env, "demo", p.id);
  await wallet.runDueWork();
  await wallet.runDueWork(Date.now() + 60_000);
}

async function holdsPage(status = "HELD"): Promise<string> {
  const res = await fetchApp(`http://localhost/admin/holds?status=${status}`, { headers: { Cookie: ownerCookie } });
  expect(res.status).toBe(200);
  return res.text();
}

/** The hold ids the staff page lists for a player (its release/refuse forms). */
async function holdIdOf(page: string, username: string): Promise<string> {
  const row = page.slice(page.indexOf(`data-player="${username}"`));
  const id = /name="holdId" value="([^"]+)"/.exec(row)?.[1];
  expect(id, `a decision form for ${username}`).toBeTruthy();
  return id!;
}

const decide = (holdId: string, intent: "release" | "refuse", reason = "checked with the player by phone") =>
  postForm("/admin/holds", { intent, holdId, reason }, { cookie: ownerCookie });

beforeAll(async () => {
  await seedDemo();
  const o = await createStaff(env, { agencyId: "demo", username: "hold-owner", password: "hold-owner-pass-123", role: "owner" });
  ownerCookie = await staffLogin(env, { username: "hold-owner", password: "hold-owner-pass-123", totpSecret: o.totpSecret });
});

describe("six accounts on one device claim the welcome promotion", () => {
  it("the first is paid, the other five are held with their links shown; releasing one pays it once; held players' withdrawals wait", async () => {
    const device = hex(32);
    const ring: Ring[] = [];
    for (let i = 0; i < 6; i++) ring.push(await register({ device, holder: i < 3 ? "Somchai Keo" : "Noy Phommachanh" }));

    // the model: claims one after another, so the first to claim is the first to have it
    for (const p of ring) expect((await claim(p)).status).toBe(302);
    for (const p of ring) await depositAndPay(p);

    const [first, ...others] = ring;
    const firstNow = await current(first!);
    expect(firstNow).toMatchObject({ status: "USED", bonusCredited: true, hold: null });
    const firstBalance = await providerBalance("askmebet", first!.username);
    for (const p of others) {
      // the deposit is credited (100 credit), the bonus waits
      expect(await current(p)).toMatchObject({ status: "USED", bonusCredited: false, hold: "HELD" });
      expect(await providerBalance("askmebet", p.username)).toBe("100.00");
      // the player is told, in their language, that it is being checked
      const page = await (await fetchApp("http://localhost/player/promotion", { headers: { Cookie: p.cookie } })).text();
      expect(shownIn(page, "promotion-held")).toBe(lo.promotion.bonusBeingChecked);
    }
    expect(firstBalance).toBe("200.00");

    // staff see five held claims, each linked to the first (and the others) by the device
    const page = await holdsPage();
    for (const p of others) expect(page).toContain(`data-player="${p.username}"`);
    expect(page).not.toContain(`data-player="${first!.username}" data-status`);
    const row = page.slice(page.indexOf(`data-player="${others[0]!.username}"`));
    expect(row.slice(0, row.indexOf("</tr>") > 0 ? row.indexOf("</tr>") : 3000)).toContain(first!.username);

    // a held player's withdrawal waits for staff, and the player is told why
    const held = others[0]!;
    const review = await postWithdraw(held.cookie, { intent: "review", amount: "100" });
    expect(review.status).toBe(200);
    expect(shownIn(await review.text(), "withdraw-checking")).toBe(lo.withdraw.checking);
    expect((await postWithdraw(held.cookie, { amount: "100" })).status).toBe(302);
    const [order] = (await walletOf(env, "demo", held.id).listWithdraws(1, 5)).items;
    expect(order).toMatchObject({ status: "OPEN", review: "MANUAL" });

    // releasing one pays its bonus once, however many times it is pressed
    const released = others[1]!;
    const id = await holdIdOf(page, released.username);
    const presses = await Promise.all([decide(id, "release"), decide(id, "release"), decide(id, "release")]);
    expect(presses.every((r) => r.status === 302)).toBe(true);
    await settle(released);
    await settle(released);
    expect(await current(released)).toMatchObject({ status: "USED", bonusCredited: true, hold: "RELEASED" });
    expect(await providerBalance("askmebet", released.username)).toBe("200.00");
    const audits = await env.DB.prepare(`SELECT COUNT(*) AS n FROM audit_log WHERE action = 'reward.hold-release' AND target = ?1`)
      .bind(id)
      .first<{ n: number }>();
    expect(audits!.n).toBe(1);

    // refusing another ends its claim without a bonus: no promotion binds its withdrawals any more
    const refused = others[2]!;
    expect((await decide(await holdIdOf(page, refused.username), "refuse", "one person, six accounts")).status).toBe(302);
    expect(await current(refused)).toBeNull();
    await settle(refused);
    expect(await providerBalance("askmebet", refused.username)).toBe("100.00");

    // a decision needs a reason
    const bare = await decide(await holdIdOf(page, others[3]!.username), "release", "");
    expect(bare.status).toBe(400);

    // the CSV lists what the page lists
    const csv = await (await fetchApp("http://localhost/admin/holds/export.csv?status=all", { headers: { Cookie: ownerCookie } })).text();
    for (const p of others) expect(csv).toContain(p.username);
  });
});

describe("twenty claims at once", () => {
  it("twenty accounts sharing one phone claim together: exactly one is first, nineteen are held", async () => {
    const phone = uniquePhone();
    const ring: Ring[] = [];
    for (let i = 0; i < 20; i++) ring.push(await register({ phone, holder: `Player ${i}` }));
    const answers = await Promise.all(ring.map(claim));
    expect(answers.map((r) => r.status)).toEqual(ring.map(() => 302));
    const holds = await Promise.all(ring.map(current));
    expect(holds.filter((c) => c?.hold === null)).toHaveLength(1);
    expect(holds.filter((c) => c?.hold === "HELD")).toHaveLength(19);
    const rows = await env.DB.prepare(`SELECT COUNT(*) AS n FROM reward_holds WHERE player_id IN (SELECT value FROM json_each(?1)) AND status = 'HELD'`)
      .bind(JSON.stringify(ring.map((p) => p.id)))
      .first<{ n: number }>();
    expect(rows!.n).toBe(19);
  });

  it("a player cancelling an unused claim gives it back: a linked account may then claim first", async () => {
    const phone = uniquePhone();
    const a = await register({ phone, holder: "Anna" });
    const b = await register({ phone, holder: "Boun" });
    expect((await claim(a)).status).toBe(302);
    const usage = (await current(a))!;
    expect(usage.hold).toBeNull();
    expect((await postForm(`/player/promotion/${WELCOME}`, { intent: "cancel", usageId: usage.id }, { cookie: a.cookie })).status).toBe(302);
    expect((await claim(b)).status).toBe(302);
    expect((await current(b))!.hold).toBeNull();
  });
});

describe("a reward on the cashback path (check-in)", () => {
  it("two accounts on one device check in: the first is credited, the second is held and told so; released, it is credited once", async () => {
    const settings = { checkinEnabled: "on", checkinAmount: "5", checkinMultiple: "0", streakDays: "3", streakAmount: "20", streakMultiple: "2" };
    expect((await postForm("/admin/checkin", settings, { cookie: ownerCookie })).status).toBe(302);
    const device = hex(32);
    const [first, second] = [await register({ device, holder: "Kham" }), await register({ device, holder: "Kham" })];
    const checkIn = (p: Ring) => postForm("/player/checkin", { intent: "checkin", provider: "askmebet" }, { cookie: p.cookie });
    expect((await checkIn(first!)).status).toBe(302);
    expect(await providerBalance("askmebet", first!.username)).toBe("5.00");
    // held: nothing credited, the page says "being checked" where the offer was, a second press is held the same
    expect((await checkIn(second!)).status).toBe(302);
    expect((await checkIn(second!)).status).toBe(302);
    const page = await (await fetchApp("http://localhost/player/checkin", { headers: { Cookie: second!.cookie } })).text();
    expect(page).toMatch(/data-testid="checkin-refusal" data-refusal="REWARD_HELD">([^<]+)</);
    expect(/data-refusal="REWARD_HELD">([^<]+)</.exec(page)?.[1]).toBe(lo.checkin.errors.REWARD_HELD);
    const api = await fetchApp("http://localhost/api/v2/rewards/checkin", {
      method: "POST",
      headers: { Cookie: second!.cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ provider: "askmebet" }),
    });
    expect(api.status).toBe(409);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe("REWARD_HELD");
    expect((await walletOf(env, "demo", second!.id).listRewards(null, 1, 10)).total).toBe(0);
    const rows = await env.DB.prepare(`SELECT COUNT(*) AS n FROM reward_holds WHERE player_id = ?1`).bind(second!.id).first<{ n: number }>();
    expect(rows!.n).toBe(1);

    // released twice at once: one reward, credited once
    const id = await holdIdOf(await holdsPage(), second!.username);
    await Promise.all([decide(id, "release"), decide(id, "release")]);
    expect(await providerBalance("askmebet", second!.username)).toBe("5.00");
    const rewards = await walletOf(env, "demo", second!.id).listRewards(null, 1, 10);
    expect(rewards.items.map((r) => [r.kind, r.status])).toEqual([["CHECKIN", "SUCCESS"]]);
    const after = await (await fetchApp("http://localhost/player/checkin", { headers: { Cookie: second!.cookie } })).text();
    expect(after).not.toContain('data-refusal="REWARD_HELD"');
    expect(after).toContain('data-refusal="CHECKIN_ALREADY_TODAY"');
  });
});

describe("a receive QR handed from one player to another", () => {
  it("links them (the replaced account's receiver is kept): the second claim of the welcome promotion is held for the receiver", async () => {
    const qr = personalLaoQr({ receiver: `mch${hex(6).toUpperCase()}` });
    const number = () => `0101${hex(4).replace(/\D/g, "5").padEnd(9, "1").slice(0, 9)}`;
    // A gives the QR with an account, then replaces the account (the QR goes with the old one)
    const a = await register({ holder: "Somsak Phommavong" });
    const actorA = { agencyId: "demo", staffId: null, staffUsername: `player:${a.username}`, ip: null, userAgent: null };
    expect(
      (
        await replaceBankAccount(
          env,
          actorA,
          a.id,
          { bankCode: "BCEL", accountNumber: number(), accountName: "Somsak Phommavong", receiveQr: qrPng(qr) },
          { allowPaid: false },
        )
      ).ok,
    ).toBe(true);
    expect(
      (await replaceBankAccount(env, actorA, a.id, { bankCode: "BCEL", accountNumber: number(), accountName: "Somsak Phommavong" }, { allowPaid: false })).ok,
    ).toBe(true);
    // B, on another device and phone, gives the same QR with an account of their own
    const b = await register({ holder: "Somsak Phommavong" });
    const actorB = { agencyId: "demo", staffId: null, staffUsername: `player:${b.username}`, ip: null, userAgent: null };
    expect(
      (
        await replaceBankAccount(
          env,
          actorB,
          b.id,
          { bankCode: "BCEL", accountNumber: number(), accountName: "Somsak Phommavong", receiveQr: qrPng(qr) },
          { allowPaid: false },
        )
      ).ok,
    ).toBe(true);

    expect((await claim(a)).status).toBe(302);
    expect((await claim(b)).status).toBe(302);
    expect((await current(a))!.hold).toBeNull();
    expect((await current(b))!.hold).toBe("HELD");
    const hold = await env.DB.prepare(`SELECT links_json FROM reward_holds WHERE player_id = ?1`).bind(b.id).first<{ links_json: string }>();
    expect(JSON.parse(hold!.links_json)).toEqual([expect.objectContaining({ playerId: a.id, key: expect.stringMatching(/^receiver:27710418:mch/) })]);
    // and the staff page of either shows the receiver link
    const detail = await getPlayerDetail(env.DB, "demo", a.id);
    expect(detail!.linked.links.find((l) => l.playerId === b.id)?.reasons.map((r) => r.reason)).toContain("receiver");
  });
});
