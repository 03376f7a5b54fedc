import type { Page } from "@playwright/test";
import { accountTest as test, expect, hasJs, PAGE_READY } from "./fixtures";
import { expectLazyClientValidation } from "./lazy-validation";
import { addBankAccount, loggedInPlayerByApi, payQrPayload } from "./player";

async function createDeposit(page: Page, amount: string, provider = "askmebet") {
  await page.goto("/player/deposit");
  const form = page.getByTestId("deposit-form");
  await form.getByLabel("ຄ່າຍເກມ").selectOption(provider);
  await form.getByLabel("ຈຳນວນເງິນ (ກີບ)").fill(amount);
  await form.getByRole("button", { name: "ສ້າງ QR ເພື່ອຊຳລະ" }).click();
  await expect(page.getByTestId("qr-step")).toBeVisible();
  await expect(page.getByTestId("qr").locator("svg")).toBeVisible();
  return (await page.getByTestId("qr-payload").inputValue()).trim();
}

test.describe("deposit by LAO QR", () => {
  test.describe.configure({ timeout: 60_000 });

  test("bank account -> deposit -> QR -> pay at the sandbox bank -> credit at the provider -> SUCCESS in history", async ({ page, baseURL }, info) => {
    await loggedInPlayerByApi(page, baseURL!);
    await addBankAccount(page);
    const payload = await createDeposit(page, "60000");
    expect(payload).toMatch(/^000201010212.*5303418.*5802LA.*6304[0-9A-F]{4}$/);
    const code = (await page.getByTestId("deposit-code").textContent())!.trim();
    if (hasJs(info)) await expect(page.getByTestId("countdown")).toBeVisible();

    // the tester's banking app: the sandbox bank's pay page
    await payQrPayload(page, payload);

    // the webhook and the settlement run in the background; the player reloads
    await expect(async () => {
      await page.goto("/player/deposit");
      await expect(page.getByTestId("credit-askmebet")).toHaveText("฿100,00", { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await page.goto("/player/deposit/history");
    const row = page.locator(`tr[data-code="${code}"]`);
    await expect(row).toContainText("ສຳເລັດ");
    await expect(row.locator('[data-status="SUCCESS"]')).toHaveClass(/status-green/);
  });

  test("the QR step's copy button puts the payload on the clipboard and says so; the payload selects itself on focus (lite parts copy, selectOnFocus)", async ({
    page,
    context,
    baseURL,
  }, info) => {
    test.skip(!hasJs(info), "both are the lite script's; without JavaScript the button is hidden (.js-only) and the text is selected by hand");
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    await loggedInPlayerByApi(page, baseURL!);
    await addBankAccount(page);
    const payload = await createDeposit(page, "60000");
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    const copy = page.getByTestId("qr-step").locator("button[data-copy]");
    await expect(copy).toBeVisible();
    const copied = (await copy.getAttribute("data-copied"))!;
    await expect(copy).not.toHaveText(copied);
    await copy.click();
    await expect(copy).toHaveText(copied);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(payload);
    const text = page.getByTestId("qr-payload");
    await text.focus();
    expect(await text.evaluate((t: HTMLTextAreaElement) => [t.selectionStart, t.selectionEnd])).toEqual([0, (await text.inputValue()).length]);
  });

  test("check before paying says the order is not paid; cancel needs a confirmation", async ({ page, baseURL }) => {
    await loggedInPlayerByApi(page, baseURL!);
    await addBankAccount(page);
    await createDeposit(page, "30000", "betflix");
    const code = (await page.getByTestId("deposit-code").textContent())!.trim();
    await page.getByTestId("check-payment").click();
    await expect(page.getByTestId("deposit-message")).toHaveText("ລາຍການນີ້ຍັງບໍ່ໄດ້ຊຳລະ, ກະລຸນາສະແກນ QR ເພື່ອຊຳລະ");

    await page.getByRole("button", { name: "ຍົກເລີກລາຍການ" }).click();
    const confirm = page.getByTestId("cancel-confirm");
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "ແມ່ນ, ຍົກເລີກ" }).click();
    await expect(page.getByTestId("toast")).toContainText("ຍົກເລີກລາຍການຝາກແລ້ວ");
    await expect(page.getByTestId("deposit-form")).toBeVisible();
    await page.goto("/player/deposit/history");
    await expect(page.locator(`tr[data-code="${code}"]`)).toContainText("ຍົກເລີກ");
  });

  test("with JavaScript the amount is validated in the browser, with the schema fetched on the first touch", async ({ page, baseURL }, info) => {
    test.skip(!hasJs(info), "client-side validation is the JavaScript enhancement; without it the action answers (tests above)");
    await loggedInPlayerByApi(page, baseURL!);
    await addBankAccount(page);
    const form = page.getByTestId("deposit-form");
    const amount = form.getByLabel("ຈຳນວນເງິນ (ກີບ)");
    const posts = await expectLazyClientValidation(
      page,
      "/player/deposit",
      async () => {
        await amount.fill("12x");
        await amount.blur();
      },
      () => expect(form).toContainText("ກະລຸນາປ້ອນຈຳນວນເງິນເປັນຕົວເລກ (ກີບ)"),
    );
    // revalidated as the player types (conform: on input once a field was validated); the
    // agency's bounds (demo: 10,000 to 50,000,000 kip) are checked in the browser too
    await amount.fill("9,999");
    await expect(form).toContainText("ຈຳນວນເງິນຕ່ຳກວ່າຂັ້ນຕ່ຳ");
    await amount.fill("50.000.001");
    await expect(form).toContainText("ຈຳນວນເງິນເກີນຂັ້ນສູງສຸດ");
    await amount.fill("60.000");
    await expect(form).not.toContainText("ກະລຸນາປ້ອນຈຳນວນເງິນເປັນຕົວເລກ (ກີບ)");
    await expect(form).not.toContainText("ຈຳນວນເງິນເກີນຂັ້ນສູງສຸດ");
    await form.getByRole("button", { name: "ສ້າງ QR ເພື່ອຊຳລະ" }).click();
    await expect(form).toContainText("ກະລຸນາເລືອກຄ່າຍເກມ");
    expect(posts, "the submit was stopped in the browser").toEqual([]);
  });

  test("without a bank account the deposit page points to the bank page; history is empty", async ({ page, baseURL }) => {
    await loggedInPlayerByApi(page, baseURL!, "/player/deposit");
    await expect(page.getByTestId("bank-required").getByRole("link")).toHaveAttribute("href", "/player/bank");
    await page.goto("/player/deposit/history");
    await expect(page.getByTestId("history-empty")).toBeVisible();
  });
});
