import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { postForm } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";
import { openOrder, payQr, playerWithBank, postDeposit, pumpDeliveries, qrPayloadOf } from "../setup/money";
import type { AuditActor } from "../../workers/db/audit";
import { fetchCredit, forgetProviderCsp, providerSetupScreen, saveProviderSetup, type ProviderSetupInput } from "../../workers/services/providers";
import { forgetProviderSetup, providerPortFor } from "../../workers/wallet/provider-port";
import { referenceOrder } from "../../workers/core/provider-setup";
import { readProviderCredentials } from "../../workers/services/agency";

/**
 * Provider setup (decision 017): the port of an agency is built from its stored settings.
 * A fake AMB answers through a fetch override (workerd cannot start node:http): the
 * adapter's default fetch is the global one, stubbed here per test.
 */

const owner: AuditActor = { agencyId: "demo", staffId: "s-owner", staffUsername: "boss", ip: "10.78.0.1", userAgent: "vitest" };
const AMB = "https://api.amb.example";

beforeAll(seedDemo);
afterEach(() => {
  vi.unstubAllGlobals();
});

function setup(over: Partial<ProviderSetupInput> = {}): ProviderSetupInput {
  return {
    provider: "askmebet",
    adapter: "amb",
    baseUrl: AMB,
    productCode: "AMBSLOT",
    lobbyUrl: "https://play.amb.example",
    imageUrl: "https://img.amb.example/games",
    agent: "agent-one",
    secret: "secret-key-0001",
    ...over,
  };
}

type Seen = { url: URL; auth: string | null; body: Record<string, unknown> | null };

/** A tiny AMB: envelope `{ code, message, data }`, Basic auth checked, every request remembered. */
function fakeAmb(seen: Seen[], answers: { balance?: string; verify?: unknown; transfer?: () => Response } = {}) {
  return vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input.toString() : input.url);
    const auth = new Headers(init?.headers).get("Authorization");
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : null;
    seen.push({ url, auth, body });
    const ok = (data: unknown) => Response.json({ reqId: "r", code: 0, message: "OK", data });
    if (url.origin !== AMB) return new Response("not this host", { status: 502 });
    switch (url.pathname) {
      case "/balance":
        return ok({ balance: answers.balance ?? "12.50" });
      case "/seamless/games":
        return ok({ games: [{ code: "G1", name: "Dragon Gold", category: "Slot", img: "https://img.amb.example/games/g1.png", rank: 1 }] });
      case "/verifyDepositWithdraw":
        return Response.json(answers.verify ?? { code: 5004, message: "Transaction not found", data: null });
      case "/deposit":
      case "/withdraw":
        return answers.transfer ? answers.transfer() : ok({ status: "SUCCESS", balance: "100.00", txId: String(body?.transactionRef) });
      case "/logIn":
        return ok({ url: `https://play.amb.example/launch?game=${String(body?.gameCode ?? "")}` });
      default:
        return Response.json({ code: 20, message: "Invalid payload", data: null });
    }
  });
}

describe("the port factory", () => {
  it("keeps the sandbox where nothing is stored (npm start, every other test)", async () => {
    const p = await playerWithBank();
    const credit = await fetchCredit(env, "demo", { id: p.playerId, username: p.username }, "gclub");
    expect(credit.credit).toEqual({ amount: "0.00", currency: "THB" });
    const port = providerPortFor(env, "demo", "gclub");
    expect((await port.games(null)).kind).toBe("ok");
  }, 60_000);

  it("picks AMB for an agency configured so: its base URL, Basic agent:key, product code and a username that fits AMB's rule", async () => {
    expect(await saveProviderSetup(env, owner, setup())).toEqual({ ok: true });
    const p = await playerWithBank();
    const seen: Seen[] = [];
    vi.stubGlobal("fetch", fakeAmb(seen, { balance: "12.50" }));
    const credit = await fetchCredit(env, "demo", { id: p.playerId, username: p.username }, "askmebet");
    expect(credit.credit).toEqual({ amount: "12.50", currency: "THB" });
    expect(seen).toHaveLength(1);
    expect(seen[0].url.origin + seen[0].url.pathname).toBe(`${AMB}/balance`);
    expect(seen[0].auth).toBe(`Basic ${btoa("agent-one:secret-key-0001")}`);
    expect(seen[0].url.searchParams.get("productId")).toBe("AMBSLOT");
    const name = seen[0].url.searchParams.get("username")!;
    expect(name).toMatch(/^[a-z0-9]{5,20}$/); // the legacy demo_<name> breaks AMB's rule: the derived name
    // Stable: the same player is the same member every time.
    await fetchCredit(env, "demo", { id: p.playerId, username: p.username }, "askmebet");
    expect(seen[1].url.searchParams.get("username")).toBe(name);
    // Other providers of the agency stay on the sandbox.
    expect((await fetchCredit(env, "demo", { id: p.playerId, username: p.username }, "gclub")).credit?.amount).toBe("0.00");
    expect(seen).toHaveLength(2);
  });

  it("asks a reference's status with its owner from our own orders (player + direction), under the same reference", async () => {
    await saveProviderSetup(env, owner, setup({ agent: null, secret: null }));
    const p = await playerWithBank();
    const deposit = "D261124ABCDE";
    const withdraw = "W261124FGHJK";
    await env.DB.batch([
      env.DB.prepare(`INSERT INTO deposit_refs (code, agency_id, player_id) VALUES (?1, 'demo', ?2)`).bind(deposit, p.playerId),
      env.DB.prepare(`INSERT INTO withdraw_refs (code, agency_id, player_id) VALUES (?1, 'demo', ?2)`).bind(withdraw, p.playerId),
    ]);
    const seen: Seen[] = [];
    vi.stubGlobal("fetch", fakeAmb(seen, { verify: { code: 0, message: "OK", data: { success: true, afterBalance: "10.00" } } }));
    const port = providerPortFor(env, "demo", "askmebet");
    for (const [reference, type] of [
      [deposit, "DEPOSIT"],
      [`${deposit}B`, "DEPOSIT"],
      [`${deposit}-1`, "DEPOSIT"],
      [withdraw, "WITHDRAW"],
      [`${withdraw}R`, "DEPOSIT"],
    ] as const) {
      expect(await port.transferStatus(reference), reference).toEqual({ kind: "success" });
      const call = seen.at(-1)!;
      expect(call.url.pathname).toBe("/verifyDepositWithdraw");
      expect(call.body).toMatchObject({ transactionRef: reference, type, productId: "AMBSLOT" });
      expect(String(call.body?.username)).toMatch(/^[a-z0-9]{5,20}$/);
    }
    // A reference no order of this agency holds: unknown, and nobody is asked.
    const before = seen.length;
    expect((await port.transferStatus("D261124ZZZZZ")).kind).toBe("unknown");
    expect((await port.transferStatus("nonsense")).kind).toBe("unknown");
    expect(seen).toHaveLength(before);
    // Another agency's order is not ours.
    expect(referenceOrder("D261124ABCDER")).toBeNull();
  });

  it("an answer that cannot be read never moves money: transfer unknown, then status under the same reference", async () => {
    await saveProviderSetup(env, owner, setup({ agent: null, secret: null }));
    const p = await playerWithBank();
    const seen: Seen[] = [];
    vi.stubGlobal("fetch", fakeAmb(seen, { transfer: () => new Response("<html>gateway timeout</html>", { status: 200 }) }));
    const port = providerPortFor(env, "demo", "askmebet");
    const outcome = await port.transfer({ username: `demo_${p.username}`, amountMinor: 1000n, direction: "in", reference: "D261124QQQQQ" });
    expect(outcome.kind).toBe("unknown");
    // The order does not exist in deposit_refs: the status stays unknown (never "not found", never a resend).
    expect((await port.transferStatus("D261124QQQQQ")).kind).toBe("unknown");
  });

  it("lists AMB's games with their pictures and launches one game by its code", async () => {
    await saveProviderSetup(env, owner, setup({ agent: null, secret: null }));
    const p = await playerWithBank();
    const seen: Seen[] = [];
    vi.stubGlobal("fetch", fakeAmb(seen));
    const port = providerPortFor(env, "demo", "askmebet");
    const games = await port.games(null);
    expect(games).toEqual({
      kind: "ok",
      list: { tabs: ["Slot"], games: [{ code: "G1", name: "Dragon Gold", tab: "Slot", img: "https://img.amb.example/games/g1.png" }] },
    });
    const launch = await port.launchUrl(`demo_${p.username}`, "lo", { code: "G1", tab: "Slot" });
    expect(launch).toEqual({ kind: "ok", url: "https://play.amb.example/launch?game=G1" });
    expect(seen.at(-1)!.body).toMatchObject({ gameCode: "G1", productId: "AMBSLOT" });
  });

  it("AMB's turnover is the bets since the promotion's start; 0 when the start is now", async () => {
    await saveProviderSetup(env, owner, setup({ agent: null, secret: null }));
    const p = await playerWithBank();
    const seen: Seen[] = [];
    vi.stubGlobal("fetch", fakeAmb(seen));
    const port = providerPortFor(env, "demo", "askmebet");
    expect(await port.turnover(`demo_${p.username}`, Date.now())).toMatchObject({ kind: "ok", amountMinor: 0n });
    expect(seen).toHaveLength(0); // an empty window asks nobody
    expect((await port.turnover(`demo_${p.username}`)).kind).toBe("unavailable");
  });
});

describe("saving a provider setup", () => {
  it("credentials are write-only: sealed, never on the page, never in the audit", async () => {
    await saveProviderSetup(env, owner, setup({ secret: "very-secret-value-42" }));
    const row = await env.DB.prepare(`SELECT * FROM provider_credentials WHERE agency_id = 'demo' AND provider = 'askmebet'`).first<Record<string, string>>();
    expect(JSON.stringify(row)).not.toContain("very-secret-value-42");
    expect(row?.agent).not.toBe("agent-one");
    const key = (env as unknown as { CREDENTIALS_KEY: string }).CREDENTIALS_KEY;
    expect(await readProviderCredentials(env.DB, key, "demo", "askmebet")).toEqual({ agent: "agent-one", secret: "very-secret-value-42" });
    const screen = await providerSetupScreen(env, "demo");
    expect(JSON.stringify(screen)).not.toContain("very-secret-value-42");
    expect(screen.providers.find((p) => p.provider === "askmebet")).toMatchObject({
      adapter: "amb",
      baseUrl: AMB,
      productCode: "AMBSLOT",
      credentialsSetAt: expect.any(String),
    });
    const { results } = await env.DB.prepare(
      `SELECT before_json, after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'settings.provider-setup'`,
    ).all<Record<string, string>>();
    expect(results.length).toBeGreaterThan(0);
    expect(JSON.stringify(results)).not.toContain("very-secret-value-42");
  });

  it("a changed base URL asks for the credentials again; the same URL keeps them", async () => {
    await saveProviderSetup(env, owner, setup());
    expect(await saveProviderSetup(env, owner, setup({ productCode: "AMBLIVE", agent: null, secret: null }))).toEqual({ ok: true });
    expect(await saveProviderSetup(env, owner, setup({ baseUrl: "https://other.amb.example", agent: null, secret: null }))).toEqual({
      ok: false,
      code: "PROVIDER_CREDENTIALS_REQUIRED",
      field: "agent",
    });
    expect((await providerSetupScreen(env, "demo")).providers.find((p) => p.provider === "askmebet")?.baseUrl).toBe(AMB); // nothing changed
    expect(await saveProviderSetup(env, owner, setup({ baseUrl: "https://other.amb.example" }))).toEqual({ ok: true });
    // Switching the adapter is a new host too.
    expect(await saveProviderSetup(env, owner, setup({ adapter: "betflix", baseUrl: "https://other.amb.example", agent: null, secret: null }))).toMatchObject({
      code: "PROVIDER_CREDENTIALS_REQUIRED",
    });
  });

  it("refuses http outside local, a missing product code for AMB, and the sandbox outside local", async () => {
    const prod = { ...env, ENVIRONMENT: "production" } as Env;
    expect(await saveProviderSetup(prod, owner, setup({ baseUrl: "http://api.amb.example" }))).toEqual({
      ok: false,
      code: "PROVIDER_URL_HTTPS",
      field: "baseUrl",
    });
    expect(await saveProviderSetup(prod, owner, setup({ adapter: "sandbox" }))).toEqual({ ok: false, code: "PROVIDER_ADAPTER_INVALID", field: "adapter" });
    expect((await providerSetupScreen(prod, "demo")).adapters).toEqual(["amb", "betflix", "disabled"]);
    expect((await providerSetupScreen(env, "demo")).adapters).toEqual(["sandbox", "amb", "betflix", "disabled"]);
    expect(await saveProviderSetup(env, owner, setup({ productCode: null }))).toEqual({ ok: false, code: "PROVIDER_PRODUCT_REQUIRED", field: "productCode" });
    expect(await saveProviderSetup(env, owner, setup({ baseUrl: "https://u:p@api.amb.example" }))).toEqual({
      ok: false,
      code: "PROVIDER_URL_INVALID",
      field: "baseUrl",
    });
  });

  it("a disabled provider sends nothing anywhere", async () => {
    await saveProviderSetup(env, owner, { ...setup({ provider: "alphabet", adapter: "disabled" }) });
    const seen: Seen[] = [];
    vi.stubGlobal("fetch", fakeAmb(seen));
    const port = providerPortFor(env, "demo", "alphabet");
    expect(await port.transfer({ username: "demo_x", amountMinor: 100n, direction: "in", reference: "D261124AAAAA" })).toEqual({
      kind: "refused",
      code: "NOT_CONFIGURED",
    });
    expect((await port.balance("demo_x")).kind).toBe("unavailable");
    expect(seen).toHaveLength(0);
  });
});

/** `env` whose D1 counts the reads of one provider's setup (decision 033). */
function countingSetupReads(): { env: Env; reads: () => number } {
  let reads = 0;
  const DB = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "prepare")
        return (sql: string) => {
          if (/FROM provider_settings WHERE agency_id = \?1 AND provider = \?2/.test(sql)) reads++;
          return target.prepare(sql);
        };
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { env: { ...env, DB }, reads: () => reads };
}

describe("the setup kept by the isolate (decision 033)", () => {
  it("a crowd of settlements reads a provider's setup once, not once each", async () => {
    forgetProviderSetup("demo", "gclub");
    const counted = countingSetupReads();
    await providerPortFor(counted.env, "demo", "gclub").balance("demo_nobody");
    await Promise.all(Array.from({ length: 20 }, () => providerPortFor(counted.env, "demo", "gclub").balance("demo_nobody")));
    expect(counted.reads()).toBe(1);
  });

  it("a setup saved by the owner is used at the next call, not 30 s later", async () => {
    await env.DB.prepare(`DELETE FROM provider_settings WHERE agency_id = 'demo' AND provider = 'askmebet'`).run();
    forgetProviderSetup("demo", "askmebet");
    const seen: Seen[] = [];
    vi.stubGlobal("fetch", fakeAmb(seen));
    // the sandbox answers first, and that (empty) setup is kept...
    expect((await providerPortFor(env, "demo", "askmebet").games(null)).kind).toBe("ok");
    expect(seen).toHaveLength(0);
    // ...until the owner saves AMB for it: forgotten at once
    expect(await saveProviderSetup(env, owner, setup())).toEqual({ ok: true });
    expect((await providerPortFor(env, "demo", "askmebet").games(null)).kind).toBe("ok");
    expect(seen.map((s) => s.url.pathname)).toEqual(["/seamless/games"]);
    await env.DB.prepare(`DELETE FROM provider_settings WHERE agency_id = 'demo' AND provider = 'askmebet'`).run();
    forgetProviderSetup("demo", "askmebet");
  });
});

describe("the Content-Security-Policy", () => {
  it("admits the configured providers' image and launch hosts, and nothing else", async () => {
    await env.DB.prepare(`DELETE FROM provider_settings WHERE agency_id = 'demo'`).run();
    // written behind the portal's back: the sources each host's policy adds are kept 30 s otherwise (decision 076)
    forgetProviderCsp();
    const strict = (await fetchApp("http://localhost/")).headers.get("Content-Security-Policy")!;
    expect(strict).toContain("img-src 'self' data:;");
    expect(strict).toContain("form-action 'self';");
    await saveProviderSetup(env, owner, setup());
    const csp = (await fetchApp("http://localhost/")).headers.get("Content-Security-Policy")!;
    expect(csp).toContain("img-src 'self' data: https://img.amb.example;");
    expect(csp).toContain("form-action 'self' https://play.amb.example;");
    expect(csp).not.toContain("api.amb.example"); // the API host is the server's business, never the browser's
    // Another agency's page is not widened by this one's setup.
    await env.DB.batch([
      env.DB.prepare(`INSERT OR IGNORE INTO agencies (id, name) VALUES ('csp2', 'CSP Two')`),
      env.DB.prepare(`INSERT OR IGNORE INTO agency_domains (host, agency_id) VALUES ('csp2.localhost', 'csp2')`),
      env.DB.prepare(`INSERT OR IGNORE INTO agency_settings (agency_id, enabled_providers) VALUES ('csp2', '["gclub"]')`),
    ]);
    const other = (await fetchApp("http://csp2.localhost/")).headers.get("Content-Security-Policy")!;
    expect(other).not.toContain("amb.example");
    await env.DB.prepare(`DELETE FROM provider_settings WHERE agency_id = 'demo'`).run();
    forgetProviderCsp();
  });
});

describe("the owner's page", () => {
  let ownerCookie: string;
  let cashierCookie: string;
  beforeAll(async () => {
    const o = await createStaff(env, { agencyId: "demo", username: "setup-owner", password: "setup-owner-pass-1", role: "owner" });
    const c = await createStaff(env, { agencyId: "demo", username: "setup-cashier", password: "setup-cashier-pass-1", role: "cashier" });
    ownerCookie = await staffLogin(env, { username: "setup-owner", password: "setup-owner-pass-1", totpSecret: o.totpSecret });
    cashierCookie = await staffLogin(env, { username: "setup-cashier", password: "setup-cashier-pass-1", totpSecret: c.totpSecret });
  });

  it("is the owner's only: a cashier gets 403 and changes nothing", async () => {
    expect((await fetchApp("http://localhost/admin/settings/providers", { headers: { Cookie: cashierCookie } })).status).toBe(403);
    const post = await postForm("/admin/settings/providers", { provider: "gclub", adapter: "disabled" }, { cookie: cashierCookie });
    expect(post.status).toBe(403);
    expect(await env.DB.prepare(`SELECT 1 FROM provider_settings WHERE agency_id = 'demo' AND provider = 'gclub'`).first()).toBeNull();
  });

  it("shows every provider without any secret, saves a form, and says when credentials are needed again", async () => {
    await saveProviderSetup(env, owner, setup({ secret: "page-secret-value-9" }));
    const page = await fetchApp("http://localhost/admin/settings/providers", { headers: { Cookie: ownerCookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const p of ["askmebet", "betflix", "gclub", "gclub_live", "alphabet"]) expect(html).toContain(`data-testid="setup-${p}"`);
    expect(html).not.toContain("page-secret-value-9");
    expect(html).toContain(AMB);
    const refused = await postForm(
      "/admin/settings/providers",
      { provider: "askmebet", adapter: "amb", baseUrl: "https://moved.amb.example", productCode: "AMBSLOT", lobbyUrl: "", imageUrl: "", agent: "", secret: "" },
      { cookie: ownerCookie },
    );
    expect(refused.status).toBe(409);
    const text = await shownOf(refused);
    expect(text).toContain("ປ້ອນຂໍ້ມູນເຂົ້າລະບົບອີກຄັ້ງ");
    const saved = await postForm("/admin/settings/providers", { provider: "gclub", adapter: "disabled" }, { cookie: ownerCookie });
    expect(saved.status).toBe(302);
    expect((await providerSetupScreen(env, "demo")).providers.find((p) => p.provider === "gclub")?.adapter).toBe("disabled");
    const settings = await (await fetchApp("http://localhost/admin/settings", { headers: { Cookie: ownerCookie } })).text();
    expect(settings).toContain('href="/admin/settings/providers"');
    await env.DB.prepare(`DELETE FROM provider_settings WHERE agency_id = 'demo'`).run();
  });
});

describe("sandbox lobby pictures", () => {
  it("each game shows its picture with fixed dimensions, the first screen's at once; the picture is a small WebP under our origin", async () => {
    const p = await playerWithBank();
    const html = await (await fetchApp("http://localhost/player/game/askmebet?tab=Slot", { headers: { Cookie: p.cookie } })).text();
    const imgs = [...html.matchAll(/<img [^>]*data-testid="game-img"[^>]*>/g)].map((m) => m[0]);
    expect(imgs.length).toBe(3);
    for (const img of imgs) {
      expect(img).toContain('width="320"');
      expect(img).toContain('height="240"');
      expect(img).toContain('loading="eager"'); // three tiles: all within a phone's first screen (decision 082)
      expect(img).toMatch(/src="\/sandbox\/provider\/img\/amb-[a-z-]+\.webp"/);
    }
    // raster, like a real provider's thumbnails (decision 037): a WebP file (RIFF....WEBP)
    const picture = await fetchApp("http://localhost/sandbox/provider/img/amb-lucky-reels.webp");
    expect(picture.status).toBe(200);
    expect(picture.headers.get("Content-Type")).toBe("image/webp");
    const bytes = new Uint8Array(await picture.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 4)) + new TextDecoder().decode(bytes.slice(8, 12))).toBe("RIFFWEBP");
    for (const missing of ["nope.webp", "amb-lucky-reels.svg", "constructor.webp", "toString.webp"]) {
      expect((await fetchApp(`http://localhost/sandbox/provider/img/${missing}`)).status, missing).toBe(404);
    }
  });
});

describe("the settlement saga through AMB", () => {
  it("an unreadable answer moves nothing; the next attempt asks the status of the same reference and settles once", async () => {
    await saveProviderSetup(env, owner, setup());
    try {
      const p = await playerWithBank();
      await postDeposit(p.cookie, { amount: "60000", provider: "askmebet" });
      const order = (await openOrder(p.cookie))!;
      await payQr(await qrPayloadOf(p.wallet, order.code));
      const seen: Seen[] = [];
      let verified = false;
      vi.stubGlobal(
        "fetch",
        fakeAmb(seen, {
          // applied at AMB, but the answer is a proxy's HTML page
          transfer: () => new Response("<html>502</html>", { status: 200 }),
          get verify() {
            verified = true;
            return { code: 0, message: "OK", data: { success: true, afterBalance: "100.00" } };
          },
        }),
      );
      await pumpDeliveries();
      await p.wallet.runDueWork();
      const transfers = () => seen.filter((s) => s.url.pathname === "/deposit");
      if ((await p.wallet.getDeposit(order.code))!.status === "PAID") {
        expect(transfers()).toHaveLength(1);
        expect(transfers()[0].body).toMatchObject({ transactionRef: order.code, amount: "100.00", productId: "AMBSLOT" });
        await p.wallet.runDueWork(Date.now() + 60_000);
      }
      expect((await p.wallet.getDeposit(order.code))!.status).toBe("SUCCESS");
      expect(verified).toBe(true);
      expect(transfers()).toHaveLength(1); // never sent twice
      const status = seen.find((s) => s.url.pathname === "/verifyDepositWithdraw")!;
      expect(status.body).toMatchObject({ transactionRef: order.code, type: "DEPOSIT" });
      expect(status.body?.username).toBe(transfers()[0].body?.username);
      const ledger = await p.wallet.ledgerFor(order.code);
      expect(ledger.filter((l) => l.entry === "credited" && l.account === "provider:askmebet")).toHaveLength(1);
    } finally {
      await env.DB.prepare(`DELETE FROM provider_settings WHERE agency_id = 'demo'`).run();
    }
  }, 60_000);
});
