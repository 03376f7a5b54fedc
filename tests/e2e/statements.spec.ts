import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { d1 } from "./d1";
import { accountTest as test, expect, playerSessionByApi, waitForHydration } from "./fixtures";
import { addBankAccount } from "./player";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * Statement import (decision 016), end to end on the 4 projects (phone/desktop x JS on/off):
 * a player opens an own-account deposit; the owner uploads the bank's CSV statement, maps its
 * columns on this channel's first import, sees the first rows as read, saves, sees the row
 * matching the player's order, confirms; the deposit turns SUCCESS. Each project works in its
 * own agency (scripts/seed-e2e.mjs: `<project>.e2e.localhost`, owners `boss-<project>-<n>`, and the
 * own-account channel); its saved mapping is removed here so every run maps again.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
test.describe.configure({ timeout: 150_000 });

const CHANNEL = "OWN-E2E"; // scripts/seed-e2e.mjs

test.beforeAll(async ({}, info) => {
  // the channel is seeded before the server starts (scripts/seed-e2e.mjs); its saved mapping goes
  // through the running server's own D1 (tests/e2e/d1.ts), so a retry maps again too
  await d1(`DELETE FROM statement_mappings WHERE agency_id = 'e2e-${info.project.name}' AND channel_code = '${CHANNEL}'`);
});

/** A player of this agency with a bank account and an open own-account order; its code and pay amount. */
async function playerWithOrder(page: Page, baseURL: string) {
  const player = await playerSessionByApi(page, { prefix: "t" });
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
  const [order] = await d1(
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
  return [
    "\ufeffບັນຊີ;0101000123456;;;",
    "ວັນທີ;ລາຍລະອຽດ;ຖອນ;ຝາກ;ຍອດເຫຼືອ",
    `${date};"ໂອນເງິນ; ທ້າວ ສົມ";;"${grouped}";"1,000,000.00"`,
    `${date};ATM;"50,000.00";;"950,000.00"`,
    "",
  ].join("\r\n");
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
    await expect(page.getByTestId("deposit-status")).toHaveAttribute("data-status", "SUCCESS", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });

  // the order's page lists every witness of its transfer (decisions 046 and 069): the statement row;
  // a forwarded SMS linked to it by amount and time (written as the linker would) can be split off by the owner
  const witnesses = page.getByTestId("bank-witnesses");
  await expect(witnesses.locator('tr[data-source="statement"]')).toHaveAttribute("data-link", "key");
  const [transfer] = await d1(
    `SELECT agency_id, channel_code, bank_transaction_id, amount, bank_time FROM bank_transactions WHERE order_code = '${order.code}'`,
  );
  await d1(`INSERT INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, raw, link, recorded_at)
            VALUES ('${transfer.agency_id}', '${transfer.channel_code}', 'forwarder', 'FTSMS${order.code}', '${transfer.bank_transaction_id}', '${transfer.amount}', ${Number(transfer.bank_time) + 60_000}, 'BCEL One: +${transfer.amount} LAK received', 'window', ${Date.now()})`);
  await page.goto(`/admin/deposits/${order.code}`);
  const sms = page.getByTestId("bank-witnesses").locator('tr[data-source="forwarder"]');
  await expect(sms).toHaveAttribute("data-link", "window");
  await expect(sms).toContainText("BCEL One: +");
  await sms.getByLabel("ເຫດຜົນຂອງການແຍກ").fill("two transfers on the statement of the day");
  await sms.getByRole("button", { name: "ແຍກອອກ (ສອງການໂອນແທ້)" }).click();
  await expect(page.getByTestId("toast")).toContainText("ແຍກແລ້ວ", { timeout: 30_000 });
  await expect(page.getByTestId("bank-witnesses").locator('tr[data-source="forwarder"]')).toHaveCount(0);
  const [queued] = await d1(
    `SELECT kind, raw FROM unmatched_payments WHERE transaction_id = '${transfer.agency_id}:${transfer.channel_code}:FTSMS${order.code}'`,
  );
  expect(queued).toMatchObject({ kind: "NO_ORDER", raw: `BCEL One: +${transfer.amount} LAK received` });

  // the same file again: the saved mapping is used, the row is shown as a duplicate and nothing is applied twice
  await page.goto("/admin/deposits/import");
  await waitForHydration(page);
  await page.getByTestId("statement-upload").locator('select[name="channel"]').selectOption(CHANNEL);
  await page.getByTestId("statement-upload").locator('input[name="file"]').setInputFiles(file);
  await page.getByTestId("statement-upload").locator('button[type="submit"]').click();
  await expect(page.getByTestId("statements")).toHaveAttribute("data-step", "review");
  await expect(page.getByTestId("statement-rows").locator('tr[data-kind="credit"]')).toHaveAttribute("data-outcome", "duplicate");
});
