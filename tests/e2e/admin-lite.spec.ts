import type { Page } from "@playwright/test";
import { accountTest as test, expect, isPhone, PAGE_READY, seriousAxeViolations } from "./fixtures";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * The back office is lite (decision 089): no React in a staff page's browser, and what the
 * pages did with JavaScript comes from the lite script's parts. JavaScript only (phone and
 * desktop, playwright.config.ts); without it the same pages post to their actions, which every
 * staff spec's JavaScript-off project runs.
 */
test.describe.configure({ timeout: 90_000 });

/** Posts the page sent (a form checked in the browser sends none). */
function postsOf(page: Page): string[] {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.resourceType() === "document") posts.push(new URL(request.url()).pathname);
  });
  return posts;
}

test("a staff page ships no script file and no React; its form is checked in the browser with the action's schema, before any post", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await staffLogin(page, DEMO_STAFF.boss, "/admin/staff/new");
  await page.locator(PAGE_READY).waitFor({ state: "attached" });
  await expect(page.locator("html")).toHaveAttribute("data-scripts", "lite");
  expect(await page.locator('script[type="module"], script[src]').count(), "no module script, no script file").toBe(0);
  expect(await page.evaluate(() => "__reactRouterContext" in window), "no React Router in the page").toBe(false);
  expect(scripts, "no script file loaded with the page").toEqual([]);

  const posts = postsOf(page);
  const form = page.getByTestId("staff-form");
  const username = form.locator('input[name="username"]');
  // Leaving the field shows the schema's message (CreateStaffSchema, admin:auth.validation.username), in Lao.
  await username.fill("A!");
  await username.blur();
  const error = page.locator("#admin-staff-new-username-error");
  await expect(error).toHaveText("ຊື່ຜູ້ໃຊ້: 3-32 ຕົວ, ຕົວອັກສອນອັງກິດພິມນ້ອຍ, ຕົວເລກ, - ແລະ _");
  await expect(username).toHaveAttribute("aria-invalid", "true");
  await expect(username).toHaveAttribute("aria-describedby", /admin-staff-new-username-error/);
  // the validator module came on the first touch (a chunk, after the page)
  expect(
    scripts.some((path) => /form-validators/.test(path)),
    "the validator module, on the first touch",
  ).toBe(true);
  // A submit with the error is stopped, focus on the field; typing a valid name clears it.
  await form.locator('button[type="submit"]').click();
  await expect(username).toBeFocused();
  expect(posts, "nothing posted while the form is invalid").toEqual([]);
  await username.fill("new_cashier_ok");
  await expect(error).toHaveCount(0);
  await expect(username).not.toHaveAttribute("aria-invalid", "true");
  expect(await seriousAxeViolations(page, "staff form")).toEqual([]);
});

test.describe("the brand page", () => {
  const port = Number(process.env.E2E_PORT ?? 4173);
  // the project's own agency (brand-admin.spec's): only read here, nothing is saved
  test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });

  test("each colour's text and picker follow each other; while the text is no colour the picker shows the stored one", async ({ page }) => {
    await staffLogin(page, DEMO_STAFF.boss, "/admin/settings/brand");
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    const field = page.getByTestId("brand-color-primary");
    const text = field.locator('input[type="text"]');
    const picker = field.locator('input[type="color"]');
    const stored = (await picker.getAttribute("data-color-picker"))!;
    expect(stored).toMatch(/^#[0-9a-f]{6}$/);
    await text.fill("#12AB34");
    await expect(picker).toHaveValue("#12ab34");
    await text.fill("#12");
    await expect(picker).toHaveValue(stored);
    await picker.fill("#abcdef");
    await expect(text).toHaveValue("#abcdef");
  });
});

test("a report chart's mark shows its figure in a tooltip: hover with a mouse, tap on a phone", async ({ page }, info) => {
  await staffLogin(page, DEMO_STAFF.boss, "/admin/reports");
  await page.locator(PAGE_READY).waitFor({ state: "attached" });
  // the last series' last point: drawn last, so on top of any equal value of another series
  const chart = page.getByTestId("chart-players");
  const mark = chart.locator("circle.chart-mark").last();
  const title = await mark.locator("title").textContent();
  expect(title).toBeTruthy();
  if (isPhone(info)) await mark.tap();
  else await mark.hover();
  const tip = chart.getByTestId("chart-tip");
  await expect(tip).toHaveText(title!);
  await expect(tip).toHaveAttribute("aria-hidden", "true");
  if (isPhone(info)) {
    // a touch has no hover: the tip stays until the chart is tapped beside the marks
    await chart.locator(".chart-legend").tap();
    await expect(tip).toHaveText(title!);
    await chart.locator(".chart-frame svg").tap({ position: { x: 2, y: 2 } });
  } else await page.mouse.move(0, 0);
  await expect(tip).toHaveCount(0);
});
