import { accountTest as test, expect, hasJs, isPhone, PAGE_READY } from "./fixtures";
import { loggedInPlayer } from "./player";

/**
 * The player pages without a money form are "lite" pages (decision 034): server-rendered
 * HTML, no React, one inline script whose parts give back what the React layout did with
 * JavaScript: the disclosures close on Escape, on a click outside and when a link is chosen;
 * the pending spinner shows after 1 s of a slow post; the time played counts on each minute.
 * Without JavaScript the same pages work as before (screens.spec, the flows' nojs projects).
 */
const LITE_PAGES = [
  "/player/deposit/history",
  "/player/withdraw/history",
  "/player/promotion",
  "/player/promotion/history",
  "/player/promotion/deposit-60k-bonus-50",
  "/player/game/askmebet",
  "/player/sessions",
  "/player/cashback",
  "/player/referral",
  "/player/limits",
];

test.describe("lite player pages", () => {
  test.describe.configure({ timeout: 120_000 });

  test("ship no React: no script file, no modulepreload, one inline script; readable without JavaScript", async ({ page, baseURL }, info) => {
    test.skip(!isPhone(info), "the markup does not depend on the viewport");
    await loggedInPlayer(page, baseURL!, "/player/sessions");
    for (const path of LITE_PAGES) {
      const scripts: string[] = [];
      const onRequest = (r: { resourceType: () => string; url: () => string }) => void (r.resourceType() === "script" && scripts.push(r.url()));
      page.on("request", onRequest);
      await page.goto(path);
      if (hasJs(info)) await page.locator(PAGE_READY).waitFor({ state: "attached" });
      page.off("request", onRequest);
      await expect(page.locator("html"), path).toHaveAttribute("data-scripts", "lite");
      expect(scripts, path).toEqual([]);
      await expect(page.locator('link[rel="modulepreload"], script[src]'), path).toHaveCount(0);
      // the head's html.js marker (decision 045) and the lite script
      await expect(page.locator("head > script[nonce]:not([type])"), path).toHaveCount(1);
      await expect(page.locator("body > script[nonce]:not([type])"), path).toHaveCount(1);
      await expect(page.locator("main#main h1").first(), path).toBeVisible();
    }
  });

  test("menus close on Escape, on a click outside and when a link is chosen", async ({ page, baseURL }, info) => {
    test.skip(!hasJs(info), "closing a <details> other than by its summary is a JavaScript enhancement");
    await loggedInPlayer(page, baseURL!, "/player/sessions");
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    await page.evaluate(() => ((window as unknown as { __stayed: boolean }).__stayed = true));

    const menu = page.getByTestId("player-menu");
    const summary = menu.locator("summary");
    await summary.click();
    await expect(menu).toHaveAttribute("open", "");
    await page.keyboard.press("Escape");
    await expect(menu).not.toHaveAttribute("open");
    await expect(summary).toBeFocused();

    await summary.click();
    await expect(menu).toHaveAttribute("open", "");
    // (the open panel covers the heading on a phone: a point at the left edge of the page)
    await page.mouse.click(3, 400);
    await expect(menu).not.toHaveAttribute("open");

    // the drawer's Close link reloads the page without JavaScript; here it just closes it
    const drawer = page.getByTestId("drawer");
    await drawer.locator("summary").click();
    await expect(drawer.locator(".drawer-panel")).toBeVisible();
    await page.getByTestId("drawer-close").click();
    await expect(drawer.locator(".drawer-panel")).toBeHidden();
    expect(await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed)).toBe(true);

    // the change-password entry is still the link to the page (with JavaScript the lite
    // script opens it as a dialog instead: accounts.spec.ts, decision 052)
    await summary.click();
    await expect(page.getByTestId("change-password-link")).toHaveAttribute("href", "/player/password");
    await page.getByTestId("player-menu").getByRole("link", { name: /./ }).nth(1).click();
    await expect(page).toHaveURL(/\/player\/sessions$/);
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    await expect(page.getByTestId("player-menu")).not.toHaveAttribute("open");
  });

  test("a slow post shows the pending spinner after a second, not before", async ({ page, baseURL }, info) => {
    test.skip(!hasJs(info), "the spinner is a JavaScript enhancement; without it the browser shows its own loading");
    await loggedInPlayer(page, baseURL!, "/player/promotion");
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    const pending = page.getByTestId("pending");
    await expect(pending).toBeHidden();
    // the post's answer is held 2.5 s; the page notes (in sessionStorage, which survives the
    // next document) when the spinner appeared: a locator would wait for the navigation
    await page.route("**/set-language", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await route.continue();
    });
    const switcher = page.getByTestId("language-switcher");
    await switcher.locator("summary").click();
    await switcher.locator('button[lang="vi"]').evaluate((button) => {
      const box = document.querySelector<HTMLElement>('[data-testid="pending"]')!;
      const start = performance.now();
      new MutationObserver(() => {
        if (!box.hidden && !sessionStorage.getItem("pendingAfter")) sessionStorage.setItem("pendingAfter", String(performance.now() - start));
      }).observe(box, { attributes: true });
      setTimeout(() => (button as HTMLButtonElement).click());
    });
    await expect(page.locator("html")).toHaveAttribute("lang", "vi", { timeout: 15_000 });
    const shownAfter = Number(await page.evaluate(() => sessionStorage.getItem("pendingAfter")));
    expect(shownAfter).toBeGreaterThanOrEqual(1000);
    expect(shownAfter).toBeLessThan(2500);
    // the next document starts without it
    await expect(page.getByTestId("pending")).toBeHidden();
  });

  test("the time played counts on each minute", async ({ page, baseURL }, info) => {
    test.skip(!hasJs(info) || !isPhone(info), "a JavaScript enhancement; the markup does not depend on the viewport");
    await page.clock.install();
    await loggedInPlayer(page, baseURL!, "/player/sessions");
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    const line = page.getByTestId("time-played");
    await expect(line).toContainText("0 ຊົ່ວໂມງ 00 ນາທີ");
    await page.clock.runFor(61_000);
    await expect(line).toContainText("0 ຊົ່ວໂມງ 01 ນາທີ");
  });
  test("the daily fingerprint waits for the page's first seconds, then is collected (decision 036)", async ({ page, baseURL }, info) => {
    test.skip(!hasJs(info) || !isPhone(info), "a JavaScript enhancement; the script does not depend on the viewport");
    // the sync's look at the stored copy comes right after collecting: counted per document
    await page.addInitScript(() => {
      const getItem = Storage.prototype.getItem;
      Storage.prototype.getItem = function (this: Storage, name: string) {
        if (name.startsWith("fingerprint:"))
          (window as unknown as { fpChecks: number }).fpChecks = ((window as unknown as { fpChecks?: number }).fpChecks ?? 0) + 1;
        return getItem.call(this, name);
      };
    });
    await page.clock.install();
    await loggedInPlayer(page, baseURL!, "/player/sessions");
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    await page.waitForFunction(() => document.readyState === "complete");
    const checks = () => page.evaluate(() => (window as unknown as { fpChecks?: number }).fpChecks ?? 0);
    // idle the whole time, yet nothing collected in the first seconds (a WebGL context is a long task)
    await page.clock.runFor(4_000);
    expect(await checks(), "collected within 4 s of load").toBe(0);
    await page.clock.runFor(4_000);
    await expect.poll(checks).toBeGreaterThanOrEqual(1);
  });
});

test.describe("lite validation and a pressed button", () => {
  test.describe.configure({ timeout: 120_000 });
  // The service worker answers /assets/* from its cache, out of page.route's sight: blocked
  // here, so the validator module can be held back.
  test.use({ serviceWorkers: "block" });

  test("a message that goes while a button is pressed waits for the click: the submit is not lost (validator arriving mid-press)", async ({
    page,
    baseURL,
    expectHttpError,
  }, info) => {
    test.skip(!hasJs(info), "client validation is a JavaScript enhancement");
    expectHttpError(400, /^\/player\/limits/);
    await loggedInPlayer(page, baseURL!, "/player/limits");
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    // the server answers the missing confirmation
    await page.getByTestId("cooling_off-form").evaluate((form) => (form as HTMLFormElement).requestSubmit());
    const errors = page.getByTestId("cooling_off-form").locator(".field-errors");
    await expect(errors).toContainText("ກະລຸນາຢືນຢັນ");
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    // the validator module is held back until the button is pressed
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = () => {};
    const requested = new Promise<void>((resolve) => (asked = resolve));
    await page.route(/\/assets\/form-validators-[^/]+\.js$/, async (route) => {
      asked();
      await held;
      await route.continue();
    });
    await page.getByTestId("cooling_off-form").getByLabel("ຂ້ອຍເຂົ້າໃຈວ່າບໍ່ສາມາດຍົກເລີກໄດ້ກ່ອນໝົດເວລາ").check();
    await requested;
    await expect(errors).toHaveCount(1); // nothing has validated yet
    // pressed near its bottom edge: a message removed above it would move the button away
    const box = (await page.getByTestId("cooling_off-submit").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height - 2);
    await page.mouse.down();
    const arrived = page.waitForResponse(/\/assets\/form-validators-/);
    release();
    await arrived;
    // the module has run (a second import of it resolves after the page's own, whose
    // continuation would redraw)
    await page.getByTestId("cooling_off-form").evaluate((form) => import(new URL((form as HTMLElement).dataset.validator!, location.href).href).then(() => {}));
    await expect(errors, "nothing moves under a pressed button").toHaveCount(1);
    await page.mouse.up();
    await expect(page.getByTestId("toast")).toContainText("ເລີ່ມພັກການຫຼິ້ນແລ້ວ ຮອດ");
  });
});
