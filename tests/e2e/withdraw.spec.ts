import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { accountTest as test, expect } from "./fixtures";
import { addBankAccount, depositCredit, loggedInPlayer } from "./player";

async function reviewWithdrawal(page: Page, amount: string) {
  const form = page.getByTestId("withdraw-form");
  await form.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
  await form.getByLabel("ຈຳນວນເຄຣດິດທີ່ຖອນ").fill(amount);
  await form.getByRole("button", { name: "ຕໍ່ໄປ" }).click();
  await expect(page.getByTestId("withdraw-confirm")).toBeVisible();
}

test.describe("withdraw to the player's bank", () => {
  test.describe.configure({ timeout: 90_000 });

  test("deposit, then withdraw part: confirm summary, automatic payout, SUCCESS in history", async ({ page, baseURL }) => {
    await loggedInPlayer(page, baseURL!);
    await addBankAccount(page);
    await depositCredit(page, "120000", "฿200,00");

    await reviewWithdrawal(page, "100");
    const confirm = page.getByTestId("withdraw-confirm");
    await expect(confirm).toContainText("ທະນາຄານການຄ້າຕ່າງປະເທດລາວ (BCEL)");
    await expect(confirm).toContainText("E2E Player");
    await expect(page.getByTestId("confirm-credit")).toHaveText("฿100,00");
    await expect(page.getByTestId("confirm-received")).toHaveText("₭58.000"); // 100 x 580
    await page.getByTestId("withdraw-confirm-button").click();
    await expect(page).toHaveURL(/\/player\/withdraw\/history$/);
    await expect(page.getByTestId("toast")).toContainText("฿100,00");

    await expect(async () => {
      await page.goto("/player/withdraw/history");
      const row = page.getByTestId("withdraw-history").locator("tbody tr").first();
      await expect(row.locator('[data-status="SUCCESS"]')).toBeVisible({ timeout: 1000 });
      await expect(row.getByTestId("received")).toHaveText("₭58.000");
    }).toPass({ timeout: 30_000 });
    await page.goto("/player/withdraw");
    await expect(page.getByTestId("credit-askmebet")).toHaveText("฿100,00");
  });

  test("above the automatic threshold it waits for staff (OPEN); rejected through the service, the credit is back", async ({ page, baseURL }) => {
    await loggedInPlayer(page, baseURL!);
    await addBankAccount(page);
    await depositCredit(page, "3600000", "฿6.000,00");
    await reviewWithdrawal(page, "5500");
    await expect(page.getByTestId("withdraw-confirm")).toContainText("ຈຳນວນນີ້ຕ້ອງໃຫ້ພະນັກງານກວດສອບກ່ອນໂອນ.");
    await page.getByTestId("withdraw-confirm-button").click();
    await expect(page).toHaveURL(/\/player\/withdraw\/history$/);
    const row = page.getByTestId("withdraw-history").locator("tbody tr").first();
    await expect(row.locator('[data-status="OPEN"]')).toBeVisible();
    await page.goto("/player/withdraw");
    await expect(page.getByTestId("credit-askmebet")).toHaveText("฿500,00");

    // staff reject it through the withdrawal service (the operator API; screens come later)
    await page.goto("/player/withdraw/history");
    const code = await page.getByTestId("withdraw-history").locator("tbody tr").first().getAttribute("data-code");
    const res = await page.request.post(`/api/staff/withdrawals/${code}/reject`, {
      headers: { Authorization: `Bearer ${staffToken()}` },
      data: { reason: "KYC_MISMATCH" },
    });
    expect(res.status()).toBe(200);
    await expect(async () => {
      await page.goto("/player/withdraw/history");
      const rejected = page.locator(`tr[data-code="${code}"]`);
      const badge = rejected.locator('[data-status="REJECTED"]');
      await expect(badge).toHaveText("ຍົກເລີກ", { timeout: 1000 }); // REJECTED is shown as cancelled (SPEC §4)
      await expect(rejected.getByTestId("returned")).toHaveText("฿5.500,00");
    }).toPass({ timeout: 30_000 });
    await page.goto("/player/withdraw");
    await expect(page.getByTestId("credit-askmebet")).toHaveText("฿6.000,00");
  });

  test("credit is not enough: a clear message, nothing taken", async ({ page, baseURL, expectHttpError }) => {
    expectHttpError(400, /^\/player\/withdraw/);
    await loggedInPlayer(page, baseURL!);
    await addBankAccount(page);
    await page.goto("/player/withdraw");
    await reviewWithdrawalExpectingError(page);
  });
});

async function reviewWithdrawalExpectingError(page: Page) {
  const form = page.getByTestId("withdraw-form");
  await form.getByLabel("ຄ່າຍເກມ").selectOption("betflix");
  await form.getByLabel("ຈຳນວນເຄຣດິດທີ່ຖອນ").fill("200");
  await form.getByRole("button", { name: "ຕໍ່ໄປ" }).click();
  await expect(page.getByTestId("withdraw-form")).toContainText("ເຄຣດິດບໍ່ພໍ");
}

/** The operator token the e2e server's .dev.vars holds (scripts/dev-vars.mjs writes it). */
function staffToken(): string {
  const token = /^STAFF_API_TOKEN=(.+)$/m.exec(readFileSync(".dev.vars", "utf8"))?.[1];
  if (!token) throw new Error("no STAFF_API_TOKEN in .dev.vars");
  return token.trim();
}
