import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { d1 } from "./d1";
import { accountTest as test, expect, hasJs, playerSessionByApi, seriousAxeViolations, waitForHydration } from "./fixtures";
import { agencyRequest, creditedTwice, importStatement, OWN_CHANNEL, ownAgency, pastDay } from "./one-payment";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * Reconciliation of a bank day (decision 047). The screen of a large day (decision 074) in all
 * four projects: the summary first, then the lines a page at a time by plain links,
 * differences first, and a reason's lines through its summary link. Two flows in pair B (desktop with
 * JavaScript, phone without): the owner imports a statement of a past day with a credit nothing
 * matches and an ATM debit, opens that day with the plain GET form, sees the two differences,
 * notes each one (plain POST forms); the day stays open while the money not credited is open (a
 * note never closes money, decision 069): the owner follows the line to its payment, marks it
 * refunded, and the day closes; the CSV is offered; a cashier reads the
 * day without note forms and is refused the note action (403). And a transfer credited twice
 * (decision 069): the day stays open, noted or not, until the owner settles the surplus credit.
 * Each project works in its own own-account agency, which has owner and cashier copies
 * (scripts/seed-e2e-own-account.mjs: `<project>.own.localhost`), and each test on a day of its own
 * (in 2025; before 2025 for the settlement), so no other spec's payments are on it.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.own.localhost:${port}`) });
test.describe.configure({ timeout: 150_000 });

/** A statement of one day as BCEL One exports it: ";" separators, Lao headers, grouped amounts. */
function statement(day: string, token: string): string {
  const [y, m, d] = day.split("-");
  return [
    "\ufeffວັນທີ;ລາຍລະອຽດ;ຖອນ;ຝາກ;ຍອດເຫຼືອ",
    `${d}/${m}/${y} 10:00:00;"ໂອນເງິນ ${token}";;"7,777.00";"1,007,777.00"`,
    `${d}/${m}/${y} 11:00:00;ATM ${token};"50,000.00";;"957,777.00"`,
    "",
  ].join("\r\n");
}

/** A day of this run's own for the large day (before 2010: the flows below take 2025 and 2015-2024). */
const largeDay = () => new Date(Date.UTC(2000, 0, 1) + Math.floor(Math.random() * 3650) * 86_400_000).toISOString().slice(0, 10);

/**
 * 55 bank debits no withdrawal explains and 10 credits applied, on `day` in the project's agency,
 * with a statement covering the day: written into D1 as the statement import and the derivation
 * would have (one statement each, through the server's own workerd).
 */
async function seedLargeDay(day: string, token: string) {
  const agency = ownAgency();
  const at = (minute: number) => Date.parse(`${day}T08:00:00+07:00`) + minute * 60_000;
  const debits = Array.from(
    { length: 55 },
    (_, i) => `('${agency}', '${OWN_CHANNEL}', 'ATM${token}${i}', 'debit', '${1000 + i}.00', ${at(i)}, 'statement', 'ATM ${token}', 'DEBIT', ${at(i)})`,
  );
  const credits = Array.from(
    { length: 10 },
    (_, i) =>
      `('${agency}', '${OWN_CHANNEL}', 'IN${token}${i}', 'credit', '${90000 + i}.00', ${at(100 + i)}, 'statement', 'IN ${token}', 'APPLIED', ${at(100 + i)})`,
  );
  await d1(
    `INSERT INTO bank_transactions (agency_id, channel_code, bank_transaction_id, direction, amount, bank_time, source, raw, outcome, recorded_at) VALUES ${[...debits, ...credits].join(", ")}`,
  );
  await d1(
    `UPDATE bank_transactions SET credits = 1, order_code = 'D' || bank_transaction_id WHERE agency_id = '${agency}' AND bank_transaction_id LIKE 'IN${token}%'`,
  );
  const witnesses = Array.from(
    { length: 10 },
    (_, i) => `('${agency}', '${OWN_CHANNEL}', 'statement', 'IN${token}${i}', 'IN${token}${i}', '${90000 + i}.00', ${at(100 + i)}, 'key', ${at(100 + i)})`,
  );
  await d1(
    `INSERT INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, link, recorded_at) VALUES ${witnesses.join(", ")}`,
  );
  await d1(`INSERT INTO statement_imports (id, agency_id, channel_code, file_name, bank_time_from, bank_time_to, credit_rows, debit_rows, imported_at)
            VALUES ('IMP${token}', '${agency}', '${OWN_CHANNEL}', 'bcel-${day}.csv', ${at(-60)}, ${at(200)}, 10, 55, ${at(300)})`);
}

test("a large day: the summary first, then its lines a page at a time by plain links, differences first", async ({ page }) => {
  const day = largeDay();
  const token = `L${Date.now().toString(36).toUpperCase()}`;
  await seedLargeDay(day, token);
  await staffLogin(page, DEMO_STAFF.cashier, `/admin/reconciliation?day=${day}`);
  const rec = page.getByTestId("reconciliation");
  await expect(rec).toHaveAttribute("data-day", day);

  // the summary: the day's lines by kind and reason, before any line
  const groups = page.getByTestId("reconciliation-groups");
  await expect(groups.locator('[data-reason="DEBIT_NO_WITHDRAWAL"]')).toHaveAttribute("data-n", "55");
  await expect(groups.locator('[data-kind="matched"][data-direction="credit"]')).toHaveAttribute("data-n", "10");
  await expect(groups.locator('[data-reason="DEBIT_NO_WITHDRAWAL"]')).toContainText("ເງິນອອກທີ່ບໍ່ມີການຖອນ");
  expect(await groups.evaluate((el) => el.compareDocumentPosition(document.getElementById("lines")!) & Node.DOCUMENT_POSITION_FOLLOWING)).toBeTruthy();

  // the first page: 50 differences, no matched line yet
  const pager = page.getByTestId("pager");
  await expect(page.getByTestId("difference")).toHaveCount(50);
  await expect(page.getByTestId("matched")).toHaveCount(0);
  await expect(pager).toContainText("ລາຍການ 1-50 ຈາກ 65");
  await expect(page.getByTestId("previous-page")).toHaveCount(0);
  // axe runs as a script in the page: with JavaScript on (the markup is the same without)
  if (hasJs(test.info())) expect(await seriousAxeViolations(page, "large day")).toEqual([]);

  // the next page: the last differences, then the matched lines
  await page.getByTestId("next-page").click();
  await expect(pager).toHaveAttribute("data-first", "51");
  await expect(page).toHaveURL(/after=/);
  await expect(page.getByTestId("difference")).toHaveCount(5);
  await expect(page.getByTestId("matched").locator("tbody tr")).toHaveCount(10);
  await expect(page.getByTestId("next-page")).toHaveCount(0);

  // back, by the previous page's link
  await page.getByTestId("previous-page").click();
  await expect(pager).toHaveAttribute("data-first", "1");
  await expect(page.getByTestId("difference")).toHaveCount(50);

  // one reason's lines, through its summary link
  await groups.locator('[data-reason="DEBIT_NO_WITHDRAWAL"] a').click();
  await expect(page.getByTestId("lines-filter")).toBeVisible();
  await expect(pager).toHaveAttribute("data-total", "55");
  await page.getByTestId("next-page").click();
  await expect(page.getByTestId("difference")).toHaveCount(5);
  await expect(page.locator('[data-testid="difference"][data-reason="DEBIT_NO_WITHDRAWAL"]')).toHaveCount(5);
  await expect(page.getByTestId("matched")).toHaveCount(0);
});

test("the owner notes a bank day's differences, resolves the money not credited, and the day closes; a cashier reads it only", { tag: "@pair-b" }, async ({
  page,
}) => {
  // a day of 2025 of this run's own
  const day = `2025-${String(1 + Math.floor(Math.random() * 12)).padStart(2, "0")}-${String(1 + Math.floor(Math.random() * 28)).padStart(2, "0")}`;
  const token = `E2E${Date.now().toString(36).toUpperCase()}`;
  const file = join(mkdtempSync(join(tmpdir(), "reconciliation-")), "bcel.csv");
  writeFileSync(file, statement(day, token));

  await staffLogin(page, DEMO_STAFF.boss, "/admin/deposits/import");
  await importStatement(page, file);

  // the day, chosen with the plain GET form
  await page.goto("/admin/reconciliation");
  await waitForHydration(page);
  const form = page.getByTestId("reconciliation-day-form");
  await form.locator('input[name="day"]').fill(day.split("-").reverse().join("/")); // typed DD/MM/YYYY (decision 088)
  await form.locator('button[type="submit"]').click();
  const rec = page.getByTestId("reconciliation");
  await expect(rec).toHaveAttribute("data-day", day);
  await expect(rec).toHaveAttribute("data-closed", "no");
  const differences = page.getByTestId("difference");
  await expect(differences).toHaveCount(2);
  await expect(page.locator('[data-testid="difference"][data-reason="NO_CREDIT"]')).toContainText("7.777");
  await expect(page.locator('[data-testid="difference"][data-reason="DEBIT_NO_WITHDRAWAL"]')).toContainText(token);
  await expect(page.getByTestId("credited-twice")).toHaveAttribute("data-count", "0");

  // a note on each difference (each form posts on its own and comes back to the day)
  for (const reason of ["NO_CREDIT", "DEBIT_NO_WITHDRAWAL"]) {
    const line = page.locator(`[data-testid="difference"][data-reason="${reason}"]`);
    await waitForHydration(page);
    await line.locator("textarea").fill(`checked by e2e: ${reason}`);
    await line.getByTestId("note-form").locator('button[type="submit"]').click();
    await expect(page.locator(`[data-testid="difference"][data-reason="${reason}"]`)).toHaveAttribute("data-noted", "yes");
  }
  // money is never closed by a note: the credit nothing matched is still open until the queue resolves it
  await expect(page.getByTestId("reconciliation")).toHaveAttribute("data-closed", "no");
  await expect(page.getByTestId("money-open")).toBeVisible();
  await page.locator('[data-testid="difference"][data-reason="NO_CREDIT"]').getByTestId("money-payment").click();
  await expect(page.getByTestId("payment-panel")).toContainText(token);
  await waitForHydration(page);
  await page.getByTestId("refund-form").locator("textarea").fill("not ours: sent back to the payer by e2e");
  await page.getByTestId("refund-form").locator('button[type="submit"]').click();
  await page.getByTestId("refund-submit").click();
  await expect(page.getByTestId("payment-panel")).toHaveAttribute("data-status", "REFUNDED");
  await page.goto(`/admin/reconciliation?day=${day}`);
  await expect(page.getByTestId("reconciliation")).toHaveAttribute("data-closed", "yes");
  await expect(page.getByTestId("difference").first().getByTestId("note")).toContainText("checked by e2e");

  // the CSV of the day
  const href = await page.getByTestId("reconciliation-csv").getAttribute("href");
  expect(href).toBe(`/admin/reconciliation/${day}.csv`);
  const csv = await agencyRequest(page, href!);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toContain(token);

  // a cashier reads the day: no note forms, and the note action is refused
  await page.context().clearCookies();
  await staffLogin(page, DEMO_STAFF.cashier, `/admin/reconciliation?day=${day}`);
  await expect(page.getByTestId("reconciliation")).toHaveAttribute("data-closed", "yes");
  await expect(page.getByTestId("note-form")).toHaveCount(0);
  const refused = await agencyRequest(page, "/admin/reconciliation", { method: "POST", form: { day, lineKey: "anything", note: "a cashier's note" } });
  expect(refused.status()).toBe(403);
});

/**
 * Decision 069: money credited twice is closed by the owner's settlement, never by a note. One
 * transfer of a past day of this run's own carries two credits (tests/e2e/one-payment.ts
 * `creditedTwice`: an order's credit and the owner's hand credit of the same money); the day
 * shows it as the one difference, stays open with a note on it, refuses a settlement without a
 * reason (the form again as typed), and closes once the owner settles the surplus credit
 * (taken back at the provider) with the line's plain POST form.
 */
test("a transfer credited twice keeps its day open, noted or not; the owner settles the surplus credit and the day closes", { tag: "@pair-b" }, async ({
  page,
  expectHttpError,
}) => {
  const day = pastDay();
  const player = await playerSessionByApi(page, { prefix: "r" });
  expectHttpError(401, /^\/admin\/login\/totp/);
  await staffLogin(page, DEMO_STAFF.boss, "/admin/reconciliation");
  const twice = await creditedTwice(page, day, player.username);

  await page.goto("/admin/reconciliation");
  await waitForHydration(page);
  const form = page.getByTestId("reconciliation-day-form");
  await form.locator('input[name="day"]').fill(day.split("-").reverse().join("/")); // typed DD/MM/YYYY (decision 088)
  await form.locator('button[type="submit"]').click();
  const rec = page.getByTestId("reconciliation");
  await expect(rec).toHaveAttribute("data-day", day);
  await expect(rec).toHaveAttribute("data-closed", "no");
  await expect(page.getByTestId("credited-twice")).toHaveAttribute("data-count", "1");
  await expect(page.getByTestId("credited-twice")).toHaveText("1 ການໂອນອາດຖືກໃສ່ເຄຣດິດສອງເທື່ອ: ກວດສອບທັນທີ.");
  // the day's one difference: the transfer with both credits, the owner's to settle
  await expect(page.getByTestId("difference")).toHaveCount(1);
  const line = page.locator('[data-testid="difference"][data-reason="CREDITED_TWICE"]');
  await expect(line).toContainText("ການໂອນດຽວໃສ່ເຄຣດິດສອງເທື່ອ");
  await expect(line).toContainText(`${twice.orderCredit} + ${twice.handCredit}`);
  await expect(line.getByTestId("money-hint")).toHaveText("ເຈົ້າຂອງຕ້ອງແກ້ໄຂເຄຣດິດທີ່ເກີນ: ເອົາຄືນຈາກຜູ້ໃຫ້ບໍລິການແລ້ວ ຫຼື ບັນທຶກເປັນການເສຍຫາຍ.");
  const settle = line.getByTestId("settle-form");
  await expect(settle.locator('select[name="code"] option')).toHaveText([twice.orderCredit, twice.handCredit]);

  // a note alone does not close it
  await line.getByTestId("note-form").locator('textarea[name="note"]').fill("checked by e2e: the statement lists one transfer");
  await line.getByTestId("note-form").locator('button[type="submit"]').click();
  await expect(line).toHaveAttribute("data-noted", "yes");
  await expect(rec).toHaveAttribute("data-closed", "no");
  await expect(page.getByTestId("money-open")).toBeVisible();

  // a settlement without a real reason is refused (the browser's own check aside), the form shown again as typed
  await waitForHydration(page);
  await settle.locator('select[name="code"]').selectOption(twice.handCredit);
  await settle.getByLabel("ເອົາຄືນຈາກຜູ້ໃຫ້ບໍລິການແລ້ວ").check();
  await settle.locator('textarea[name="reason"]').evaluate((el) => el.removeAttribute("minlength"));
  await settle.locator('textarea[name="reason"]').fill("no");
  expectHttpError(400, /^\/admin\/reconciliation/);
  await settle.getByRole("button", { name: "ບັນທຶກການແກ້ໄຂ" }).click();
  await expect(settle.getByRole("alert")).toHaveText("ກະລຸນາເລືອກເຄຣດິດ, ວິທີແກ້ໄຂ ແລະ ໃສ່ເຫດຜົນ 3-500 ຕົວອັກສອນ");
  await expect(settle.locator('textarea[name="reason"]')).toHaveValue("no");

  // settled: the surplus credit taken back at the provider; the line goes and the day closes
  await settle.locator('select[name="code"]').selectOption(twice.handCredit);
  await settle.getByLabel("ເອົາຄືນຈາກຜູ້ໃຫ້ບໍລິການແລ້ວ").check();
  await settle.locator('textarea[name="reason"]').fill("taken back in the provider's back office by e2e");
  await settle.getByRole("button", { name: "ບັນທຶກການແກ້ໄຂ" }).click();
  await expect(page.getByTestId("toast")).toContainText(`ບັນທຶກການແກ້ໄຂເຄຣດິດ ${twice.handCredit} ແລ້ວ`, { timeout: 30_000 });
  await expect(page.getByTestId("reconciliation")).toHaveAttribute("data-closed", "yes");
  await expect(page.getByTestId("credited-twice")).toHaveAttribute("data-count", "0");
  await expect(page.getByTestId("difference")).toHaveCount(0);
  await expect(page.getByTestId("matched")).toContainText(twice.orderCredit);

  // the settlement is recorded once: the same form again is refused
  const again = await agencyRequest(page, "/admin/reconciliation", {
    method: "POST",
    form: { intent: "settle", day, lineKey: "twice", code: twice.handCredit, settled: "reversed", reason: "again by e2e" },
  });
  expect(again.status()).toBe(409);
});
