import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { accountTest as test, expect, registerAndLoginByForms, waitForHydration } from "./fixtures";
import { addBankAccount } from "./player";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * Statement import (issue 14, 1.b), end to end on the 4 projects (phone/desktop x JS on/off):
 * a player opens an own-account deposit; the owner uploads the bank's CSV statement, maps its
 * columns on this channel's first import, sees the first rows as read, saves, sees the row
 * matching the player's order, confirms; the deposit turns SUCCESS. Each project works in its
 * own agency (scripts/seed-e2e.mjs: `<project>.e2e.localhost`, owner `boss-<project>`); the
 * own-account channel is added here, and its saved mapping removed so every run maps again.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
test.describe.configure({ timeout: 150_000 });

const CHANNEL = "OWN-E2E";

/** A statement against the e2e server's local D1 (retried: two projects' wrangler calls may meet the database busy). */
function d1(sql: string): Array<Record<string, unknown>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return d1Once(sql);
    } catch (error) {
      if (attempt >= 4) throw error;
      execFileSync("sleep", [String(attempt)]);
    }
  }
}

function d1Once(sql: string): Array<Record<string, unknown>> {
  const out = execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--json", "--command", sql], { encoding: "utf8", env: { ...process.env, CI: "true" }, stdio: ["ignore", "pipe", "inherit"] });
  const parsed = JSON.parse(out) as Array<{ results: Array<Record<string, unknown>> }>;
  return parsed.flatMap((p) => p.results ?? []);
}

/** EMV TLV and CRC-16/CCITT-FALSE (as workers/core/emvco.ts; the e2e project cannot import workers/). */
const field = (id: string, value: string) => id + String(value.length).padStart(2, "0") + value;
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

function staticQr(): string {
  const account = field("00", "A005266284662577") + field("01", "27710418") + field("02", "002") + field("03", "mchE2E0000001");
  const body = field("00", "01") + field("01", "11") + field("38", account) + field("52", "5999") + field("53", "418") + field("58", "LA") + field("59", "E2E AGENCY") + field("60", "VIENTIANE") + "6304";
  return body + crc16(body);
}

test.beforeAll(async ({}, info) => {
  const agency = `e2e-${info.project.name}`;
  d1(
    `INSERT OR IGNORE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, gateway, active, static_qr, qr_mode)
     VALUES ('${agency}', '${CHANNEL}', 'mchE2E0000001', 'BCEL (own account)', 'LAK', 'BCEL', '27710418', 'E2E AGENCY', 'VIENTIANE', 'own_account', 1, '${staticQr()}', 'derived');
     DELETE FROM statement_mappings WHERE agency_id = '${agency}' AND channel_code = '${CHANNEL}';`,
  );
});


/** A player of this agency with a bank account and an open own-account order; its code and pay amount. */
async function playerWithOrder(page: Page, baseURL: string) {
  const player = await registerAndLoginByForms(page, "t");
  await addBankAccount(page);
  // Node does not resolve *.localhost (the browser does): the request goes to localhost with the agency's Host and the player's cookie
  const cookie = (await page.context().cookies(baseURL)).map((c) => `${c.name}=${c.value}`).join("; ");
  const res = await page.request.post(`http://localhost:${port}/player/deposit`, {
    headers: { Host: new URL(baseURL).host, Origin: baseURL, Cookie: cookie },
    form: { intent: "create", provider: "askmebet", channelCode: CHANNEL, amount: "100000", idempotencyKey: crypto.randomUUID() },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
  const agency = `e2e-${test.info().project.name}`;
  const [order] = d1(
    `SELECT r.order_code AS code, r.pay_amount AS pay FROM pay_amount_reservations r JOIN players p ON p.id = r.player_id
      WHERE r.agency_id = '${agency}' AND p.username = '${player.username}' ORDER BY r.created_at DESC LIMIT 1`,
  );
  expect(order).toBeTruthy();
  return { username: player.username, code: String(order.code), payAmount: String(order.pay) };
}

/** A statement as BCEL One exports it: a preamble, ";" separators, Lao headers, grouped amounts, one debit row. */
function statement(payAmount: string): string {
  const at = new Date(Date.now() + 7 * 3600_000 + 1000);
  const two = (n: number) => String(n).padStart(2, "0");
  const date = `${two(at.getUTCDate())}/${two(at.getUTCMonth() + 1)}/${at.getUTCFullYear()} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`;
  const grouped = payAmount.replace(/\B(?=(\d{3})+(?!\d))(?=.*\.)/g, ",");
  return ["\ufeffບັນຊີ;0101000123456;;;", "ວັນທີ;ລາຍລະອຽດ;ຖອນ;ຝາກ;ຍອດເຫຼືອ", `${date};"ໂອນເງິນ; ທ້າວ ສົມ";;"${grouped}";"1,000,000.00"`, `${date};ATM;"50,000.00";;"950,000.00"`, ""].join("\r\n");
}

test("staff map a channel's first statement, preview it, confirm: the player's deposit turns SUCCESS", async ({ page, baseURL, expectHttpError }) => {
  const order = await playerWithOrder(page, baseURL!);
  const file = join(mkdtempSync(join(tmpdir(), "statement-")), "bcel.csv");
  writeFileSync(file, statement(order.payAmount));

  expectHttpError(401, /^\/admin\/login\/totp/);
  await staffLogin(page, DEMO_STAFF.boss, "/admin/deposits/import");
  await expect(page).toHaveURL(/\/admin\/deposits\/import/);
  await waitForHydration(page);
  const upload = page.getByTestId("statement-upload");
  await upload.locator('select[name="channel"]').selectOption(CHANNEL);
  await upload.locator('input[name="file"]').setInputFiles(file);
  await upload.locator('button[type="submit"]').click();

  // first import of this channel: the mapping step, the file's first rows as they are
  await expect(page.getByTestId("statements")).toHaveAttribute("data-step", "map");
  await waitForHydration(page);
  await expect(page.getByTestId("statement-raw")).toContainText("ໂອນເງິນ; ທ້າວ ສົມ");
  const mapping = page.getByTestId("statement-mapping");
  await mapping.locator('select[name="amountMode"]').selectOption("split");
  await mapping.locator('select[name="date"]').selectOption("ວັນທີ");
  await mapping.locator('select[name="description"]').selectOption("ລາຍລະອຽດ");
  await mapping.locator('select[name="credit"]').selectOption("ຝາກ");
  await mapping.locator('select[name="debit"]').selectOption("ຖອນ");
  await mapping.locator('select[name="dateFormat"]').selectOption("DD/MM/YYYY HH:mm");
  await mapping.locator('select[name="numberFormat"]').selectOption("1,234.56");
  await page.getByTestId("mapping-try").click();
  const preview = page.getByTestId("mapping-preview");
  await expect(preview.locator('tr[data-kind="credit"]')).toHaveCount(1);
  await expect(preview.locator('tr[data-kind="debit"]')).toHaveCount(1);
  await page.getByTestId("statement-mapping").getByTestId("mapping-save").click();

  // the review: the credit row matches the player's order; nothing applied yet
  await expect(page.getByTestId("statements")).toHaveAttribute("data-step", "review");
  await waitForHydration(page);
  const row = page.getByTestId("statement-rows").locator('tr[data-kind="credit"]');
  await expect(row).toHaveAttribute("data-outcome", "match");
  await expect(row).toContainText(order.code);
  await expect(row).toContainText(order.username);
  await page.getByTestId("statement-apply").click();
  await expect(page.getByTestId("statement-rows").locator('tr[data-kind="credit"]')).toHaveAttribute("data-outcome", "applied");
  await expect(page.getByTestId("statement-apply")).toHaveCount(0);

  // the deposit settles at the provider
  await expect(async () => {
    await page.goto(`/admin/deposits/${order.code}`);
    await expect(page.getByTestId("deposit-status")).toHaveText("SUCCESS", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });

  // the same file again: the saved mapping is used, the row is shown as a duplicate and nothing is applied twice
  await page.goto("/admin/deposits/import");
  await waitForHydration(page);
  await page.getByTestId("statement-upload").locator('select[name="channel"]').selectOption(CHANNEL);
  await page.getByTestId("statement-upload").locator('input[name="file"]').setInputFiles(file);
  await page.getByTestId("statement-upload").locator('button[type="submit"]').click();
  await expect(page.getByTestId("statements")).toHaveAttribute("data-step", "review");
  await expect(page.getByTestId("statement-rows").locator('tr[data-kind="credit"]')).toHaveAttribute("data-outcome", "duplicate");
});
