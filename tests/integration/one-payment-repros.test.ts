import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedDemo } from "../setup/seed";
import { playerWithBank, postDeposit } from "../setup/money";
import { ageOrder, seedOwnAccountChannel } from "../setup/own-account";
import type { AuditActor } from "../../workers/db/audit";
import { vientianeDate } from "../../workers/core/report-range";
import { findAgencyByHost, type Agency } from "../../workers/services/agency";
import {
  applyBankTransaction,
  getUnmatched,
  markOpenDepositPaid,
  reconciliationPage,
  resolveWithCredit,
  saveReconciliationNote,
  type BankTransactionInput,
} from "../../workers/services/bank-in";

/**
 * One payment, one credit, from the outside (decision 069): the reproductions an independent
 * randomized test found on the matcher of decision 046, each on a fresh player and order. Each
 * counts what the player was really credited in their own wallet (paid orders, by hand or not)
 * against the payments they really made.
 */

const CHANNEL = "OWN-REPRO";
const owner: AuditActor = { agencyId: "demo", staffId: "staff-boss", staffUsername: "boss" };
const cashier: AuditActor = { agencyId: "demo", staffId: "staff-cashier", staffUsername: "cashier" };
let agency: Agency;

beforeAll(async () => {
  await seedDemo();
  await seedOwnAccountChannel("demo", CHANNEL, "derived");
  agency = (await findAgencyByHost(env.DB, "localhost"))!;
});

/** A player's open order, its life moved 5 minutes back (so the payments below, a minute or two after it opened, are in the past). */
async function openOwnOrder(amount: string) {
  const p = await playerWithBank();
  expect((await postDeposit(p.cookie, { channelCode: CHANNEL, amount, provider: "betflix" })).status).toBe(302);
  const order = (await p.wallet.openDepositOrder(Date.now()))!;
  await ageOrder(p.wallet, "demo", order.code, 5 * 60_000);
  return { ...p, order, createdAt: new Date(order.createdAt).getTime() - 5 * 60_000 };
}

/** How many credits the player's wallet holds: deposit orders paid (applied to the order, or a MANUAL order by hand). */
async function creditsOf(p: Awaited<ReturnType<typeof openOwnOrder>>): Promise<number> {
  const { items } = await p.wallet.listDeposits(1, 50);
  return items.filter((o) => o.status === "PAID" || o.status === "SUCCESS").length;
}

const report = (source: BankTransactionInput["source"], id: string, amount: string, bankTime: number, raw: string | null = null): BankTransactionInput => ({
  channelCode: CHANNEL,
  bankTransactionId: id,
  amount,
  bankTime,
  reference: null,
  source,
  raw,
});

const openQueueOf = async (amount: string) =>
  (
    await env.DB.prepare(`SELECT id, transaction_id FROM unmatched_payments WHERE agency_id = 'demo' AND channel_code = ?1 AND amount = ?2 AND status = 'OPEN'`)
      .bind(CHANNEL, amount)
      .all<{ id: string; transaction_id: string }>()
  ).results;

/** A statement covering [from, to] of the channel (what an import records), so the day can close. */
async function statementCovers(from: number, to: number) {
  await env.DB.prepare(
    `INSERT INTO statement_imports (id, agency_id, channel_code, file_name, bank_time_from, bank_time_to, credit_rows, debit_rows, imported_at) VALUES (?1, 'demo', ?2, 'day.csv', ?3, ?4, 2, 0, ?5)`,
  )
    .bind(`imp${from}`, CHANNEL, from, to, Date.now())
    .run();
}

describe("a cashier alone cannot credit one transfer twice", () => {
  it("mark paid with the hour mistyped is refused and changes nothing; recorded anyway, the hand credit pays the order itself; the bank's SMS then credits nothing more", async () => {
    const p = await openOwnOrder("61000");
    const amount = p.order.payAmount!;
    const mistyped = p.createdAt - 3600_000;
    const refused = await markOpenDepositPaid(env, cashier, { orderCode: p.order.code, bankTransactionId: "FTREPRO1A", bankTime: mistyped });
    expect(refused).toMatchObject({ ok: false, error: "BANK_TIME_OUTSIDE_ORDER" });
    expect(await openQueueOf(amount)).toEqual([]);
    // the cashier insists (the bank app shows that hour): recorded, queued, and credited by hand
    await markOpenDepositPaid(env, cashier, { orderCode: p.order.code, bankTransactionId: "FTREPRO1A", bankTime: mistyped, outsideLife: true });
    const [queued] = await openQueueOf(amount);
    expect(queued).toBeTruthy();
    const credited = await resolveWithCredit(env, agency, cashier, queued!.id, { username: p.username, provider: "betflix", role: "cashier" });
    expect(credited.ok).toBe(true);
    expect(await creditsOf(p)).toBe(1);
    // the bank's SMS of the same transfer (its own reference, the right time): the same payment, nothing more
    await applyBankTransaction(env, "demo", report("forwarder", "SMSREPRO1A", amount, p.createdAt + 60_000, `BCEL +${amount} LAK`), null);
    // and the day's statement row of it
    await applyBankTransaction(env, "demo", report("statement", "ROWREPRO1A", amount, p.createdAt + 60_000, "row"), owner);
    expect(await creditsOf(p)).toBe(1);
    expect(await openQueueOf(amount)).toEqual([]);
    const day = await reconciliationPage(env.DB, "demo", vientianeDate(p.createdAt + 60_000));
    expect(day.lines.filter((l) => l.reason === "CREDITED_TWICE")).toEqual([]);
  });
});

describe("a real second payment is never lost", () => {
  it("window 10 min: the statement's R1 credits the order; the SMS of a second payment (R2) 60 s later is taken as R1's; the statement listing R1 and R2 uncovers it: queued, on the day, not closed by a note", async () => {
    const p = await openOwnOrder("62000");
    const amount = p.order.payAmount!;
    const t1 = p.createdAt + 60_000;
    expect(await applyBankTransaction(env, "demo", report("statement", "R1REPRO2", amount, t1, "row R1"), owner)).toMatchObject({ kind: "applied" });
    await applyBankTransaction(env, "demo", report("forwarder", "R2REPRO2", amount, t1 + 60_000, `BCEL +${amount} LAK Ref R2REPRO2`), null);
    expect(await openQueueOf(amount)).toEqual([]); // until the statement: one transfer, two witnesses
    // the day's statement: both rows (R1 again: nothing changes for it)
    await applyBankTransaction(env, "demo", report("statement", "R1REPRO2", amount, t1, "row R1"), owner);
    await applyBankTransaction(env, "demo", report("statement", "R2REPRO2", amount, t1 + 60_000, "row R2"), owner);
    const queue = await openQueueOf(amount);
    expect(queue).toHaveLength(1);
    expect(queue[0]!.transaction_id).toMatch(/R2REPRO2$/);
    // staff were alerted of the uncovered payment (the alerts queue's event, when alerts are set up: recorded here)
    const audit = await env.DB.prepare(`SELECT after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'bank-transaction.recorded' AND target = ?1`)
      .bind(`${CHANNEL}:R2REPRO2`)
      .all<{ after_json: string }>();
    expect(audit.results.some((r) => JSON.parse(r.after_json).lostCredit === true)).toBe(true);
    // the link the window made is overturned, audited: which report went where
    const overturned = await env.DB.prepare(
      `SELECT after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'bank-transaction.overturned' AND target = ?1`,
    )
      .bind(`${CHANNEL}:R1REPRO2`)
      .first<{ after_json: string }>();
    expect(JSON.parse(overturned!.after_json).transfers).toEqual({ R1REPRO2: ["statement:R1REPRO2"], R2REPRO2: ["forwarder:R2REPRO2"] });
    // on the day: money not credited, which a note does not close
    const dayKey = vientianeDate(t1);
    await statementCovers(t1, t1 + 60_000);
    const day = await reconciliationPage(env.DB, "demo", dayKey);
    const line = day.lines.find((l) => l.reason === "NO_CREDIT" && l.transferId === "R2REPRO2");
    expect(line).toMatchObject({ money: true });
    expect(await saveReconciliationNote(env.DB, owner, { day: dayKey, lineKey: line!.key, note: "the player paid twice" })).toEqual({ ok: true });
    expect((await reconciliationPage(env.DB, "demo", dayKey)).lines.find((l) => l.key === line!.key)).toMatchObject({ money: true });
    // the cashier cannot credit money that may be credited already; the owner can, with a reason
    expect(await resolveWithCredit(env, agency, cashier, queue[0]!.id, { username: p.username, provider: "betflix", role: "cashier" })).toMatchObject({
      ok: false,
      error: "PROBABLE_DUPLICATE",
    });
    const byOwner = await resolveWithCredit(env, agency, owner, queue[0]!.id, {
      username: p.username,
      provider: "betflix",
      role: "owner",
      reason: "two rows on the statement",
    });
    expect(byOwner.ok).toBe(true);
    expect(await creditsOf(p)).toBe(2);
    expect((await reconciliationPage(env.DB, "demo", dayKey)).lines.some((l) => l.transferId === "R2REPRO2" && l.reason === "NO_CREDIT")).toBe(false);
  });

  it("window 1 min: the forwarder reports both payments 90 s apart, naming the order: the second is a payment of its own (queued), the statement's two rows map onto them, the day is not closed", async () => {
    await env.DB.prepare(`UPDATE payment_channels SET witness_window_minutes = 1 WHERE agency_id = 'demo' AND code = ?1`).bind(CHANNEL).run();
    try {
      const p = await openOwnOrder("63000");
      const amount = p.order.payAmount!;
      const t1 = p.createdAt + 60_000;
      const sms = (id: string, at: number) => report("forwarder", id, amount, at, `BCEL +${amount} LAK ${p.order.code} Ref ${id}`);
      expect(await applyBankTransaction(env, "demo", sms("F1REPRO3", t1), null)).toMatchObject({ kind: "applied" });
      expect(await applyBankTransaction(env, "demo", sms("F2REPRO3", t1 + 90_000), null)).toMatchObject({ kind: "unmatched" });
      await applyBankTransaction(env, "demo", report("statement", "F1REPRO3", amount, t1, "row 1"), owner);
      await applyBankTransaction(env, "demo", report("statement", "F2REPRO3", amount, t1 + 90_000, "row 2"), owner);
      const queue = await openQueueOf(amount);
      expect(queue).toHaveLength(1);
      const witnesses = await env.DB.prepare(
        `SELECT source, transfer_id FROM bank_witnesses WHERE agency_id = 'demo' AND channel_code = ?1 AND witness_id = 'F2REPRO3'`,
      )
        .bind(CHANNEL)
        .all<{ source: string; transfer_id: string }>();
      expect(witnesses.results.map((w) => w.transfer_id)).toEqual(["F2REPRO3", "F2REPRO3"]);
      const dayKey = vientianeDate(t1);
      await statementCovers(t1, t1 + 90_000);
      const day = await reconciliationPage(env.DB, "demo", dayKey);
      expect(day.closed).toBe(false);
      expect(day.lines.find((l) => l.transferId === "F2REPRO3")).toMatchObject({ reason: "NO_CREDIT", money: true });
      expect(await creditsOf(p)).toBe(1);
      expect((await getUnmatched(env.DB, "demo", queue[0]!.id))?.status).toBe("OPEN");
    } finally {
      await env.DB.prepare(`UPDATE payment_channels SET witness_window_minutes = 10 WHERE agency_id = 'demo' AND code = ?1`).bind(CHANNEL).run();
    }
  });
});

describe("bad times", () => {
  it("a message dated after it arrived is kept, never linked by its time, credits nothing more, and is listed on the day it arrived", async () => {
    const p = await openOwnOrder("64000");
    const amount = p.order.payAmount!;
    const now = Date.now();
    expect(await applyBankTransaction(env, "demo", report("statement", "ROWREPRO4", amount, now - 60_000, "row"), owner)).toMatchObject({ kind: "applied" });
    await applyBankTransaction(env, "demo", report("forwarder", "SMSREPRO4", amount, now + 3 * 60_000, "3 minutes ahead"), null);
    await applyBankTransaction(env, "demo", report("forwarder", "SMSREPRO4Y", amount, Date.parse("2099-01-01T00:00:00Z"), "year 2099"), null);
    const placed = await env.DB.prepare(
      `SELECT witness_id, transfer_id, future FROM bank_witnesses WHERE agency_id = 'demo' AND witness_id LIKE 'SMSREPRO4%' ORDER BY witness_id`,
    ).all<{
      witness_id: string;
      transfer_id: string;
      future: number;
    }>();
    // not by its time: the first is the order's money (it arrived while the order's amount was held), a report of the
    // statement row's transfer; the second message of the same source cannot be that transfer's too: a transfer of its own
    expect(placed.results).toEqual([
      { witness_id: "SMSREPRO4", transfer_id: "ROWREPRO4", future: 1 },
      { witness_id: "SMSREPRO4Y", transfer_id: "SMSREPRO4Y", future: 1 },
    ]);
    expect(await creditsOf(p)).toBe(1);
    const day = await reconciliationPage(env.DB, "demo", vientianeDate(now));
    expect(day.lines.filter((l) => l.reason === "FUTURE_DATED").map((l) => l.transferId)).toEqual(expect.arrayContaining(["SMSREPRO4", "SMSREPRO4Y"]));
  });
});
