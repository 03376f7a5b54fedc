import { afterAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { addBankAccount, registerPlayer } from "../../workers/services/players";
import { walletOf } from "../../workers/services/wallets";
import {
  createForwarder,
  importStatement,
  newStaff,
  phonePost,
  reconciliationHtml,
  staffGet,
  staffPost,
  type Forwarder,
  type Staff,
} from "../setup/bank-reports";
import { seedDemo } from "../setup/seed";
import { fundProvider, postWithdraw } from "../setup/money";
import { seedOwnAccountChannel } from "../setup/own-account";
import { loginViaForm, PASSWORD, sessionFrom, uniqueName } from "../setup/players";
import { seeded, shuffled } from "../setup/random";

/**
 * The bank's debit closes a withdrawal (decision 084), model-based, in the spirit of
 * one-payment-model.test.ts (decision 069). A seeded generator opens withdrawals waiting for the
 * cashier (two of them twins: the same amount and either the same account tail or texts that
 * name no payee) and plans what really left the agency's account: the cashier's payouts, their
 * texts naming the payee by a masked tail, by the whole account number, or not at all; one
 * withdrawal paid twice; a debit for no withdrawal; a debit of an open withdrawal's amount to
 * a stranger's account. What the agency hears of each payout: the phone's forwarded SMS (with
 * or without the bank's id, sometimes delivered twice), partial statements and a whole-day
 * statement at the end (with or without an id column), in random order, up to three at once;
 * and once, the cashier marking a withdrawal paid by hand while its SMS arrives.
 *
 * The model is the generator's own list (`Payout`: which withdrawal, if any, the money paid,
 * when, with which text): reports are traced back to it by their amount and bank time (two
 * payouts of one amount are planned 25 minutes apart, beyond the channel's window). After every
 * step: each withdrawal a debit closed was closed by a report of one of ITS payouts; no
 * withdrawal has more than one payout decision; twins and unpaid withdrawals stay open.
 * At the end: every paid withdrawal (but the twins) is paid once; the twins wait with each other
 * as candidates on their staff pages; and each bank day's reconciliation lists every payout
 * once: the one that paid a withdrawal matched to it, every other (the second payout, the
 * stranger's, the twins', the one for no withdrawal) a DEBIT_NO_WITHDRAWAL difference.
 *
 * CI runs SEEDS. Others: `DEBIT_SEEDS=40,41 npx vitest run tests/integration/debit-payouts-model.test.ts`.
 */

const SEEDS = [21, 22, 100];
const AGENCY = "demo";
const MINUTE = 60_000;
/** How long before now the withdrawals are made to have opened (the payouts fall in between). */
const OPENED_AGO = 8 * 60 * MINUTE;
const SLOT = 25 * MINUTE;

// ---------------------------------------------------------------------------------------------
// The model.

type Style = "tail" | "full" | "amount";
type PlannedWithdrawal = { i: number; credit: number; account: string; twin: boolean };
type Payout = {
  n: number;
  /** the withdrawal it paid (index), or null: money for no withdrawal */
  w: number | null;
  kind: "payout" | "second" | "stranger" | "unrelated";
  style: Style;
  /** the masked tail a stranger's payout names */
  strangerTail: string | null;
  slot: number;
  bankId: string;
  sms: null | { withId: boolean; twice: boolean };
  /** the cashier marks its withdrawal paid by hand while the SMS arrives */
  hand: boolean;
};
type Plan = {
  withdrawals: PlannedWithdrawal[];
  payouts: Payout[];
  statementIds: boolean;
  partials: number[][];
  twinStyle: Style;
  /** the bank's fee per transfer out the owner declared for the channel (kip) */
  fee: number;
};

const ID_LETTERS = "0123456789ABCDEFGHJKMNPQRSTVWYZ"; // no X: an id never reads as a masked tail

function planOf(seed: number): Plan {
  const r = seeded(seed);
  const base = 5100 + (seed % 40) * 200;
  const tails = shuffled(
    r,
    Array.from({ length: 60 }, (_, i) => String(1001 + i * 137 + r.int(100)).slice(-4)),
  ).filter((t, i, all) => all.indexOf(t) === i);
  const account = (tail: string) => `0101${String(10_000_000 + r.int(89_999_999))}${tail}`;
  const withdrawals: PlannedWithdrawal[] = [];
  // two twins: the same credit and the same account tail
  const twinTail = tails.pop()!;
  for (let i = 0; i < 2; i++) withdrawals.push({ i, credit: base, account: account(twinTail), twin: true });
  for (let i = 2; i < 7; i++) withdrawals.push({ i, credit: base + 10 * i, account: account(tails.pop()!), twin: false });
  const twinStyle: Style = r.chance(0.5) ? "tail" : "amount";
  const styles: Style[] = ["tail", "full", "amount"];
  const payouts: Payout[] = [];
  const add = (p: Omit<Payout, "n" | "slot" | "bankId" | "sms" | "hand">) =>
    payouts.push({
      ...p,
      n: payouts.length,
      slot: 0,
      bankId: `FT${Array.from({ length: 10 }, () => ID_LETTERS[r.int(ID_LETTERS.length)]).join("")}`,
      sms: r.chance(0.75) ? { withId: r.chance(0.5), twice: r.chance(0.2) } : null,
      hand: false,
    });
  add({ w: 0, kind: "payout", style: twinStyle, strangerTail: null });
  if (r.chance(0.5)) add({ w: 1, kind: "payout", style: twinStyle, strangerTail: null });
  const unpaid: number[] = [];
  for (let i = 2; i < 7; i++) {
    if (i > 2 && r.chance(0.2)) unpaid.push(i);
    else add({ w: i, kind: "payout", style: styles[r.int(3)]!, strangerTail: null });
  }
  const singles = payouts.filter((p) => p.w !== null && p.w >= 2);
  // one withdrawal paid twice (the second payout is a difference, never a second payout)
  const twice = singles[r.int(singles.length)]!;
  add({ w: twice.w, kind: "second", style: twice.style, strangerTail: null });
  // the cashier marks one by hand while its SMS arrives
  const byHand = singles.filter((p) => p !== twice)[r.int(singles.length - 1)]!;
  byHand.hand = true;
  byHand.sms ??= { withId: r.chance(0.5), twice: false };
  // money for no withdrawal, and an open withdrawal's amount paid to a stranger's account
  add({ w: null, kind: "unrelated", style: "amount", strangerTail: null });
  if (unpaid.length > 0) add({ w: unpaid[0]!, kind: "stranger", style: "tail", strangerTail: tails.pop()! });
  const slots = shuffled(
    r,
    Array.from({ length: Math.floor((OPENED_AGO - 20 * MINUTE) / SLOT) }, (_, i) => i),
  );
  for (const p of payouts) p.slot = slots.pop()!;
  const partials = [0, 1].map(() => payouts.filter(() => r.chance(0.4)).map((p) => p.n));
  return { withdrawals, payouts, statementIds: r.chance(0.5), partials, twinStyle, fee: r.chance(0.5) ? 2000 : 0 };
}

/** What a plan exercises: CI's seeds together must plan every case. */
function casesOf(plan: Plan): Record<string, number> {
  const cases: Record<string, number> = {};
  const count = (name: string, when: boolean) => {
    if (when) cases[name] = (cases[name] ?? 0) + 1;
  };
  const second = plan.payouts.find((p) => p.kind === "second")!;
  const first = plan.payouts.find((p) => p.w === second.w && p.kind === "payout")!;
  count(`twins named by ${plan.twinStyle}`, true);
  count("both twins paid", plan.payouts.filter((p) => p.w !== null && plan.withdrawals[p.w]!.twin).length === 2);
  count(`fee ${plan.fee}`, true);
  count(plan.statementIds ? "statement with ids" : "statement without ids", true);
  count("two payouts of one withdrawal forwarded at once", Boolean(first.sms && second.sms));
  count(
    "a stranger's debit of an open withdrawal's amount",
    plan.payouts.some((p) => p.kind === "stranger"),
  );
  for (const p of plan.payouts) {
    count(`a payout named by ${p.style}`, p.kind === "payout" && p.w !== null && !plan.withdrawals[p.w]!.twin);
    count("SMS with the bank's id", p.sms?.withId === true);
    count("SMS without the bank's id", p.sms?.withId === false);
    count("SMS delivered twice", p.sms?.twice === true);
    count("no SMS", p.sms === null);
    count(
      "in a partial statement",
      plan.partials.some((list) => list.includes(p.n)),
    );
  }
  return cases;
}

const vientianeParts = (ms: number) => {
  const d = new Date(ms + 7 * 3600_000);
  const two = (n: number) => String(n).padStart(2, "0");
  return {
    day: `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`,
    dmy: `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`,
    hms: `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`,
  };
};
/** "100037.00" -> "100,037.00" */
const grouped = (amount: string) => amount.replace(/\B(?=(\d{3})+(?!\d))(?=.*\.)/g, ",");
const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
const kip = (text: string) => Math.round(Number(text) * 100);

// ---------------------------------------------------------------------------------------------
// The harness.

let demoSeeded = false;
let postTimestamp = Date.now() - 5 * MINUTE;
let playerCount = 0;

/** A player whose bank account is the one planned, with credit at askmebet and a session. */
async function payee(accountNumber: string) {
  playerCount += 1;
  const username = uniqueName("dbt");
  const ip = `10.84.${playerCount % 250}.${(playerCount * 7) % 250}`;
  const reg = await registerPlayer(env.DB, AGENCY, { username, password: PASSWORD, phone: "02055555555" }, { ip, userAgent: null });
  if (!reg.ok) throw new Error(`register failed: ${reg.code}`);
  const bank = await addBankAccount(env.DB, AGENCY, reg.playerId, { bankCode: "BCEL", accountNumber, accountName: `PAYEE ${playerCount}` });
  if (!bank.ok) throw new Error(`bank failed: ${bank.code}`);
  const cookie = sessionFrom(await loginViaForm(username, PASSWORD, { ip }))!;
  await fundProvider("askmebet", username, "20000.00");
  return { username, playerId: reg.playerId, cookie, wallet: walletOf(env, AGENCY, reg.playerId) };
}

type Withdrawal = PlannedWithdrawal & { code: string; received: string; openedAt: number; wallet: ReturnType<typeof walletOf> };

/** A withdrawal waiting for the cashier, its opening moved `OPENED_AGO` into the past in the staff's read model. */
async function openWithdrawal(w: PlannedWithdrawal, openedAt: number): Promise<Withdrawal> {
  const p = await payee(w.account);
  const res = await postWithdraw(p.cookie, { provider: "askmebet", amount: String(w.credit) });
  if (res.status !== 302) throw new Error(`withdraw answered ${res.status}`);
  const { items } = await p.wallet.listWithdraws(1, 1);
  const code = items[0]!.code;
  await p.wallet.runDueWork(); // projects the order into the read model
  await env.DB.prepare(`UPDATE withdraw_orders_view SET created_at = ?2 WHERE code = ?1`).bind(code, new Date(openedAt).toISOString()).run();
  const row = await env.DB.prepare(`SELECT received, status, review FROM withdraw_orders_view WHERE code = ?1`)
    .bind(code)
    .first<{ received: string; status: string; review: string }>();
  if (row?.status !== "OPEN" || row.review !== "MANUAL") throw new Error(`withdrawal ${code} is ${row?.status}/${row?.review}`);
  return { ...w, code, received: row.received, openedAt, wallet: p.wallet };
}

async function together(runs: Promise<unknown>[]): Promise<void> {
  const settled = await Promise.allSettled(runs);
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

const rows = async <T>(sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .all<T>()
  ).results;

// ---------------------------------------------------------------------------------------------
// One seed.

async function runSeed(seed: number): Promise<string[]> {
  if (!demoSeeded) {
    await seedDemo();
    demoSeeded = true;
  }
  const plan = planOf(seed);
  const r = seeded(seed * 7919 + 1);
  const channel = `DBT-${seed}`;
  const log: string[] = [`seed ${seed}`];
  const step = (what: string) => log.push(`${log.length}. ${what}`);
  try {
    await seedOwnAccountChannel(AGENCY, channel, "derived");
    await env.DB.prepare(`UPDATE payment_channels SET debit_fee = ?3 WHERE agency_id = ?1 AND code = ?2`).bind(AGENCY, channel, String(plan.fee)).run();
    const owner: Staff = await newStaff(AGENCY, "owner", `do${seed}`);
    const cashier: Staff = await newStaff(AGENCY, "cashier", `dc${seed}`);
    const fwd: Forwarder = await createForwarder(owner, channel);

    const now0 = seconds(Date.now());
    const openedAt = now0 - OPENED_AGO;
    const withdrawals: Withdrawal[] = [];
    for (const w of plan.withdrawals) withdrawals.push(await openWithdrawal(w, openedAt));
    const unrelatedKip = `${900_000 + seed}.00`;
    const payouts = plan.payouts.map((p) => ({
      ...p,
      // what left the account: the payout and the bank's fee
      amount: p.w === null ? unrelatedKip : (kip(withdrawals[p.w]!.received) / 100 + plan.fee).toFixed(2),
      bankTime: seconds(openedAt + 10 * MINUTE + p.slot * SLOT + r.int(60) * 1000),
    }));
    type Real = (typeof payouts)[number];
    for (const p of payouts)
      step(
        `fee ${plan.fee}: payout #${p.n} ${p.kind} ${p.amount} at ${vientianeParts(p.bankTime).hms} ${p.w === null ? "for no withdrawal" : `of ${withdrawals[p.w]!.code}`} (${p.style}${p.sms ? `, SMS${p.sms.withId ? " with id" : ""}${p.sms.twice ? " twice" : ""}` : ""}${p.hand ? ", by hand too" : ""})`,
      );

    const payeeText = (p: Real) => {
      if (p.strangerTail) return ` to xxxx${p.strangerTail}`;
      const account = p.w === null ? null : withdrawals[p.w]!.account;
      if (p.style === "tail" && account) return ` to xxxx${account.slice(-4)}`;
      if (p.style === "full" && account) return ` to ${account.slice(0, 4)}-${account.slice(4, 8)}-${account.slice(8)}`;
      return "";
    };
    const sendSms = async (p: Real) => {
      const v = vientianeParts(p.bankTime);
      const content = `BCEL One: Transfer out ${grouped(p.amount)} LAK${payeeText(p)} on ${v.dmy} ${v.hms}.${p.sms!.withId ? ` Ref: ${p.bankId}` : ""}`;
      const timestamp = String((postTimestamp = Math.max(postTimestamp + 1, Date.now() - 60_000)));
      const first = await phonePost(fwd, content, timestamp);
      step(`SMS of #${p.n}: ${first.status} ${first.body.result ?? first.body.error}`);
      expect(first.status, `SMS of #${p.n}`).toBe(200);
      if (p.sms!.twice) {
        const again = await phonePost(fwd, content, timestamp);
        step(`SMS of #${p.n} delivered again: ${again.status} ${again.body.result ?? again.body.error}`);
        expect(again.status).toBe(200);
      }
    };
    const sendStatement = async (list: Real[], label: string) => {
      const lines = [`Date,Description,Debit,Credit${plan.statementIds ? ",Ref" : ""}`];
      for (const p of [...list].sort((a, b) => a.bankTime - b.bankTime)) {
        const v = vientianeParts(p.bankTime);
        lines.push(`${v.dmy} ${v.hms},"TRANSFER OUT${payeeText(p)}","${grouped(p.amount)}",${plan.statementIds ? `,${p.bankId}` : ""}`);
      }
      await importStatement(cashier, channel, `${lines.join("\r\n")}\r\n`, plan.statementIds);
      step(`statement ${label}: ${list.map((p) => `#${p.n}`).join(" ")}`);
    };
    const markByHand = async (p: Real) => {
      const w = withdrawals[p.w!]!;
      const res = await staffPost(`/admin/withdrawals/${w.code}`, cashier, { intent: "paid", bankReference: p.bankId });
      step(`cashier marks ${w.code} paid by hand: ${res.status}`);
    };

    // ---- tracing what the portal did back to the model
    const witnessOf = async () =>
      rows<{ source: string; witness_id: string; transfer_id: string; amount: string; bank_time: number }>(
        `SELECT source, witness_id, transfer_id, amount, bank_time FROM bank_witnesses WHERE agency_id = ?1 AND channel_code = ?2 AND direction = 'debit'`,
        AGENCY,
        channel,
      );
    const payoutOf = (amount: string, bankTime: number) => payouts.find((p) => kip(p.amount) === kip(amount) && p.bankTime === Number(bankTime)) ?? null;
    const closedBy = async () =>
      rows<{ withdraw_code: string; source: string; witness_id: string }>(
        `SELECT withdraw_code, source, witness_id FROM bank_debit_payouts WHERE agency_id = ?1 AND channel_code = ?2`,
        AGENCY,
        channel,
      );
    const decisions = async (code: string) =>
      rows<{ action: string }>(
        `SELECT action FROM audit_log WHERE agency_id = ?1 AND target = ?2 AND action IN ('withdrawal.paid', 'withdrawal.paid-by-debit', 'withdrawal.rejected')`,
        AGENCY,
        `withdrawal:${code}`,
      );
    const statusOf = async (w: Withdrawal) => (await w.wallet.getWithdraw(w.code))!.status;
    const shouldStayOpen = (w: Withdrawal) => w.twin || !payouts.some((p) => p.w === w.i && p.kind !== "stranger");

    const check = async (when: string) => {
      const witnesses = await witnessOf();
      for (const link of await closedBy()) {
        const w = withdrawals.find((x) => x.code === link.withdraw_code);
        const report = witnesses.find((x) => x.source === link.source && x.witness_id === link.witness_id);
        const p = report ? payoutOf(report.amount, report.bank_time) : null;
        expect(w, `${when}: a debit closed ${link.withdraw_code}, not one of this seed's`).toBeDefined();
        expect(p, `${when}: ${link.withdraw_code} closed by ${link.source}:${link.witness_id}, a report the model never sent`).not.toBeNull();
        expect(p!.w === w!.i && p!.kind !== "stranger", `${when}: ${w!.code} closed by payout #${p!.n}, a debit of another`).toBe(true);
      }
      for (const w of withdrawals) {
        const made = await decisions(w.code);
        expect(made.length, `${when}: ${w.code} decided ${made.length} times (${made.map((m) => m.action)})`).toBeLessThanOrEqual(1);
        if (shouldStayOpen(w)) expect(await statusOf(w), `${when}: ${w.code} (${w.twin ? "a twin" : "never paid"}) left open`).toBe("OPEN");
      }
    };

    // ---- the day: SMS (with the cashier's hand on one), partial statements, in random order, up to three at once
    type Event = () => Promise<void>;
    // the two payouts of one withdrawal race when the phone forwards both
    const [first, second] = payouts.filter((p) => p.w === payouts.find((x) => x.kind === "second")!.w);
    const racing = first!.sms && second!.sms ? [first!, second!] : [];
    const events: Event[] = [
      ...payouts.filter((p) => p.sms && !racing.includes(p)).map((p) => (p.hand ? () => together([sendSms(p), markByHand(p)]) : () => sendSms(p))),
      ...(racing.length ? [() => together(racing.map(sendSms))] : []),
      ...plan.partials.map(
        (list, i) => () =>
          sendStatement(
            payouts.filter((p) => list.includes(p.n)),
            `partial ${i + 1}`,
          ),
      ),
    ];
    const order = shuffled(r, events);
    while (order.length > 0) {
      const batch = order.splice(0, 1 + r.int(3));
      await together(batch.map((e) => e()));
      await check(`after step ${log.length}`);
    }
    await sendStatement(payouts, "of the whole day");
    await check("at the end of the day");

    // ---- the end of the day
    const links = await closedBy();
    const witnesses = await witnessOf();
    for (const w of withdrawals) {
      const status = await statusOf(w);
      if (shouldStayOpen(w)) {
        expect(status, `${w.code} stays open`).toBe("OPEN");
        continue;
      }
      expect(status, `${w.code}, paid, is marked paid`).toBe("SUCCESS");
      expect((await decisions(w.code)).length, `${w.code} decided once`).toBe(1);
      const handMade = payouts.some((p) => p.w === w.i && p.hand);
      if (!handMade)
        expect(
          links.some((l) => l.withdraw_code === w.code),
          `${w.code} closed by its debit`,
        ).toBe(true);
    }
    // a debit's decision is audited with the debit as who decided and the report it came from; the page says so
    for (const link of links) {
      const report = `${channel}:${link.source}:${link.witness_id}`;
      const audit = await env.DB.prepare(
        `SELECT staff_username, after_json FROM audit_log WHERE agency_id = ?1 AND action = 'withdrawal.paid-by-debit' AND target = ?2`,
      )
        .bind(AGENCY, `withdrawal:${link.withdraw_code}`)
        .first<{ staff_username: string; after_json: string }>();
      expect(audit?.staff_username, `${link.withdraw_code}: who decided`).toBe(`debit:${report}`);
      expect(JSON.parse(audit!.after_json), `${link.withdraw_code}: the audit names its report`).toMatchObject({
        status: "SUCCESS",
        report,
        fee: String(plan.fee),
      });
    }
    if (links.length > 0) {
      const page = await (await staffGet(`/admin/withdrawals/${links[0]!.withdraw_code}`, cashier)).text();
      expect(page.includes(`data-testid="paid-by-debit"`) && page.includes(links[0]!.witness_id), "the withdrawal's page names the debit that paid it").toBe(
        true,
      );
    }
    // the twins wait for the cashier, each with the other among the candidates of its debit
    for (const p of payouts.filter((x) => x.w !== null && withdrawals[x.w]!.twin)) {
      const reports = witnesses.filter((x) => payoutOf(x.amount, x.bank_time) === p);
      const candidates = await rows<{ withdraw_code: string }>(
        `SELECT DISTINCT withdraw_code FROM bank_debit_candidates WHERE agency_id = ?1 AND channel_code = ?2 AND witness_id IN (SELECT value FROM json_each(?3))`,
        AGENCY,
        channel,
        JSON.stringify(reports.map((x) => x.witness_id)),
      );
      expect(candidates.map((c) => c.withdraw_code).sort(), `twin payout #${p.n} waits with both twins`).toEqual(
        [withdrawals[0]!.code, withdrawals[1]!.code].sort(),
      );
      const page = await (await staffGet(`/admin/withdrawals/${withdrawals[1]!.code}`, cashier)).text();
      expect(page.includes(`data-candidate="${reports[0]!.transfer_id}"`), `the twin's page shows payout #${p.n}'s debit as a candidate`).toBe(true);
    }

    // ---- the reconciliation of each bank day the payouts fall on
    const days = [...new Set(payouts.map((p) => vientianeParts(p.bankTime).day))];
    const lines = new Map<string, { reason: string | null; withdrawal: string | null }>();
    for (const day of days) {
      const { html } = await reconciliationHtml(owner, day);
      for (const m of html.matchAll(/<li[^>]*data-testid="difference" data-key="(debit:[^"]+)" data-reason="([^"]*)"/g))
        lines.set(m[1]!, { reason: m[2]!, withdrawal: null });
      for (const m of html.matchAll(/<tr[^>]*data-key="(debit:[^"]+)"[^>]*>([\s\S]*?)<\/tr>/g))
        lines.set(m[1]!, { reason: null, withdrawal: /\b(W\d{6}[0-9A-Z]{5})\b/.exec(m[2]!)?.[1] ?? null });
    }
    const transfers = await rows<{ bank_transaction_id: string; amount: string; bank_time: number }>(
      `SELECT bank_transaction_id, amount, bank_time FROM bank_transactions WHERE agency_id = ?1 AND channel_code = ?2 AND direction = 'debit'`,
      AGENCY,
      channel,
    );
    const traced = new Map<Real, { reason: string | null; withdrawal: string | null }>();
    for (const [key, line] of lines) {
      if (!key.startsWith(`debit:${channel}:`)) continue;
      const t = transfers.find((x) => key === `debit:${channel}:${x.bank_transaction_id}`);
      const p = t ? payoutOf(t.amount, t.bank_time) : null;
      expect(p, `reconciliation line ${key} is a payout the model made`).not.toBeNull();
      expect(traced.has(p!), `payout #${p!.n} on two lines`).toBe(false);
      traced.set(p!, line);
    }
    // the payout that paid each withdrawal: the debit that closed it, or (marked by hand) its one payout
    const paidBy = new Map<string, Real>();
    for (const l of links) {
      const report = witnesses.find((x) => x.source === l.source && x.witness_id === l.witness_id)!;
      paidBy.set(l.withdraw_code, payoutOf(report.amount, report.bank_time)!);
    }
    for (const p of payouts) if (p.hand && !paidBy.has(withdrawals[p.w!]!.code)) paidBy.set(withdrawals[p.w!]!.code, p);
    for (const p of payouts) {
      const line = traced.get(p);
      expect(line, `payout #${p.n} on a reconciliation line`).toBeDefined();
      const paid = [...paidBy].find(([, x]) => x === p)?.[0] ?? null;
      if (paid) expect(line, `payout #${p.n} matched to ${paid}`).toEqual({ reason: null, withdrawal: paid });
      else expect(line, `payout #${p.n} (${p.kind}) is a debit with no withdrawal`).toEqual({ reason: "DEBIT_NO_WITHDRAWAL", withdrawal: null });
    }
    return log;
  } catch (error) {
    console.log(`debit payouts model, seed ${seed} failed; its steps:\n${log.join("\n")}`);
    throw error;
  }
}

const asked = (env.DEBIT_SEEDS ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter((s) => /^\d+$/.test(s))
  .map(Number);

describe("the bank's debit closes a withdrawal: a model of the cashier's day against the portal", () => {
  it("CI's seeds together plan every case", () => {
    const total: Record<string, number> = {};
    for (const seed of SEEDS) for (const [k, v] of Object.entries(casesOf(planOf(seed)))) total[k] = (total[k] ?? 0) + v;
    for (const seed of SEEDS) console.log(`debit payouts model, seed ${seed}: ${JSON.stringify(casesOf(planOf(seed)))}`);
    const every = [
      "twins named by tail",
      "twins named by amount",
      "both twins paid",
      "fee 0",
      "fee 2000",
      "statement with ids",
      "statement without ids",
      "two payouts of one withdrawal forwarded at once",
      "a stranger's debit of an open withdrawal's amount",
      "a payout named by tail",
      "a payout named by full",
      "a payout named by amount",
      "SMS with the bank's id",
      "SMS without the bank's id",
      "SMS delivered twice",
      "no SMS",
      "in a partial statement",
    ];
    for (const name of every) expect(total[name] ?? 0, name).toBeGreaterThan(0);
  });

  const seeds = asked.length > 0 ? asked : SEEDS;
  const failed: number[] = [];
  for (const seed of seeds)
    it(`seed ${seed}`, async () => {
      console.log(`debit payouts model: seed ${seed}`);
      try {
        await runSeed(seed);
      } catch (error) {
        failed.push(seed);
        throw error;
      }
    }, 120_000);
  afterAll(() => {
    console.log(`debit payouts model: seeds ${seeds.join(", ")} run, ${failed.length} failed${failed.length ? `: ${failed.join(", ")}` : ""}`);
  });
});
