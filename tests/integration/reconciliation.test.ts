import { beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { fundProvider, playerWithBank, postDeposit } from "../setup/money";
import { ageOrder, seedOwnAccountChannel } from "../setup/own-account";
import { createStaff, staffLogin } from "../setup/staff";
import type { AuditActor } from "../../workers/db/audit";
import { vientianeDate } from "../../workers/core/report-range";
import { findAgencyByHost } from "../../workers/services/agency";
import {
  applyBankTransaction,
  applyStatement,
  deriveAround,
  markOpenDepositPaid,
  reconciliationPage,
  resolveAsRefunded,
  saveReconciliationNote,
  saveStatementMapping,
  settleDoubleCredit,
  uploadStatement,
  type MappingFields,
} from "../../workers/services/bank-in";
import { confirmWithdraw, decideWithdrawal, withdrawalPage } from "../../workers/services/withdrawals";

/**
 * Reconciliation of a bank day (decision 047) against real D1 and real
 * wallets in workerd: a day seeded through the real services (a statement import with credit and
 * debit rows, forwarded and staff-reported payments, withdrawals marked paid), every line kind,
 * the debits on the withdrawal page, closing the day with notes, the cashier's 403 on the note
 * action, and the CSV export.
 */

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const CHANNEL = "OWN-REC";
const owner: AuditActor = { agencyId: "demo", staffId: "staff-rec-owner", staffUsername: "rec-owner", ip: "10.210.0.1", userAgent: "vitest" };
const enc = (s: string) => new TextEncoder().encode(s);
const SPLIT: MappingFields = {
  date: "ວັນທີ",
  description: "ລາຍລະອຽດ",
  amountMode: "split",
  debit: "ຖອນ",
  credit: "ຝາກ",
  dateFormat: "DD/MM/YYYY HH:mm",
  numberFormat: "1,234.56",
};

/** A bank time as a Lao bank writes it (DD/MM/YYYY HH:mm:ss, Vientiane time). */
function bankDate(ms: number): string {
  const d = new Date(ms + 7 * 3600_000);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}
const grouped = (amount: string) => amount.replace(/\B(?=(\d{3})+(?!\d))(?=.*\.)/g, ",");

async function openOwnOrder(amount: string) {
  const p = await playerWithBank();
  expect((await postDeposit(p.cookie, { channelCode: CHANNEL, amount, provider: "betflix" })).status).toBe(302);
  const order = (await p.wallet.openDepositOrder(Date.now()))!;
  return { ...p, order };
}

/** A withdrawal waiting for staff (no payout gateway), marked paid by the owner; with the account it was paid to. */
async function withdrawalMarkedPaid() {
  const p = await playerWithBank();
  await fundProvider("betflix", p.username, "100.00");
  const agency = (await findAgencyByHost(env.DB, "localhost"))!;
  const production = { ...env, SANDBOX_BANK: undefined, SANDBOX_BANK_MERCHANT: undefined, SANDBOX_BANK_SECRET: undefined } as unknown as Env;
  const input = { provider: "betflix", amountMinor: 10_000n, idempotencyKey: crypto.randomUUID() }; // 100 credit
  const confirmed = await confirmWithdraw(production, agency, { id: p.playerId, username: p.username, displayName: p.username }, input, "http://localhost");
  if (!confirmed.ok) throw new Error("withdrawal refused");
  await p.wallet.runDueWork();
  const code = confirmed.order.code;
  const decided = await decideWithdrawal(env, "demo", code, { action: "paid", bankReference: `BCEL-OUT-${code}` }, { ...owner, via: "back-office" });
  expect(decided.ok).toBe(true);
  await p.wallet.runDueWork();
  const order = (await p.wallet.getWithdraw(code))!;
  const account = (await env.DB.prepare(`SELECT account_number FROM bank_accounts WHERE player_id = ?1`).bind(p.playerId).first<{ account_number: string }>())!
    .account_number;
  return { code, amount: order.receivedLak, account };
}

/** Uploads, maps (first time) and applies a statement of the channel through the statement import services. */
async function importStatement(rows: string[]) {
  const csv = "\ufeff" + ["ວັນທີ;ລາຍລະອຽດ;ຖອນ;ຝາກ;ຍອດເຫຼືອ", ...rows, ""].join("\r\n");
  const upload = await uploadStatement(env.DB, owner, { channelCode: CHANNEL, fileName: "bcel.csv", bytes: enc(csv) });
  if (!upload.ok) throw new Error(upload.problem);
  if (!upload.mapped) expect((await saveStatementMapping(env.DB, owner, upload.id, SPLIT, 0)).ok).toBe(true);
  const applied = await applyStatement(env, owner, upload.id);
  expect(applied.ok).toBe(true);
  return applied;
}

const today = () => vientianeDate(Date.now());
const lineOf = (page: Awaited<ReturnType<typeof reconciliationPage>>, key: string) => page.lines.find((l) => l.key === key);

let ownerCookie = "";
let cashierCookie = "";
const seeded = {} as {
  matched: string; // statement-witnessed credit
  forwarded: string;
  staffOnly: string;
  noCredit: string;
  timingOrder: string;
  timingBankDay: string;
  paid: { code: string; amount: string; account: string };
  unpaid: { code: string; amount: string; account: string };
  twins: [string, string];
  twinCredit: string;
};

beforeAll(async () => {
  await seedDemo();
  await seedOwnAccountChannel("demo", CHANNEL, "derived");
  const o = await createStaff(env, { agencyId: "demo", username: "rec-owner", password: "owner-pass-123", role: "owner" });
  const c = await createStaff(env, { agencyId: "demo", username: "rec-cashier", password: "cashier-pass-123", role: "cashier" });
  ownerCookie = await staffLogin(env, { username: "rec-owner", password: "owner-pass-123", totpSecret: o.totpSecret });
  cashierCookie = await staffLogin(env, { username: "rec-cashier", password: "cashier-pass-123", totpSecret: c.totpSecret });
  const now = Date.now();
  // the order the statement will pay, opened first: the statement's rows run from its payment to the last debit
  const byStatement = await openOwnOrder("60000");
  seeded.matched = byStatement.order.code;
  const opened = Date.now();

  // a deposit paid in time yesterday-ish (the order's life 25 h ago), reported and applied now: the bank's day is not the reports' day
  const late = await openOwnOrder("80000");
  await ageOrder(late.wallet, "demo", late.order.code, 25 * 3600_000);
  const lateTime = now - 25 * 3600_000 + 60_000;
  expect(
    await applyBankTransaction(
      env,
      "demo",
      {
        channelCode: CHANNEL,
        bankTransactionId: `FTLATE${now}`,
        amount: late.order.payAmount!,
        bankTime: lateTime,
        reference: null,
        source: "forwarder",
        raw: "late",
      },
      null,
    ),
  ).toMatchObject({ kind: "applied" });
  await late.wallet.runDueWork();
  seeded.timingOrder = late.order.code;
  seeded.timingBankDay = vientianeDate(lateTime);

  // staff mark an order paid that no statement row or message will confirm (another amount than the statement's rows)
  const byStaff = await openOwnOrder("70000");
  expect(await markOpenDepositPaid(env, owner, { orderCode: byStaff.order.code, bankTransactionId: `STAFF${now}`, bankTime: Date.now() })).toMatchObject({
    ok: true,
  });
  await byStaff.wallet.runDueWork();
  seeded.staffOnly = byStaff.order.code;

  // a forwarded message applies another order
  const forwarded = await openOwnOrder("90000");
  const fwd = await applyBankTransaction(
    env,
    "demo",
    {
      channelCode: CHANNEL,
      bankTransactionId: `FWD${now}`,
      amount: forwarded.order.payAmount!,
      bankTime: Date.now(),
      reference: null,
      source: "forwarder",
      raw: "BCEL One: Received",
    },
    null,
  );
  expect(fwd).toMatchObject({ kind: "applied" });
  await forwarded.wallet.runDueWork();
  seeded.forwarded = forwarded.order.code;

  // two withdrawals marked paid: the statement shows a debit for the first (naming the player's account) only. The
  // statement's first row is dated opened + 1 s, to the second; a statement covers its rows' range, so the withdrawals
  // are marked after that second starts or the second would be "waiting" for a statement (a fast machine seeds all of
  // the above within the second: CI, 2026-11-28)
  while (Date.now() < opened + 1000) await new Promise((r) => setTimeout(r, 50));
  seeded.paid = await withdrawalMarkedPaid();
  seeded.unpaid = await withdrawalMarkedPaid();

  // the statement of the day: a credit for an open order, a credit nothing matches, the first withdrawal's debit, an ATM withdrawal
  const at = Date.now();
  await importStatement([
    `${bankDate(opened + 1000)};ໂອນເງິນ ທ້າວ ສົມ;;"${grouped(byStatement.order.payAmount!)}";"1,000,000.00"`,
    `${bankDate(opened + 2000)};ໂອນເງິນ ບໍ່ຮູ້ຈັກ;;"7,777.00";"1,007,777.00"`,
    `${bankDate(at + 1000)};ໂອນອອກ ${seeded.paid.account};"${grouped(seeded.paid.amount)}";;"900,000.00"`,
    `${bankDate(at + 2000)};ATM;"50,000.00";;"850,000.00"`,
  ]);
  await byStatement.wallet.runDueWork();
  const queued = await env.DB.prepare(`SELECT transaction_id FROM unmatched_payments WHERE agency_id = 'demo' AND channel_code = ?1 AND amount = '7777.00'`)
    .bind(CHANNEL)
    .first<{ transaction_id: string }>();
  seeded.noCredit = queued!.transaction_id.split(":").pop()!;

  // one transfer credited twice, as rows recorded before transfers were derived from every report (decision 069): the
  // statement's transfer of the order above, and a forwarded report of it 3 minutes later kept as a transfer of its own and
  // credited by hand. Derived again, the two reports are one transfer with two credits.
  const first = (await env.DB.prepare(`SELECT bank_transaction_id AS id, amount, bank_time FROM bank_transactions WHERE agency_id = 'demo' AND order_code = ?1`)
    .bind(seeded.matched)
    .first<{ id: string; amount: string; bank_time: number }>())!;
  const twin = `LEGACY${now}`;
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO bank_transactions (agency_id, channel_code, bank_transaction_id, direction, amount, bank_time, source, raw, outcome, recorded_at) VALUES ('demo', ?1, ?2, 'credit', ?3, ?4, 'forwarder', 'legacy', 'NO_ORDER', ?4)`,
    ).bind(CHANNEL, twin, first.amount, first.bank_time + 3 * 60_000),
    env.DB.prepare(
      `INSERT INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, raw, link, recorded_at) VALUES ('demo', ?1, 'forwarder', ?2, ?2, ?3, ?4, 'legacy', 'key', ?4)`,
    ).bind(CHANNEL, twin, first.amount, first.bank_time + 3 * 60_000),
    env.DB.prepare(
      `INSERT INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount, status, channel_code, source, bank_time, raw, manual_code, resolved_at)
       VALUES (?1, 'demo', 'NO_ORDER', ?2, ?3, ?4, 'CREDITED', ?5, 'forwarder', ?6, 'legacy', ?7, ?8)`,
    ).bind(`UP${now}`, twin, `demo:${CHANNEL}:${twin}`, first.amount, CHANNEL, first.bank_time + 3 * 60_000, `${twin}M`, new Date().toISOString()),
    env.DB.prepare(
      `INSERT INTO bank_credits (agency_id, code, kind, channel_code, source, witness_id, amount, credited_at) VALUES ('demo', ?1, 'hand', ?2, 'forwarder', ?3, ?4, ?5)`,
    ).bind(`${twin}M`, CHANNEL, twin, first.amount, now),
  ]);
  await deriveAround(env, "demo", { channelCode: CHANNEL, direction: "credit", amount: first.amount, bankTime: first.bank_time }, null);
  seeded.twinCredit = `${twin}M`;
  seeded.twins = [first.id, twin];
});

/** The reconciliation page's plain POST forms (notes, the owner's settlement), as a staff member's browser sends them. */
const post = (cookie: string, fields: Record<string, string>) =>
  fetchApp("http://localhost/admin/reconciliation", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: cookie, Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });

describe("a bank day's lines", () => {
  it("credits: matched by the statement and the forwarder, staff only, no credit, one transfer credited twice", async () => {
    const page = await reconciliationPage(env.DB, "demo", today());
    const credits = page.lines.filter((l) => l.direction === "credit" && l.kind !== "timing");
    const byOrder = (code: string) => credits.find((l) => l.orderCode === code);
    expect(byOrder(seeded.matched)).toMatchObject({ kind: "matched", resolution: "applied", sources: expect.arrayContaining(["statement"]) });
    expect(byOrder(seeded.forwarded)).toMatchObject({ kind: "matched", sources: ["forwarder"] });
    expect(byOrder(seeded.staffOnly)).toMatchObject({ kind: "difference", reason: "STAFF_ONLY", sources: ["staff"] });
    expect(credits.find((l) => l.transferId === seeded.noCredit)).toMatchObject({ kind: "difference", reason: "NO_CREDIT", amount: "7777.00" });
    const twice = credits.filter((l) => l.reason === "CREDITED_TWICE");
    expect(twice).toHaveLength(1);
    // the statement row keys the transfer; both credits are on the line, the owner settles one
    expect(twice[0]).toMatchObject({ transferId: seeded.twins[0], money: true, credits: [seeded.matched, seeded.twinCredit].sort() });
  });

  it("debits: matched to the withdrawal marked paid (shown on the withdrawal), a debit with no withdrawal, a withdrawal with no debit", async () => {
    const page = await reconciliationPage(env.DB, "demo", today());
    expect(page.lines.find((l) => l.kind === "matched" && l.direction === "debit")).toMatchObject({
      orderCode: seeded.paid.code,
      resolution: "paid",
      sources: ["statement"],
    });
    expect(page.lines.find((l) => l.reason === "DEBIT_NO_WITHDRAWAL")).toMatchObject({ amount: "50000.00", raw: expect.stringContaining("ATM") });
    expect(page.lines.find((l) => l.reason === "WITHDRAWAL_NO_DEBIT")).toMatchObject({
      key: `withdrawal:${seeded.unpaid.code}`,
      orderCode: seeded.unpaid.code,
    });
    expect(page.lines.some((l) => l.kind === "waiting")).toBe(false);

    const detail = await withdrawalPage(env, "demo", seeded.paid.code);
    expect(detail!.bankDebits).toEqual([
      expect.objectContaining({ channelCode: CHANNEL, sources: ["statement"], raw: expect.stringContaining(seeded.paid.account) }),
    ]);
    expect((await withdrawalPage(env, "demo", seeded.unpaid.code))!.bankDebits).toEqual([]);
  });

  it("a deposit the reports count on another day than the bank is a timing line on both days", async () => {
    const todayPage = await reconciliationPage(env.DB, "demo", today());
    expect(lineOf(todayPage, `timing:${seeded.timingOrder}`)).toMatchObject({ kind: "timing", bankDay: seeded.timingBankDay, reportsDay: today() });
    const bankDayPage = await reconciliationPage(env.DB, "demo", seeded.timingBankDay);
    expect(lineOf(bankDayPage, `timing:${seeded.timingOrder}`)).toMatchObject({ bankDay: seeded.timingBankDay, reportsDay: today() });
    expect(bankDayPage.lines.find((l) => l.kind === "matched" && l.orderCode === seeded.timingOrder)).toBeTruthy();
    // the credit per provider: by the bank's day it is not today's, by the reports it is
    const betflix = todayPage.providers.find((p) => p.provider === "betflix")!;
    expect(betflix.inByReports).toBeGreaterThan(betflix.inByBank);
  });
});

describe("closing a day", () => {
  it("is open while a difference has no note or money is open; the owner notes each one (audited), settles the double, the queue item is refunded, and the day closes", async () => {
    const before = await reconciliationPage(env.DB, "demo", today());
    expect(before).toMatchObject({ covered: true, closed: false });
    const differences = before.lines.filter((l) => l.kind === "difference");
    expect(differences.map((l) => l.reason).sort()).toEqual(["CREDITED_TWICE", "DEBIT_NO_WITHDRAWAL", "NO_CREDIT", "STAFF_ONLY", "WITHDRAWAL_NO_DEBIT"]);
    expect(await saveReconciliationNote(env.DB, owner, { day: today(), lineKey: differences[0]!.key, note: "no" })).toEqual({
      ok: false,
      error: "NOTE_INVALID",
    });
    expect(await saveReconciliationNote(env.DB, owner, { day: today(), lineKey: "credit:nothing", note: "not a line" })).toEqual({
      ok: false,
      error: "NOT_A_DIFFERENCE",
    });
    for (const line of differences)
      expect(await saveReconciliationNote(env.DB, owner, { day: today(), lineKey: line.key, note: `checked: ${line.reason}` })).toEqual({ ok: true });
    // a note alone never closes a day with money open: the double and the money not credited
    expect(await reconciliationPage(env.DB, "demo", today())).toMatchObject({ closed: false, summary: { differences: 5, noted: 5, moneyOpen: 2 } });
    // the owner settles the surplus credit with the line's form (a cashier may not; a reason is required), once; the
    // transfer's last credit cannot be settled away
    const page = await (await fetchApp(`http://localhost/admin/reconciliation?day=${today()}`, { headers: { Cookie: ownerCookie } })).text();
    expect(page).toContain('data-testid="settle-form"');
    const settle = { intent: "settle", day: today(), lineKey: `twice:${CHANNEL}:${seeded.twins[0]}`, code: seeded.twinCredit, settled: "loss" };
    expect((await post(cashierCookie, { ...settle, reason: "credited by hand before the statement" })).status).toBe(403);
    expect((await post(ownerCookie, { ...settle, reason: "x" })).status).toBe(400);
    expect((await post(ownerCookie, { ...settle, reason: "credited by hand before the statement" })).status).toBe(302);
    expect((await post(ownerCookie, { ...settle, reason: "credited by hand before the statement" })).status).toBe(409);
    expect(await settleDoubleCredit(env, owner, { code: seeded.matched, settled: "loss", reason: "again" })).toEqual({ ok: false, error: "NOT_SETTLEABLE" });
    const queued = await env.DB.prepare(`SELECT id FROM unmatched_payments WHERE agency_id = 'demo' AND amount = '7777.00' AND status = 'OPEN'`).first<{
      id: string;
    }>();
    expect((await resolveAsRefunded(env, owner, queued!.id, "sent back to the payer")).ok).toBe(true);
    const after = await reconciliationPage(env.DB, "demo", today());
    expect(after).toMatchObject({ closed: true, summary: { differences: 3, noted: 3, moneyOpen: 0 } });
    const audit = await env.DB.prepare(
      `SELECT COUNT(*) AS n FROM audit_log WHERE agency_id = 'demo' AND action IN ('reconciliation.note', 'bank-transaction.settle') AND staff_username = 'rec-owner'`,
    ).first<{ n: number }>();
    expect(audit!.n).toBe(6);
  });
});

describe("the page, the note action and the CSV", () => {
  it("a cashier reads the page without note forms; the note action answers a cashier 403 and an owner a redirect", async () => {
    const page = await fetchApp(`http://localhost/admin/reconciliation?day=${today()}`, { headers: { Cookie: cashierCookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-testid="reconciliation"');
    expect(html).not.toContain('data-testid="note-form"');
    const key = `withdrawal:${seeded.unpaid.code}`;
    expect((await post(cashierCookie, { day: today(), lineKey: key, note: "a cashier's note" })).status).toBe(403);
    const saved = await post(ownerCookie, { day: today(), lineKey: key, note: "paid from the second account" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/admin/reconciliation?day=${today()}`);
    expect(lineOf(await reconciliationPage(env.DB, "demo", today()), key)?.note?.note).toBe("paid from the second account");
    const ownerPage = await (await fetchApp(`http://localhost/admin/reconciliation?day=${today()}`, { headers: { Cookie: ownerCookie } })).text();
    expect(ownerPage).toContain('data-testid="note-form"');
    expect(ownerPage).toContain('data-closed="yes"');
    // a day in the future is refused on the page, not an error
    const future = await fetchApp(`http://localhost/admin/reconciliation?day=2999-01-01`, { headers: { Cookie: cashierCookie } });
    expect(await future.text()).toContain('data-testid="reconciliation-error"');
  });

  it("exports the day's lines as CSV (BOM, formulas neutralised, audited)", async () => {
    const res = await fetchApp(`http://localhost/admin/reconciliation/${today()}.csv`, { headers: { Cookie: cashierCookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/csv");
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = text.slice(1).trim().split("\r\n");
    const page = await reconciliationPage(env.DB, "demo", today());
    expect(rows).toHaveLength(page.lines.length + 1);
    expect(text).toContain(seeded.unpaid.code);
    expect(text).toContain("paid from the second account");
    const audit = await env.DB.prepare(`SELECT staff_username FROM audit_log WHERE agency_id = 'demo' AND action = 'reconciliation.export' AND target = ?1`)
      .bind(today())
      .first<{ staff_username: string }>();
    expect(audit?.staff_username).toBe("rec-cashier");
    expect((await fetchApp(`http://localhost/admin/reconciliation/not-a-day.csv`, { headers: { Cookie: cashierCookie } })).status).toBe(404);
  });
});
