import AxeBuilder from "@axe-core/playwright";
import "./idle-connections";
import { test as base, expect, request as newRequest, type APIRequestContext, type BrowserContext, type Page, type TestInfo } from "@playwright/test";

/** The running test's baseURL (its spec's `test.use`, else the project's): one test at a time per worker. */
let baseURLInUse: string | undefined;
export function currentBaseURL(): string {
  if (!baseURLInUse) throw new Error("no baseURL: use `test` or `accountTest` of tests/e2e/fixtures.ts");
  return baseURLInUse;
}

/** A console error or an uncaught exception in the page fails the test. */
// biome-ignore lint/suspicious/noConfusingVoidType: Playwright's type for a fixture that gives no value (`await use()`)
export const test = base.extend<{ consoleErrors: string[]; rememberBaseURL: void }>({
  rememberBaseURL: [
    async ({ baseURL }, use) => {
      baseURLInUse = baseURL;
      await use();
      baseURLInUse = undefined;
    },
    { auto: true },
  ],
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() === "error" && !/status of 40[134]/.test(msg.text())) errors.push(msg.text());
      });
      page.on("pageerror", (err) => errors.push(err.message));
      await use(errors);
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export const isPhone = (info: TestInfo) => info.project.name.startsWith("phone");
export const hasJs = (info: TestInfo) => info.project.use.javaScriptEnabled !== false;

/** After a click that navigates or posts, wait until the new document (no JS) or route (JS) settled. */
export async function settle(page: Page) {
  await page.waitForLoadState("load");
}

export const DEMO_SOCIAL = {
  telegram: "https://t.me/demo_agency",
  whatsapp: "https://wa.me/8562055555555",
  facebook: "https://www.facebook.com/demo.agency",
  twitter: "https://x.com/demo_agency",
  line: "https://line.me/R/ti/p/@demo_agency",
};

/* ------------------------------------------------------------------------------------------
 * Player-account helpers (accounts*.spec.ts). Login and registration are throttled per
 * client address, so every test takes its own CF-Connecting-IP and its own usernames.
 * ---------------------------------------------------------------------------------------- */

/** A random 10.x.y.z address for the CF-Connecting-IP header. */
export function randomIp(): string {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

/** A fresh, valid username: "e2e" + base36, lowercase, at most 20 characters. */
export function uniqueUsername(prefix = "e2e"): string {
  const tail = Date.now().toString(36).slice(-6) + Math.random().toString(36).slice(2, 10);
  return (prefix + tail).slice(0, 20);
}

export type TestPlayer = { username: string; password: string; displayName: string; phone: string };

export function newPlayer(overrides: Partial<TestPlayer> = {}): TestPlayer {
  const username = overrides.username ?? uniqueUsername();
  return { username, password: "Passw0rd-" + username.slice(-6), displayName: "P " + username.slice(-8), phone: "02055551234", ...overrides };
}

/** Registers through the JSON API (fast path for tests that are not about the form). */
export async function registerByApi(request: APIRequestContext, player: TestPlayer, ip: string) {
  const res = await request.post("/api/v2/players/register", {
    headers: { "CF-Connecting-IP": ip },
    data: {
      username: player.username,
      password: player.password,
      confirmPassword: player.password,
      displayName: player.displayName,
      phone: player.phone,
      adult: true,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/**
 * Logs in through the JSON API with the context's own request client, so the session cookie
 * lands in the browser context (page.request shares the cookie jar).
 */
export async function loginByApi(page: Page, player: Pick<TestPlayer, "username" | "password">, ip: string) {
  const res = await page.request.post("/api/v2/players/login", {
    headers: { "CF-Connecting-IP": ip },
    data: { username: player.username, password: player.password },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** One Set-Cookie header as a cookie of `origin` for `context.addCookies` (null: a deletion). */
function parseSetCookie(header: string, origin: string): Parameters<BrowserContext["addCookies"]>[0][number] | null {
  const [pair, ...attributes] = header.split(";").map((part) => part.trim());
  const eq = pair.indexOf("=");
  const attr = new Map(attributes.map((a) => [a.split("=")[0].toLowerCase(), a.slice(a.indexOf("=") + 1)] as const));
  const maxAge = attr.has("max-age") ? Number(attr.get("max-age")) : undefined;
  if (maxAge !== undefined && maxAge <= 0) return null;
  const sameSite = (attr.get("samesite") ?? "Lax").toLowerCase();
  return {
    name: pair.slice(0, eq),
    value: pair.slice(eq + 1),
    url: new URL(attr.get("path") || "/", origin).href,
    expires: maxAge === undefined ? -1 : Math.floor(Date.now() / 1000) + maxAge,
    httpOnly: attr.has("httponly"),
    secure: attr.has("secure"),
    sameSite: sameSite === "strict" ? "Strict" : sameSite === "none" ? "None" : "Lax",
  };
}

/**
 * Posts JSON as a browser of the test's agency would, and the cookies of the answer land in the
 * page's context. On localhost, page.request shares the context's cookie jar (and its
 * CF-Connecting-IP). Node does not resolve *.localhost (the e2e agencies' hosts, which Chromium
 * does): there the post goes to localhost with the agency's Host header through a request
 * client of its own, and its Set-Cookie headers are added to the context for the agency's host
 * (page.request would have kept them for localhost, the demo agency).
 */
async function postAsThisAgency(page: Page, path: string, data: object, ip?: string): Promise<{ status: number; text: string }> {
  const base = new URL(currentBaseURL());
  const headers: Record<string, string> = { Origin: base.origin, ...(ip ? { "CF-Connecting-IP": ip } : {}) };
  if (base.hostname === "localhost") {
    const res = await page.request.post(path, { headers, data });
    return { status: res.status(), text: await res.text() };
  }
  const api = await newRequest.newContext({ baseURL: `${base.protocol}//localhost:${base.port}` });
  try {
    const res = await api.post(path, { headers: { ...headers, Host: base.host, "CF-Connecting-IP": ip ?? randomIp() }, data, maxRedirects: 0 });
    const cookies = res
      .headersArray()
      .filter((h) => h.name.toLowerCase() === "set-cookie")
      .map((h) => parseSetCookie(h.value, base.origin))
      .filter((c) => c !== null);
    if (cookies.length) await page.context().addCookies(cookies);
    return { status: res.status(), text: await res.text() };
  } finally {
    await api.dispose();
  }
}

/**
 * A player of the test's agency (its baseURL: localhost or an e2e agency's *.localhost),
 * registered and logged in through the JSON API, the session cookie in the page's context:
 * for flows that are not about the forms (those are accounts.spec.ts's). With a `landing`, the
 * page opens it (still logged in) and, with JavaScript on, waits for it to hydrate (a test
 * types right after); without one the page is left where it was (the caller goes on with a goto).
 */
export async function playerSessionByApi(page: Page, options: { prefix?: string; landing?: string; player?: TestPlayer } = {}): Promise<TestPlayer> {
  const { prefix = "e2e", landing } = options;
  const player = options.player ?? newPlayer({ username: `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e5).toString(36)}`.slice(0, 20) });
  const ip = new URL(currentBaseURL()).hostname === "localhost" ? undefined : randomIp();
  const registered = await postAsThisAgency(
    page,
    "/api/v2/players/register",
    {
      username: player.username,
      password: player.password,
      confirmPassword: player.password,
      displayName: player.displayName,
      phone: player.phone,
      adult: true,
    },
    ip,
  );
  expect(registered.status, registered.text).toBe(201);
  const login = await postAsThisAgency(page, "/api/v2/players/login", { username: player.username, password: player.password }, ip);
  expect(login.status, login.text).toBe(200);
  if (landing !== undefined) {
    await page.goto(landing);
    await expect(page).not.toHaveURL(/\/login/);
    await waitForHydration(page);
  }
  return player;
}

/** Fills and submits the login form of the current /login page. */
export async function submitLogin(page: Page, player: Pick<TestPlayer, "username" | "password">) {
  const form = page.getByTestId("login-form");
  await form.locator('input[name="username"]').fill(player.username);
  await form.locator('input[name="password"]').fill(player.password);
  await form.locator('button[type="submit"]').click();
}

/**
 * The selector of a page ready for a test's hands with JavaScript on: React has hydrated it,
 * or it is a page that never hydrates (decision 021: `data-scripts` "lite" or "none") and
 * its inline script, if any, has run (it marks `data-enhanced` as its last step).
 */
export const PAGE_READY = 'html[data-hydrated], html[data-scripts="lite"][data-enhanced], html[data-scripts="none"]';

/** With JavaScript on, waits until the page is interactive (before typing into a form). */
export async function waitForHydration(page: Page) {
  if (test.info().project.use.javaScriptEnabled !== false) await page.locator(PAGE_READY).waitFor({ state: "attached" });
}

/** Chooses a language with the navbar switcher (a plain form post that reloads the page). */
export async function switchLanguage(page: Page, lang: "lo" | "zh-CN" | "vi") {
  const switcher = page.getByTestId("language-switcher");
  await switcher.locator("summary").click();
  await switcher.locator(`button[lang="${lang}"]`).click();
  await expect(page.locator("html")).toHaveAttribute("lang", lang);
}

/**
 * `test` plus, for account flows:
 * - `clientIp`: a random CF-Connecting-IP set on the page's context (automatic);
 * - `expectHttpError(status, path)`: declares that a response of `status` from a URL whose
 *   path matches `path` is part of the flow (a form post with validation errors answers 400
 *   without JavaScript; a fetcher's .data request does the same with it). Chromium logs
 *   "Failed to load resource" for those; only the declared ones are forgiven, every other
 *   console error still fails the test.
 */
export const accountTest = test.extend<{ clientIp: string; expectHttpError: (status: number, path: RegExp) => void }>({
  clientIp: [
    async ({ context }, use) => {
      const ip = randomIp();
      await context.setExtraHTTPHeaders({ "CF-Connecting-IP": ip });
      await use(ip);
    },
    { auto: true },
  ],
  expectHttpError: async ({ page, consoleErrors }, use) => {
    const rules: { status: number; path: RegExp }[] = [];
    const forgiven: string[] = [];
    page.on("console", (msg) => {
      const status = /status of (\d{3})/.exec(msg.text())?.[1];
      if (msg.type() !== "error" || !status) return;
      let path = "";
      try {
        path = new URL(msg.location().url).pathname;
      } catch {
        return;
      }
      if (rules.some((rule) => rule.status === Number(status) && rule.path.test(path))) forgiven.push(msg.text());
    });
    await use((status, path) => rules.push({ status, path }));
    // Runs before consoleErrors' own check (this fixture depends on it).
    for (const text of forgiven) {
      const index = consoleErrors.indexOf(text);
      if (index >= 0) consoleErrors.splice(index, 1);
    }
  },
});

/**
 * The page's serious and critical axe violations as it is now, as "rule: element (why)" lines
 * (`where` leads each line). axe reads a colour where the element is on the screen, scrolling
 * it into view first; with the page's `scroll-behavior: smooth` that scroll was still moving
 * when axe looked, and it read the page's #fdfefe behind the admin menu's white active entry
 * (contrast 1.01; bank-replace.spec desktop-js, one run in ten). So axe runs with reduced
 * motion (app.css then scrolls at once) after the page's scrolling and transitions have ended.
 * That was not all: #fdfefe is the pending overlay's white at .85 over the page's #f4f6fa. The
 * overlay shows when a navigation takes over a second and stays at least half a second after
 * it ends (feedback.tsx), so a page that answered slowly could still be under it when the test
 * saw its result. axe reads the page at rest: once the overlay is gone.
 * axe runs as a script in the page: with JavaScript on only (the markup is the same).
 */
export async function seriousAxeViolations(page: Page, where = ""): Promise<string[]> {
  await expect(page.getByTestId("pending")).toBeHidden({ timeout: 10_000 });
  await page.emulateMedia({ reducedMotion: "reduce" });
  let results: Awaited<ReturnType<AxeBuilder["analyze"]>>;
  try {
    await page.evaluate(async () => {
      await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      for (let last = -1; last !== window.scrollY; await frame(), await frame()) last = window.scrollY;
    });
    // Legacy mode: axe.run in the page itself. The default (runPartial, for cross-origin
    // frames, which no page here has) opened a blank page per check to finish the run there,
    // and injected axe's 560 KB into it again (decision 065). Every rule still runs; only the
    // violations are collected in full (passes and incomplete results, which nothing here
    // reads, keep one node each).
    results = await new AxeBuilder({ page })
      .setLegacyMode()
      .options({ resultTypes: ["violations"] })
      .analyze();
  } finally {
    await page.emulateMedia({ reducedMotion: null });
  }
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${where ? `${where} ` : ""}${v.id}: ${v.nodes.map((n) => `${n.target.join(" ")} (${n.failureSummary?.split("\n").slice(1).join(" ").trim()})`).join(", ")}`,
    );
}
