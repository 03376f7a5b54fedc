import { accountTest as test, expect, hasJs } from "./fixtures";
import { expectLazyClientValidation } from "./lazy-validation";
import { loggedInPlayerByApi } from "./player";

// Registration, login and two or three form posts: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 60_000 });

test("add a LAK bank account: validation in Lao, only LAK, then the saved account is shown", async ({ page, baseURL, expectHttpError }) => {
  expectHttpError(400, /^\/player\/bank/); // the form's validation answer without JavaScript
  await loggedInPlayerByApi(page, baseURL!);
  await expect(page.getByTestId("wallet-warning")).toBeVisible();
  const form = page.getByTestId("bank-form");
  await form.getByRole("button", { name: "ບັນທຶກບັນຊີ" }).click();
  await expect(form).toContainText("ກະລຸນາເລືອກທະນາຄານ");

  await form.getByText("ທະນາຄານການຄ້າຕ່າງປະເທດລາວ (BCEL)").click();
  await form.getByLabel("ເລກບັນຊີ").fill("0101000123");
  await form.getByLabel("ຊື່ບັນຊີ").fill("Somchai Phommavong");
  await form.getByLabel("ສະກຸນເງິນ").selectOption("THB");
  await form.getByRole("button", { name: "ບັນທຶກບັນຊີ" }).click();
  await expect(form).toContainText("ເລກບັນຊີບໍ່ຖືກຕ້ອງສຳລັບທະນາຄານນີ້");
  await expect(form).toContainText("ໃຊ້ໄດ້ສະເພາະບັນຊີສະກຸນເງິນກີບ (LAK) ເທົ່ານັ້ນ");

  // nothing typed is lost
  await expect(page.getByTestId("bank-form").getByLabel("ຊື່ບັນຊີ")).toHaveValue("Somchai Phommavong");
  const accountNumber = `0101${Date.now().toString().slice(-9)}`;
  await page.getByTestId("bank-form").getByText("ທະນາຄານການຄ້າຕ່າງປະເທດລາວ (BCEL)").click();
  await page.getByTestId("bank-form").getByLabel("ເລກບັນຊີ").fill(accountNumber);
  await page.getByTestId("bank-form").getByLabel("ສະກຸນເງິນ").selectOption("LAK");
  await page.getByTestId("bank-form").getByRole("button", { name: "ບັນທຶກບັນຊີ" }).click();
  await expect(page.getByTestId("toast")).toContainText("ເພີ່ມບັນຊີທະນາຄານສຳເລັດ");
  const saved = page.getByTestId("bank-account");
  await expect(saved).toContainText("Somchai Phommavong");
  await expect(saved).toContainText(accountNumber.slice(-4));
  await expect(page.getByTestId("bank-form")).toHaveCount(0);
});

test("with JavaScript the bank form is validated in the browser, with the schema fetched on the first touch", async ({ page, baseURL }, info) => {
  test.skip(!hasJs(info), "client-side validation is the JavaScript enhancement; without it the action answers (test above)");
  await loggedInPlayerByApi(page, baseURL!, "/player/deposit");
  const form = page.getByTestId("bank-form");
  const name = form.getByLabel("ຊື່ບັນຊີ");
  const message = "ກະລຸນາປ້ອນຊື່ບັນຊີ (2-60 ຕົວອັກສອນ)";
  const posts = await expectLazyClientValidation(
    page,
    "/player/bank",
    async () => {
      await name.fill("S");
      await name.blur();
    },
    () => expect(form).toContainText(message),
  );
  await name.fill("Somchai Phommavong");
  await expect(form).not.toContainText(message);
  await form.getByRole("button", { name: "ບັນທຶກບັນຊີ" }).click();
  await expect(form).toContainText("ກະລຸນາເລືອກທະນາຄານ");
  expect(posts, "the submit was stopped in the browser").toEqual([]);
});
