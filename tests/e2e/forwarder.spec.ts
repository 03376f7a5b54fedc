import { accountTest as test, expect, hasJs, PAGE_READY } from "./fixtures";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * The notification forwarder page (decision 016): the owner creates a forwarder for an
 * own-account channel (URL and secret shown once), edits a reading pattern and tries it on a
 * pasted sample. Each Playwright project works in its own agency (scripts/seed-e2e.mjs); the
 * own-account channel is seeded there (inactive, so players of that agency never see it).
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
test.describe.configure({ timeout: 120_000 });

const CHANNEL = "OWN-FWD"; // scripts/seed-e2e.mjs

test("the owner creates a forwarder (shown once), edits a pattern and tries it on a sample", async ({ page, expectHttpError }) => {
  await staffLogin(page, DEMO_STAFF.boss, "/admin/forwarder");
  await expect(page).toHaveURL(/\/admin\/forwarder/);
  if (hasJs(test.info())) await page.locator(PAGE_READY).waitFor();

  const card = page.getByTestId("forwarder-channels").locator(`li[data-channel="${CHANNEL}"]`);
  await card.getByTestId("forwarder-create").click();
  const shown = page.getByTestId("forwarder-shown");
  await expect(shown).toBeVisible();
  await expect(page.getByTestId("forwarder-url")).toHaveValue(
    new RegExp(`^http://${test.info().project.name}\\.e2e\\.localhost:${port}/api/forwarder/fwd_[A-Za-z0-9_-]{40,}$`),
  );
  const secret = await page.getByTestId("forwarder-secret").inputValue();
  expect(secret.length).toBeGreaterThanOrEqual(30);

  // Shown once: the page loaded again lists the forwarder by its hint, never the secret.
  await page.goto("/admin/forwarder");
  await expect(page.getByTestId("forwarder-shown")).toHaveCount(0);
  await expect(card.getByTestId("forwarder-status")).toContainText("fwd_");
  expect(await page.content()).not.toContain(secret);

  // Edit the amount pattern and try it on a sample: nothing saved yet.
  if (hasJs(test.info())) await page.locator(PAGE_READY).waitFor();
  const form = page.getByTestId("forwarder-patterns");
  await form.locator('textarea[name="amount"]').fill("Amount:\\s?([0-9][0-9,]{0,15})");
  await form.locator('input[name="sampleFrom"]').fill("BCEL");
  await form.locator('textarea[name="sample"]').fill("BCEL One: Received Amount: 123,456 from SOMPHONE on 24/11/2026 13:05:12 Ref: FT99887766");
  await form.getByTestId("patterns-try").click();
  await expect(page.getByTestId("reading-amount")).toContainText("123.456");
  await expect(page.getByTestId("reading-time")).toContainText("24/11/2026 13:05:12");
  await expect(page.getByTestId("reading-transaction")).toHaveText("FT99887766");
  await expect(page.getByTestId("patterns-saved")).toHaveCount(0);

  // A pattern that could run away on hostile text is refused, with the field and row named.
  expectHttpError(400, /^\/admin\/forwarder/);
  await page.getByTestId("forwarder-patterns").locator('textarea[name="amount"]').fill("Amount:\\s?([0-9][0-9,]{0,15})\n(a+)+");
  await page.getByTestId("forwarder-patterns").getByTestId("patterns-try").click();
  await expect(page.getByTestId("patterns-problem")).toContainText("2");

  // Fixed and saved: the bank's patterns are stored now.
  await page.getByTestId("forwarder-patterns").locator('textarea[name="amount"]').fill("Amount:\\s?([0-9][0-9,]{0,15})");
  await page.getByTestId("forwarder-patterns").getByTestId("patterns-save").click();
  await expect(page.getByTestId("patterns-saved")).toBeVisible();
  await page.goto("/admin/forwarder?bank=BCEL");
  await expect(page.getByTestId("forwarder-patterns").locator('textarea[name="amount"]')).toHaveValue("Amount:\\s?([0-9][0-9,]{0,15})");
});
