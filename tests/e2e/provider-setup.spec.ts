import { accountTest as test, expect, hasJs, PAGE_READY } from "./fixtures";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * The owner's provider setup page (decision 017), with JavaScript on and off: a real
 * adapter without its credentials is refused with the translated message and changes nothing;
 * the sandbox (what every other e2e spec plays on) saves. Each Playwright project works in
 * its own agency (scripts/seed-e2e.mjs), and only `alphabet` is touched.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
test.describe.configure({ timeout: 120_000 });

test("the owner sets a provider up: AMB without credentials is refused, the sandbox saves", async ({ page, expectHttpError }) => {
  expectHttpError(409, /\/admin\/settings\/providers/);
  await staffLogin(page, DEMO_STAFF.boss, "/admin/settings/providers");
  await expect(page).toHaveURL(/\/admin\/settings\/providers/);
  if (hasJs(test.info())) await page.locator(PAGE_READY).waitFor();

  let card = page.getByTestId("setup-alphabet");
  await card.getByLabel("ການເຊື່ອມຕໍ່", { exact: true }).selectOption("amb");
  await card.locator('input[name="baseUrl"]').fill("https://amb.example.test");
  await card.locator('input[name="productCode"]').fill("ALPHABET");
  await card.getByRole("button").click();
  card = page.getByTestId("setup-alphabet");
  await expect(card.locator(".field-errors").first()).toContainText("ປ້ອນຂໍ້ມູນເຂົ້າລະບົບອີກຄັ້ງ", { timeout: 15_000 });
  await expect(card.getByTestId("setup-alphabet-current")).not.toContainText("AMB Super API");

  await card.getByLabel("ການເຊື່ອມຕໍ່", { exact: true }).selectOption("sandbox");
  await card.locator('input[name="baseUrl"]').fill("");
  await card.locator('input[name="productCode"]').fill("");
  await card.getByRole("button").click();
  await expect(page.getByTestId("setup-alphabet-current")).toContainText("Sandbox", { timeout: 15_000 });
});

test("Betflix's member prefix (decision 048): the field and which Betflix value goes where; a malformed prefix is refused, translated, and nothing changes", async ({
  page,
  expectHttpError,
}) => {
  expectHttpError(409, /\/admin\/settings\/providers/);
  await staffLogin(page, DEMO_STAFF.boss, "/admin/settings/providers");
  await expect(page).toHaveURL(/\/admin\/settings\/providers/);
  if (hasJs(test.info())) await page.locator(PAGE_READY).waitFor();

  let card = page.getByTestId("setup-alphabet");
  await expect(card.getByText("Betflix: ຄ່າ x-api-cat")).toBeVisible();
  await expect(card.getByText("Betflix: ຄ່າ x-api-key")).toBeVisible();
  await card.getByLabel("ການເຊື່ອມຕໍ່", { exact: true }).selectOption("betflix");
  await card.locator('input[name="baseUrl"]').fill("https://bfx.example.test");
  await card.locator('input[name="lobbyUrl"]').fill("https://www.betflik.example.test");
  await card.getByLabel("ຄຳນຳໜ້າຊື່ສະມາຊິກ (Betflix, ບໍ່ບັງຄັບ)").fill("be-31");
  await card.getByRole("button").click();
  card = page.getByTestId("setup-alphabet");
  await expect(card.locator(".field-errors").first()).toContainText("ຄຳນຳໜ້າບໍ່ຖືກຕ້ອງ", { timeout: 15_000 });
  await expect(card.getByTestId("setup-alphabet-current")).not.toContainText("Betflix v4");
});
