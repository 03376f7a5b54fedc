import { accountTest as test, expect, loginByApi, newPlayer, registerByApi, waitForHydration } from "./fixtures";
import { adminPages, playerPages } from "./pages";
import { isoDatesShown } from "./polish";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * Every public, player and back-office screen, in all four projects (phone and desktop,
 * JavaScript on and off): it answers 200 and renders its main region; player screens fit the
 * viewport's width; no screen shows a date in the ISO form. The long flows run in two projects only (playwright.config.ts, decisions
 * 026 and 039); this spec is what keeps "every screen in all four" true.
 */
test.describe("screens", () => {
  test.describe.configure({ timeout: 180_000 });

  test("every public and player screen renders and fits the viewport", async ({ page, clientIp }, info) => {
    const failures: string[] = [];
    const visit = async (path: string) => {
      const response = await page.goto(path);
      await waitForHydration(page);
      if (response?.status() !== 200) failures.push(`${path}: status ${response?.status()}`);
      if (new URL(page.url()).pathname !== path.split("?")[0]) failures.push(`${path}: ended at ${page.url()}`);
      if (!(await page.locator("main#main").isVisible())) failures.push(`${path}: no main region`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 1) failures.push(`${path}: ${overflow}px wider than the viewport`);
      // one date format, DD/MM/YYYY HH:mm:ss (decision 083)
      for (const date of await page.evaluate(isoDatesShown)) failures.push(`${path}: an ISO date "${date}"`);
    };
    for (const path of ["/", "/login", "/register"]) await visit(path);
    const player = newPlayer();
    await registerByApi(page.request, player, clientIp);
    await loginByApi(page, player, clientIp);
    for (const path of ["/", ...playerPages(info)]) await visit(path);
    expect(failures).toEqual([]);
  });

  test("every back-office screen renders for the owner", async ({ page }, info) => {
    const failures: string[] = [];
    await staffLogin(page, DEMO_STAFF.boss);
    for (const path of adminPages(info)) {
      const response = await page.goto(path);
      await waitForHydration(page);
      if (response?.status() !== 200) failures.push(`${path}: status ${response?.status()}`);
      if (new URL(page.url()).pathname !== path) failures.push(`${path}: ended at ${page.url()}`);
      if (!(await page.locator("main#admin-main").isVisible())) failures.push(`${path}: no main region`);
      if (!(await page.locator("main#admin-main h1").first().isVisible())) failures.push(`${path}: no heading`);
      for (const date of await page.evaluate(isoDatesShown)) failures.push(`${path}: an ISO date "${date}"`);
    }
    expect(failures).toEqual([]);
  });
});
