import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { readQrFile } from "../../scripts/zbar.mjs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { accountTest as test, expect, hasJs, isPhone, PAGE_READY, seriousAxeViolations, switchLanguage, waitForHydration } from "./fixtures";
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
    // the text bank apps do not accept is folded away, for support
    const copy = page.getByTestId("qr-step").locator("button[data-copy]");
    await expect(copy).toBeHidden();
    await page.getByTestId("qr-step").locator("details.qr-text summary").click();
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

  test("Save QR gives a PNG that zbarimg reads as the page's payload: the share sheet's file with JavaScript, the link's download without", async ({
    page,
    baseURL,
  }, info) => {
    const js = hasJs(info);
    // Chromium on Linux has no Web Share: with JavaScript, a phone's share sheet stands in and keeps the file it was given
    if (js) {
      await page.addInitScript(() => {
        const keep = async (data: ShareData) => {
          const file = data.files![0];
          const bytes = new Uint8Array(await file.arrayBuffer());
          let binary = "";
          for (const b of bytes) binary += String.fromCharCode(b);
          (window as unknown as { sharedQr: unknown }).sharedQr = { name: file.name, type: file.type, base64: btoa(binary) };
        };
        Object.defineProperty(navigator, "canShare", { configurable: true, value: (data: ShareData) => Boolean(data.files?.length) });
        Object.defineProperty(navigator, "share", { configurable: true, value: keep });
      });
    }
    await loggedInPlayerByApi(page, baseURL!);
    await addBankAccount(page);
    const payload = await createDeposit(page, "60000");
    await waitForHydration(page);
    const save = page.getByTestId("save-qr");
    await expect(save).toHaveClass(/button-primary/);
    let name: string;
    let png: Buffer;
    if (js) {
      await save.click();
      const shared = await page.waitForFunction(() => (window as unknown as { sharedQr?: { name: string; type: string; base64: string } }).sharedQr);
      const file = (await shared.jsonValue())!;
      expect(file.type).toBe("image/png");
      name = file.name;
      png = Buffer.from(file.base64, "base64");
    } else {
      const [download] = await Promise.all([page.waitForEvent("download"), save.click()]);
      name = download.suggestedFilename();
      png = readFileSync((await download.path())!);
    }
    expect(name).toMatch(/^lao-qr-D\w+-60000kip-\d{4}\.png$/);
    const file = join(mkdtempSync(join(tmpdir(), "qr-")), name);
    writeFileSync(file, png);
    expect(png.readUInt32BE(16), "at least 600 px wide").toBeGreaterThanOrEqual(600);
    expect(readQrFile(file)).toBe(payload);
  });

  test("on a 360 x 740 phone the QR step shows the amount, the time and the whole code in the first screen, in lo, cn and vn; scroll-to-top keeps off the actions", async ({
    page,
    baseURL,
  }, info) => {
    test.skip(!isPhone(info), "the first screen of a phone");
    await loggedInPlayerByApi(page, baseURL!);
    await addBankAccount(page);
    await createDeposit(page, "60000");
    for (const lang of ["lo", "zh-CN", "vi"] as const) {
      if (lang !== "lo") await switchLanguage(page, lang);
      await page.goto("/player/deposit");
      await waitForHydration(page);
      // the first screen ends where the phone's bottom bar begins
      const screenEnd = (await page.getByTestId("bottom-bar").boundingBox())?.y ?? 740;
      expect(screenEnd).toBeLessThanOrEqual(740);
      for (const id of ["qr-amount", "qr-valid-until", "qr", "save-qr"]) {
        const box = (await page.getByTestId(id).boundingBox())!;
        expect(box.y + box.height, `${lang}: ${id} ends inside the first screen`).toBeLessThanOrEqual(screenEnd);
      }
      // the time in large type: HH:mm without JavaScript, the countdown beside it with
      await expect(page.getByTestId("qr-valid-until")).toContainText(/\d{2}:\d{2}/);
      expect(Number.parseFloat(await page.getByTestId("qr-valid-until").evaluate((e) => getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(20);
      if (hasJs(info)) await expect(page.getByTestId("countdown")).toBeVisible();
    }
    // the steps per bank app unfold without JavaScript; the step is axe-clean (a11y.spec sees only the form)
    const bcel = page.getByTestId("bank-steps").locator("details").first();
    await bcel.locator("summary").click();
    await expect(bcel.locator("li").nth(1)).toContainText("BCEL One");
    if (hasJs(info)) expect(await seriousAxeViolations(page, "QR step")).toEqual([]);
    // Scroll-to-top: past its 500 px threshold it shows, except while a form's actions are in
    // view (it covered "check payment"); without JavaScript it never shows.
    const scrollTop = page.getByTestId("scroll-top");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(page.getByTestId("check-payment")).not.toBeInViewport();
    if (hasJs(info)) await expect(scrollTop).toBeVisible();
    else await expect(scrollTop).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 520));
    await expect(page.getByTestId("check-payment")).toBeInViewport();
    await expect(scrollTop).toBeHidden();
  });

  test("quick amounts fill the amount (in place with JavaScript, by a GET of the form without); the quote shows only for a valid amount", async ({
    page,
    baseURL,
    expectHttpError,
  }, info) => {
    await loggedInPlayerByApi(page, baseURL!);
    await addBankAccount(page);
    await page.goto("/player/deposit");
    await waitForHydration(page);
    const form = page.getByTestId("deposit-form");
    await form.getByLabel("ຄ່າຍເກມ").selectOption("betflix");
    const amount = form.getByLabel("ຈຳນວນເງິນ (ກີບ)");
    const quote = form.getByTestId("deposit-credit-preview");
    const quick = form.getByTestId("quick-amounts").getByRole("button");
    // the demo's limits, 10.000 to 50.000.000 kip
    await expect(quick).toHaveText(["₭50.000", "₭100.000", "₭200.000", "₭500.000"]);
    await quick.nth(1).click();
    await expect(amount).toHaveValue("100000");
    await expect(form.getByLabel("ຄ່າຍເກມ"), "the chosen provider is kept").toHaveValue("betflix");
    await expect(quote).toBeVisible();
    await expect(quote).toContainText("฿");

    // below the minimum: the red error and no green quote beside it
    await amount.fill("5000");
    if (hasJs(info)) await amount.blur();
    else {
      expectHttpError(400, /^\/player\/deposit/); // the action's answer with the error
      await form.getByRole("button", { name: "ສ້າງ QR ເພື່ອຊຳລະ" }).click();
    }
    await expect(form).toContainText("ຈຳນວນເງິນຕ່ຳກວ່າຂັ້ນຕ່ຳ");
    await expect(quote).toBeHidden();
    if (hasJs(info)) {
      await amount.fill("20000");
      await expect(quote).toBeVisible();
    }
  });

  test("without a bank account the deposit page points to the bank page; history is empty", async ({ page, baseURL }) => {
    await loggedInPlayerByApi(page, baseURL!, "/player/deposit");
    await expect(page.getByTestId("bank-required").getByRole("link")).toHaveAttribute("href", "/player/bank");
    await page.goto("/player/deposit/history");
    await expect(page.getByTestId("history-empty")).toBeVisible();
  });
});
