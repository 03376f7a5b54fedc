import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routeConfig from "../../app/routes";
import { fetchApp, seedDemo } from "../setup/seed";
import { loginViaForm, ORIGIN, postForm, sessionFrom } from "../setup/players";
import { fundProvider, playerWithBank, postWithdraw, providerBalance } from "../setup/money";
import { createStaff, operatorToken, staffLogin } from "../setup/staff";
import { resetPlayerPassword } from "../../workers/services/players";
import type { AuditActor } from "../../workers/db/audit";
import { alertChannelFor, SANDBOX_TELEGRAM_CHATS, SANDBOX_TELEGRAM_TOKEN } from "../../workers/ports/alert-channel-factory";
import { forwardToSandbox } from "../../workers/services/agency";

/**
 * Decision 014: the guards every request passes (forced password change,
 * private caching, bodies that are not forms, the sandbox proxy). The route walks read the
 * route map itself (app/routes.ts), so a route added later is walked too.
 */

beforeAll(seedDemo);

type WalkedRoute = { id: string; file: string; pattern: string };

/** Every route of app/routes.ts with its full URL pattern (layouts included). */
function routesOf(entries: RouteConfigEntry[], parent = ""): WalkedRoute[] {
  return entries.flatMap((entry) => {
    const pattern = entry.index ? parent || "/" : `${parent}/${entry.path ?? ""}`.replace(/\/+$/, "") || "/";
    const self = { id: entry.id ?? entry.file, file: entry.file, pattern };
    return [self, ...routesOf(entry.children ?? [], pattern === "/" ? "" : pattern)];
  });
}
const ROUTES = routesOf(routeConfig);

const SAMPLE_PARAMS: Record<string, string> = {
  promotionId: "deposit-60k-bonus-50",
  provider: "askmebet",
  code: "WD0000000000",
  op: "approve",
  playerId: "no-such-player",
  lng: "lo",
  file: "common.json",
  target: "bank",
  "*": "pay",
};

/** A concrete URL path for a route pattern (sample values for its params). */
function pathOf(pattern: string, params: Record<string, string> = {}): string {
  return pattern
    .split("/")
    .map((segment) =>
      segment === "*"
        ? (params["*"] ?? SAMPLE_PARAMS["*"])
        : segment.startsWith(":")
          ? (params[segment.slice(1)] ?? SAMPLE_PARAMS[segment.slice(1)] ?? "x")
          : segment,
    )
    .join("/");
}

/** The single-fetch URL React Router's client asks for the data of a page. */
function dataUrlOf(path: string): string {
  return path === "/" ? "/_.data" : `${path}.data`;
}

const isApi = (pattern: string) => pattern.startsWith("/api/") || pattern.startsWith("/v2/");
const isPage = (route: WalkedRoute) => route.file.endsWith(".tsx");

const staffActor: AuditActor = { agencyId: "demo", staffId: "guards-staff", staffUsername: "guards-owner", ip: "10.240.0.1", userAgent: "vitest" };

/** A player whose password staff reset, logged in with the temporary one (forced change). */
async function forcedPlayer() {
  const p = await playerWithBank();
  const reset = await resetPlayerPassword(env.DB, staffActor, p.playerId);
  if (!reset.ok) throw new Error("reset failed");
  const cookie = sessionFrom(await loginViaForm(p.username, reset.temporaryPassword, { ip: "10.240.1.1" }))!;
  expect(cookie).toBeTruthy();
  return { ...p, cookie };
}

describe("finding 5: a staff-forced password change blocks every player action", () => {
  it("POST /player/withdraw (intent=confirm) creates no order and POST /player/promotion/{id} (intent=claim) claims nothing", async () => {
    const p = await playerWithBank();
    await fundProvider("askmebet", p.username, "500.00");
    const reset = await resetPlayerPassword(env.DB, staffActor, p.playerId);
    expect(reset.ok).toBe(true);
    const cookie = sessionFrom(await loginViaForm(p.username, reset.ok ? reset.temporaryPassword : "", { ip: "10.240.1.2" }))!;

    const withdraw = await postWithdraw(cookie, { amount: "200", intent: "confirm" });
    expect(withdraw.status).toBe(302);
    expect(withdraw.headers.get("Location")).toBe("/player/password");
    expect(await providerBalance("askmebet", p.username)).toBe("500.00");

    const claim = await postForm("/player/promotion/deposit-60k-bonus-50", { intent: "claim", provider: "askmebet" }, { cookie });
    expect(claim.status).toBe(302);
    expect(claim.headers.get("Location")).toBe("/player/password");
    expect((await p.wallet.listUsages(1, 10)).total).toBe(0);

    // the same through React Router's client (a `.data` post)
    const viaData = await postForm(
      "/player/withdraw.data",
      { intent: "confirm", provider: "askmebet", amount: "200", idempotencyKey: crypto.randomUUID() },
      { cookie },
    );
    expect(viaData.status).toBeLessThan(500);
    expect(viaData.headers.get("X-Remix-Redirect") ?? (await viaData.text())).toContain("/player/password");
    expect(await providerBalance("askmebet", p.username)).toBe("500.00");
  }, 60_000);

  it("every player action in app/routes.ts is refused except the password change, logout and the language switch", async () => {
    const p = await forcedPlayer();
    const allowed = new Set([
      "/player/password",
      "/logout",
      "/set-language",
      "/api/v2/players/logout",
      "/v2/players/logout",
      "/api/v2/players/security/password/change",
      "/v2/players/security/password/change",
    ]);
    // Everything a player session can act on: the player area and the player JSON API.
    const playerRoutes = ROUTES.filter(
      (r) =>
        (r.pattern === "/player" || r.pattern.startsWith("/player/") || isApi(r.pattern)) &&
        !r.pattern.startsWith("/api/staff/") &&
        !r.pattern.endsWith("/payments/webhook"),
    );
    expect(playerRoutes.length).toBeGreaterThan(20);
    for (const route of playerRoutes.filter((r) => !allowed.has(r.pattern))) {
      const path = pathOf(route.pattern, { playerId: p.playerId });
      const res = isApi(route.pattern)
        ? await fetchApp(`${ORIGIN}${path}`, {
            method: "POST",
            headers: { Origin: ORIGIN, Cookie: p.cookie, "Content-Type": "application/json" },
            body: JSON.stringify({ username: "x", password: "y", fingerprint: "abcdef0123456789" }),
          })
        : await postForm(path, { intent: "confirm", provider: "askmebet", amount: "200" }, { cookie: p.cookie });
      if (isApi(route.pattern)) {
        expect(res.status, route.pattern).toBe(403);
        expect(((await res.json()) as { error: { code: string } }).error.code, route.pattern).toBe("PASSWORD_CHANGE_REQUIRED");
      } else {
        expect(res.status, route.pattern).toBe(302);
        expect(res.headers.get("Location"), route.pattern).toBe("/player/password");
      }
    }
    // the language switch and the password form itself still work
    const lang = await postForm("/set-language", { lng: "cn", redirectTo: "/player/password" }, { cookie: p.cookie });
    expect(lang.status).toBe(302);
    expect(lang.headers.get("Location")).toBe("/player/password");
    expect(lang.headers.getSetCookie().length).toBeGreaterThan(0); // the language cookie
    const set = await postForm("/player/password", { newPassword: "brand-new-pass-1", confirmNewPassword: "brand-new-pass-1" }, { cookie: p.cookie });
    expect(set.status).toBe(302);
    expect(set.headers.get("Location")).not.toBe("/player/password");
    // once changed, actions run again (the claim is accepted or refused by the promotion rules, not by the guard)
    const after = await postForm("/player/promotion/deposit-60k-bonus-50", { intent: "claim", provider: "askmebet" }, { cookie: p.cookie });
    expect(after.headers.get("Location")).not.toBe("/player/password");
    const logout = await postForm("/logout", {}, { cookie: p.cookie });
    expect(logout.status).toBe(302);
  }, 60_000);
});

describe("finding 6: answers that depend on a session are never cached", () => {
  it("every route of app/routes.ts, document and .data, with a player session and with a staff session: Cache-Control private, no-store", async () => {
    const p = await playerWithBank();
    await createStaff(env, { agencyId: "demo", username: "guards-owner", password: "guards-owner-pass-1", role: "owner" });
    const staff = await staffLogin(env, {
      username: "guards-owner",
      password: "guards-owner-pass-1",
      totpSecret: (await env.DB.prepare(`SELECT totp_secret AS s FROM staff WHERE username = 'guards-owner'`).first<{ s: string }>())!.s,
    });
    const failures: string[] = [];
    for (const route of ROUTES) {
      // the same for everyone, cached publicly on purpose: translation files, and an agency's
      // brand images and web manifest (decision 018; their headers: tests/integration/brand.test.ts)
      if (["/locales/:lng/:file", "/brand/:file", "/app.webmanifest"].includes(route.pattern)) continue;
      const path = pathOf(route.pattern, { playerId: p.playerId });
      for (const [who, cookie] of [
        ["player", p.cookie],
        ["staff", staff],
      ] as const) {
        for (const url of isPage(route) ? [path, dataUrlOf(path)] : [path]) {
          const res = await fetchApp(`${ORIGIN}${url}`, { headers: { Cookie: cookie }, redirect: "manual" });
          await res.arrayBuffer();
          const cache = res.headers.get("Cache-Control") ?? "";
          if (!/\bprivate\b/.test(cache) || !/\bno-store\b/.test(cache)) failures.push(`${who} GET ${url} (${res.status}): ${cache || "no Cache-Control"}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

describe("finding 7: bodies that are not forms", () => {
  it("every action endpoint of app/routes.ts answers text/plain and a missing Content-Type without a 5xx", async () => {
    const p = await playerWithBank();
    const staff = await staffLogin(env, {
      username: "guards-cashier",
      password: "guards-cashier-pass-1",
      totpSecret: (await createStaff(env, { agencyId: "demo", username: "guards-cashier", password: "guards-cashier-pass-1", role: "owner" })).totpSecret,
    });
    const failures: string[] = [];
    const operatorApiToken = await operatorToken(env, "demo");
    const bodyless = (text: string) => new TextEncoder().encode(text); // bytes: fetch adds no Content-Type
    // Signed in as a player and as staff at once, so every action gets as far as reading its body.
    const cookie = `${p.cookie}; ${staff}`;
    const endpoints = new Set<string>();
    const post = async (route: WalkedRoute, kind: string, headers: Record<string, string>, body: string | Uint8Array) => {
      const path = pathOf(route.pattern, { playerId: p.playerId });
      const res = await fetchApp(`${ORIGIN}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: ORIGIN, Authorization: `Bearer ${operatorApiToken}`, Cookie: cookie, ...headers },
        body: body as BodyInit,
      });
      const text = await res.text();
      if (res.status >= 500 || /\n\s+at /.test(text)) {
        failures.push(`${kind} POST ${path}: ${res.status} ${text.slice(0, 80)}`);
        endpoints.add(path);
      }
    };
    const walk = (route: WalkedRoute) =>
      Promise.all([
        post(route, "text/plain", { "Content-Type": "text/plain;charset=UTF-8" }, "intent=confirm&amount=1"),
        post(route, "no Content-Type", {}, bodyless("intent=confirm&amount=1")),
      ]);
    // Logouts last: they end the sessions the other posts need.
    const [others, logouts] = [ROUTES.filter((r) => !r.pattern.endsWith("logout")), ROUTES.filter((r) => r.pattern.endsWith("logout"))];
    for (let i = 0; i < others.length; i += 4) await Promise.all(others.slice(i, i + 4).map(walk));
    for (const route of logouts) await walk(route);
    expect(failures, `${endpoints.size} endpoints`).toEqual([]);
  }, 60_000);

  it("a page answers 415 with a translated message; the API with a JSON error code", async () => {
    const p = await playerWithBank();
    const page = await fetchApp(`${ORIGIN}/player/withdraw`, {
      method: "POST",
      headers: { Origin: ORIGIN, Cookie: p.cookie, "Content-Type": "text/plain" },
      body: "intent=confirm",
    });
    expect(page.status).toBe(415);
    expect(await page.text()).toContain("ຮູບແບບຂໍ້ມູນທີ່ສົ່ງມາບໍ່ຖືກຕ້ອງ");
    const api = await fetchApp(`${ORIGIN}/api/v2/players/login`, { method: "POST", headers: { Origin: ORIGIN, "Content-Type": "text/plain" }, body: "{}" });
    expect(api.status).toBe(415);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    // forms (plain and multipart) and JSON where the API takes it keep working
    const multipart = new FormData();
    multipart.set("intent", "review");
    multipart.set("provider", "askmebet");
    multipart.set("amount", "200");
    const asMultipart = await fetchApp(`${ORIGIN}/player/withdraw`, { method: "POST", headers: { Origin: ORIGIN, Cookie: p.cookie }, body: multipart });
    expect(asMultipart.status).toBeLessThan(500);
    expect(asMultipart.status).not.toBe(415);
    const asJson = await fetchApp(`${ORIGIN}/api/v2/players/username/validate`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/json" },
      body: JSON.stringify({ username: "someone-new" }),
    });
    expect(asJson.status).toBe(200);
  });
});

describe("finding 9: the sandbox proxy serves the tester's pages only", () => {
  const attacks = [
    "/sandbox/bank/x/..%2fsandbox/payouts",
    "/sandbox/bank/x/..%2Fsandbox/payouts",
    "/sandbox/bank/x/%2e%2e/sandbox/payouts",
    "/sandbox/bank/x/..%252fsandbox/payouts",
    "/sandbox/bank/pay/..%2f..%2fsandbox/payouts",
    "/sandbox/bank/x/..%2fsandbox/faults",
    "/sandbox/bank/x/..%5csandbox/payouts",
    "/sandbox/bank/%2fsandbox/payouts",
    "/sandbox/bank/x/..%2fapi/payouts",
    "/sandbox/bank/health",
    "/sandbox/provider/x/..%2fsandbox/wallets",
    "/sandbox/provider/x/..%2fsandbox/faults",
    "/sandbox/provider/play/..%2fsandbox/reset",
    "/sandbox/provider/x/..%2fapi/askmebet/balance?username=demo_x",
    // the sandbox Telegram: its page only, never the Bot API (the token) nor its controls
    `/sandbox/telegram/bot${SANDBOX_TELEGRAM_TOKEN}/sendMessage`,
    `/sandbox/telegram/bot${SANDBOX_TELEGRAM_TOKEN}/getMe`,
    "/sandbox/telegram/control/messages",
    "/sandbox/telegram/control/reset",
    "/sandbox/telegram/control/faults",
    "/sandbox/telegram/x/..%2fcontrol/reset",
    `/sandbox/telegram/x/..%2fbot${SANDBOX_TELEGRAM_TOKEN}%2fsendMessage`,
    "/sandbox/telegram/health",
  ];
  const [cashiers, owners] = SANDBOX_TELEGRAM_CHATS;

  it("a dot segment hidden by percent-encoding reaches no sandbox control (read or write)", async () => {
    const marker = `received before the attacks ${crypto.randomUUID()}`;
    expect(await alertChannelFor(env, SANDBOX_TELEGRAM_TOKEN).send({ chatId: owners, text: marker })).toMatchObject({ kind: "sent" });
    for (const path of attacks) {
      for (const method of ["GET", "POST"] as const) {
        const res = await fetchApp(`${ORIGIN}${path}`, {
          method,
          redirect: "manual",
          headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
          body: method === "POST" ? `provider=askmebet&op=deposit&mode=refuse&count=1&chat_id=${owners}&text=planted` : undefined,
        });
        const text = await res.text();
        expect(res.status, `${method} ${path}: ${text.slice(0, 120)}`).toBe(404);
      }
    }
    // no fault was planted by any of the posts
    const faults = await env.SANDBOX_PROVIDER.fetch("http://sandbox-provider/sandbox/faults");
    expect(JSON.stringify(await faults.json())).not.toContain("refuse");
    // nothing sent through the Telegram sandbox, nothing reset
    const telegram = await (await env.SANDBOX_TELEGRAM.fetch(`http://sandbox-telegram/control/messages?chat=${owners}`)).json();
    expect(JSON.stringify(telegram)).toContain(marker);
    expect(JSON.stringify(telegram)).not.toContain("planted");
  });

  it("the pages the player and the tester use still pass: bank pay and payouts, provider play", async () => {
    const pay = await fetchApp(`${ORIGIN}/sandbox/bank/pay`);
    expect(pay.status).toBe(200);
    const payouts = await fetchApp(`${ORIGIN}/sandbox/bank/payouts`);
    expect(payouts.status).toBe(200);
    const root = await fetchApp(`${ORIGIN}/sandbox/bank/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("Location")).toMatch(/^(\/sandbox\/bank\/)?pay$/);
    const payPost = await postForm("/sandbox/bank/pay", { payload: "not-a-qr" });
    expect(payPost.status).toBeLessThan(500);
    expect(payPost.status).not.toBe(404);
    const play = await fetchApp(`${ORIGIN}/sandbox/provider/play/askmebet?token=bad`);
    expect(play.status).not.toBe(404);
    expect(play.status).toBeLessThan(500);
  });

  it("the sandbox Telegram's page shows the demo agency the messages its staff would have received, with or without a trailing slash", async () => {
    const text = `Withdrawal waits ${crypto.randomUUID()}`;
    expect(await alertChannelFor(env, SANDBOX_TELEGRAM_TOKEN).send({ chatId: cashiers, text })).toMatchObject({ kind: "sent" });
    for (const path of ["/sandbox/telegram", "/sandbox/telegram/", `/sandbox/telegram?chat=${cashiers}`]) {
      const page = await fetchApp(`${ORIGIN}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
      expect(await page.text()).toContain(text);
    }
    const post = await postForm("/sandbox/telegram", { chat_id: cashiers, text: "planted" });
    expect(post.status).toBe(404);
    // an agency not on the sandbox gateway, and a deployment without the binding: no page
    const request = () => new Request(`${ORIGIN}/sandbox/telegram`);
    expect((await forwardToSandbox(env, "agency-without-sandbox", "telegram", request())).status).toBe(404);
    const deployed = { ...env, SANDBOX_TELEGRAM: undefined } as unknown as Env;
    expect((await forwardToSandbox(deployed, "demo", "telegram", request())).status).toBe(404);
    expect((await forwardToSandbox(env, "demo", "telegram", request())).status).toBe(200);
  });
});
