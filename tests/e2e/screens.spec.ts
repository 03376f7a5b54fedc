import { accountTest as test, expect, loginByApi, newPlayer, registerByApi, waitForHydration } from "./fixtures";
import { playerPages } from "./pages";

/**
 * Every public and player screen, in all four projects (phone and desktop, JavaScript on and
 * off): it answers 200, renders its main region and fits the viewport's width. The long
 * flows run in two projects only (playwright.config.ts, decision 026-e2e-matrix.md); this
 * spec is what keeps "every screen in all four" true.
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
    };
    for (const path of ["/", "/login", "/register"]) await visit(path);
    const player = newPlayer();
    await registerByApi(page.request, player, clientIp);
    await loginByApi(page, player, clientIp);
    for (const path of ["/", ...playerPages(info)]) await visit(path);
    expect(failures).toEqual([]);
  });
});
