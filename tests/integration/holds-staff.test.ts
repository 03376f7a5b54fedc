import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import lo from "../../locales/lo/admin.json";
import { sweepAlerts } from "../../workers/services/alerts";
import { decideHold, holdIfLinked } from "../../workers/services/holds";
import { getPlayerDetail } from "../../workers/services/players";
import { securityAlertsToNewChat } from "../setup/sandbox-telegram";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { loginViaForm, PASSWORD, postForm, postJson, sessionFrom, uniqueName } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";

/**
 * A held claim as staff meet it, against real D1: two players on one device (registered, signed
 * in and reported by the real forms and API), the first claim of a reward wins and the second
 * is held through the one door every claim passes; the hold's audit row is raised as a staff
 * alert by the security sweep, once, and the held player's staff page lists the hold, for whom
 * and why, with staff's decision once made.
 */

const DEVICE = "ef56".repeat(8);
let cashierCookie = "";
let ipCounter = 0;
const nextIp = () => `10.180.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}`;
const owner = { agencyId: "demo", staffId: null, staffUsername: "hs-owner", ip: null, userAgent: null };

async function playerOnDevice(phone: string) {
  const username = uniqueName("hs");
  const ip = nextIp();
  const fields = { username, password: PASSWORD, confirmPassword: PASSWORD, phone, adult: "on", displayName: `Player ${username}` };
  expect((await postForm("/register", fields, { ip })).status).toBe(302);
  const row = await env.DB.prepare(`SELECT id FROM players WHERE agency_id = 'demo' AND username = ?1`).bind(username).first<{ id: string }>();
  const cookie = sessionFrom(await loginViaForm(username, PASSWORD, { ip }))!;
  expect((await postJson("/api/v2/fingerprint", { fingerprint: DEVICE }, { cookie })).status).toBe(200);
  return { agencyId: "demo", playerId: row!.id, username };
}

let first: Awaited<ReturnType<typeof playerOnDevice>>;
let second: Awaited<ReturnType<typeof playerOnDevice>>;
let holdId = "";

beforeAll(async () => {
  await seedDemo();
  const k = await createStaff(env, { agencyId: "demo", username: "hs-cashier", password: "hs-cashier-pass-123", role: "cashier" });
  cashierCookie = await staffLogin(env, { username: "hs-cashier", password: "hs-cashier-pass-123", totpSecret: k.totpSecret });
  first = await playerOnDevice("02071110001");
  second = await playerOnDevice("02071110002");
  const checkIn = (ref: string) => ({ kind: "CHECKIN" as const, subject: "2026-12-02", ref, amount: "20.00", claim: null });
  expect(await holdIfLinked(env, first, checkIn("ci-first"))).toBeNull();
  const held = await holdIfLinked(env, second, checkIn("ci-second"));
  expect(held?.status).toBe("HELD");
  holdId = held!.id;
});

describe("the staff alert of a held claim", () => {
  it("the hold's audit row is raised by the security sweep, once, with who, what and how much", async () => {
    const { results: audit } = await env.DB.prepare(`SELECT target, after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'reward.held'`).all<{
      target: string;
      after_json: string;
    }>();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.target).toBe(second.playerId);

    await securityAlertsToNewChat(owner);
    const now = Date.now();
    await sweepAlerts(env, now);
    await sweepAlerts(env, now + 30_000);
    const events = await env.DB.prepare(`SELECT facts, state FROM alert_events WHERE agency_id = 'demo' AND kind = 'reward.held'`).all<{
      facts: string;
      state: string;
    }>();
    expect(events.results).toHaveLength(1);
    expect(events.results[0]!.state).toBe("queued");
    expect(JSON.parse(events.results[0]!.facts)).toMatchObject({
      playerId: second.playerId,
      username: second.username,
      kind: "CHECKIN",
      rewardKey: "CHECKIN:2026-12-02",
      amount: "20.00",
    });
  });
});

describe("the held player's staff page", () => {
  /** The page's holds part alone (the menu links to the holds page too). */
  const holdsSection = (page: string) => {
    const start = page.indexOf('data-testid="player-holds"');
    expect(start).toBeGreaterThan(0);
    return page.slice(start, page.indexOf("</table>", start));
  };
  const pageOf = async (playerId: string) => shownOf(await fetchApp(`http://localhost/admin/players/${playerId}`, { headers: { Cookie: cashierCookie } }));

  it("lists the hold: what, how much, its status, the linked player it was held for and why, and the holds page", async () => {
    const detail = (await getPlayerDetail(env.DB, "demo", second.playerId))!;
    expect(detail.holds.map((h) => ({ kind: h.kind, amount: h.amount, status: h.status, heldFor: h.heldFor }))).toEqual([
      { kind: "CHECKIN", amount: "20.00", status: "HELD", heldFor: [{ playerId: first.playerId, username: first.username, reasons: ["device"] }] },
    ]);
    const section = holdsSection(await pageOf(second.playerId));
    expect(section).toContain(lo.holds.kinds.CHECKIN);
    expect(section).toContain(lo.holds.statuses.HELD);
    expect(section).toMatch(
      new RegExp(
        `data-player="${first.username}"><a href="/admin/players/${first.playerId}"[^>]*>${first.username}</a>: (<!-- -->)?${lo.linked.reasons.device}`,
      ),
    );
    expect(section).toContain('href="/admin/holds"');
    // the first claimant has nothing held: no section at all
    expect((await getPlayerDetail(env.DB, "demo", first.playerId))!.holds).toEqual([]);
    expect(await pageOf(first.playerId)).not.toContain('data-testid="player-holds"');
  });

  it("shows staff's decision, by whom and why, once made", async () => {
    const refused = await decideHold(env, { ...owner, staffUsername: "hs-owner" }, holdId, "REFUSED", "same person, second account");
    expect(refused).toMatchObject({ ok: true, status: "REFUSED" });
    const section = holdsSection(await pageOf(second.playerId));
    expect(section).toContain(lo.holds.statuses.REFUSED);
    expect(section).toContain("hs-owner");
    expect(section).toContain("same person, second account");
  });
});
