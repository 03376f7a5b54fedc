import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import lo from "../../locales/lo/common.json";
import { sweepAlerts } from "../../workers/services/alerts";
import { saveHoldRules } from "../../workers/services/holds";
import { registerPlayer } from "../../workers/services/players";
import { DEFAULT_HOLD_RULES } from "../../workers/core/holds";
import { securityAlertsToNewChat } from "../setup/sandbox-telegram";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { PASSWORD, postForm, uniqueName } from "../setup/players";

/**
 * Registration bursts (the bonus hunters' many accounts) against real D1, through the service,
 * the register form and the JSON API: a device's registrations of a day are counted up to the
 * owner's registrations per device, its third and later flagged for staff (audited, then a staff
 * alert from the security sweep); an address's used-up hour is flagged too; another device, or
 * an owner who set no limit, is not slowed.
 */

const owner = { agencyId: "demo", staffId: null, staffUsername: "rb-owner", ip: null, userAgent: null };
let ipCounter = 0;
/** Each registration from its own address unless a test says otherwise: only the device is counted. */
const nextIp = () => `10.170.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}`;
let deviceCounter = 0;
/** A device fingerprint (32 hex) no other test of this file uses. */
const freshDevice = () => `${(++deviceCounter).toString(16).padStart(4, "0")}${Date.now().toString(16)}`.padEnd(32, "b").slice(0, 32);

beforeAll(async () => {
  await seedDemo();
});

async function register(fingerprint: string | null, ip = nextIp()) {
  const username = uniqueName("rb");
  const outcome = await registerPlayer(env.DB, "demo", { username, password: PASSWORD, phone: "02055555555", fingerprint }, { ip, userAgent: null });
  return { username, outcome };
}

async function burstsOf(playerId: string) {
  const { results } = await env.DB.prepare(
    `SELECT staff_username, after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'player.registration-burst' AND target = ?1 ORDER BY id`,
  )
    .bind(playerId)
    .all<{ staff_username: string; after_json: string }>();
  return results.map((r) => ({ actor: r.staff_username, ...(JSON.parse(r.after_json) as { by: string; count: number; username: string }) }));
}

const playerNamed = (username: string) =>
  env.DB.prepare(`SELECT id FROM players WHERE agency_id = 'demo' AND username = ?1`).bind(username).first<{ id: string }>();

function registerForm(username: string, fingerprint: string, ip = nextIp()) {
  return postForm(
    "/register",
    { username, password: PASSWORD, confirmPassword: PASSWORD, phone: "02055555555", adult: "on", displayName: `Player ${username}`, fingerprint },
    { ip },
  );
}

function registerJson(username: string, headers: Record<string, string>, ip = nextIp()) {
  return fetchApp("http://localhost/api/v2/players/register", {
    method: "POST",
    headers: { Origin: "http://localhost", "Content-Type": "application/json", "CF-Connecting-IP": ip, ...headers },
    body: JSON.stringify({ username, password: PASSWORD, confirmPassword: PASSWORD, phone: "02055555555", adult: true }),
  });
}

async function securityAlerts(kind: string) {
  await securityAlertsToNewChat(owner);
  const now = Date.now();
  await sweepAlerts(env, now);
  await sweepAlerts(env, now + 30_000);
  const { results } = await env.DB.prepare(`SELECT id, facts, state FROM alert_events WHERE agency_id = 'demo' AND kind = ?1 ORDER BY id`)
    .bind(kind)
    .all<{ id: string; facts: string; state: string }>();
  return results.map((r) => ({ id: r.id, state: r.state, facts: JSON.parse(r.facts) as Record<string, unknown> }));
}

let lockedDevice = "";
let lockedAt = "";

describe("one device's registrations with the owner's default rules", () => {
  it("six pass, the third and later are flagged for staff, the seventh waits an hour (service, form, JSON API with the fingerprint header)", async () => {
    expect(DEFAULT_HOLD_RULES.registrationsPerDevice).toBe(6);
    const device = freshDevice();
    const passed: { username: string; playerId: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const { username, outcome } = await register(device);
      if (!outcome.ok) throw new Error(`registration ${i + 1} refused: ${outcome.code}`);
      passed.push({ username, playerId: outcome.playerId });
    }
    // the sixth through the register form, the fingerprint as the lite script fills it
    const sixth = uniqueName("rb");
    expect((await registerForm(sixth, device)).status).toBe(302);
    passed.push({ username: sixth, playerId: (await playerNamed(sixth))!.id });

    // the first two are a family's phone: nothing for staff; from the third on each is flagged
    const flags = await Promise.all(passed.map((p) => burstsOf(p.playerId)));
    expect(flags.slice(0, 2)).toEqual([[], []]);
    expect(flags.slice(2)).toEqual(passed.slice(2).map((p, i) => [{ actor: `player:${p.username}`, by: "device", count: i + 3, username: p.username }]));

    // the seventh, from a fresh address: the device waits (service), an hour at first
    const seventh = await register(device);
    expect(seventh.outcome).toMatchObject({ ok: false, code: "TOO_MANY_ATTEMPTS" });
    const wait = (seventh.outcome as { retryAfterSeconds: number }).retryAfterSeconds;
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(await playerNamed(seventh.username)).toBeNull();
    // the JSON API with the fingerprint header, as the client sends it: 429 with the wait
    const api = await registerJson(uniqueName("rb"), { "X-Fingerprint": device.toUpperCase() });
    expect(api.status).toBe(429);
    const body = (await api.json()) as { error: { code: string; retryAfterSeconds: number; message: string } };
    expect(body.error.code).toBe("TOO_MANY_ATTEMPTS");
    expect(body.error.retryAfterSeconds).toBeGreaterThan(3500);
    // the register form: the address throttle's message and wait
    lockedAt = nextIp();
    const page = await registerForm(uniqueName("rb"), device, lockedAt);
    expect(page.status).toBe(429);
    expect(await shownOf(page)).toContain(lo.errors.code.TOO_MANY_ATTEMPTS);
    lockedDevice = device;
  });

  it("another device is not slowed, even from the address the locked one just used", async () => {
    const other = freshDevice();
    const { outcome } = await register(other, lockedAt);
    expect(outcome.ok).toBe(true);
    expect((await register(lockedDevice, lockedAt)).outcome).toMatchObject({ ok: false, code: "TOO_MANY_ATTEMPTS" });
    // no fingerprint (JavaScript off): the address alone counts
    expect((await register(null, lockedAt)).outcome.ok).toBe(true);
  });

  it("the flagged registrations are raised as staff alerts by the security sweep, once each, linking to the player", async () => {
    const alerts = await securityAlerts("player.registration-burst");
    const device = alerts.filter((a) => a.facts.by === "device");
    expect(device).toHaveLength(4);
    expect(device.map((a) => a.facts.count).sort()).toEqual([3, 4, 5, 6]);
    expect(device.every((a) => a.state === "queued")).toBe(true);
    const first = device[0]!.facts as { playerId: string; username: string };
    expect((await playerNamed(first.username))?.id).toBe(first.playerId);
  });
});

describe("the owner's registrations per device", () => {
  it("0: no device limit, and the device is not counted at all", async () => {
    await saveHoldRules(env, owner, { ...DEFAULT_HOLD_RULES, registrationsPerDevice: 0 });
    try {
      const device = freshDevice();
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const { outcome } = await register(device);
        if (!outcome.ok) throw new Error(`registration ${i + 1} refused: ${outcome.code}`);
        ids.push(outcome.playerId);
      }
      for (const id of ids) expect(await burstsOf(id)).toEqual([]);
      const counted = await env.DB.prepare(`SELECT COUNT(*) AS n FROM throttles WHERE key = ?1`).bind(`reg-device:demo:${device}`).first<{ n: number }>();
      expect(counted?.n).toBe(0);
    } finally {
      await saveHoldRules(env, owner, DEFAULT_HOLD_RULES);
    }
  });

  it("2: the second locks the device, so the third waits and none is flagged", async () => {
    await saveHoldRules(env, owner, { ...DEFAULT_HOLD_RULES, registrationsPerDevice: 2 });
    try {
      const device = freshDevice();
      expect((await register(device)).outcome.ok).toBe(true);
      expect((await register(device)).outcome.ok).toBe(true);
      expect((await register(device)).outcome).toMatchObject({ ok: false, code: "TOO_MANY_ATTEMPTS" });
    } finally {
      await saveHoldRules(env, owner, DEFAULT_HOLD_RULES);
    }
  });
});

describe("one address's registrations", () => {
  it("the tenth in an hour locks the address and is flagged; the eleventh waits", async () => {
    const ip = "10.171.0.1";
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { outcome } = await register(null, ip);
      if (!outcome.ok) throw new Error(`registration ${i + 1} refused: ${outcome.code}`);
      ids.push(outcome.playerId);
    }
    for (const id of ids.slice(0, 9)) expect(await burstsOf(id)).toEqual([]);
    expect(await burstsOf(ids[9]!)).toMatchObject([{ by: "address", count: 10 }]);
    expect((await register(null, ip)).outcome).toMatchObject({ ok: false, code: "TOO_MANY_ATTEMPTS" });
  });
});
