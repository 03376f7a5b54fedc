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
 * hydration mismatch (the fixtures fail a test on any console error), and navigations between
 * the player pages (JavaScript on) show every page translated: a client navigation between
 * pages that hydrate, a document load into a lite page (decision 034; its `clientLoader`).
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

  test("navigation between player pages renders each page translated: client navigation between pages that hydrate, a document load into a lite page", async ({
    page,
    clientIp,
  }, info) => {
    test.skip(!isPhone(info) || !hasJs(info), "client navigation needs JavaScript");
    const keys = allKeys(info);
    const player = newPlayer();
    await registerByApi(page.request, player, clientIp);
    await loginByApi(page, player, clientIp);
    const keyRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/locales/")) keyRequests.push(new URL(request.url()).pathname + new URL(request.url()).search);
    });
    type Router = { navigate: (to: string) => Promise<void>; state: { navigation: { state: string } } };
    const mode = () => page.locator("html").getAttribute("data-scripts");
    const found: string[] = [];
    const seen = { client: 0, document: 0 };
    for (const [lng, htmlLang] of [LANGS[0], LANGS[2]]) {
      await page.goto("/player/sessions");
      if (lng !== "lo") await switchLanguage(page, htmlLang);
      await waitForHydration(page);
      // a real link first (the bottom bar's deposit)
      await page.getByTestId("bottom-bar").getByRole("link").first().click();
      await expect(page).toHaveURL(/\/player\/deposit/);
      await expect(page.getByTestId("deposit-form").or(page.getByTestId("bank-required"))).toBeVisible();
      await waitForHydration(page);
      for (const key of await rawKeysOn(page, keys)) found.push(`${lng} /player/deposit (link): ${key}`);
      for (const path of [...playerPages(info).filter((p) => p !== "/player/sessions"), "/player/sessions"]) {
        const from = await mode();
        // a document load would lose this mark
        await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
        // from a page that hydrates: the router, as a link would use it; from a lite page a link is a document load
        if (from === "app")
          await page.evaluate((to) => void (window as unknown as { __reactRouterDataRouter: Router }).__reactRouterDataRouter.navigate(to), path);
        else await page.goto(path);
        await expect(page).toHaveURL(new RegExp(`${path.replace(/[/?.]/g, "\\$&")}$`));
        await waitForHydration(page);
        const to = await mode();
        if (from === "app" && to === "app") {
          await expect
            .poll(() => page.evaluate(() => (window as unknown as { __reactRouterDataRouter: Router }).__reactRouterDataRouter.state.navigation.state))
            .toBe("idle");
          expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), `${path}: no document load`).toBe(true);
          seen.client++;
        } else {
          // a lite page never renders with React: reached from a page that hydrates, its clientLoader loads it as a document
          expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), `${path}: a document load`).toBeUndefined();
          seen.document++;
        }
        await expect(page.locator("main#main")).toBeVisible();
        for (const key of await rawKeysOn(page, keys)) found.push(`${lng} ${path}: ${key}`);
      }
    }
    expect(found).toEqual([]);
    // every navigation was checked (since decision 034 every player page is lite: document loads)
    expect(seen.client + seen.document).toBeGreaterThan(0);
    // a page that hydrates fetched the groups it lacked in small answers (keys.json), never whole namespaces
    expect(
      keyRequests.every((url) => url.includes("/keys.json?")),
      keyRequests.join("\n"),
    ).toBe(true);
    if (seen.client > 0) expect(keyRequests.length).toBeGreaterThan(0);
  });
});
