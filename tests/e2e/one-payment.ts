import { test, type Page } from "@playwright/test";
import { d1 } from "./d1";
import { currentBaseURL, expect, playerSessionByApi, waitForHydration } from "./fixtures";
import { addBankAccount } from "./player";

/**
 * Helpers of the "one payment, one credit" flows (decision 069) in the own-account
 * agencies (scripts/seed-e2e-own-account.mjs: `<project>.own.localhost`, agency `own-<project>`,
 * channel OWN-BCEL): an open order made through the player's own form post, the bank times as
 * the back office types and shows them, and a transfer credited twice.
 */
const port = Number(process.env.E2E_PORT ?? 4173);

export const OWN_CHANNEL = "OWN-BCEL";
export const ownAgency = () => `own-${test.info().project.name}`;

/** Node does not resolve *.localhost (the browser does): a request goes to localhost with the agency's Host and the page's cookies. */
export async function agencyRequest(page: Page, path: string, init: { method?: "GET" | "POST"; form?: Record<string, string> } = {}) {
  const origin = new URL(currentBaseURL()).origin;
  const cookie = (await page.context().cookies(origin)).map((c) => `${c.name}=${c.value}`).join("; ");
  const headers = { Host: new URL(origin).host, Origin: origin, Cookie: cookie };
  const url = `http://localhost:${port}${path}`;
  return init.method === "POST" ? page.request.post(url, { headers, form: init.form, maxRedirects: 0 }) : page.request.get(url, { headers, maxRedirects: 0 });
}

export type OwnOrder = { username: string; code: string; payAmount: string; createdAt: number; expiresAt: number };

/**
 * A fresh player of the test's own-account agency with a bank account, and their open order of
 * `amount` kip (the deposit form's post, as the browser sends it): its code, its unique pay
 * amount and its life. The player's session stays in the page's context.
 */
export async function openOwnOrder(page: Page, amount: string): Promise<OwnOrder> {
  const player = await playerSessionByApi(page, { prefix: "q" });
  await addBankAccount(page);
  const created = await agencyRequest(page, "/player/deposit", {
    method: "POST",
    form: { intent: "create", provider: "askmebet", channelCode: OWN_CHANNEL, amount, idempotencyKey: crypto.randomUUID() },
  });
  expect(created.status()).toBe(302);
  const [order] = await d1(
    `SELECT r.order_code AS code, r.pay_amount AS pay, r.created_at, r.expires_at FROM pay_amount_reservations r JOIN players p ON p.id = r.player_id
      WHERE r.agency_id = '${ownAgency()}' AND p.username = '${player.username}' ORDER BY r.created_at DESC LIMIT 1`,
  );
  expect(order).toBeTruthy();
  return {
    username: player.username,
    code: String(order.code),
    payAmount: String(order.pay),
    createdAt: Number(order.created_at),
    expiresAt: Number(order.expires_at),
  };
}

const VIENTIANE_MS = 7 * 3600_000;
const two = (n: number) => String(n).padStart(2, "0");

/** A time as staff type it into the mark-paid form: DD/MM/YYYY HH:mm in Vientiane time ("01/12/2026 09:05", decision 088). */
export const bankTimeInput = (ms: number) => {
  const iso = new Date(ms + VIENTIANE_MS).toISOString();
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 16)}`;
};

/** A time as the back office shows it (formatDateTime): "01/12/2026 09:05:07", Vientiane time. */
export function shownTime(ms: number): string {
  const d = new Date(ms + VIENTIANE_MS);
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** Kip as the back office shows it (formatMoney LAK): "712.345 ₭" has its digits grouped by dots. */
export const groupedKip = (amount: string) => amount.split(".")[0]!.replace(/\B(?=(\d{3})+(?!\d))/g, ".");

/** A day of its own for a run: a random past day between 2015 and 2024 (other specs' days are 2025 and today). */
export function pastDay(): string {
  const day = new Date(Date.UTC(2015, 0, 1) + Math.floor(Math.random() * 3650) * 86_400_000);
  return day.toISOString().slice(0, 10);
}

/**
 * One transfer credited twice on `day` (decision 069), reached as it happens: the reports of one
 * payment were recorded as two transfers before transfers were derived from every report (the
 * rows a matcher of decision 046 left: a forwarded SMS at 10:00 applied to an order, the
 * statement's row of the same money at 10:01 queued as a payment of its own, and the statement's
 * import covering the day); the owner credits the queued payment by hand with a reason (its own
 * form post), and deriving the amount again makes both reports one transfer with two credits.
 * The staff session in the page's context is the owner's; `username` is a player of the agency.
 * Returns the credits: the order's and the hand credit's (the surplus).
 */
export async function creditedTwice(page: Page, day: string, username: string): Promise<{ amount: string; orderCredit: string; handCredit: string }> {
  const agency = ownAgency();
  const tag = `${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e4)}`;
  const amount = `${700000 + Math.floor(Math.random() * 99999)}.00`;
  const at = Date.parse(`${day}T10:00:00+07:00`);
  const sms = `BCEL One: +${amount} LAK received`;
  const row = `Credit: ${amount} | Ref: FTB${tag}`;
  await d1(`INSERT INTO bank_transactions (agency_id, channel_code, bank_transaction_id, amount, bank_time, source, raw, outcome, order_code, recorded_at, credits)
            VALUES ('${agency}', '${OWN_CHANNEL}', 'FTA${tag}', '${amount}', ${at}, 'forwarder', '${sms}', 'APPLIED', 'D${tag}', ${at}, 1)`);
  await d1(`INSERT INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, raw, link, recorded_at)
            VALUES ('${agency}', '${OWN_CHANNEL}', 'forwarder', 'FTA${tag}', 'FTA${tag}', '${amount}', ${at}, '${sms}', 'key', ${at})`);
  await d1(`INSERT INTO bank_credits (agency_id, code, kind, channel_code, source, witness_id, amount, for_order, credited_at)
            VALUES ('${agency}', 'D${tag}', 'order', '${OWN_CHANNEL}', 'forwarder', 'FTA${tag}', '${amount}', 'D${tag}', ${at})`);
  await d1(`INSERT INTO bank_transactions (agency_id, channel_code, bank_transaction_id, amount, bank_time, source, raw, outcome, recorded_at, queue_id)
            VALUES ('${agency}', '${OWN_CHANNEL}', 'FTB${tag}', '${amount}', ${at + 60_000}, 'statement', '${row}', 'NO_ORDER', ${at + 3600_000}, 'W${tag}')`);
  await d1(`INSERT INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, raw, link, recorded_at)
            VALUES ('${agency}', '${OWN_CHANNEL}', 'statement', 'FTB${tag}', 'FTB${tag}', '${amount}', ${at + 60_000}, '${row}', 'key', ${at + 3600_000})`);
  await d1(`INSERT INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount, channel_code, source, bank_time, raw, received_at)
            VALUES ('W${tag}', '${agency}', 'NO_ORDER', 'FTB${tag}', '${agency}:${OWN_CHANNEL}:FTB${tag}', '${amount}', '${OWN_CHANNEL}', 'statement', ${at + 60_000}, '${row}',
                    '${new Date(at + 3600_000).toISOString()}')`);
  await d1(`INSERT INTO statement_imports (id, agency_id, channel_code, file_name, bank_time_from, bank_time_to, credit_rows, debit_rows, imported_at)
            VALUES ('IMP${tag}', '${agency}', '${OWN_CHANNEL}', 'bcel-${day}.csv', ${at - 3600_000}, ${at + 3600_000}, 1, 0, ${at + 3600_000})`);
  // the owner's hand credit of a probable duplicate: only with a written reason (decision 046)
  const credited = await agencyRequest(page, "/admin/payments", {
    method: "POST",
    form: { intent: "credit", id: `W${tag}`, username, provider: "askmebet", reason: "a second transfer, the player says" },
  });
  expect(credited.status(), await credited.text()).toBe(302);
  const [hand] = await d1(`SELECT manual_code FROM unmatched_payments WHERE id = 'W${tag}' AND status = 'CREDITED'`);
  expect(hand, "the hand credit went through").toBeTruthy();
  return { amount, orderCredit: `D${tag}`, handCredit: String(hand.manual_code) };
}

/** Upload a statement file of OWN_CHANNEL, map it when the channel asks for it (its first import in this agency), apply it. */
export async function importStatement(page: Page, file: string) {
  await page.goto("/admin/deposits/import");
  await waitForHydration(page);
  const upload = page.getByTestId("statement-upload");
  await upload.locator('select[name="channel"]').selectOption(OWN_CHANNEL);
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
