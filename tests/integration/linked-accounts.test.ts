import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import lo from "../../locales/lo/admin.json";
import { addBankAccount, getPlayerDetail } from "../../workers/services/players";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { loginViaForm, PASSWORD, postForm, postJson, sessionFrom, uniqueName } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";

/**
 * Linked accounts (decision 093) against real D1: players registered, signed in and given bank
 * accounts through the real forms and services (nothing written into a link table by the
 * test) are linked with their reasons; the staff page shows it to owner and cashier; the owner's
 * unlink is audited and holds; the cashier's unlink is refused.
 */

let ownerCookie = "";
let cashierCookie = "";
const DEVICE = "ab12".repeat(8);
const SHARED_IP = "10.160.0.1";
let ipCounter = 0;
const nextIp = () => `10.161.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}`;

/**
 * A player registered by the registration form (which stores the phone as typed, spaces and
 * dashes dropped) and signed in by the login form from `ip`, with their session cookie.
 */
async function player(phone: string, ip = nextIp()) {
  const username = uniqueName("lk");
  const fields = { username, password: PASSWORD, confirmPassword: PASSWORD, phone, adult: "on", displayName: `Player ${username}` };
  expect((await postForm("/register", fields, { ip })).status).toBe(302);
  const row = await env.DB.prepare(`SELECT id FROM players WHERE agency_id = 'demo' AND username = ?1`).bind(username).first<{ id: string }>();
  return { username, id: row!.id, cookie: sessionFrom(await loginViaForm(username, PASSWORD, { ip }))! };
}

/** The collector's report of this browser's device (POST /api/v2/fingerprint), as the portal's script sends it. */
async function onDevice(cookie: string, fingerprint = DEVICE) {
  const res = await postJson("/api/v2/fingerprint", { fingerprint }, { cookie });
  expect(res.status).toBe(200);
}

const linksOf = async (playerId: string) => (await getPlayerDetail(env.DB, "demo", playerId))!.linked;
const reasonsOf = async (playerId: string) =>
  Object.fromEntries((await linksOf(playerId)).links.map((l) => [l.player.username, l.reasons.map((r) => r.reason)]));

let a: Awaited<ReturnType<typeof player>>;
let b: Awaited<ReturnType<typeof player>>;
let c: Awaited<ReturnType<typeof player>>;
let d: Awaited<ReturnType<typeof player>>;
let e: Awaited<ReturnType<typeof player>>;

beforeAll(async () => {
  await seedDemo();
  const o = await createStaff(env, { agencyId: "demo", username: "lk-owner", password: "lk-owner-pass-123", role: "owner" });
  const k = await createStaff(env, { agencyId: "demo", username: "lk-cashier", password: "lk-cashier-pass-123", role: "cashier" });
  ownerCookie = await staffLogin(env, { username: "lk-owner", password: "lk-owner-pass-123", totpSecret: o.totpSecret });
  cashierCookie = await staffLogin(env, { username: "lk-cashier", password: "lk-cashier-pass-123", totpSecret: k.totpSecret });

  // a: the first account, on the device, from the shared address, with an account in Somchai's name
  a = await player("020 7123 4567", SHARED_IP);
  await onDevice(a.cookie);
  expect((await addBankAccount(env.DB, "demo", a.id, { bankCode: "BCEL", accountNumber: "0101200712345", accountName: "Somchai Phommavong" })).ok).toBe(true);
  // b: the same phone spelled the international way, the same device
  b = await player("+856 20 7123-4567");
  await onDevice(b.cookie);
  // c: another phone and device, an account at another bank in the same name typed otherwise
  c = await player("02079990001");
  await onDevice(c.cookie, "cd34".repeat(8));
  expect((await addBankAccount(env.DB, "demo", c.id, { bankCode: "LDB", accountNumber: "0300100712399", accountName: "SOMCHAI  PHOMMAVONG." })).ok).toBe(true);
  // d: nothing shared but the address, the same hour (a family's Wi-Fi, a cafe, the operator's NAT)
  d = await player("02079990002", SHARED_IP);
  // e: nothing shared at all
  e = await player("02079990003");
});

describe("links derived from what registration, sign-in, the device report and the bank form stored", () => {
  it("links the accounts sharing a device, a phone, a holder name or an address, each with its reasons", async () => {
    expect(await reasonsOf(a.id)).toEqual({ [b.username]: ["device", "phone"], [c.username]: ["holder"], [d.username]: ["ip"] });
    expect(await reasonsOf(b.id)).toEqual({ [a.username]: ["device", "phone"] });
    expect(await reasonsOf(c.id)).toEqual({ [a.username]: ["holder"] });
    expect(await reasonsOf(e.id)).toEqual({});
    const seen = (await linksOf(a.id)).links.find((l) => l.playerId === b.id)!;
    // when each was seen: the later of the two sightings, a real time of this run
    for (const why of seen.reasons) expect(Date.now() - Date.parse(why.seenAt)).toBeLessThan(10 * 60_000);
  });

  it("scores the parts: a device or phone makes a player worth holding; a name or an address alone never does", async () => {
    const scoreA = (await linksOf(a.id)).score;
    expect(scoreA.parts.map((p) => [p.reason, p.players, p.points])).toEqual([
      ["device", 1, 40],
      ["phone", 1, 40],
      ["holder", 1, 15],
      ["ip", 1, 10],
    ]);
    expect(scoreA).toMatchObject({ total: 100, heldWorthy: true });
    expect((await linksOf(c.id)).score).toMatchObject({ total: 15, heldWorthy: false });
    expect((await linksOf(d.id)).score).toMatchObject({ total: 10, heldWorthy: false });
    expect((await linksOf(e.id)).score).toEqual({ total: 0, parts: [], heldWorthy: false });
  });

  it("shows the linked accounts, why and the score on the staff page to a cashier, without the unlink form", async () => {
    const res = await fetchApp(`http://localhost/admin/players/${a.id}`, { headers: { Cookie: cashierCookie } });
    expect(res.status).toBe(200);
    const html = await shownOf(res);
    expect(html).toContain('data-testid="player-linked"');
    expect(html).toContain(`data-player="${b.username}"`);
    expect(html).toContain(lo.linked.reasons.device);
    expect(html).toContain(lo.linked.reasons.holder);
    expect(html).toContain('data-total="100"');
    expect(html).not.toContain('data-testid="unlink-form"');
    const owner = await shownOf(await fetchApp(`http://localhost/admin/players/${a.id}`, { headers: { Cookie: ownerCookie } }));
    expect(owner).toContain('data-testid="unlink-form"');
  });
});

const unlinks = () => env.DB.prepare(`SELECT player_a, player_b, reason, staff_username FROM player_unlinks WHERE agency_id = 'demo'`).all();
const unlinkAudits = async () =>
  (
    await env.DB.prepare(`SELECT staff_username, target, before_json, after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'player.unlink'`).all<{
      staff_username: string;
      target: string;
      before_json: string;
      after_json: string;
    }>()
  ).results;

describe("unlinking a pair", () => {
  it("refuses the cashier's POST and stores nothing", async () => {
    const res = await postForm(`/admin/players/${a.id}`, { intent: "unlink", otherId: b.id, reason: "brothers, one phone" }, { cookie: cashierCookie });
    expect(res.status).toBe(403);
    expect((await unlinks()).results).toEqual([]);
    expect(await unlinkAudits()).toEqual([]);
  });

  it("asks the owner for a reason, and refuses a pair that is not linked", async () => {
    expect((await postForm(`/admin/players/${a.id}`, { intent: "unlink", otherId: b.id, reason: "x" }, { cookie: ownerCookie })).status).toBe(400);
    expect((await postForm(`/admin/players/${a.id}`, { intent: "unlink", otherId: e.id, reason: "not linked at all" }, { cookie: ownerCookie })).status).toBe(
      409,
    );
    expect((await unlinks()).results).toEqual([]);
  });

  it("unlinks for the owner, audited once; the pair stays shown as unlinked on both pages and leaves both scores", async () => {
    const res = await postForm(`/admin/players/${b.id}`, { intent: "unlink", otherId: a.id, reason: "brothers, one phone" }, { cookie: ownerCookie });
    expect(res.status).toBe(302);
    const [row] = (await unlinks()).results as { player_a: string; player_b: string; reason: string; staff_username: string }[];
    expect(row).toMatchObject({ reason: "brothers, one phone", staff_username: "lk-owner" });
    expect([row!.player_a, row!.player_b]).toEqual([a.id, b.id].sort());
    const [audit, ...more] = await unlinkAudits();
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ staff_username: "lk-owner", target: b.id });
    expect(JSON.parse(audit!.before_json)).toEqual({ other: a.id, otherUsername: a.username, reasons: ["device", "phone"] });
    expect(JSON.parse(audit!.after_json)).toEqual({ unlinked: true, reason: "brothers, one phone" });

    // held: read again from either side, the pair is unlinked, and only the others score
    const fromA = await linksOf(a.id);
    expect(fromA.links.find((l) => l.playerId === b.id)!.unlink).toMatchObject({ reason: "brothers, one phone", by: "lk-owner" });
    expect(fromA.score).toMatchObject({ total: 25, heldWorthy: false });
    expect((await linksOf(b.id)).score).toEqual({ total: 0, parts: [], heldWorthy: false });
    const page = await shownOf(await fetchApp(`http://localhost/admin/players/${a.id}`, { headers: { Cookie: cashierCookie } }));
    expect(page).toContain("brothers, one phone");
    expect(page).toMatch(new RegExp(`data-player="${b.username}"[^>]*data-state="unlinked"`));

    // a second unlink of the pair changes nothing and writes no second audit row
    expect((await postForm(`/admin/players/${a.id}`, { intent: "unlink", otherId: b.id, reason: "again" }, { cookie: ownerCookie })).status).toBe(302);
    expect((await unlinks()).results).toHaveLength(1);
    expect(await unlinkAudits()).toHaveLength(1);
  });
});
