import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { accountTest as test, expect, waitForHydration } from "./fixtures";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * Reconciliation of a bank day (issue 31 item 4, decision 047), a flow in pair B (desktop with
 * JavaScript, phone without): the owner imports a statement of a past day with a credit nothing
 * matches and an ATM debit, opens that day with the plain GET form, sees the two differences,
 * notes each one (plain POST forms); the day stays open while the money not credited is open (a
 * note never closes money, decision 069): the owner follows the line to its payment, marks it
 * refunded, and the day closes; the CSV is offered; a cashier reads the
 * day without note forms and is refused the note action (403). Each project works in its own
 * own-account agency, which has owner and cashier copies (scripts/seed-e2e-own-account.mjs:
 * `<project>.own.localhost`), and each run on a day of its own in 2025, so no other spec's
 * payments are on it.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.own.localhost:${port}`) });
test.describe.configure({ timeout: 150_000 });

const CHANNEL = "OWN-BCEL"; // scripts/seed-e2e-own-account.mjs

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

/** Node does not resolve *.localhost (the browser does): a request goes to localhost with the agency's Host and the page's cookies. */
async function agencyRequest(page: Page, path: string, init: { method?: "GET" | "POST"; form?: Record<string, string> } = {}) {
  const origin = new URL(page.url()).origin;
  const cookie = (await page.context().cookies(origin)).map((c) => `${c.name}=${c.value}`).join("; ");
  const headers = { Host: new URL(origin).host, Origin: origin, Cookie: cookie };
  const url = `http://localhost:${port}${path}`;
  return init.method === "POST" ? page.request.post(url, { headers, form: init.form, maxRedirects: 0 }) : page.request.get(url, { headers, maxRedirects: 0 });
}

/** Upload, map when the channel asks for it, apply. */
async function importStatement(page: Page, file: string) {
  await page.goto("/admin/deposits/import");
  await waitForHydration(page);
  const upload = page.getByTestId("statement-upload");
  await upload.locator('select[name="channel"]').selectOption(CHANNEL);
  await upload.locator('input[name="file"]').setInputFiles(file);
  await upload.locator('button[type="submit"]').click();
  const statements = page.getByTestId("statements");
  await expect(statements).toHaveAttribute("data-step", /map|review/);
  if ((await statements.getAttribute("data-step")) === "map") {
    await waitForHydration(page);
    const mapping = page.getByTestId("statement-mapping");
    await mapping.locator('select[name="amountMode"]').selectOption("split");
    await mapping.locator('select[name="date"]').selectOption("ວັນທີ");
    await mapping.locator('select[name="description"]').selectOption("ລາຍລະອຽດ");
    await mapping.locator('select[name="credit"]').selectOption("ຝາກ");
    await mapping.locator('select[name="debit"]').selectOption("ຖອນ");
    await mapping.locator('select[name="dateFormat"]').selectOption("DD/MM/YYYY HH:mm");
    await mapping.locator('select[name="numberFormat"]').selectOption("1,234.56");
    await mapping.getByTestId("mapping-save").click();
  }
  await expect(statements).toHaveAttribute("data-step", "review");
  await waitForHydration(page);
  await page.getByTestId("statement-apply").click();
  await expect(page.getByTestId("statement-apply")).toHaveCount(0);
}

test("the owner notes a bank day's differences, resolves the money not credited, and the day closes; a cashier reads it only", async ({ page }) => {
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
  await form.locator('input[name="day"]').fill(day);
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
