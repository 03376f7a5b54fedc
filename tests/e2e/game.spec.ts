import { accountTest as test, expect } from "./fixtures";
import { addBankAccount, depositCredit, loggedInPlayerByApi } from "./player";

test.describe("game lobby and launch", () => {
  test.describe.configure({ timeout: 90_000 });

  test("without credit: 'cannot open the game, please deposit'; with credit the game opens", async ({ page, baseURL, expectHttpError }) => {
    expectHttpError(409, /^\/player\/game\//); // the refused launch without JavaScript
    await loggedInPlayerByApi(page, baseURL!, "/player/bank");
    await page.goto("/player/game/askmebet?tab=Slot");
    await expect(page.getByTestId("games")).toContainText("Lucky Reels");
    await page.getByRole("searchbox").fill("dragon");
    await page.getByRole("button", { name: "ຄົ້ນຫາ" }).click();
    await expect(page.getByTestId("games")).toContainText("Golden Dragon");
    await expect(page.getByTestId("games")).not.toContainText("Lucky Reels");
    await page.getByTestId("games").getByRole("button", { name: "ຫຼິ້ນ" }).first().click();
    await expect(page.getByTestId("game-error")).toContainText("ບໍ່ສາມາດເປີດເກມໄດ້, ກະລຸນາຝາກເງິນ.");
    await expect(page.getByTestId("game-error").getByRole("link")).toHaveAttribute("href", "/player/deposit");

    await addBankAccount(page);
    await depositCredit(page, "60000", "฿100,00");
    await page.goto("/player/game/askmebet?tab=Slot");
    await page.getByTestId("games").getByRole("button", { name: "ຫຼິ້ນ" }).first().click();
    await expect(page).toHaveURL(/\/sandbox\/provider\/play\/askmebet\?token=/);
    await expect(page.locator("body")).toContainText("100.00");
    // the game page's way back: the lobby it was opened from, on the game's tab
    await page.getByRole("link", { name: "ກັບໄປໜ້າລວມເກມ" }).click();
    await expect(page).toHaveURL(/\/player\/game\/askmebet\?tab=Slot$/);
  });
});
