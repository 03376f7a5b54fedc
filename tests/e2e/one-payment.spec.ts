import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { d1 } from "./d1";
import { accountTest as test, expect, waitForHydration } from "./fixtures";
import { bankTimeInput, groupedKip, importStatement, openOwnOrder, ownAgency, OWN_CHANNEL, shownTime } from "./one-payment";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * One payment, one credit, from the back office (decision 069), a flow in pair A (a
 * phone with JavaScript, a desktop without; reconciliation.spec's settlement of a transfer
 * credited twice runs in pair B). Each project works in its own own-account agency
 * (`<project>.own.localhost`, scripts/seed-e2e-own-account.mjs), each test with a player and an
 * order of its own:
 * - "mark paid" with a bank time outside the order's life is refused (409) with the order's
 *   life shown and nothing recorded; the cashier may record it anyway, and it waits in the
 *   payments queue while the order stays open;
 * - a payment queued with an unpaid order's unique pay amount (a statement row dated before the
 *   order opened) is that order's money: the hand credit's confirm step says it pays the order,
 *   whatever username was typed, and confirming pays it.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.own.localhost:${port}`) });
test.describe.configure({ timeout: 150_000 });

const MARK_PAID = "ໝາຍວ່າຈ່າຍແລ້ວ";

test("mark paid at an hour outside the order's life is refused with its life shown; recorded anyway, the payment waits in the queue", async ({
  page,
  expectHttpError,
}) => {
  const order = await openOwnOrder(page, String(61000 + Math.floor(Math.random() * 9) * 1000));
  const txn = `FT${Date.now()}`;
  const mistyped = order.createdAt - 3600_000; // the hour typed wrong: an hour before the order opened
  const typed = mistyped - (mistyped % 60_000); // the form takes minutes

  expectHttpError(401, /^\/admin\/login\/totp/);
  expectHttpError(409, /^\/admin\/deposits\/open/);
  await staffLogin(page, DEMO_STAFF.cashier, "/admin/deposits/open");
  const row = page.locator(`tr[data-code="${order.code}"]`);
  await expect(row.getByTestId("pay-amount")).toContainText(groupedKip(order.payAmount));
  await waitForHydration(page);
  await row.locator('input[name="bankTransactionId"]').fill(txn);
  await row.locator('input[name="bankTime"]').fill(bankTimeInput(mistyped));
  await row.getByRole("button", { name: MARK_PAID }).click();

  // refused with the order's life, the form as typed; nothing recorded, the order still open
  const again = page.locator(`tr[data-code="${order.code}"]`);
  const error = again.getByTestId("mark-paid-error");
  await expect(error).toHaveText(
    `ເວລາທີ່ໃສ່ຢູ່ນອກອາຍຸຂອງຄຳສັ່ງນີ້ (${shownTime(order.createdAt)} – ${shownTime(order.expiresAt)}): ກວດເບິ່ງເວລາໃນແອັບທະນາຄານ ແລ້ວໃສ່ໃໝ່. ບໍ່ມີຫຍັງຖືກບັນທຶກ, ຄຳສັ່ງຍັງເປີດຢູ່.`,
  );
  await expect(again.locator('input[name="bankTransactionId"]')).toHaveValue(txn);
  await expect(again.locator('input[name="bankTime"]')).toHaveValue(bankTimeInput(mistyped));
  expect(await d1(`SELECT source FROM bank_witnesses WHERE agency_id = '${ownAgency()}' AND witness_id = '${txn}'`)).toEqual([]);
  expect(await d1(`SELECT ended_at FROM pay_amount_reservations WHERE agency_id = '${ownAgency()}' AND order_code = '${order.code}'`)).toEqual([
    { ended_at: null },
  ]);

  // the cashier checked the bank app: that hour it is. Recorded anyway: a payment of the queue, the order still open
  await waitForHydration(page);
  await again.getByTestId("mark-paid-outside").click();
  await expect(page.getByTestId("toast")).toContainText(`ບັນທຶກແລ້ວ: ການຊຳລະນີ້ຖືກສົ່ງໄປທີ່ການຊຳລະທີ່ບໍ່ກົງກັບຄຳສັ່ງແລ້ວ; ຄຳສັ່ງ ${order.code} ຍັງເປີດຢູ່.`, { timeout: 30_000 });
  await expect(page.locator(`tr[data-code="${order.code}"]`)).toBeVisible();
  const [queued] = await d1(
    `SELECT id, amount, bank_time, status FROM unmatched_payments WHERE agency_id = '${ownAgency()}' AND transaction_id = '${ownAgency()}:${OWN_CHANNEL}:${txn}'`,
  );
  expect(queued).toMatchObject({ amount: order.payAmount, bank_time: typed, status: "OPEN" });
  await page.goto(`/admin/payments?id=${queued.id}`);
  await expect(page.getByTestId("payment-panel")).toHaveAttribute("data-status", "OPEN");
  await expect(page.getByTestId("payment-panel")).toContainText(txn);
  await expect(page.getByTestId("payment-panel")).toContainText(shownTime(typed));
});

/** A statement of the channel as BCEL One exports it (";", Lao headers, grouped amounts) with one credit row. */
function statementWith(at: number, amount: string): string {
  const grouped = amount.replace(/\B(?=(\d{3})+(?!\d))(?=.*\.)/g, ",");
  return ["\ufeffວັນທີ;ລາຍລະອຽດ;ຖອນ;ຝາກ;ຍອດເຫຼືອ", `${shownTime(at)};"ໂອນເງິນ ທ້າວ ສົມ";;"${grouped}";"2,000,000.00"`, ""].join("\r\n");
}

test("a queued payment with an unpaid order's pay amount: the hand credit's confirm step says it pays that order, and confirming pays it", async ({
  page,
  expectHttpError,
}) => {
  const order = await openOwnOrder(page, String(71000 + Math.floor(Math.random() * 9) * 1000));
  // the day's statement lists the money an hour before the order opened (the bank's clock, or the payer's early transfer): no order's life holds it
  const at = order.createdAt - 3600_000;
  const file = join(mkdtempSync(join(tmpdir(), "one-payment-")), "bcel.csv");
  writeFileSync(file, statementWith(at, order.payAmount));
  expectHttpError(401, /^\/admin\/login\/totp/);
  await staffLogin(page, DEMO_STAFF.boss, "/admin/deposits/import");
  await importStatement(page, file);
  const [queued] = await d1(
    `SELECT id FROM unmatched_payments WHERE agency_id = '${ownAgency()}' AND channel_code = '${OWN_CHANNEL}' AND amount = '${order.payAmount}' AND status = 'OPEN'`,
  );
  expect(queued, "the statement row waits in the payments queue").toBeTruthy();

  // the cashier credits it by hand: whatever username is typed, the confirm step names the order and its player
  await page.context().clearCookies();
  await staffLogin(page, DEMO_STAFF.cashier, `/admin/payments?id=${queued.id}`);
  const panel = page.getByTestId("payment-panel");
  await expect(panel).toHaveAttribute("data-status", "OPEN");
  await expect(panel).toContainText(groupedKip(order.payAmount));
  await expect(page.getByTestId("payment-twins")).toHaveCount(0);
  await waitForHydration(page);
  const form = page.getByTestId("credit-form");
  await form.getByLabel("ຊື່ຜູ້ໃຊ້ຂອງຜູ້ຫຼິ້ນ").fill("someone-else");
  await form.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
  await form.getByRole("button", { name: "ກວດສອບກ່ອນເຕີມ" }).click();
  await expect(page.getByTestId("credit-to-order")).toHaveText(
    `ຈຳນວນນີ້ແມ່ນຈຳນວນຈ່າຍສະເພາະຂອງຄຳສັ່ງ ${order.code} (${order.username}) ທີ່ຍັງບໍ່ໄດ້ຈ່າຍ: ການເຕີມເຄຣດິດຈະຈ່າຍຄຳສັ່ງນັ້ນ, ບໍ່ວ່າຈະໃສ່ຊື່ຜູ້ໃຊ້ໃດ.`,
  );
  const confirm = page.getByTestId("credit-confirm");
  await expect(confirm.locator('input[name="username"]')).toHaveValue(order.username);
  await waitForHydration(page);
  await page.getByTestId("credit-submit").click();

  // the order itself is paid: the queue item is credited to it, the order leaves the open deposits and settles at the provider
  await expect(page.getByTestId("toast")).toContainText(order.code, { timeout: 30_000 });
  await expect(page.getByTestId("payment-status")).toHaveText("ເຕີມເຄຣດິດແລ້ວ");
  await expect(page.getByTestId("payment-panel")).toContainText(order.code);
  await expect(async () => {
    await page.goto(`/admin/deposits/${order.code}`);
    await expect(page.getByTestId("deposit-status")).toHaveAttribute("data-status", "SUCCESS", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await page.goto("/admin/deposits/open");
  await expect(page.locator(`tr[data-code="${order.code}"]`)).toHaveCount(0);
});
