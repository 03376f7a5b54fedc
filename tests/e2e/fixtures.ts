import { test as base, expect, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";

/** A console error or an uncaught exception in the page fails the test. */
export const test = base.extend<{ consoleErrors: string[] }>({
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
    data: { username: player.username, password: player.password, confirmPassword: player.password, displayName: player.displayName, phone: player.phone, adult: true },
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

/**
 * A new player of the page's agency, registered and logged in through the forms: the browser
 * resolves *.localhost (the e2e agencies' hosts), Node's request client does not.
 */
export async function registerAndLoginByForms(page: Page, prefix: string): Promise<TestPlayer> {
  const player = newPlayer({ username: `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e5).toString(36)}`.slice(0, 20) });
  await page.goto("/register");
  await waitForHydration(page);
  const form = page.getByTestId("register-form");
  await form.locator('input[name="username"]').fill(player.username);
  await form.locator('input[name="phone"]').fill(player.phone);
  await form.locator('input[name="password"]').fill(player.password);
  await form.locator('input[name="confirmPassword"]').fill(player.password);
  await form.locator('input[name="adult"]').check();
  await form.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/login/, { timeout: 30_000 });
  await waitForHydration(page);
  await submitLogin(page, player);
  await expect(page).not.toHaveURL(/\/login/, { timeout: 30_000 });
  return player;
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
