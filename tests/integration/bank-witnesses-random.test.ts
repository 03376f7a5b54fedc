import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedDemo } from "../setup/seed";
import { playerWithBank, postDeposit } from "../setup/money";
import { ageOrder, seedOwnAccountChannel } from "../setup/own-account";
import { sha256Hex } from "../../workers/core/tokens";
import { applyBankTransaction, type BankTransactionInput } from "../../workers/services/bank-transactions";
import { twinsOfPayment } from "../../workers/services/bank-witnesses";
import { markOpenDepositPaid } from "../../workers/services/open-deposits";
import { getUnmatched, resolveAsRefunded, resolveWithCredit } from "../../workers/services/admin-payments";
import { findAgencyByHost, type Agency } from "../../workers/services/agency";
import type { AuditActor } from "../../workers/db/audit";
import { reconciliationPage } from "../../workers/services/reconciliation";
import { vientianeDate } from "../../workers/core/report-range";

/**
 * One payment, one credit under randomness and concurrency (issue 31, decision 046). A seeded
 * generator makes 200 bank transfers (first payments of orders, some players paying the same
 * QR again after it expired, payments with no order at all), reports each through a random
 * non-empty subset of the three witnesses (staff "mark paid", a statement row, a forwarded
 * message), with the bank's id present or absent at random, in random order and partly at
 * the same moment, while staff act on the queue at random. The checks use the generator's own
 * list of transfers, never the linker's output: every real transfer is credited exactly once,
 * no payment is lost from the queue, and the queue never offers a silent second credit.
 * Seeded (SEED below): the transfers, their witnesses, ids and arrival order replay exactly.
 */

const CHANNEL = "OWN-RND";
// The test runs inside workerd, which does not see the shell's environment: to replay a run,
// put the seed its title printed here.
const SEED = 20261127;
const owner: AuditActor = { agencyId: "demo", staffId: "staff-boss", staffUsername: "boss" };
const cashier: AuditActor = { agencyId: "demo", staffId: "staff-cashier", staffUsername: "cashier" };
let agency: Agency;

beforeAll(async () => {
  await seedDemo();
  await seedOwnAccountChannel("demo", CHANNEL, "derived");
  agency = (await findAgencyByHost(env.DB, "localhost"))!;
});

/** mulberry32: small, seeded, good enough to shuffle. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p };
}

type Source = "staff" | "statement" | "forwarder";
type Transfer = {
  n: number;
  amount: string;
  bankTime: number;
  bankId: string;
  payer: { username: string; playerId: string };
  orderCode: string | null;
  kind: "first" | "again" | "no-order";
};
type Report = { transfer: Transfer; source: Source; id: string; run: () => Promise<unknown> };

const minute = (ms: number) => Math.floor(ms / 60_000) * 60_000;
const randomId = (r: ReturnType<typeof rng>, prefix: string) =>
  prefix + Array.from({ length: 10 }, () => "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[r.int(32)]).join("");

async function reportsOf(r: ReturnType<typeof rng>, t: Transfer, whoSeesIt: Source[]): Promise<Report[]> {
  const out: Report[] = [];
  const names = t.orderCode && r.chance(0.5) ? ` ${t.orderCode}` : "";
  for (const source of whoSeesIt) {
    if (source === "staff") {
      const id = r.chance(0.5) ? t.bankId : randomId(r, "ST");
      const bankTime = minute(t.bankTime + (r.int(5) - 2) * 60_000);
      out.push({ transfer: t, source, id, run: () => markOpenDepositPaid(env, cashier, { orderCode: t.orderCode!, bankTransactionId: id, bankTime }) });
    } else if (source === "statement") {
      const bankTime = minute(t.bankTime);
      const description = `TRANSFER FROM PAYER${t.n}${names}`;
      const id = r.chance(0.5) ? t.bankId : await sha256Hex(`statement|${bankTime}|${t.amount}|${description}|1`);
      const input: BankTransactionInput = {
        channelCode: CHANNEL,
        bankTransactionId: id,
        amount: t.amount,
        bankTime,
        reference: null,
        source,
        raw: `Date: ${bankTime} | Credit: ${t.amount} | Description: ${description}`,
      };
      out.push({ transfer: t, source, id, run: () => applyBankTransaction(env, "demo", input, owner) });
    } else {
      const withTime = r.chance(0.5);
      const bankTime = withTime ? minute(t.bankTime) : t.bankTime + r.int(90_000); // no time in the text: the post's time
      const content = `BCEL One: +${t.amount} LAK received from PAYER${t.n}${withTime ? ` on ${bankTime}` : ""}${names}`;
      const id = r.chance(0.5) ? t.bankId : `sha256:${await sha256Hex(`BCEL\n${bankTime}\n${content}`)}`;
      const input: BankTransactionInput = {
        channelCode: CHANNEL,
        bankTransactionId: id,
        amount: t.amount,
        bankTime,
        reference: null,
        source,
        raw: `BCEL\n${content}`,
      };
      out.push({ transfer: t, source, id, run: () => applyBankTransaction(env, "demo", input, null) });
    }
  }
  return out;
}

function subset(r: ReturnType<typeof rng>, from: Source[]): Source[] {
  for (;;) {
    const picked = from.filter(() => r.chance(0.5));
    if (picked.length > 0) return picked;
  }
}

function shuffle<T>(r: ReturnType<typeof rng>, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/** Which generated transfer a D1 transfer's witnesses are (every witness of one D1 transfer must be one generated transfer). */
async function truthOf(byWitness: Map<string, Transfer>, transferKey: string): Promise<Transfer[]> {
  const { results } = await env.DB.prepare(`SELECT source, witness_id FROM bank_witnesses WHERE agency_id = 'demo' AND channel_code = ?1 AND transfer_id = ?2`)
    .bind(CHANNEL, transferKey)
    .all<{ source: string; witness_id: string }>();
  return [...new Set(results.map((w) => byWitness.get(`${w.source}:${w.witness_id}`)!))];
}

const openQueue = async () =>
  (
    await env.DB.prepare(`SELECT id, transaction_id FROM unmatched_payments WHERE agency_id = 'demo' AND channel_code = ?1 AND status = 'OPEN' ORDER BY id`)
      .bind(CHANNEL)
      .all<{ id: string; transaction_id: string }>()
  ).results;
/** The transfer a queue item's report is in now (derived: its key may be another report's id, decision 069). */
const keyOf = async (transactionId: string) => {
  const id = transactionId.slice(`demo:${CHANNEL}:`.length);
  const row = await env.DB.prepare(`SELECT transfer_id FROM bank_witnesses WHERE agency_id = 'demo' AND channel_code = ?1 AND witness_id = ?2 LIMIT 1`)
    .bind(CHANNEL, id)
    .first<{ transfer_id: string }>();
  return row?.transfer_id || id;
};

describe("issue 31: 200 transfers, three witnesses, random order, random staff", () => {
  it(`every real transfer is credited exactly once (seed ${SEED})`, async () => {
    const r = rng(SEED);
    // staff draw from their own stream: how many items the queue holds must not shift the transfers
    const staffR = rng(SEED + 1);
    const players = [];
    for (let i = 0; i < 24; i++) players.push(await playerWithBank());
    const transfers: Transfer[] = [];
    const byWitness = new Map<string, Transfer>();
    /** credits by hand: generated transfer -> count */
    const handCredits = new Map<Transfer, number>();
    let n = 0;
    for (let round = 0; round < 8; round++) {
      // every player opens an order; its life is moved 40 minutes back, so payments during it and after it are in the past
      const orders = [];
      for (const p of players) {
        expect((await postDeposit(p.cookie, { channelCode: CHANNEL, amount: String(50_000 + 10_000 * r.int(20)), provider: "betflix" })).status).toBe(302);
        const order = (await p.wallet.openDepositOrder(Date.now()))!;
        await ageOrder(p.wallet, "demo", order.code, 40 * 60_000);
        orders.push({
          p,
          order: { ...order, createdAt: new Date(order.createdAt).getTime() - 40 * 60_000, expiresAt: new Date(order.expiresAt).getTime() - 40 * 60_000 },
        });
      }
      const round_: Transfer[] = [];
      for (const { p, order } of orders) {
        if (r.chance(0.15)) continue; // this one is never paid
        const first: Transfer = {
          n: n++,
          amount: order.payAmount!,
          bankTime: order.createdAt + 30_000 + r.int(10 * 60_000),
          bankId: randomId(r, "FT"),
          payer: p,
          orderCode: order.code,
          kind: "first",
        };
        round_.push(first);
        if (r.chance(0.15)) {
          // the same QR paid again once the order had ended (outside the window of the first)
          round_.push({
            n: n++,
            amount: order.payAmount!,
            bankTime: order.expiresAt + 11 * 60_000 + r.int(8 * 60_000),
            bankId: randomId(r, "FT"),
            payer: p,
            orderCode: order.code,
            kind: "again",
          });
        }
      }
      for (let i = 0; i < 3; i++) {
        const p = players[r.int(players.length)];
        round_.push({
          n: n++,
          amount: `${7_000_000 + 1000 * n + r.int(999)}.00`,
          bankTime: Date.now() - 30 * 60_000 + r.int(20 * 60_000),
          bankId: randomId(r, "FT"),
          payer: p,
          orderCode: null,
          kind: "no-order",
        });
      }
      const reports: Report[] = [];
      for (const t of round_) {
        const seenBy = t.kind === "first" ? subset(r, ["staff", "statement", "forwarder"]) : subset(r, ["statement", "forwarder"]);
        for (const report of await reportsOf(r, t, seenBy)) {
          byWitness.set(`${report.source}:${report.id}`, t);
          reports.push(report);
        }
      }
      transfers.push(...round_);
      // arrival in random order, up to three at the same moment
      shuffle(r, reports);
      for (let i = 0; i < reports.length; ) {
        const together = 1 + r.int(3);
        await Promise.all(reports.slice(i, i + together).map((report) => report.run()));
        i += together;
      }
      // staff at the queue: a cashier tries to credit some items; a probable duplicate is refused
      for (const item of await openQueue()) {
        if (!staffR.chance(0.5)) continue;
        const truth = await truthOf(byWitness, await keyOf(item.transaction_id));
        expect(truth).toHaveLength(1); // one queue item never mixes two real transfers
        const t = truth[0];
        const payment = (await getUnmatched(env.DB, "demo", item.id))!;
        const twins = await twinsOfPayment(env.DB, "demo", payment);
        const credited = await creditsOf(t, byWitness, handCredits);
        // never a silent double: money already credited is always shown as a probable duplicate
        if (credited > 0) expect(twins.length, `queue item ${item.id} of transfer ${t.n} offered without a warning`).toBeGreaterThan(0);
        const done = await resolveWithCredit(env, agency, cashier, item.id, { username: t.payer.username, provider: "betflix", role: "cashier" });
        if (twins.length > 0) expect(done).toMatchObject({ ok: false, error: "PROBABLE_DUPLICATE" });
        else {
          expect(done.ok).toBe(true);
          handCredits.set(t, (handCredits.get(t) ?? 0) + 1);
        }
      }
    }
    // the end of the day: the owner checks each remaining item against the bank and decides
    const witnessesQueued: number[] = [];
    for (const item of await openQueue()) {
      const [t] = await truthOf(byWitness, await keyOf(item.transaction_id));
      const credited = await creditsOf(t, byWitness, handCredits);
      if (credited > 0) {
        // a report of money already credited, left in the queue: linking failed (flagged, so no double, but noise for staff)
        witnessesQueued.push(t.n);
        expect((await resolveAsRefunded(env, owner, item.id, "a second report of money already credited")).ok).toBe(true);
        continue;
      }
      const done = await resolveWithCredit(env, agency, owner, item.id, {
        username: t.payer.username,
        provider: "betflix",
        role: "owner",
        reason: "a transfer of its own on the bank statement",
      });
      expect(done.ok, JSON.stringify(done)).toBe(true);
      handCredits.set(t, (handCredits.get(t) ?? 0) + 1);
    }
    expect(transfers.length).toBeGreaterThanOrEqual(200);
    console.log(
      `${transfers.length} transfers: ${transfers.filter((t) => t.kind === "again").length} paid again, ${transfers.filter((t) => t.kind === "no-order").length} without an order; ${byWitness.size} reports`,
    );
    const wrong: string[] = [];
    for (const t of transfers) {
      const credits = await creditsOf(t, byWitness, handCredits);
      if (credits !== 1) wrong.push(`transfer ${t.n} (${t.kind}, ${t.amount}) credited ${credits} times`);
    }
    expect(wrong).toEqual([]);
    // witnesses are linked, not queued: the queue held only transfers of their own
    expect(witnessesQueued).toEqual([]);
    // the reconciliation of each bank day touched shows no transfer credited twice
    const days = new Set(transfers.map((t) => vientianeDate(t.bankTime)));
    for (const day of days) {
      const page = await reconciliationPage(env.DB, "demo", day);
      expect(page.lines.filter((l) => l.reason === "CREDITED_TWICE")).toEqual([]);
    }
    // the linker never put two real transfers under one
    const { results: keys } = await env.DB.prepare(`SELECT bank_transaction_id AS k FROM bank_transactions WHERE agency_id = 'demo' AND channel_code = ?1`)
      .bind(CHANNEL)
      .all<{ k: string }>();
    for (const { k } of keys) {
      const truth = await truthOf(byWitness, k);
      if (truth.length !== 1) {
        const { results: ws } = await env.DB.prepare(
          `SELECT source, witness_id, link, bank_time, split_at FROM bank_witnesses WHERE agency_id = 'demo' AND channel_code = ?1 AND transfer_id = ?2`,
        )
          .bind(CHANNEL, k)
          .all();
        console.log("MIXED", k, JSON.stringify(truth.map((t) => ({ n: t.n, kind: t.kind, bankTime: t.bankTime, order: t.orderCode }))), JSON.stringify(ws));
      }
      expect(truth.length).toBe(1);
    }
  }, 600_000);
});

/** How many times a generated transfer was credited: applied to its order by a D1 transfer of its witnesses, or by hand. */
async function creditsOf(t: Transfer, byWitness: Map<string, Transfer>, handCredits: Map<Transfer, number>): Promise<number> {
  const { results } = await env.DB.prepare(
    `SELECT DISTINCT t.bank_transaction_id AS k FROM bank_transactions t JOIN bank_witnesses w ON w.agency_id = t.agency_id AND w.channel_code = t.channel_code AND w.transfer_id = t.bank_transaction_id
      WHERE t.agency_id = 'demo' AND t.channel_code = ?1 AND t.outcome = 'APPLIED' AND t.amount = ?2`,
  )
    .bind(CHANNEL, t.amount)
    .all<{ k: string }>();
  let applied = 0;
  for (const { k } of results) if ((await truthOf(byWitness, k)).includes(t)) applied++;
  return applied + (handCredits.get(t) ?? 0);
}
