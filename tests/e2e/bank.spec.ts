import { accountTest as test, expect } from "./fixtures";
import { loggedInPlayer } from "./player";

test("add a LAK bank account: validation in Lao, only LAK, then the saved account is shown", async ({ page, baseURL, expectHttpError }) => {
  expectHttpError(400, /^\/player\/bank/); // the form's validation answer without JavaScript
  await loggedInPlayer(page, baseURL!);
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
