import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { accountTest as test, expect, hasJs, isPhone, loginByApi, newPlayer, registerByApi, switchLanguage, waitForHydration } from "./fixtures";
import { playerPages } from "./pages";

/**
 * Translations per page (issue 16, decision 032): a player page inlines only the key groups
 * its routes declare, and a client navigation fetches the next page's groups before it renders.
 * Here, on a phone with JavaScript on and off, in lo, cn and vn: no player page shows a raw
 * key (a key it renders but did not ship would show as "deposit.amount"), none logs a
 * hydration mismatch (the fixtures fail a test on any console error), and client navigations
 * between the player pages (JavaScript on) show every page translated, without a document load.
 */

type Tree = Record<string, unknown>;

/** Every key of the player's namespaces ("deposit.amount"): what a missing translation shows instead. */
function allKeys(info: TestInfo): Set<string> {
  const keys = new Set<string>();
  const walk = (tree: Tree, prefix: string) => {
    for (const [key, value] of Object.entries(tree)) {
      if (typeof value === "string") keys.add(prefix + key);
      else walk(value as Tree, `${prefix}${key}.`);
    }
  };
  for (const ns of ["common", "player"]) walk(JSON.parse(readFileSync(join(dirname(info.config.configFile!), `locales/lo/${ns}.json`), "utf8")) as Tree, "");
  return keys;
}

/** Raw keys among what the page shows: its text, and the labels a screen reader or tooltip shows. */
async function rawKeysOn(page: Page, keys: Set<string>): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const texts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll("[aria-label],[placeholder],[title],[alt]")) {
      for (const name of ["aria-label", "placeholder", "title", "alt"]) texts.push(el.getAttribute(name) ?? "");
    }
    return texts.join("\n");
  });
  return [...new Set(shown.match(/[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+/g) ?? [])].filter((token) => keys.has(token));
}

const LANGS = [
  ["lo", "lo"],
  ["cn", "zh-CN"],
  ["vn", "vi"],
] as const;

test.describe("translations per page", () => {
  test.describe.configure({ timeout: 300_000 });

  test("every player page shows no raw key and hydrates cleanly, in lo, cn and vn", async ({ page, clientIp }, info) => {
    test.skip(!isPhone(info), "the phone projects (JavaScript on and off) cover it; the strings do not depend on the viewport");
    const keys = allKeys(info);
    const player = newPlayer();
    await registerByApi(page.request, player, clientIp);
    await loginByApi(page, player, clientIp);
    const found: string[] = [];
    for (const [lng, htmlLang] of LANGS) {
      await page.goto("/player/sessions");
      if (lng !== "lo") await switchLanguage(page, htmlLang);
      for (const path of playerPages(info)) {
        await page.goto(path);
        await waitForHydration(page);
        await expect(page.locator("html")).toHaveAttribute("lang", htmlLang);
        for (const key of await rawKeysOn(page, keys)) found.push(`${lng} ${path}: ${key}`);
        if (hasJs(info)) {
          // the page inlines its own groups, not whole namespaces
          const groups = await page.evaluate(() => JSON.parse(document.getElementById("i18n-resources")?.textContent ?? "{}").groups);
          expect(Array.isArray(groups) && groups.length > 0, `${path} inlines key groups`).toBe(true);
        }
      }
    }
    expect(found).toEqual([]);
  });

  test("client navigation between player pages renders each page translated", async ({ page, clientIp }, info) => {
    test.skip(!isPhone(info) || !hasJs(info), "client navigation needs JavaScript");
    const keys = allKeys(info);
    const player = newPlayer();
    await registerByApi(page.request, player, clientIp);
    await loginByApi(page, player, clientIp);
    const keyRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/locales/")) keyRequests.push(new URL(request.url()).pathname + new URL(request.url()).search);
    });
    const found: string[] = [];
    for (const [lng, htmlLang] of [LANGS[0], LANGS[2]]) {
      await page.goto("/player/sessions");
      if (lng !== "lo") await switchLanguage(page, htmlLang);
      await waitForHydration(page);
      // a document load would lose this mark
      await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      // a real link first (the bottom bar's deposit), then the router as a link would use it
      await page.getByTestId("bottom-bar").getByRole("link").first().click();
      await expect(page).toHaveURL(/\/player\/deposit/);
      await expect(page.getByTestId("deposit-form").or(page.getByTestId("bank-required"))).toBeVisible();
      for (const key of await rawKeysOn(page, keys)) found.push(`${lng} /player/deposit (link): ${key}`);
      for (const path of [...playerPages(info).filter((p) => p !== "/player/sessions"), "/player/sessions"]) {
        await page.evaluate((to) => (window as unknown as { __reactRouterDataRouter: { navigate: (to: string) => Promise<void> } }).__reactRouterDataRouter.navigate(to), path);
        await expect(page).toHaveURL(new RegExp(`${path.replace(/[/?.]/g, "\\$&")}$`));
        await expect
          .poll(() => page.evaluate(() => (window as unknown as { __reactRouterDataRouter: { state: { navigation: { state: string } } } }).__reactRouterDataRouter.state.navigation.state))
          .toBe("idle");
        await expect(page.locator("main#main")).toBeVisible();
        for (const key of await rawKeysOn(page, keys)) found.push(`${lng} ${path}: ${key}`);
      }
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), "no document load").toBe(true);
    }
    expect(found).toEqual([]);
    // the groups came in small answers (keys.json), never as whole namespaces
    expect(keyRequests.length).toBeGreaterThan(0);
    expect(keyRequests.every((url) => url.includes("/keys.json?")), keyRequests.join("\n")).toBe(true);
  });
});
