import { accountTest as test, expect } from "./fixtures";
import { DEMO_STAFF, staffLogin } from "./staff";

test.describe("back office", () => {
  test("staff log in with password and TOTP, see the navigation, log out", async ({ page, expectHttpError }) => {
    expectHttpError(401, /^\/admin\/login\/totp/);
    await staffLogin(page, DEMO_STAFF.boss);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByTestId("admin-nav")).toBeVisible();
    await expect(page.getByTestId("admin-nav").locator('a[data-section="staff"]')).toBeVisible();
    await page.getByTestId("admin-logout").click();
    await expect(page).toHaveURL(/\/admin\/login$/);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/login$/);
  });
});
