import type { Page } from "@playwright/test";
import { expect, waitForHydration } from "./fixtures";

export const E2E_PASSWORD = "money-e2e-pass-1";

/** A fresh player's username, registered through the JSON API (password E2E_PASSWORD). */
async function registerFreshPlayer(page: Page, baseURL: string): Promise<string> {
  const username = `e${Date.now().toString(36)}${Math.floor(Math.random() * 100000).toString(36)}`.slice(0, 20);
  const res = await page.request.post("/api/v2/players/register", {
    headers: { Origin: baseURL },
    data: { username, password: E2E_PASSWORD, confirmPassword: E2E_PASSWORD, phone: "02055551234", adult: true },
  });
  expect(res.status()).toBe(201);
  return username;
}

const endsWith = (landing: string) => new RegExp(`${landing.replace(/[/?]/g, "\\$&")}$`);

/**
 * A fresh player (registered through the JSON API), logged in through the login page, which
 * then shows `landing` with the login toast. For tests of that page or its toast; a flow
 * that only needs a player takes `loggedInPlayerByApi`.
 * Use with `accountTest`, which gives every test its own client address.
 */
export async function loggedInPlayer(page: Page, baseURL: string, landing = "/player/bank") {
  const username = await registerFreshPlayer(page, baseURL);
  await page.goto(`/login?redirectTo=${encodeURIComponent(landing)}`);
  await page.getByLabel("ຊື່ຜູ້ໃຊ້").fill(username);
  await page.getByLabel("ລະຫັດຜ່ານ", { exact: true }).fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "ເຂົ້າສູ່ລະບົບ" }).click();
  await expect(page).toHaveURL(endsWith(landing));
  // The login page has no React (decision 021): its post loads the landing page as a new
  // document, which must hydrate before a test presses keys or drags in it.
  await waitForHydration(page);
  return username;
}

/**
 * A fresh player logged in through the JSON API (localhost, the demo agency): page.request
 * shares the context's cookie jar, so the session cookie is the page's. Then the page opens
 * `landing` and, with JavaScript on, waits for it to hydrate. No login toast (that is the
 * login page's).
 */
export async function loggedInPlayerByApi(page: Page, baseURL: string, landing = "/player/bank") {
  const username = await registerFreshPlayer(page, baseURL);
  const res = await page.request.post("/api/v2/players/login", { headers: { Origin: baseURL }, data: { username, password: E2E_PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
  await page.goto(landing);
  await expect(page).toHaveURL(endsWith(landing));
  await waitForHydration(page);
  return username;
}

/** Adds the player's LAK account through the bank page. */
export async function addBankAccount(page: Page) {
  await page.goto("/player/bank");
  const form = page.getByTestId("bank-form");
  await form.getByText("ທະນາຄານການຄ້າຕ່າງປະເທດລາວ (BCEL)").click();
  await form.getByLabel("ເລກບັນຊີ").fill(`0101${Date.now().toString().slice(-9)}`);
  await form.getByLabel("ຊື່ບັນຊີ").fill("E2E Player");
  await form.getByRole("button", { name: "ບັນທຶກບັນຊີ" }).click();
  await expect(page.getByTestId("bank-account")).toBeVisible();
}

/** Deposits through the QR and the sandbox bank until the credit shows at the provider. */
export async function depositCredit(page: Page, amount: string, expectedCredit: string) {
  await page.goto("/player/deposit");
  const form = page.getByTestId("deposit-form");
  await form.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
  await form.getByLabel("ຈຳນວນເງິນ (ກີບ)").fill(amount);
  await form.getByRole("button", { name: "ສ້າງ QR ເພື່ອຊຳລະ" }).click();
  await payShownQr(page);
  await expect(async () => {
    await page.goto("/player/withdraw");
    await expect(page.getByTestId("credit-askmebet")).toHaveText(expectedCredit, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
}

/** Pays the QR the deposit page shows, on the sandbox bank's page (the tester's banking app). */
export async function payShownQr(page: Page) {
  await payQrPayload(page, (await page.getByTestId("qr-payload").inputValue()).trim());
}

/** Pays a LAO QR payload on the sandbox bank's page. */
export async function payQrPayload(page: Page, payload: string) {
  await page.goto("/sandbox/bank/pay");
  await page.getByLabel("QR payload (the text inside the QR code)").fill(payload);
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page.getByText("Payment successful").first()).toBeVisible();
}

/** Asks a withdrawal of `amount` credit at askmebet that waits for staff review; its code. */
export async function withdrawForReview(page: Page, amount: string): Promise<string> {
  await page.goto("/player/withdraw");
  const form = page.getByTestId("withdraw-form");
  await form.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
  await form.getByLabel("ຈຳນວນເຄຣດິດທີ່ຖອນ").fill(amount);
  await form.getByRole("button", { name: "ຕໍ່ໄປ" }).click();
  await expect(page.getByTestId("withdraw-confirm")).toContainText("ຈຳນວນນີ້ຕ້ອງໃຫ້ພະນັກງານກວດສອບກ່ອນໂອນ.");
  await page.getByTestId("withdraw-confirm-button").click();
  await expect(page).toHaveURL(/\/player\/withdraw\/history$/);
  const row = page.getByTestId("withdraw-history").locator("tbody tr").first();
  await expect(row.locator('[data-status="OPEN"]')).toBeVisible();
  return (await row.getAttribute("data-code"))!;
}
