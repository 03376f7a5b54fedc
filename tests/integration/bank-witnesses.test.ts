import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { playerWithBank, postDeposit, providerBalance } from "../setup/money";
import { ageOrder, seedOwnAccountChannel } from "../setup/own-account";
import { smsForwarderSign } from "../../workers/core/sms-forwarder";
import {
  applyBankTransaction,
  createForwarder,
  getUnmatched,
  markOpenDepositPaid,
  resolveWithCredit,
  splitWitness,
  twinsOfPayment,
} from "../../workers/services/bank-in";
import { getDepositDetail } from "../../workers/services/deposits";
import { createStaff, staffLogin } from "../setup/staff";
import { postForm } from "../setup/players";
import { findAgencyByHost } from "../../workers/services/agency";
import type { AuditActor } from "../../workers/db/audit";

/**
 * One payment, one credit (decisions 046 and 069): the two doublings two operator rehearsals found, as
 * they happened: a transfer seen by two witnesses under two ids was credited once by its
 * first witness and queued as a new payment by the second, and "credit by hand" on that queue
 * item paid the player again.
 */

const CHANNEL = "OWN-WIT";
const owner: AuditActor = { agencyId: "demo", staffId: "staff-boss", staffUsername: "boss" };
const cashier: AuditActor = { agencyId: "demo", staffId: "staff-cashier", staffUsername: "cashier" };
let token = "";
let secret = "";

beforeAll(async () => {
  await seedDemo();
  await seedOwnAccountChannel("demo", CHANNEL, "derived");
  const created = await createForwarder(env, owner, CHANNEL);
  if (!created.ok) throw new Error(created.code);
  ({ token, secret } = created);
  // the forwarder's cap: every message in these tests credits alone
  await env.DB.prepare(`UPDATE forwarders SET auto_cap = '100000000' WHERE channel_code = ?1`).bind(CHANNEL).run();
});

async function openOwnOrder(amount: string) {
  const p = await playerWithBank();
  const res = await postDeposit(p.cookie, { channelCode: CHANNEL, amount, provider: "betflix" });
  expect(res.status).toBe(302);
  const order = (await p.wallet.openDepositOrder(Date.now()))!;
  return { ...p, order };
}

async function forward(content: string) {
  const timestamp = String(Date.now());
  const body = new URLSearchParams({ from: "BCEL", content, timestamp, sign: await smsForwarderSign(secret, timestamp) });
  const res = await fetchApp(`http://localhost/api/forwarder/${token}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  return (await res.json()) as { ok: boolean; result?: string };
}

const written = (amount: string) => Number(amount).toLocaleString("en-US", { minimumFractionDigits: 2 });
const vientiane = (ms: number) => {
  const d = new Date(ms + 7 * 3600_000);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
};
const queueItems = async () =>
  (
    await env.DB.prepare(`SELECT id FROM unmatched_payments WHERE agency_id = 'demo' AND channel_code = ?1 AND status = 'OPEN'`)
      .bind(CHANNEL)
      .all<{ id: string }>()
  ).results;

describe("the rehearsals' doublings", () => {
  it("a forwarded notification without a bank reference, then the statement row of the same transfer: one credit, nothing queued", async () => {
    const p = await openOwnOrder("120000");
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const forwarded = await forward(`BCEL One: +${written(p.order.payAmount!)} LAK received from SOMPHONE on ${vientiane(minute)}`);
    expect(forwarded).toEqual({ ok: true, result: "applied" });
    const before = await queueItems();
    const statement = await applyBankTransaction(
      env,
      "demo",
      {
        channelCode: CHANNEL,
        bankTransactionId: "FT26331E0005",
        amount: p.order.payAmount!,
        bankTime: minute,
        reference: null,
        source: "statement",
        raw: `Date: ${vientiane(minute)} | Credit: ${p.order.payAmount} | Ref: FT26331E0005`,
      },
      owner,
    );
    expect(statement).toMatchObject({ kind: "duplicate", orderCode: p.order.code });
    expect(await queueItems()).toEqual(before);
    await p.wallet.runDueWork();
    expect(await providerBalance("betflix", p.username)).toBe("200.00");
    // the statement's bank id is now an alias of the transfer: the same row again is a duplicate too
    expect(
      await applyBankTransaction(
        env,
        "demo",
        {
          channelCode: CHANNEL,
          bankTransactionId: "FT26331E0005",
          amount: p.order.payAmount!,
          bankTime: minute,
          reference: null,
          source: "statement",
          raw: null,
        },
        owner,
      ),
    ).toMatchObject({ kind: "duplicate" });
    const witnesses = await env.DB.prepare(
      `SELECT source, link FROM bank_witnesses WHERE agency_id = 'demo' AND channel_code = ?1 AND amount = ?2 ORDER BY recorded_at`,
    )
      .bind(CHANNEL, p.order.payAmount)
      .all<{ source: string; link: string }>();
    // the statement row keys the transfer (the bank's own list); the message is tied to it
    expect(witnesses.results).toEqual([
      { source: "forwarder", link: "window" },
      { source: "statement", link: "key" },
    ]);
  });

  it("a cashier marks an order paid with ST1234567890, then the phone forwards the bank's SMS (Ref FT9876543210, naming the order): linked, not queued", async () => {
    const p = await openOwnOrder("100000");
    await ageOrder(p.wallet, "demo", p.order.code, 12 * 60_000);
    // the cashier's typed bank time is 11.5 minutes before the SMS's: only the order the SMS names links them
    const marked = await markOpenDepositPaid(env, cashier, {
      orderCode: p.order.code,
      bankTransactionId: "ST1234567890",
      bankTime: Date.now() - 11.5 * 60_000,
    });
    expect(marked).toEqual({ ok: true, orderCode: p.order.code });
    const before = await queueItems();
    const forwarded = await forward(
      `BCEL One: Received ${written(p.order.payAmount!)} LAK from SOMPHONE on ${vientiane(Date.now())}. Ref: FT9876543210 ${p.order.code}`,
    );
    expect(forwarded).toEqual({ ok: true, result: "duplicate" });
    expect(await queueItems()).toEqual(before);
    await p.wallet.runDueWork();
    expect(await providerBalance("betflix", p.username)).toBe("166.66");
  });

  it("a payment queued before witnesses were linked: the cashier cannot credit it, the owner only with a reason (audited)", async () => {
    const p = await openOwnOrder("130000");
    const bankTime = Date.now();
    expect(
      await applyBankTransaction(
        env,
        "demo",
        {
          channelCode: CHANNEL,
          bankTransactionId: "FTKEEP0001",
          amount: p.order.payAmount!,
          bankTime,
          reference: null,
          source: "forwarder",
          raw: "BCEL One: +130,xxx LAK",
        },
        null,
      ),
    ).toMatchObject({ kind: "applied" });
    await p.wallet.runDueWork();
    // what the old matcher left behind: the statement's row of the same transfer as a transfer of its own, queued
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO bank_transactions (agency_id, channel_code, bank_transaction_id, amount, bank_time, source, raw, outcome, recorded_at) VALUES ('demo', ?1, 'FTOLD0001', ?2, ?3, 'statement', 'old row', 'NO_ORDER', ?3)`,
      ).bind(CHANNEL, p.order.payAmount, bankTime),
      env.DB.prepare(
        `INSERT INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount, channel_code, source, bank_time, raw) VALUES ('OLDQUEUED1', 'demo', 'NO_ORDER', 'FTOLD0001', ?1, ?2, ?3, 'statement', ?4, 'old row')`,
      ).bind(`demo:${CHANNEL}:FTOLD0001`, p.order.payAmount, CHANNEL, bankTime),
    ]);
    const agency = (await findAgencyByHost(env.DB, "localhost"))!;
    const byCashier = await resolveWithCredit(env, agency, cashier, "OLDQUEUED1", {
      username: p.username,
      provider: "betflix",
      role: "cashier",
      reason: "player says so",
    });
    expect(byCashier).toMatchObject({ ok: false, error: "PROBABLE_DUPLICATE" });
    expect(!byCashier.ok && byCashier.twins?.[0]).toMatchObject({ kind: "applied", orderCode: p.order.code, source: "forwarder", witnessId: "FTKEEP0001" });
    expect(await resolveWithCredit(env, agency, owner, "OLDQUEUED1", { username: p.username, provider: "betflix", role: "owner", reason: "" })).toMatchObject({
      ok: false,
      error: "OVERRIDE_REASON_REQUIRED",
    });
    expect(await providerBalance("betflix", p.username)).toBe("216.66");
    const done = await resolveWithCredit(env, agency, owner, "OLDQUEUED1", {
      username: p.username,
      provider: "betflix",
      role: "owner",
      reason: "two transfers on the BCEL statement of the day",
    });
    expect(done.ok).toBe(true);
    const audit = await env.DB.prepare(
      `SELECT after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'payment.credit' AND target = 'OLDQUEUED1'`,
    ).first<{ after_json: string }>();
    expect(JSON.parse(audit!.after_json).override).toMatchObject({ reason: "two transfers on the BCEL statement of the day" });
  });
});

describe("witnesses of one transfer at the same moment", () => {
  it("staff, statement and forwarder reporting one transfer at once, under three ids: one transfer, one credit, nothing queued", async () => {
    const cases = [];
    for (let i = 0; i < 8; i++) cases.push(await openOwnOrder(String(60_000 + i * 10_000)));
    const before = await queueItems();
    await Promise.all(
      cases.map(async (p, i) => {
        const bankTime = Date.now() - 60_000;
        const statement = {
          channelCode: CHANNEL,
          bankTransactionId: `FTRACE${i}S`,
          amount: p.order.payAmount!,
          bankTime,
          reference: null,
          source: "statement" as const,
          raw: `row ${i}`,
        };
        const forwarded = { ...statement, bankTransactionId: `sha256:race${i}`, source: "forwarder" as const, bankTime: bankTime + 20_000, raw: `sms ${i}` };
        const answers = await Promise.all([
          applyBankTransaction(env, "demo", statement, owner),
          applyBankTransaction(env, "demo", forwarded, null),
          markOpenDepositPaid(env, cashier, { orderCode: p.order.code, bankTransactionId: `ST-RACE-${i}`, bankTime }),
          applyBankTransaction(env, "demo", statement, owner), // the same row twice (a second import)
        ]);
        expect(answers.filter((a) => "kind" in a && a.kind === "applied").length + answers.filter((a) => "ok" in a && a.ok).length).toBeGreaterThanOrEqual(1);
      }),
    );
    expect(await queueItems()).toEqual(before);
    for (const p of cases) {
      const transfers = await env.DB.prepare(`SELECT COUNT(*) AS n FROM bank_transactions WHERE agency_id = 'demo' AND channel_code = ?1 AND amount = ?2`)
        .bind(CHANNEL, p.order.payAmount)
        .first<{ n: number }>();
      expect(transfers!.n).toBe(1);
      await p.wallet.runDueWork();
      const order = (await p.wallet.getDeposit(p.order.code))!;
      expect(order.status).toBe("SUCCESS");
      expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
    }
  }, 120_000);
});

describe("the order's page lists every witness; the owner splits a link", () => {
  it("a statement row linked by amount and time is listed on the order; split by the owner (reason, audited) it is queued with its raw text, flagged against the order; the cashier's split is 403", async () => {
    const p = await openOwnOrder("140000");
    const bankTime = Date.now() - 120_000;
    await applyBankTransaction(
      env,
      "demo",
      { channelCode: CHANNEL, bankTransactionId: "FTSPLITA", amount: p.order.payAmount!, bankTime, reference: null, source: "forwarder", raw: "sms A" },
      null,
    );
    expect(
      await applyBankTransaction(
        env,
        "demo",
        {
          channelCode: CHANNEL,
          bankTransactionId: "FTSPLITB",
          amount: p.order.payAmount!,
          bankTime: bankTime + 60_000,
          reference: null,
          source: "statement",
          raw: "row B",
        },
        owner,
      ),
    ).toMatchObject({ kind: "duplicate", orderCode: p.order.code });
    await p.wallet.runDueWork(); // the read model the page starts from
    const detail = (await getDepositDetail(env, "demo", p.order.code))!;
    expect(detail.witnesses.map((w) => [w.source, w.witnessId, w.link, w.raw])).toEqual([
      ["statement", "FTSPLITB", "key", "row B"],
      ["forwarder", "FTSPLITA", "window", "sms A"],
    ]);
    // the cashier cannot split (the route is the owner's)
    const username = `csplit${Date.now() % 100000}`;
    const cashierStaff = await createStaff(env, { agencyId: "demo", username, password: "cashier-pass-1234", role: "cashier" });
    const cookie = await staffLogin(env, { username, password: "cashier-pass-1234", totpSecret: cashierStaff.totpSecret });
    const res = await postForm(
      `/admin/deposits/${p.order.code}`,
      { intent: "split", channelCode: CHANNEL, source: "statement", witnessId: "FTSPLITB", reason: "two payments" },
      { cookie },
    );
    expect(res.status).toBe(403);
    expect(await splitWitness(env, owner, { channelCode: CHANNEL, source: "statement", witnessId: "FTSPLITB", reason: "" })).toEqual({
      ok: false,
      error: "REASON_REQUIRED",
    });
    expect(
      await splitWitness(env, owner, { channelCode: CHANNEL, source: "statement", witnessId: "FTSPLITB", reason: "two transfers on the statement" }),
    ).toEqual({ ok: true });
    expect(await splitWitness(env, owner, { channelCode: CHANNEL, source: "statement", witnessId: "FTSPLITB", reason: "again" })).toEqual({
      ok: false,
      error: "NOT_LINKED",
    });
    const queued = await env.DB.prepare(`SELECT id, kind, raw FROM unmatched_payments WHERE agency_id = 'demo' AND transaction_id = ?1`)
      .bind(`demo:${CHANNEL}:FTSPLITB`)
      .first<{ id: string; kind: string; raw: string }>();
    expect(queued).toMatchObject({ kind: "NO_ORDER", raw: "row B" });
    const twins = await twinsOfPayment(env.DB, "demo", (await getUnmatched(env.DB, "demo", queued!.id))!);
    expect(twins).toMatchObject([{ kind: "applied", orderCode: p.order.code, source: "forwarder", witnessId: "FTSPLITA", sameSource: false }]);
    const audit = await env.DB.prepare(`SELECT after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'bank-transaction.split' AND target = ?1`)
      .bind(`${CHANNEL}:FTSPLITB`)
      .first<{ after_json: string }>();
    expect(JSON.parse(audit!.after_json)).toMatchObject({ source: "statement", id: "FTSPLITB", reason: "two transfers on the statement" });
  });
});
