import type { Page } from "@playwright/test";
import { accountTest as test, expect, hasJs, PAGE_READY } from "./fixtures";
import { d1 } from "./d1";
import { addBankAccount, E2E_PASSWORD, loggedInPlayerByApi } from "./player";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * Responsible gaming (decision 025) on the 4 projects (phone/desktop x
 * JavaScript on/off): a deposit limit refuses an amount over it and says what is left; a
 * raise waits 24 h and shows when; a cooling-off refuses deposits and game launches and
 * says until when, while the withdraw page still works; staff see it on the player's page.
 */
test.describe.configure({ timeout: 120_000 });

async function ready(page: Page) {
  if (hasJs(test.info())) await page.locator(PAGE_READY).waitFor();
}

/**
 * "0 h N min" of today's play for a session opened `ms` ago. Days are Vientiane days (UTC+7,
 * workers/core/responsible-gaming.ts `playedToday`): in the first minutes after Vientiane's
 * midnight (17:00 UTC) only the time since midnight counts, so a test run then must expect
 * less (CI failed so at 17:07 UTC: 10 min instead of 20). N or N + 1: a minute may pass.
 */
function playedTodayText(ms: number): RegExp {
  const DAY = 86_400_000;
  const sinceMidnight = (Date.now() + 7 * 3_600_000) % DAY;
  const minutes = Math.floor(Math.min(ms, sinceMidnight) / 60_000);
  // the page writes minutes with two digits ("01"): just after Vientiane's midnight fewer than 10 have passed
  return new RegExp(`0 ຊົ່ວໂມງ 0?(${minutes}|${minutes + 1}) ນາທີ`);
}

async function openLimits(page: Page) {
  await page.goto("/player/limits");
  await ready(page);
}

async function tryDeposit(page: Page, amount: string) {
  await page.goto("/player/deposit");
  await ready(page);
  const form = page.getByTestId("deposit-form");
  await form.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
  await form.getByLabel("ຈຳນວນເງິນ (ກີບ)").fill(amount);
  await form.getByRole("button", { name: "ສ້າງ QR ເພື່ອຊຳລະ" }).click();
}

test("a day limit refuses a deposit over it and says what is left; a raise waits 24 h", { tag: "@pair-a" }, async ({ page, baseURL, expectHttpError }) => {
  expectHttpError(400, /^\/player\/deposit/);
  await loggedInPlayerByApi(page, baseURL!);
  await addBankAccount(page);
  // the footer leads to the settings from any page
  await page.getByTestId("footer").getByRole("link", { name: "ການຫຼິ້ນຢ່າງມີຄວາມຮັບຜິດຊອບ" }).click();
  await expect(page).toHaveURL(/\/player\/limits$/);
  await ready(page);
  await expect(page.getByTestId("time-played")).toContainText("ເວລາຫຼິ້ນມື້ນີ້");

  const form = page.getByTestId("limits-form");
  await form.getByLabel("ຝາກສູງສຸດ ຕໍ່ມື້ (ກີບ)").fill("100.000");
  await form.getByRole("button", { name: "ບັນທຶກຂີດຈຳກັດ" }).click();
  await expect(page.getByTestId("toast")).toContainText("ບັນທຶກຂີດຈຳກັດແລ້ວ");
  await expect(page.getByTestId("deposit-limits").locator('[data-period="day"]')).toContainText("₭100.000");

  await tryDeposit(page, "150000");
  const error = page.getByTestId("deposit-form");
  await expect(error).toContainText("ເກີນຂີດຈຳກັດການຝາກຕໍ່ມື້ຂອງທ່ານ");
  await expect(error).toContainText("ຝາກໄດ້ອີກ ₭100.000");

  await openLimits(page);
  await page.getByTestId("limits-form").getByLabel("ຝາກສູງສຸດ ຕໍ່ມື້ (ກີບ)").fill("500000");
  await page.getByTestId("limits-form").getByRole("button", { name: "ບັນທຶກຂີດຈຳກັດ" }).click();
  await expect(page.getByTestId("toast")).toContainText("ຈະມີຜົນຫຼັງຈາກ 24 ຊົ່ວໂມງ");
  const day = page.getByTestId("deposit-limits").locator('[data-period="day"]');
  await expect(day).toContainText("₭100.000"); // still the lower one
  await expect(page.getByTestId("pending-day")).toContainText("ລໍຖ້າເພີ່ມເປັນ ₭500.000 ຕັ້ງແຕ່");
});

test("a cooling-off refuses deposits and game launches and says until when; withdrawing still works; staff see it", { tag: "@pair-b" }, async ({
  page,
  baseURL,
  expectHttpError,
}) => {
  expectHttpError(400, /^\/player\/(deposit|limits)/);
  expectHttpError(409, /^\/player\/game\//);
  const username = await loggedInPlayerByApi(page, baseURL!);
  await addBankAccount(page);
  await openLimits(page);
  const cooling = page.getByTestId("cooling_off-form");
  // the confirmation is required
  await cooling.getByRole("button", { name: "ເລີ່ມພັກການຫຼິ້ນ" }).click();
  await expect(cooling).toContainText("ກະລຸນາຢືນຢັນ");
  await page.getByTestId("cooling_off-form").getByLabel("ໄລຍະເວລາ").selectOption("3");
  await page.getByTestId("cooling_off-form").getByLabel("ຂ້ອຍເຂົ້າໃຈວ່າບໍ່ສາມາດຍົກເລີກໄດ້ກ່ອນໝົດເວລາ").check();
  await page.getByTestId("cooling_off-form").getByRole("button", { name: "ເລີ່ມພັກການຫຼິ້ນ" }).click();
  await expect(page.getByTestId("toast")).toContainText("ເລີ່ມພັກການຫຼິ້ນແລ້ວ ຮອດ");
  await expect(page.getByTestId("limits-break")).toContainText("ທ່ານຍັງເຂົ້າລະບົບ ແລະ ຖອນເງິນໄດ້ຕາມປົກກະຕິ");

  await tryDeposit(page, "60000");
  await expect(page.getByTestId("deposit-form")).toContainText(/ທ່ານກຳລັງພັກການຫຼິ້ນຮອດ \d{2}\/\d{2}\/\d{4}/);

  await page.goto("/player/game/askmebet?tab=Slot");
  await ready(page);
  await page.getByTestId("games").getByRole("button", { name: "ຫຼິ້ນ" }).first().click();
  await expect(page.getByTestId("game-error")).toContainText("ທ່ານກຳລັງພັກການຫຼິ້ນຮອດ");

  await page.goto("/player/withdraw");
  await expect(page.getByTestId("withdraw-form")).toBeVisible();

  await staffLogin(page, DEMO_STAFF.cashier);
  await page.goto("/admin/players");
  await ready(page);
  const search = page.getByTestId("player-search");
  await search.locator('input[name="q"]').fill(username);
  await search.locator('button[type="submit"]').click();
  await page.getByTestId("players-table").locator(`tr[data-username="${username}"]`).getByRole("link", { name: username }).click();
  await expect(page.getByTestId("player-break")).toHaveAttribute("data-kind", "cooling_off");
  await expect(page.getByTestId("player-limits")).toBeVisible();
  // nothing on the page lets staff end or shorten it
  await expect(page.getByTestId("player-limits").locator("form, button")).toHaveCount(0);
});

test("time played survives a logout: logged in again, the time of the ended session still counts", { tag: "@pair-a" }, async ({ page, baseURL }) => {
  const username = await loggedInPlayerByApi(page, baseURL!, "/player/limits");
  // 20 minutes of play: the current session opened 20 minutes ago (the e2e server's own D1)
  await d1(
    `UPDATE sessions SET created_at = created_at - 1200000 WHERE player_id = (SELECT id FROM players WHERE agency_id = 'demo' AND username = '${username}')`,
  );
  await openLimits(page);
  await expect(page.getByTestId("time-played")).toContainText(playedTodayText(20 * 60_000));
  const out = await page.request.post("/logout", { headers: { Origin: baseURL! }, form: {} });
  expect(out.ok()).toBe(true);
  await page.goto("/login?redirectTo=%2Fplayer%2Flimits");
  await page.getByLabel("ຊື່ຜູ້ໃຊ້").fill(username);
  await page.getByLabel("ລະຫັດຜ່ານ", { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "ເຂົ້າສູ່ລະບົບ" }).click();
  await expect(page).toHaveURL(/\/player\/limits$/);
  await ready(page);
  await expect(page.getByTestId("time-played")).toContainText(playedTodayText(20 * 60_000));
});
