import type { Page } from "@playwright/test";
import { accountTest as test, expect } from "./fixtures";
import { addBankAccount, loggedInPlayerByApi, payShownQr } from "./player";

/** Opens a promotion from the list and claims it for a provider (two steps: choose, confirm). */
async function claimPromotion(page: Page, title: string, provider: string) {
  await page.goto("/player/promotion");
  await page.getByRole("link", { name: `ລາຍລະອຽດ: ${title}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await page.getByTestId("claim-form").getByLabel("ຄ່າຍເກມ").selectOption(provider);
  await page.getByRole("button", { name: "ຮັບໂປຣໂມຊັນ" }).click();
  await expect(page.getByTestId("claim-confirm")).toBeVisible();
  await page.getByRole("button", { name: "ແມ່ນ, ຮັບເລີຍ" }).click();
  await expect(page).toHaveURL(/\/player\/deposit$/, { timeout: 15_000 });
  await expect(page.getByTestId("toast")).toContainText("ຮັບໂປຣໂມຊັນແລ້ວ");
}

async function switchLanguage(page: Page, lang: "zh-CN" | "vi" | "lo") {
  await page.getByTestId("language-switcher").locator("summary").click();
  await page.getByTestId("language-switcher").locator(`button[lang="${lang}"]`).click();
  await expect(page.locator("html")).toHaveAttribute("lang", lang);
}

test.describe("promotions", () => {
  test.describe.configure({ timeout: 120_000 });

  test("claim -> deposit the set amount -> bonus at the provider -> play -> withdraw with the bonus deducted -> history", async ({ page, baseURL }) => {
    await loggedInPlayerByApi(page, baseURL!);
    await addBankAccount(page);
    await claimPromotion(page, "ຝາກ 60.000 ກີບ ຮັບ 50 ເຄຣດິດ", "askmebet");

    // the deposit page carries the promotion: provider and set amount filled in
    await expect(page.getByTestId("deposit-promotion")).toContainText("₭60.000");
    const form = page.getByTestId("deposit-form");
    await expect(form.getByLabel("ຄ່າຍເກມ")).toHaveValue("askmebet");
    await expect(form.getByLabel("ຈຳນວນເງິນ (ກີບ)")).toHaveValue("60000");
    await form.getByRole("button", { name: "ສ້າງ QR ເພື່ອຊຳລະ" }).click();
    await expect(page.getByTestId("deposit-bonus")).toHaveText("฿50,00");
    await payShownQr(page);
    // deposit 100 credit + bonus 50, each its own transfer
    await expect(async () => {
      await page.goto("/player/promotion");
      await expect(page.getByTestId("promotion-bonus")).toContainText("฿50,00", { timeout: 1000 });
      await expect(page.getByTestId("current-promotion").locator('[data-status="USED"]')).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await page.goto("/player/withdraw");
    await expect(page.getByTestId("credit-askmebet")).toHaveText("฿150,00");

    // play the sandbox game: one bet of 10 counts 10 of turnover
    await page.goto("/player/game/askmebet?tab=Slot");
    await page.getByTestId("games").getByRole("button", { name: "ຫຼິ້ນ" }).first().click();
    await expect(page).toHaveURL(/\/sandbox\/provider\/play\/askmebet\?token=/);
    await page.getByRole("button", { name: "ເດີມພັນ", exact: true }).click();
    await expect(page.locator("#turnover")).toHaveText("10.00");
    const balance = (await page.locator("#balance").innerText()).trim();

    // withdraw all: the turnover (10 of 450) is not met, so the bonus is taken back
    await page.goto("/player/withdraw");
    const withdraw = page.getByTestId("withdraw-form");
    await withdraw.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
    await withdraw.getByLabel("ຖອນເຄຣດິດທັງໝົດ").check();
    await withdraw.getByRole("button", { name: "ຕໍ່ໄປ" }).click();
    await expect(page.getByTestId("withdraw-confirm")).toBeVisible();
    await expect(page.getByTestId("deduction-PROMOTION_BONUS")).toHaveText("-฿50,00");
    await expect(page.getByTestId("withdraw-promotion")).toContainText("ຍອດຫຼິ້ນຍັງບໍ່ຄົບ");
    const net = Math.round(Number(balance) * 100) - 5000; // credit minus the bonus, in satang
    const received = Math.floor((net * 580) / 100);
    await expect(page.getByTestId("confirm-received")).toHaveText(`₭${received.toLocaleString("de-DE")}`);
    await page.getByTestId("withdraw-confirm-button").click();
    await expect(page).toHaveURL(/\/player\/withdraw\/history$/);
    await expect(async () => {
      await page.goto("/player/withdraw/history");
      await expect(page.getByTestId("withdraw-history").locator("tbody tr").first().locator('[data-status="SUCCESS"]')).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });

    // the promotion ended cancelled (bonus deducted), in the promotion history
    await page.goto("/player/promotion/history");
    const row = page.getByTestId("promotion-history").locator("tbody tr").first();
    await expect(row).toContainText("ຝາກ 60.000 ກີບ ຮັບ 50 ເຄຣດິດ");
    await expect(row.locator('[data-status="CANCELED"]')).toHaveText("ຍົກເລີກ");
    await expect(row).toContainText("ຫັກໂບນັດແລ້ວ");
    await expect(row.getByTestId("bonus")).toHaveText("฿50,00");
  });

  test("cancel a claim (asks first); the list and detail read in each language", async ({ page, baseURL }) => {
    await loggedInPlayerByApi(page, baseURL!);
    await page.goto("/player/promotion/daily-10");
    await expect(page.getByTestId("promotion-bank-required")).toContainText("ກະລຸນາເພີ່ມບັນຊີທະນາຄານກ່ອນຮັບໂປຣໂມຊັນ");
    await addBankAccount(page);
    await claimPromotion(page, "ໂບນັດລາຍວັນ 10%", "betflix");
    await page.goto("/player/promotion");
    const current = page.getByTestId("current-promotion");
    await expect(current.locator('[data-status="CLAIMED"]')).toBeVisible();
    await current.getByRole("button", { name: "ຍົກເລີກໂປຣໂມຊັນ" }).click();
    await expect(page.getByTestId("cancel-promotion-confirm")).toBeVisible();
    await page.getByRole("button", { name: "ແມ່ນ, ຍົກເລີກ" }).click();
    await expect(page.getByTestId("toast")).toContainText("ຍົກເລີກໂປຣໂມຊັນແລ້ວ");
    await expect(page.getByTestId("current-promotion")).toHaveCount(0);
    await page.goto("/player/promotion/history");
    await expect(page.getByTestId("promotion-history").locator('[data-status="CANCELED"]').first()).toBeVisible();

    await page.goto("/player/promotion");
    await expect(page.getByTestId("promotion-list")).toContainText("ໂບນັດຕ້ອນຮັບ 100%");
    await expect(page.getByTestId("promotion-list")).not.toContainText("ໂປຣປີໃໝ່ລາວ"); // inactive
    await switchLanguage(page, "zh-CN");
    await expect(page.getByTestId("promotion-list")).toContainText("新会员首存 100% 奖金");
    await switchLanguage(page, "vi");
    await expect(page.getByTestId("promotion-list")).toContainText("Thưởng chào mừng 100%");
    await page.goto("/player/promotion/songkran");
    await expect(page.getByTestId("promotion-inactive")).toHaveText("Khuyến mãi này không hoạt động");
    await switchLanguage(page, "lo");
  });
});
