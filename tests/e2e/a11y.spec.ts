import { accountTest as test, expect, hasJs, PAGE_READY, seriousAxeViolations } from "./fixtures";
import { addBankAccount, loggedInPlayerByApi } from "./player";

/** Every player screen, axe-checked (serious and critical violations fail). */
const PLAYER_PAGES = [
  "/", // the landing page as a logged-in player sees it (deposit call to action, player links)
  "/player/deposit",
  "/player/deposit/history",
  "/player/withdraw",
  "/player/withdraw/history",
  "/player/bank",
  "/player/promotion",
  "/player/promotion/deposit-60k-bonus-50",
  "/player/promotion/history",
  "/player/game/askmebet?tab=Slot",
  "/player/password",
  "/player/sessions",
];

test.describe("accessibility", () => {
  test.describe.configure({ timeout: 180_000 }); // a dozen pages, each axe-checked, on a shared 2-core machine

  test("player screens have no serious or critical axe violations", async ({ page, baseURL }, info) => {
    test.skip(!hasJs(info), "axe runs as a script in the page; the markup is the same with JavaScript off");
    await loggedInPlayerByApi(page, baseURL!);
    await addBankAccount(page);
    for (const path of [...PLAYER_PAGES, "/login", "/register"]) {
      if (path === "/login") await page.context().clearCookies();
      await page.goto(path);
      await page.locator(PAGE_READY).waitFor({ state: "attached" });
      expect(await seriousAxeViolations(page, path)).toEqual([]);
    }
  });

  test("the change-password dialog of a lite page, open with its form and with an error, has no serious or critical axe violations (decision 052)", async ({
    page,
    baseURL,
    expectHttpError,
  }, info) => {
    test.skip(!hasJs(info), "the dialog is the lite script's; without JavaScript the page is checked above");
    expectHttpError(400, /^\/player\/password$/);
    await loggedInPlayerByApi(page, baseURL!, "/player/deposit");
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    await page.getByTestId("player-menu").locator("summary").click();
    await page.getByTestId("change-password-link").click();
    const dialog = page.getByTestId("password-dialog");
    await expect(dialog.getByTestId("password-form")).toBeVisible();
    const check = async (when: string) => {
      expect(await seriousAxeViolations(page, when)).toEqual([]);
    };
    await check("open");
    // the server's field errors, drawn in the dialog
    await dialog.getByTestId("password-form").locator('button[type="submit"]').click();
    await expect(dialog.locator('[aria-invalid="true"]').first()).toBeVisible();
    await check("with errors");
    // the focus ring shows on the dialog's controls (keyboard)
    await page.keyboard.press("Shift+Tab");
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe("none");
  });
});
