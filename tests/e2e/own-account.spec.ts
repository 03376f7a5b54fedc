import AxeBuilder from "@axe-core/playwright";
import { accountTest as test, expect, hasJs, registerAndLoginByForms, waitForHydration } from "./fixtures";
import { addBankAccount } from "./player";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * Deposits into the agency's own bank account (issue 14, decision 016). Each Playwright
 * project works in its own agency with one own-account channel (scripts/seed-e2e-own-account.mjs):
 * `<project>.own.localhost`, cashiers `cashier-<project>-<n>`. The player sees the exact amount to
 * pay and a QR derived from the agency's static QR; the cashier marks it paid in the
 * open-deposits queue; the player's history shows SUCCESS.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.own.localhost:${port}`) });
test.describe.configure({ timeout: 150_000 });



test("own account: the exact pay amount and a derived QR -> the cashier marks it paid -> SUCCESS in the player's history", async ({ page, expectHttpError }, info) => {
  await registerAndLoginByForms(page, "o");
  await addBankAccount(page);
  await page.goto("/player/deposit");
  await waitForHydration(page);
  const form = page.getByTestId("deposit-form");
  await form.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
  await form.getByLabel("ຈຳນວນເງິນ (ກີບ)").fill("60000");
  await form.getByRole("button", { name: "ສ້າງ QR ເພື່ອຊຳລະ" }).click();
  await expect(page.getByTestId("qr-step")).toBeVisible({ timeout: 30_000 });
  const pay = page.getByTestId("pay-amount");
  await expect(pay).toContainText("ກະລຸນາຈ່າຍໃຫ້ຖືກຕ້ອງ");
  const payAmount = (await pay.getAttribute("data-amount"))!;
  expect(Number(payAmount)).toBeGreaterThan(60000);
  expect(Number(payAmount)).toBeLessThanOrEqual(60999);
  await expect(page.getByTestId("pay-exactly")).toHaveAttribute("data-qr-mode", "derived");
  await expect(page.getByTestId("qr").locator("svg")).toBeVisible();
  const payload = (await page.getByTestId("qr-payload").inputValue()).trim();
  const code = (await page.getByTestId("deposit-code").textContent())!.trim();
  // dynamic (01 = 12), the receiver of the agency's static QR, the exact pay amount, the order code
  expect(payload).toMatch(/^000201010212/);
  expect(payload).toContain("0314mch19B73F61B9E");
  expect(payload).toContain(`54${String(payAmount.length).padStart(2, "0")}${payAmount}`);
  expect(payload).toContain(code);

  expectHttpError(401, /^\/admin\/login\/totp/);
  await staffLogin(page, DEMO_STAFF.cashier, "/admin/deposits/open");
  await expect(page).toHaveURL(/\/admin\/deposits\/open/, { timeout: 30_000 });
  const row = page.locator(`tr[data-code="${code}"]`);
  await expect(row.getByTestId("pay-amount")).toBeVisible();
  if (hasJs(info)) {
    await waitForHydration(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  }
  // the bank id is required: an empty one is refused with a message (the browser's own check aside)
  await row.locator('input[name="bankTransactionId"]').evaluate((el) => el.removeAttribute("required"));
  expectHttpError(400, /^\/admin\/deposits\/open/);
  await row.getByRole("button", { name: "ໝາຍວ່າຈ່າຍແລ້ວ" }).click();
  await expect(page.locator(`tr[data-code="${code}"]`).getByTestId("mark-paid-error")).toHaveText("ກະລຸນາໃສ່ເລກທຸລະກຳທະນາຄານ.", { timeout: 30_000 });
  const again = page.locator(`tr[data-code="${code}"]`);
  await again.locator('input[name="bankTransactionId"]').fill(`FT${Date.now()}`);
  await again.getByRole("button", { name: "ໝາຍວ່າຈ່າຍແລ້ວ" }).click();
  await expect(page.getByTestId("toast")).toContainText(code, { timeout: 30_000 });
  await expect(page.locator(`tr[data-code="${code}"]`)).toHaveCount(0);

  await expect(async () => {
    await page.goto("/player/deposit/history");
    await expect(page.locator(`tr[data-code="${code}"] [data-status="SUCCESS"]`)).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 45_000 });
});
