import { accountTest as test, expect, hasJs, playerSessionByApi, waitForHydration, seriousAxeViolations } from "./fixtures";
import { addBankAccount } from "./player";
import { DEMO_STAFF, staffLogin } from "./staff";
import { d1 } from "./d1";

/**
 * Deposits into the agency's own bank account (decision 016). Each Playwright
 * project works in its own agency with one own-account channel (scripts/seed-e2e-own-account.mjs):
 * `<project>.own.localhost`, cashiers `cashier-<project>-<n>`. The player sees the exact amount to
 * pay and a QR derived from the agency's static QR; the cashier marks it paid in the
 * open-deposits queue; the player's history shows SUCCESS.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.own.localhost:${port}`) });
test.describe.configure({ timeout: 150_000 });

test("own account: the exact pay amount and a derived QR -> the cashier marks it paid -> SUCCESS in the player's history", async ({
  page,
  expectHttpError,
}, info) => {
  await playerSessionByApi(page, { prefix: "o" });
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
    expect(await seriousAxeViolations(page)).toEqual([]);
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

/**
 * Decisions 046 and 069: a payment queued as a transfer of its own although the same
 * money may already be credited (what the matcher left behind before witnesses were linked).
 * The cashier sees what it may duplicate, with both texts, and cannot credit it; the owner can,
 * only with a written reason (should the two reports still be one transfer, the day shows it
 * credited twice for the owner to settle).
 */
test("a probable duplicate in the payments queue: the cashier is refused, the owner credits it with a reason", async ({ page, expectHttpError }, info) => {
  const player = await playerSessionByApi(page, { prefix: "w" });
  const agency = `own-${info.project.name}`;
  const tag = `${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e4)}`;
  const amount = `${800000 + Math.floor(Math.random() * 99999)}.00`;
  const at = Date.now() - 120_000;
  await d1(`INSERT INTO bank_transactions (agency_id, channel_code, bank_transaction_id, amount, bank_time, source, raw, outcome, order_code, recorded_at)
            VALUES ('${agency}', 'OWN-BCEL', 'FTA${tag}', '${amount}', ${at}, 'forwarder', 'BCEL One: +${amount} LAK received', 'APPLIED', 'D${tag}', ${at})`);
  await d1(`INSERT INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, raw, link, recorded_at)
            VALUES ('${agency}', 'OWN-BCEL', 'forwarder', 'FTA${tag}', 'FTA${tag}', '${amount}', ${at}, 'BCEL One: +${amount} LAK received', 'key', ${at})`);
  await d1(`INSERT INTO bank_credits (agency_id, code, kind, channel_code, source, witness_id, amount, for_order, credited_at)
            VALUES ('${agency}', 'D${tag}', 'order', 'OWN-BCEL', 'forwarder', 'FTA${tag}', '${amount}', 'D${tag}', ${at})`);
  await d1(`INSERT INTO bank_transactions (agency_id, channel_code, bank_transaction_id, amount, bank_time, source, raw, outcome, recorded_at)
            VALUES ('${agency}', 'OWN-BCEL', 'FTB${tag}', '${amount}', ${at + 60_000}, 'statement', 'Credit: ${amount} | Ref: FTB${tag}', 'NO_ORDER', ${at})`);
  await d1(`INSERT INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, raw, link, recorded_at)
            VALUES ('${agency}', 'OWN-BCEL', 'statement', 'FTB${tag}', 'FTB${tag}', '${amount}', ${at + 60_000}, 'Credit: ${amount} | Ref: FTB${tag}', 'key', ${at})`);
  await d1(`INSERT INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount, channel_code, source, bank_time, raw)
            VALUES ('W${tag}', '${agency}', 'NO_ORDER', 'FTB${tag}', '${agency}:OWN-BCEL:FTB${tag}', '${amount}', 'OWN-BCEL', 'statement', ${at + 60_000}, 'Credit: ${amount} | Ref: FTB${tag}')`);

  expectHttpError(401, /^\/admin\/login\/totp/);
  expectHttpError(409, /^\/admin\/payments/);
  await staffLogin(page, DEMO_STAFF.cashier, `/admin/payments?id=W${tag}`);
  await expect(page.getByTestId("payment-twins")).toContainText(`D${tag}`, { timeout: 30_000 });
  await expect(page.getByTestId("payment-twins")).toContainText("BCEL One: +");
  await expect(page.getByTestId("payment-owner-only")).toBeVisible();
  const form = page.getByTestId("credit-form");
  await form.getByLabel("ຊື່ຜູ້ໃຊ້ຂອງຜູ້ຫຼິ້ນ").fill(player.username);
  await form.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
  await form.getByRole("button", { name: "ກວດສອບກ່ອນເຕີມ" }).click();
  await expect(page.getByTestId("payment-error")).toContainText("ມີແຕ່ເຈົ້າຂອງເທົ່ານັ້ນ", { timeout: 30_000 });

  await page.context().clearCookies(); // the cashier's session ends; the owner logs in
  await staffLogin(page, DEMO_STAFF.boss, `/admin/payments?id=W${tag}`);
  await expect(page.getByTestId("payment-twins")).toContainText(`D${tag}`, { timeout: 30_000 });
  await expect(page.getByTestId("payment-owner-only")).toHaveCount(0);
  const ownerForm = page.getByTestId("credit-form");
  await ownerForm.getByLabel("ຊື່ຜູ້ໃຊ້ຂອງຜູ້ຫຼິ້ນ").fill(player.username);
  await ownerForm.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
  await ownerForm.getByLabel("ເຫດຜົນ (ເປັນຫຍັງນີ້ຈຶ່ງເປັນການໂອນອີກຄັ້ງໜຶ່ງ)").fill("two transfers on the BCEL statement");
  await ownerForm.getByRole("button", { name: "ກວດສອບກ່ອນເຕີມ" }).click();
  await page.getByTestId("credit-submit").click();
  await expect(page.getByTestId("payment-status")).toHaveText("ເຕີມເຄຣດິດແລ້ວ", { timeout: 30_000 });
  await expect(page.getByTestId("payment-panel")).toContainText("two transfers on the BCEL statement");
});
