import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import QRCode from "qrcode";
import { readQrFile } from "../../scripts/zbar.mjs";
import { d1 } from "./d1";
import { agencyRequest } from "./one-payment";
import { accountTest as test, expect, hasJs, isPhone, playerSessionByApi, seriousAxeViolations, waitForHydration } from "./fixtures";
import { DEMO_STAFF, openAdminMenu, staffLogin } from "./staff";

/**
 * One-scan payouts (decision 086), a screen in the four projects (decision 026): the player adds
 * a bank account with the "receive money" QR of their bank app (a picture posted with the form,
 * JavaScript on and off; a merchant's QR refused first), the cashier sees it on the withdrawal
 * page, zbarimg (what a bank app's "scan from gallery" does) reads the staff-only picture as the
 * player's own QR, then, once the owner has ticked the player's bank on the paying channel, as
 * that QR with the amount inserted; the page's texts in cn and vn. Each project works in its own
 * own-account agency (scripts/seed-e2e-own-account.mjs: `<project>.own.localhost`, channel
 * OWN-BCEL), so the owner's setting is this test's alone.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.own.localhost:${port}`) });
test.describe.configure({ timeout: 240_000 });

const locale = (lng: string, ns: string) => JSON.parse(readFileSync(new URL(`../../locales/${lng}/${ns}.json`, import.meta.url), "utf8"));
const player = locale("lo", "player") as { receiveQr: { label: string; errors: Record<string, string> } };
type PayoutQrTexts = { title: string; static: string; save: string; setting: { save: string } };
const admin = Object.fromEntries(["lo", "cn", "vn"].map((lng) => [lng, locale(lng, "admin").payoutQr])) as Record<string, PayoutQrTexts>;

/** The back office's language switch (a form post that reloads the page). */
async function staffLanguage(page: Page, htmlLang: "lo" | "zh-CN" | "vi") {
  await openAdminMenu(page);
  await page.getByTestId("admin-menu").locator(`.admin-languages button[lang="${htmlLang}"]`).click();
  await expect(page.locator("html")).toHaveAttribute("lang", htmlLang);
}

// EMV ID-length-value and CRC-16/CCITT-FALSE, written again here: the e2e project does not
// compile workers/ (the server reads what these build with workers/core/receive-qr.ts).
const field = (id: string, value: string) => id + String(value.length).padStart(2, "0") + value;
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** A BCEL One "receive money" QR of an account holder: static, personal (38.02 = 001), the bank's receiver token, the holder's name. */
function receiveQr(type = "001"): string {
  const receiver = `mch${Date.now().toString(16).toUpperCase()}${Math.floor(Math.random() * 4096).toString(16)}`;
  const account = field("00", "A005266284662577") + field("01", "27710418") + field("02", type) + field("03", receiver);
  const body =
    field("00", "01") +
    field("01", "11") +
    field("38", account) +
    field("52", "4829") +
    field("53", "418") +
    field("58", "LA") +
    field("59", "SOMSAK PHOMMAVONG") +
    field("60", "VIENTIANE") +
    "6304";
  return body + crc16(body);
}

/** The top-level fields of an EMV payload. */
function fieldsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < text.length; ) {
    const length = Number(text.slice(i + 2, i + 4));
    out[text.slice(i, i + 2)] = text.slice(i + 4, i + 4 + length);
    i += 4 + length;
  }
  return out;
}

const png = async (text: string) => ({
  name: "receive-qr.png",
  mimeType: "image/png",
  buffer: await QRCode.toBuffer(text, { type: "png", margin: 4, scale: 6 }),
});

/** The staff-only picture as zbarimg reads it from a file. */
async function scanned(page: Page, code: string): Promise<string> {
  const res = await agencyRequest(page, `/admin/withdrawals/${code}/payout-qr.png`);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("image/png");
  expect(res.headers()["cache-control"]).toBe("private, no-store");
  const file = join(mkdtempSync(join(tmpdir(), "payout-qr-")), `${code}.png`);
  writeFileSync(file, await res.body());
  return readQrFile(file);
}

async function submitBank(page: Page, picture: Awaited<ReturnType<typeof png>>, number: string) {
  const form = page.getByTestId("bank-form");
  await form.getByText("ທະນາຄານການຄ້າຕ່າງປະເທດລາວ (BCEL)").click();
  await form.getByLabel("ເລກບັນຊີ").fill(number);
  await form.getByLabel("ຊື່ບັນຊີ").fill("Somsak Phommavong");
  await form.getByLabel(player.receiveQr.label).setInputFiles(picture);
  await form.getByRole("button", { name: "ບັນທຶກບັນຊີ" }).click();
}

test("the player adds their receive QR with the account; the cashier scans it, static then with the amount inserted", async ({
  page,
  expectHttpError,
}, info) => {
  const js = hasJs(info);
  const who = await playerSessionByApi(page, { prefix: "pq" });
  await page.goto("/player/bank");
  await waitForHydration(page);
  const number = `0101${Date.now().toString().slice(-9)}`;

  // a merchant's QR: refused beside the picture, the typed number kept, nothing stored
  expectHttpError(400, /^\/player\/bank/);
  await submitBank(page, await png(receiveQr("002")), number);
  await expect(page.getByTestId("receive-qr-field")).toContainText(player.receiveQr.errors.MERCHANT);
  await expect(page.getByTestId("bank-form").getByLabel("ເລກບັນຊີ")).toHaveValue(number);
  if (js) expect(await seriousAxeViolations(page, "refused QR")).toEqual([]);

  const payload = receiveQr();
  await submitBank(page, await png(payload), number);
  await expect(page.getByTestId("receive-qr-state")).toHaveAttribute("data-kept", "yes");
  const [row] = await d1(`SELECT b.receive_qr FROM bank_accounts b JOIN players p ON p.id = b.player_id WHERE p.username = '${who.username}'`);
  expect(row.receive_qr).toBe(payload);

  // credit by an own-account deposit the cashier marks paid, then a withdrawal above the automatic payout
  await page.goto("/player/deposit");
  await waitForHydration(page);
  const deposit = page.getByTestId("deposit-form");
  await deposit.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
  await deposit.getByLabel("ຈຳນວນເງິນ (ກີບ)").fill("3600000");
  await deposit.getByRole("button", { name: "ສ້າງ QR ເພື່ອຊຳລະ" }).click();
  await expect(page.getByTestId("qr-step")).toBeVisible({ timeout: 30_000 });
  const depositCode = (await page.getByTestId("deposit-code").textContent())!.trim();
  await staffLogin(page, DEMO_STAFF.cashier, "/admin/deposits/open");
  await waitForHydration(page);
  const open = page.locator(`tr[data-code="${depositCode}"]`);
  await open.locator('input[name="bankTransactionId"]').fill(`FT${Date.now()}`);
  await open.getByRole("button", { name: "ໝາຍວ່າຈ່າຍແລ້ວ" }).click();
  await expect(page.getByTestId("toast")).toContainText(depositCode, { timeout: 30_000 });
  await expect(async () => {
    await page.goto("/player/withdraw");
    await expect(page.getByTestId("credit-askmebet")).toHaveText("฿6.000,00", { timeout: 1000 });
  }).toPass({ timeout: 45_000 });
  await waitForHydration(page);
  const withdraw = page.getByTestId("withdraw-form");
  await withdraw.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
  await withdraw.getByLabel("ຈຳນວນເຄຣດິດທີ່ຖອນ").fill("5500");
  await withdraw.getByRole("button", { name: "ຕໍ່ໄປ" }).click();
  await page.getByTestId("withdraw-confirm-button").click();
  await expect(page).toHaveURL(/\/player\/withdraw\/history$/);
  const code = (await page.getByTestId("withdraw-history").locator("tbody tr").first().getAttribute("data-code"))!;

  // the cashier: the static QR (the default), the amount beside it, copy buttons with JavaScript
  await page.goto(`/admin/withdrawals/${code}`);
  await waitForHydration(page);
  const section = page.getByTestId("payout-qr");
  await expect(section).toHaveAttribute("data-mode", "static");
  await expect(section.getByTestId("payout-qr-how")).toHaveText(admin.lo.static);
  await expect(section.getByTestId("payout-qr-image")).toBeVisible();
  const amount = (await page.getByTestId("copy-amount").getAttribute("data-copy"))!;
  expect(amount).toMatch(/^\d+$/);
  await expect(page.getByTestId("copy-number")).toHaveAttribute("data-copy", number);
  await expect(page.getByTestId("copy-name")).toHaveAttribute("data-copy", "Somsak Phommavong");
  if (js) {
    await expect(page.getByTestId("copy-number")).toBeVisible();
    expect(await seriousAxeViolations(page, "withdrawal")).toEqual([]);
  } else {
    await expect(page.getByTestId("copy-number")).toBeHidden();
  }
  expect(await scanned(page, code)).toBe(payload);

  // the owner ticks BCEL on the channel: the QR with the amount inserted, the channel named
  await staffLogin(page, DEMO_STAFF.boss, "/admin/settings/channels");
  await waitForHydration(page);
  const setting = page.getByTestId("payout-qr-OWN-BCEL");
  await setting.getByLabel("ທະນາຄານການຄ້າຕ່າງປະເທດລາວ (BCEL)").check();
  await setting.getByRole("button", { name: admin.lo.setting.save }).click();
  await expect(page.getByTestId("toast")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("payout-qr-OWN-BCEL").getByLabel("ທະນາຄານການຄ້າຕ່າງປະເທດລາວ (BCEL)")).toBeChecked();
  await page.goto(`/admin/withdrawals/${code}`);
  await expect(page.getByTestId("payout-qr")).toHaveAttribute("data-mode", "derived");
  await expect(page.getByTestId("payout-qr-how")).toContainText("BCEL One (own account)");
  const derived = await scanned(page, code);
  expect(derived.slice(-4)).toBe(crc16(derived.slice(0, -4)));
  const { "63": _crc, ...own } = fieldsOf(payload);
  const { "63": _derivedCrc, ...withAmount } = fieldsOf(derived);
  expect(withAmount).toEqual({ ...own, "01": "12", "54": amount });

  // cn and vn: the section translated, no raw key (as translations.spec checks the player pages)
  if (isPhone(info)) {
    for (const [lng, htmlLang] of [
      ["cn", "zh-CN"],
      ["vn", "vi"],
    ] as const) {
      await staffLanguage(page, htmlLang);
      await expect(page.getByTestId("payout-qr").locator("h2")).toHaveText(admin[lng].title);
      await expect(page.getByTestId("payout-qr-save")).toHaveText(admin[lng].save);
      expect(await page.locator("main").innerText()).not.toContain("payoutQr.");
    }
    await staffLanguage(page, "lo");
  }

  // the setting back to its default, for a rerun against the same local state
  await page.goto("/admin/settings/channels");
  await waitForHydration(page);
  await page.getByTestId("payout-qr-OWN-BCEL").getByLabel("ທະນາຄານການຄ້າຕ່າງປະເທດລາວ (BCEL)").uncheck();
  await page.getByTestId("payout-qr-OWN-BCEL").getByRole("button", { name: admin.lo.setting.save }).click();
  await expect(page.getByTestId("toast")).toBeVisible({ timeout: 30_000 });
});
