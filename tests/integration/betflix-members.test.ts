import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { createStaff, staffLogin } from "../setup/staff";
import { openOrder, payQr, playerWithBank, postDeposit, pumpDeliveries, qrPayloadOf } from "../setup/money";
import type { AuditActor } from "../../workers/db/audit";
import { fetchCredit, providerSetupScreen, saveProviderSetup, type ProviderSetupInput } from "../../workers/services/providers";
import { forgetProviderSetup, providerPortFor } from "../../workers/wallet/provider-port";

/**
 * Decision 048: Betflix answers `/v4/user/register` with its agent prefix
 * before our name. The settlement saga inside the wallet registers, keeps that name in D1
 * (provider_members) and credits it; every later call (balance, launch) uses it. A fake
 * Betflix answers through a fetch stub (workerd cannot start node:http), as in
 * provider-setup.test.ts.
 */

const owner: AuditActor = { agencyId: "demo", staffId: "s-owner", staffUsername: "boss", ip: "10.78.0.2", userAgent: "vitest" };
const BFX = "https://api.bfx.example";
const ENTRANCE = "https://www.betflik.example";
/** What Betflix puts before our name; the portal is not told (no prefix in the settings). */
const PREFIX = "bf7x";

beforeAll(seedDemo);
afterEach(async () => {
  vi.unstubAllGlobals();
  await env.DB.batch([
    env.DB.prepare(`DELETE FROM provider_settings WHERE agency_id = 'demo' AND provider = 'betflix'`),
    env.DB.prepare(`DELETE FROM provider_members WHERE agency_id = 'demo' AND provider = 'betflix'`),
  ]);
  forgetProviderSetup("demo", "betflix");
});

function setup(over: Partial<ProviderSetupInput> = {}): ProviderSetupInput {
  return {
    provider: "betflix",
    adapter: "betflix",
    baseUrl: BFX,
    productCode: "pg",
    lobbyUrl: ENTRANCE,
    imageUrl: null,
    memberPrefix: null,
    agent: "cat-0048",
    secret: "key-0048-secret",
    ...over,
  };
}

type Seen = { path: string; form: Record<string, string> };

/** A tiny Betflix v4: form bodies, x-api-cat/x-api-key checked, the prefix added at registration. */
function fakeBetflix(seen: Seen[], members: Map<string, number>) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input.toString() : input.url);
    const headers = new Headers(init?.headers);
    const form = Object.fromEntries(new URLSearchParams(typeof init?.body === "string" ? init.body : ""));
    seen.push({ path: url.pathname, form });
    const ok = (data: unknown) => Response.json({ status: "success", error_code: 0, msg: "Success", data });
    const error = (msg: string) => Response.json({ status: "error", msg });
    if (url.origin !== BFX) return new Response("not this host", { status: 502 });
    if (headers.get("x-api-cat") !== "cat-0048" || headers.get("x-api-key") !== "key-0048-secret") return error("Invalid API key");
    const name = form.username ?? "";
    switch (url.pathname) {
      case "/v4/user/register": {
        if (members.has(PREFIX + name)) return error("Username already exists");
        members.set(PREFIX + name, 0);
        return ok({ username: PREFIX + name });
      }
      case "/v4/user/balance":
        return members.has(name) ? ok({ username: name, balance: members.get(name) }) : error("User not found");
      case "/v4/user/transfer": {
        if (!members.has(name)) return error("User not found");
        members.set(name, members.get(name)! + Number(form.amount));
        return ok({ balance: members.get(name), before_balance: 0 });
      }
      case "/v4/play/login":
        return members.has(name) ? ok({ login_token: `tok_${name}` }) : error("User not found");
      default:
        return error("Not found");
    }
  });
}

async function keptMember(playerId: string): Promise<string | null> {
  const row = await env.DB.prepare(`SELECT member FROM provider_members WHERE agency_id = 'demo' AND provider = 'betflix' AND player_id = ?1`)
    .bind(playerId)
    .first<{ member: string }>();
  return row?.member ?? null;
}

describe("a deposit at Betflix, which prefixes the name it registers", () => {
  it("settles (before: FAILED, PROVIDER_REGISTER_FAILED); the name Betflix answered is kept for the player and used by the balance and the lobby", async () => {
    expect(await saveProviderSetup(env, owner, setup())).toEqual({ ok: true });
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000", provider: "betflix" });
    const order = (await openOrder(p.cookie))!;
    await payQr(await qrPayloadOf(p.wallet, order.code));
    const seen: Seen[] = [];
    const members = new Map<string, number>();
    vi.stubGlobal("fetch", fakeBetflix(seen, members));
    await pumpDeliveries();
    await p.wallet.runDueWork();
    if ((await p.wallet.getDeposit(order.code))!.status === "PAID") await p.wallet.runDueWork(Date.now() + 60_000);
    const deposit = (await p.wallet.getDeposit(order.code))!;
    expect(deposit.status).toBe("SUCCESS");

    const registered = seen.find((s) => s.path === "/v4/user/register")!.form.username!;
    expect(registered).toMatch(/^demo[a-z0-9]{10}$/); // our derived name, sent bare
    const member = await keptMember(p.playerId);
    expect(member).toBe(PREFIX + registered);
    expect(seen.find((s) => s.path === "/v4/user/transfer")!.form).toMatchObject({ username: member, amount: "100.00", ref: order.code });
    expect(members.get(member!)).toBe(100);

    // Every later call names the kept member; nothing is registered again.
    seen.length = 0;
    expect((await fetchCredit(env, "demo", { id: p.playerId, username: p.username }, "betflix")).credit).toEqual({ amount: "100.00", currency: "THB" });
    expect(await providerPortFor(env, "demo", "betflix").launchUrl(`demo_${p.username}`, "lo")).toEqual({
      kind: "ok",
      url: `${ENTRANCE}/login/apilogin/tok_${member}`,
    });
    expect(seen.map((s) => [s.path, s.form.username])).toEqual([
      ["/v4/user/balance", member],
      ["/v4/play/login", member],
    ]);
  }, 60_000);

  it("a player who already exists at Betflix is adopted once the owner sets the prefix", async () => {
    const p = await playerWithBank();
    const seen: Seen[] = [];
    const members = new Map<string, number>();
    vi.stubGlobal("fetch", fakeBetflix(seen, members));
    expect(await saveProviderSetup(env, owner, setup())).toEqual({ ok: true });
    const port = () => providerPortFor(env, "demo", "betflix");
    // Registered at Betflix before names were kept (e.g. by a lobby visit whose name was lost).
    const registered = (await port().launchUrl(`demo_${p.username}`, "lo")).kind === "ok" ? seen[0]!.form.username! : "";
    await env.DB.prepare(`DELETE FROM provider_members WHERE agency_id = 'demo' AND provider = 'betflix'`).run();
    forgetProviderSetup("demo", "betflix"); // written behind the portal's back: the isolate forgets what it kept
    // Without the prefix the existing member cannot be found: refused, nothing moved.
    expect(await port().transfer({ username: `demo_${p.username}`, amountMinor: 1000n, direction: "in", reference: "D261127ADOPT" })).toEqual({
      kind: "refused",
      code: "REGISTER_FAILED",
    });
    expect(await keptMember(p.playerId)).toBeNull();
    expect(await saveProviderSetup(env, owner, setup({ memberPrefix: PREFIX, agent: null, secret: null }))).toEqual({ ok: true });
    expect(await port().transfer({ username: `demo_${p.username}`, amountMinor: 1000n, direction: "in", reference: "D261127ADOP2" })).toMatchObject({
      kind: "ok",
      balance: "10.00",
    });
    expect(await keptMember(p.playerId)).toBe(PREFIX + registered);
  });
});

describe("the names kept by the isolate (as setups, decision 033)", () => {
  it("a crowd of credit reads for one player reads provider_members once", async () => {
    expect(await saveProviderSetup(env, owner, setup())).toEqual({ ok: true });
    const p = await playerWithBank();
    await env.DB.prepare(
      `INSERT INTO provider_members (agency_id, provider, player_id, username, member) VALUES ('demo', 'betflix', ?1, 'demoxyz', 'bf7xdemoxyz')`,
    )
      .bind(p.playerId)
      .run();
    vi.stubGlobal("fetch", fakeBetflix([], new Map([["bf7xdemoxyz", 5]])));
    let reads = 0;
    const DB = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "prepare")
          return (sql: string) => {
            if (/FROM provider_members WHERE agency_id = \?1 AND provider = \?2 AND player_id = \?3/.test(sql)) reads++;
            return target.prepare(sql);
          };
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const counted = { ...env, DB } as Env;
    expect((await fetchCredit(counted, "demo", { id: p.playerId, username: p.username }, "betflix")).credit?.amount).toBe("5.00");
    await Promise.all(Array.from({ length: 10 }, () => fetchCredit(counted, "demo", { id: p.playerId, username: p.username }, "betflix")));
    expect(reads).toBe(1);
  });
});

describe("the Betflix setup", () => {
  it("keeps an optional member prefix (letters and digits), shown back to the owner; refused elsewhere or malformed", async () => {
    expect(await saveProviderSetup(env, owner, setup({ memberPrefix: " be31kk " }))).toEqual({ ok: true });
    expect((await providerSetupScreen(env, "demo")).providers.find((p) => p.provider === "betflix")).toMatchObject({
      adapter: "betflix",
      memberPrefix: "be31kk",
    });
    expect(await saveProviderSetup(env, owner, setup({ memberPrefix: "be-31", agent: null, secret: null }))).toEqual({
      ok: false,
      code: "PROVIDER_PREFIX_INVALID",
      field: "memberPrefix",
    });
    expect(await saveProviderSetup(env, owner, setup({ memberPrefix: null, agent: null, secret: null }))).toEqual({ ok: true });
    expect((await providerSetupScreen(env, "demo")).providers.find((p) => p.provider === "betflix")?.memberPrefix).toBeNull();
  });

  it("another agent forgets the kept member names (they name nobody there); a new secret for the same agent keeps them", async () => {
    expect(await saveProviderSetup(env, owner, setup())).toEqual({ ok: true });
    const p = await playerWithBank();
    await env.DB.prepare(
      `INSERT INTO provider_members (agency_id, provider, player_id, username, member) VALUES ('demo', 'betflix', ?1, 'demoabc', 'bf7xdemoabc')`,
    )
      .bind(p.playerId)
      .run();
    expect(await saveProviderSetup(env, owner, setup({ secret: "key-0048-rotated" }))).toEqual({ ok: true });
    expect(await keptMember(p.playerId)).toBe("bf7xdemoabc");
    expect(await saveProviderSetup(env, owner, setup({ baseUrl: "https://mirror.bfx.example" }))).toEqual({ ok: true });
    expect(await keptMember(p.playerId)).toBe("bf7xdemoabc"); // a mirror host, same agent
    expect(await saveProviderSetup(env, owner, setup({ agent: "another-cat" }))).toEqual({ ok: true });
    expect(await keptMember(p.playerId)).toBeNull();
    const audit = await env.DB.prepare(
      `SELECT after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'settings.provider-setup' AND target = 'betflix' ORDER BY rowid DESC LIMIT 1`,
    ).first<{ after_json: string }>();
    expect(JSON.parse(audit!.after_json)).toMatchObject({ membersForgotten: true, memberPrefix: null });
  });

  it("the owner's page has the prefix field and says which Betflix value goes where", async () => {
    const o = await createStaff(env, { agencyId: "demo", username: "bfx-owner", password: "bfx-owner-pass-1", role: "owner" });
    const cookie = await staffLogin(env, { username: "bfx-owner", password: "bfx-owner-pass-1", totpSecret: o.totpSecret });
    await saveProviderSetup(env, owner, setup({ memberPrefix: "be31kk" }));
    const html = await shownOf(await fetchApp("http://localhost/admin/settings/providers", { headers: { Cookie: cookie } }));
    expect(html).toMatch(/<input[^>]*id="betflix-memberPrefix"[^>]*value="be31kk"/);
    expect(html).toContain("Betflix: ຄ່າ x-api-cat");
    expect(html).toContain("Betflix: ຄ່າ x-api-key");
  });
});
