import type { Browser, BrowserContext, Request } from "@playwright/test";
import { fullBrowserLaunchOptions } from "../../scripts/chromium.mjs";
import { compress, edgeSize, isCompressible } from "../../scripts/edge-proxy.mjs";
import { expect, PAGE_READY, hasJs, isPhone, loginByApi, newPlayer, randomIp, registerByApi, test } from "./fixtures";
import { playerPages } from "./pages";
import { addBankAccount, depositCredit, loggedInPlayerByApi, withdrawForReview } from "./player";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * First-load bytes per page, as a phone downloads them from the edge
 * (docs/decisions/023-performance-budgets.md): a fresh browser (empty cache, first visit) at
 * 360x740 with JavaScript on, every response until the network is idle, each body counted as
 * the edge serves it (brotli for text at the fixed qualities of scripts/edge-proxy.mjs; images
 * and fonts as they are). Deterministic for a given build, so the budgets are checked in CI;
 * Lighthouse (scores that move with the machine) stays out (`npm run lighthouse`).
 *
 * A budget is raised only by a decision record.
 */
// Bytes as a player's browser fetches them: the full Chromium, not the tests' headless shell,
// which fetches lazy images at once and no manifest (scripts/chromium.mjs, decision 065).
test.use({ launchOptions: fullBrowserLaunchOptions });

const KB = 1024;
// Decision 023's goals are 50 KB (landing) and 120 KB (player pages). Landing at its goal: one Lao
// weight there (decision 027 "Next" 3: 50.4 -> 41.7 KB). Player pages below it since they ship no
// React (decision 034: 142-182 KB -> 33-37 KB measured); CI holds 48 KB so that any page that starts
// hydrating again (about +100 KB) or grows by a third fails here. Decision 037: the demo's
// banners and game pictures are raster (Chromium builds a page per SVG <img>), landing 63.4 KB;
// decision 038: a phone takes the brand's phone hero (3.5 KB instead of 20.8 KB), back to 50 KB.
const BUDGET = { landing: 50 * KB, page: 48 * KB };
/** Pages allowed more than `page`; a decision record says why. */
const PAGE_BUDGET: Record<string, number> = {
  // three WebP banners, 16 KB (decision 037)
  "/player/promotion": 52 * KB,
};

type Row = { path: string; requests: number; byKind: Record<string, number>; total: number; gzip: number; raw: number; budget: number };
const KINDS = ["document", "stylesheet", "script", "font", "image", "other"] as const;

test.describe("byte budgets", () => {
  test.describe.configure({ timeout: 240_000 }); // a dozen first loads, each in a fresh browser context

  test("first load of every public and player page fits its budget (compressed, all requests)", async ({ browser, baseURL }, info) => {
    test.skip(!isPhone(info) || !hasJs(info), "budgets are measured on a phone with JavaScript on (the heavier case)");
    const ip = randomIp();
    const player = newPlayer();
    const cookies = await loggedInCookies(browser, baseURL!, player, ip);

    const rows: Row[] = [];
    for (const path of ["/", "/login", "/register"]) rows.push(await firstLoad(browser, baseURL!, path, [], ip, path === "/" ? BUDGET.landing : BUDGET.page));
    for (const path of playerPages(info)) rows.push(await firstLoad(browser, baseURL!, path, cookies, ip, PAGE_BUDGET[path] ?? BUDGET.page));

    const table = formatTable(rows);
    console.log(table);
    await info.attach("first-load-bytes.txt", { body: table, contentType: "text/plain" });
    for (const row of rows) {
      expect.soft(row.total, `${row.path}: ${kb(row.total)} over its budget of ${kb(row.budget)}`).toBeLessThanOrEqual(row.budget);
    }
  });
});

/**
 * The back office on a cashier's phone (issue 49, decision 089): the pages a cashier opens
 * most, each first loaded by a logged-in cashier of the demo agency: the dashboard, the
 * deposits list, a withdrawal waiting for staff (a player's own, made for this test), the reports.
 * While they hydrated React they took 173.0-210.7 KB (the dashboard 173.0 KB, 620.8 KB as sent
 * uncompressed); lite, 29.2-32.4 KB. The budget leaves the largest 8 KB for what issue 49 adds
 * to these pages (cards, copy buttons, the payout QR) and fails a page that hydrates again
 * (+115 KB of scripts) or inlines whole translation namespaces again (+24 KB).
 */
const STAFF_BUDGET = 40 * KB;

test.describe("byte budgets of the back office", () => {
  test.describe.configure({ timeout: 240_000 });

  test("first load of the cashier's pages fits the staff budget (compressed, all requests)", async ({ browser, baseURL, page }, info) => {
    test.skip(!isPhone(info) || !hasJs(info), "budgets are measured on a phone with JavaScript on (the heavier case)");
    const ip = randomIp();
    await loggedInPlayerByApi(page, baseURL!);
    await addBankAccount(page);
    await depositCredit(page, "3600000", "฿6.000,00");
    const code = await withdrawForReview(page, "5500");
    await staffLogin(page, DEMO_STAFF.cashier);
    const cookies = (await page.context().cookies()).filter((c) => c.name === "staff");
    const rows: Row[] = [];
    for (const path of ["/admin", "/admin/deposits", `/admin/withdrawals/${code}`, "/admin/reports"]) {
      rows.push(await firstLoad(browser, baseURL!, path, cookies, ip, STAFF_BUDGET));
    }
    const table = formatTable(rows);
    console.log(table);
    await info.attach("staff-first-load-bytes.txt", { body: table, contentType: "text/plain" });
    for (const row of rows) {
      expect.soft(row.total, `${row.path}: ${kb(row.total)} over its budget of ${kb(row.budget)}`).toBeLessThanOrEqual(row.budget);
    }
    // the demo agency's queue is left as it was
    await page.goto(`/admin/withdrawals/${code}`);
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    const reject = page.getByTestId("reject-form");
    await reject.getByLabel("ເຫດຜົນ").fill("measured for the byte budget");
    await reject.getByRole("button", { name: "ປະຕິເສດ" }).click();
    await expect(page).toHaveURL(/\/admin\/withdrawals$/);
  });
});

test.describe("repeat visits", () => {
  test("a second page takes its fonts and build files from the browser's cache, asking the server nothing (decision 043)", async ({
    browser,
    baseURL,
  }, info) => {
    test.skip(!isPhone(info) || !hasJs(info), "caching is the browser's, measured once with the budgets (a phone with JavaScript on)");
    const { viewport, isMobile, hasTouch, deviceScaleFactor, javaScriptEnabled, userAgent } = info.project.use;
    // The HTTP cache alone: the service worker (decision 028) would answer build files itself.
    const context = await browser.newContext({
      viewport,
      isMobile,
      hasTouch,
      deviceScaleFactor,
      javaScriptEnabled,
      userAgent,
      baseURL,
      serviceWorkers: "block",
    });
    try {
      const page = await context.newPage();
      // The 404 page hydrates, so it loads build files (stylesheet, scripts) and, like every
      // page, the preloaded Lao fonts; the second one is the same page at another address.
      await page.goto("/budget-first-visit", { waitUntil: "load" });
      await page.locator(PAGE_READY).waitFor({ state: "attached" });
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      const servedFromCache = new Set<string>();
      const received: { requestId: string; path: string; status: number; fromCache: boolean }[] = [];
      cdp.on("Network.requestServedFromCache", ({ requestId }) => servedFromCache.add(requestId));
      cdp.on("Network.responseReceived", ({ requestId, response }) =>
        received.push({
          requestId,
          path: new URL(response.url).pathname,
          status: response.status,
          fromCache: Boolean(response.fromDiskCache || response.fromPrefetchCache),
        }),
      );
      await page.goto("/budget-second-visit", { waitUntil: "load" });
      await page.locator(PAGE_READY).waitFor({ state: "attached" });
      const files = received.filter((r) => /^\/(assets|fonts)\//.test(r.path));
      expect(files.filter((r) => r.path.startsWith("/fonts/")).length, "the second page uses the fonts").toBeGreaterThan(0);
      expect(files.filter((r) => r.path.startsWith("/assets/")).length, "the second page uses build files").toBeGreaterThan(1);
      // Before decision 043 each of them was asked again (304: one round trip each).
      const asked = files.filter((r) => !r.fromCache && !servedFromCache.has(r.requestId)).map((r) => `${r.status} ${r.path}`);
      expect(asked, "files the second page asked the server for again").toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** A fresh player with a bank account (the withdraw page shows its form), logged in: its cookies. */
async function loggedInCookies(browser: Browser, baseURL: string, player: ReturnType<typeof newPlayer>, ip: string) {
  const setup = await browser.newContext({ baseURL, extraHTTPHeaders: { "CF-Connecting-IP": ip } });
  try {
    const page = await setup.newPage();
    await registerByApi(setup.request, player, ip);
    await loginByApi(page, player, ip);
    await page.goto("/player/bank");
    const form = page.getByTestId("bank-form");
    await form.getByText("ທະນາຄານການຄ້າຕ່າງປະເທດລາວ (BCEL)").click();
    await form.getByLabel("ເລກບັນຊີ").fill(`0101${Date.now().toString().slice(-9)}`);
    await form.getByLabel("ຊື່ບັນຊີ").fill("Budget Player");
    await form.getByRole("button", { name: "ບັນທຶກບັນຊີ" }).click();
    await expect(page.getByTestId("bank-account")).toBeVisible();
    // The session only: the toast and marker cookies would change what the measured page shows.
    return (await setup.cookies()).filter((c) => c.name === "session" || c.name === "device");
  } finally {
    await setup.close();
  }
}

/** One first visit in a new context (empty cache): every response until the network is idle. */
async function firstLoad(
  browser: Browser,
  baseURL: string,
  path: string,
  cookies: Awaited<ReturnType<BrowserContext["cookies"]>>,
  ip: string,
  budget: number,
): Promise<Row> {
  const { viewport, isMobile, hasTouch, deviceScaleFactor, javaScriptEnabled, userAgent } = test.info().project.use;
  const context = await browser.newContext({
    viewport,
    isMobile,
    hasTouch,
    deviceScaleFactor,
    javaScriptEnabled,
    userAgent,
    baseURL,
    extraHTTPHeaders: { "CF-Connecting-IP": ip },
    // The service worker registers 3 s after load (decision 028) and then fetches the offline
    // pages and the worker itself: background work after the first load, not part of it. On a
    // loaded machine the network was still busy at 3 s and "/" counted it: 20 requests, 52.5 KB
    // instead of 10 and 43.3 (CI run K, 2026-11-28).
    serviceWorkers: "block",
  });
  try {
    await context.addCookies(cookies);
    const sizes: Promise<{ kind: string; bytes: number; gzip: number; raw: number }>[] = [];
    context.on("response", (response) => {
      sizes.push(
        (async () => {
          const type = response.request().resourceType();
          const kind = (KINDS as readonly string[]).includes(type) ? type : "other";
          // Redirects and empty answers have no body to count.
          if (response.status() >= 300 && response.status() < 400) return { kind, bytes: 0, gzip: 0, raw: 0 };
          // A body the page never reads is never "finished": then its declared length counts.
          const declared = Number(response.headers()["content-length"] ?? 0);
          const body = await Promise.race([response.body().catch(() => Buffer.alloc(0)), sleep(5000).then(() => null)]);
          if (body === null) return { kind, bytes: declared, gzip: declared, raw: declared };
          const contentType = response.headers()["content-type"];
          const path = new URL(response.url()).pathname;
          // the budget counts brotli (what the edge serves every browser we support); gzip and the bodies themselves are printed beside it
          const gzip = isCompressible(contentType) && body.length > 0 ? compress(body, "gzip", path).length : body.length;
          return { kind, bytes: edgeSize(body, contentType, path), gzip, raw: body.length };
        })(),
      );
    });
    // Our own "network idle": nothing waiting for an answer for a second after load.
    // Playwright's networkidle never comes when the page leaves a response body unread
    // (the fingerprint POST only looks at the status), since that request never "finishes".
    const waiting = new Set<Request>();
    let lastChange = Date.now();
    const touch = () => (lastChange = Date.now());
    context.on("request", (request) => {
      waiting.add(request);
      touch();
    });
    context.on("response", (response) => {
      waiting.delete(response.request());
      touch();
    });
    context.on("requestfailed", (request) => {
      waiting.delete(request);
      touch();
    });
    context.on("requestfinished", touch);
    const page = await context.newPage();
    const response = await page.goto(path, { waitUntil: "load" });
    await expect.poll(() => waiting.size === 0 && Date.now() - lastChange >= 1000, { timeout: 20_000, intervals: [250] }).toBe(true);
    expect(response?.status(), `${path} answers`).toBe(200);
    expect(new URL(page.url()).pathname, `${path} is not redirected (session refused?)`).toBe(path.split("?")[0]);
    // lite pages never hydrate: ready when their inline script has run (fixtures.ts)
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    const measured = await Promise.all(sizes);
    const byKind = Object.fromEntries(KINDS.map((k) => [k, 0]));
    for (const { kind, bytes } of measured) byKind[kind] += bytes;
    return {
      path,
      requests: measured.length,
      byKind,
      total: measured.reduce((n, m) => n + m.bytes, 0),
      gzip: measured.reduce((n, m) => n + m.gzip, 0),
      raw: measured.reduce((n, m) => n + m.raw, 0),
      budget,
    };
  } finally {
    await context.close();
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function kb(n: number) {
  return `${(n / KB).toFixed(1)} KB`;
}

function formatTable(rows: Row[]) {
  const head = ["page", "req", "html", "css", "js", "font", "image", "other", "total", "budget", "", "gzip", "raw"];
  const lines = rows.map((r) => [
    r.path,
    String(r.requests),
    ...KINDS.map((k) => kb(r.byKind[k])),
    kb(r.total),
    kb(r.budget),
    r.total <= r.budget ? "ok" : "OVER",
    kb(r.gzip),
    kb(r.raw),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return ["First load, compressed as the edge serves it (brotli; phone 360x740, JavaScript on):", fmt(head), ...lines.map(fmt)].join("\n");
}
