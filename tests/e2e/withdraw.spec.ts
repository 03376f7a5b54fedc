import type { Page } from "@playwright/test";
import { accountTest as test, expect, hasJs } from "./fixtures";
import { expectLazyClientValidation } from "./lazy-validation";
import { addBankAccount, depositCredit, loggedInPlayerByApi } from "./player";
import { createOperatorToken, DEMO_STAFF, revokeOperatorToken, staffLogin } from "./staff";

async function reviewWithdrawal(page: Page, amount: string) {
  const form = page.getByTestId("withdraw-form");
  await form.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
  await form.getByLabel("ຈຳນວນເຄຣດິດທີ່ຖອນ").fill(amount);
  await form.getByRole("button", { name: "ຕໍ່ໄປ" }).click();
  await expect(page.getByTestId("withdraw-confirm")).toBeVisible();
}

test.describe("withdraw to the player's bank", () => {
  test.describe.configure({ timeout: 90_000 });

  test("with JavaScript the amount is validated in the browser, with the schema fetched on the first touch", async ({ page, baseURL }, info) => {
    test.skip(!hasJs(info), "client-side validation is the JavaScript enhancement; without it the action answers");
    await loggedInPlayerByApi(page, baseURL!);
    await addBankAccount(page);
    const form = page.getByTestId("withdraw-form");
    const amount = form.getByLabel("ຈຳນວນເຄຣດິດທີ່ຖອນ");
    const message = "ກະລຸນາປ້ອນຈຳນວນເຄຣດິດ ຫຼື ເລືອກຖອນທັງໝົດ";
    const posts = await expectLazyClientValidation(
      page,
      "/player/withdraw",
      async () => {
        await amount.fill("ten");
        await amount.blur();
      },
      () => expect(form).toContainText(message),
    );
    await amount.fill("100");
    await expect(form).not.toContainText(message);
    await form.getByRole("button", { name: "ຕໍ່ໄປ" }).click();
    await expect(form).toContainText("ກະລຸນາເລືອກຄ່າຍເກມ");
    expect(posts, "the submit was stopped in the browser").toEqual([]);
  });

  test("deposit, then withdraw part: confirm summary, automatic payout, SUCCESS in history", async ({ page, baseURL }) => {
    await loggedInPlayerByApi(page, baseURL!);
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

  test("above the automatic threshold it waits for staff (OPEN); rejected through the operator API with the agency's token, the credit is back; a revoked token is refused", async ({
    page,
    baseURL,
  }) => {
    await loggedInPlayerByApi(page, baseURL!);
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

    // the owner creates an operator API token in the back office (same browser: the staff
    // cookie is not the player's), and the operator's system rejects the withdrawal with it
    await page.goto("/player/withdraw/history");
    const code = await page.getByTestId("withdraw-history").locator("tbody tr").first().getAttribute("data-code");
    await staffLogin(page, DEMO_STAFF.boss, "/admin/api-tokens");
    const name = `payroll-${test.info().project.name}-${Date.now()}`;
    const token = await createOperatorToken(page, name);
    const reject = () =>
      page.request.post(`/api/staff/withdrawals/${code}/reject`, { headers: { Authorization: `Bearer ${token}` }, data: { reason: "KYC_MISMATCH" } });
    const res = await reject();
    expect(res.status()).toBe(200);
    await revokeOperatorToken(page, name);
    expect((await reject()).status()).toBe(401);
    await expect(async () => {
      await page.goto("/player/withdraw/history");
      const rejected = page.locator(`tr[data-code="${code}"]`);
      const badge = rejected.locator('[data-status="REJECTED"]');
      await expect(badge).toHaveText("ຍົກເລີກ", { timeout: 1000 }); // REJECTED is shown as cancelled (docs/product.md §4)
      await expect(rejected.getByTestId("returned")).toHaveText("฿5.500,00");
    }).toPass({ timeout: 30_000 });
    await page.goto("/player/withdraw");
    await expect(page.getByTestId("credit-askmebet")).toHaveText("฿6.000,00");
  });

  test("credit is not enough: a clear message, nothing taken", async ({ page, baseURL, expectHttpError }) => {
    expectHttpError(400, /^\/player\/withdraw/);
    await loggedInPlayerByApi(page, baseURL!);
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
