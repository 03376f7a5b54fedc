import { afterAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedDemo } from "../setup/seed";
import { playerWithBank, postDeposit } from "../setup/money";
import { ageOrder, seedOwnAccountChannel } from "../setup/own-account";
import { createForwarder, importStatement, newStaff as newStaffOf, phonePost, staffGet, staffPost, type Staff } from "../setup/bank-reports";
import { seeded, shuffled, type Seeded } from "../setup/random";

/**
 * One payment, one credit (decisions 046 and 069), model-based. A seeded generator
 * writes a day of real bank transfers into own-account channel MDL-<seed> (first payments of
 * orders, the same QR paid again within and outside the window, payments after an order's
 * life, payments with no order) and what the agency hears of each: the cashier's "mark paid"
 * (an hour off and refused, then retyped or confirmed anyway; a mistyped bank id), the phone's
 * forwarded SMS (with or without the bank's id, delivered twice, dated in the future), and
 * statement imports (with or without an id column, partial, overlapping, imported twice, and
 * a whole-day one at the end). They arrive in random order, up to three at once, while a
 * cashier works the payments queue at random moments; at the end of the day the owner credits
 * what is left (with a reason when asked), settles doubles and closes the reconciliation day.
 *
 * The model is the generator's own list (`Transfer`): who paid what, when, for which order. It
 * imports nothing from workers/ or app/. The portal is driven over HTTP only (the forms staff
 * post, the phone's signed forwarder post); the harness reads D1 and the players' wallets.
 *
 * After every step: each credit (bank_credits, unsettled) is traced to a report the model sent
 * and so to one real transfer, paid by that credit's player; no real transfer has two credits;
 * and each player's wallet (its paid deposits, MANUAL ones included: listDeposits, status PAID,
 * SUCCESS or FAILED; the wallet, not the provider balance, is what says a player was credited)
 * holds exactly as many credits as bank_credits traces to that player, and no more than the
 * real transfers that player made.
 * At the end: every real transfer credited exactly once, nothing left in the queue but reports
 * the rules cannot link (a confirmed hour-off time, a future-dated SMS without the bank's id),
 * which the owner dismisses, and each bank day's lines consistent with the model: no NO_CREDIT,
 * no CREDITED_TWICE, each real transfer credited on exactly one line, the day closed.
 *
 * CI runs SEEDS below. Many seeds: `MODEL_SEEDS=50 npx vitest run tests/integration/one-payment-model.test.ts`
 * (50 seeds from 1000), MODEL_SEEDS=3000-3009 for a range, MODEL_SEEDS=7,42 (or 7, for one) for those; the run
 * prints how many ran and failed.
 */

const SEEDS = [11, 12, 13, 14];
/** Local exploration only: checks after each step log instead of stopping the seed (false in CI). */
const EXPLORE = false;
const problemsSeen = new Set<string>();
const AGENCY = "demo";
const MINUTE = 60_000;

// ---------------------------------------------------------------------------------------------
// The model: a seeded plan of real transfers and of the reports the agency gets of them.

type Kind = "first" | "againWithin" | "againOutside" | "late" | "noOrder";
type StaffPlan = { idMistyped: boolean; hourOff: null | "retype" | "confirm"; minuteOnly: boolean };
type SmsPlan = { withId: boolean; twice: null | "same-post" | "resent"; future: boolean };
/** A real transfer as planned: times are fractions, resolved against the orders the portal gives. */
type PlannedTransfer = {
  n: number;
  kind: Kind;
  /** index of the order it pays (first, again, late), or of the payer (noOrder) */
  order: number;
  payer: number;
  /** where in the order's life (first), after the first (again, in ms), after the life (late, ms), in the day (noOrder, 0..1) */
  at: number;
  names: boolean;
  bankId: string;
  staff: StaffPlan | null;
  sms: SmsPlan | null;
};
type PlannedEvent =
  | { kind: "staff"; transfer: number }
  | { kind: "sms"; transfer: number }
  | { kind: "statement"; from: number; to: number; label: string }
  | { kind: "queue" };
type Plan = {
  seed: number;
  players: number;
  /** per order: its player, round, asked amount (kip) */
  orders: { player: number; round: number; asked: number; at: number }[];
  transfers: PlannedTransfer[];
  statementIds: boolean;
  /** arrival order during the day; then the end of the day */
  events: PlannedEvent[];
  batches: number[];
};

const PLAYERS = 10;
const ROUNDS = 2;

function randomId(r: Seeded, prefix: string): string {
  return prefix + Array.from({ length: 10 }, () => "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[r.int(32)]).join("");
}

/** The plan of a seed: pure, the same for the same seed. */
function planOf(seed: number): Plan {
  const r = seeded(seed);
  const orders: Plan["orders"] = [];
  for (let round = 0; round < ROUNDS; round++)
    for (let player = 0; player < PLAYERS; player++) orders.push({ player, round, asked: 50_000 + 10_000 * r.int(16), at: r.next() });
  const transfers: PlannedTransfer[] = [];
  const staffPlan = (): StaffPlan | null =>
    r.chance(0.55) ? { idMistyped: r.chance(0.2), hourOff: r.chance(0.25) ? (r.chance(0.5) ? "retype" : "confirm") : null, minuteOnly: r.chance(0.3) } : null;
  const smsPlan = (kind: Kind): SmsPlan | null =>
    r.chance(0.6)
      ? { withId: r.chance(0.5), twice: r.chance(0.2) ? (r.chance(0.5) ? "same-post" : "resent") : null, future: kind === "first" && r.chance(0.12) }
      : null;
  const add = (t: Omit<PlannedTransfer, "n" | "bankId" | "staff" | "sms">, staff: boolean) => {
    const n = transfers.length;
    transfers.push({ ...t, n, bankId: randomId(r, "FT"), staff: staff ? staffPlan() : null, sms: smsPlan(t.kind) });
    return n;
  };
  orders.forEach((o, i) => {
    const fate = r.next();
    if (fate < 0.1) return; // never paid
    if (fate < 0.2) {
      add({ kind: "late", order: i, payer: o.player, at: 3 * MINUTE + r.int(40 * MINUTE), names: r.chance(0.3) }, true);
      return;
    }
    add({ kind: "first", order: i, payer: o.player, at: r.next(), names: r.chance(0.3) }, true);
    if (r.chance(0.15)) add({ kind: "againWithin", order: i, payer: o.player, at: MINUTE + r.int(8 * MINUTE), names: r.chance(0.3) }, false);
    if (r.chance(0.15)) add({ kind: "againOutside", order: i, payer: o.player, at: 12 * MINUTE + r.int(30 * MINUTE), names: r.chance(0.3) }, false);
  });
  for (let i = 0; i < 3 + r.int(3); i++) add({ kind: "noOrder", order: -1, payer: r.int(PLAYERS), at: r.next(), names: false }, false);

  const events: PlannedEvent[] = [];
  for (const t of transfers) {
    if (t.staff) events.push({ kind: "staff", transfer: t.n });
    if (t.sms) events.push({ kind: "sms", transfer: t.n });
  }
  for (let i = 0; i < 4; i++) events.push({ kind: "queue" });
  // statements during the day: a morning one (sometimes imported twice), an overlapping one
  if (r.chance(0.7)) {
    const to = 0.3 + 0.3 * r.next();
    events.push({ kind: "statement", from: 0, to, label: "morning" });
    if (r.chance(0.4)) events.push({ kind: "statement", from: 0, to, label: "morning again" });
    if (r.chance(0.6)) events.push({ kind: "statement", from: to - 0.15, to: to + 0.25, label: "overlapping" });
  }
  events.splice(0, events.length, ...shuffled(r, events));
  const batches: number[] = [];
  for (let i = 0; i < events.length; ) {
    const size = Math.min(events.length - i, 1 + r.int(3));
    batches.push(size);
    i += size;
  }
  return { seed, players: PLAYERS, orders, transfers, statementIds: r.chance(0.5), events, batches };
}

/** What a plan covers (the cases CI's seeds must hit together). */
function casesOf(plan: Plan) {
  const ts = plan.transfers;
  const sources = (t: PlannedTransfer) => 1 + Number(Boolean(t.staff)) + Number(Boolean(t.sms)); // + the day's statement
  const statementEvents = plan.events.filter((e) => e.kind === "statement");
  let at = 0;
  let together = 0;
  for (const size of plan.batches) {
    if (size > 1 && plan.events.slice(at, at + size).some((e) => e.kind !== "queue")) together++;
    at += size;
  }
  return {
    oneSource: ts.filter((t) => sources(t) === 1).length,
    twoSources: ts.filter((t) => sources(t) === 2).length,
    threeSources: ts.filter((t) => sources(t) === 3).length,
    reportsAtOnce: together,
    statementsWithIds: plan.statementIds ? 1 : 0,
    statementsWithoutIds: plan.statementIds ? 0 : 1,
    smsWithId: ts.filter((t) => t.sms?.withId).length,
    smsWithoutId: ts.filter((t) => t.sms && !t.sms.withId).length,
    staffIdEqual: ts.filter((t) => t.staff && !t.staff.idMistyped).length,
    staffIdMistyped: ts.filter((t) => t.staff?.idMistyped).length,
    samePaidTwiceWithinWindow: ts.filter((t) => t.kind === "againWithin").length,
    samePaidTwiceOutsideWindow: ts.filter((t) => t.kind === "againOutside").length,
    paidAfterLife: ts.filter((t) => t.kind === "late").length,
    noOrder: ts.filter((t) => t.kind === "noOrder").length,
    hourOffRetyped: ts.filter((t) => t.staff?.hourOff === "retype").length,
    hourOffConfirmed: ts.filter((t) => t.staff?.hourOff === "confirm").length,
    smsDeliveredTwice: ts.filter((t) => t.sms?.twice).length,
    futureSms: ts.filter((t) => t.sms?.future).length,
    statementImportedTwice: statementEvents.some((e) => e.label === "morning again") ? 1 : 0,
    statementsOverlapping: statementEvents.some((e) => e.label === "overlapping") ? 1 : 0,
    queueSweeps: plan.events.filter((e) => e.kind === "queue").length,
    transfers: ts.length,
  };
}

// ---------------------------------------------------------------------------------------------
// The world: the real transfers once the portal gave the orders, and the reports as sent.

type Player = Awaited<ReturnType<typeof playerWithBank>>;
type Order = { code: string; payAmount: string; createdAt: number; expiresAt: number; player: Player };
type Transfer = {
  n: number;
  kind: Kind;
  amount: string;
  bankTime: number;
  bankId: string;
  payer: Player;
  order: Order | null;
  names: boolean;
  plan: PlannedTransfer;
  /** reports the rules cannot link to the others: a staff time an hour off confirmed anyway, a future SMS without the bank's id */
  unlinkable: string[];
};
/** A report as the model knows it: what the portal will key it by, or how to recognise it. */
type SentReport = { source: "staff" | "forwarder" | "statement"; id: string | null; amount: string; bankTime: number; transfer: Transfer };

const vientianeParts = (ms: number) => {
  const d = new Date(ms + 7 * 3600_000);
  const two = (n: number) => String(n).padStart(2, "0");
  return {
    day: `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`,
    dmy: `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`,
    hms: `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`,
    hm: `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`,
  };
};
const vientianeDay = (ms: number) => vientianeParts(ms).day;
/** "100037.00" -> "100,037.00" */
const grouped = (amount: string) => amount.replace(/\B(?=(\d{3})+(?!\d))(?=.*\.)/g, ",");
const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
const NAMES = ["SOMPHONE", "KHAMLA", "BOUNMY", "VANNA", "CHANTHA", "PHOUVONG", "MALAY", "NOUDENG", "SISOUK", "THONGDY"];

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// ---------------------------------------------------------------------------------------------
// The harness: the portal over HTTP.

let demoSeeded = false;
let postTimestamp = Date.now() - 5 * MINUTE;

async function ensureDemo() {
  if (demoSeeded) return;
  await seedDemo();
  demoSeeded = true;
}

const newStaff = (role: "owner" | "cashier", username: string) => newStaffOf(AGENCY, role, username);

const post = staffPost;
const get = staffGet;

type Line = { key: string; reason: string | null; noted: boolean };
/** A bank day's page and the lines of all its pages (followed by their "next" links, decision 074). */
async function reconciliationDay(staff: Staff, day: string): Promise<{ html: string; closed: boolean; lines: Line[] }> {
  let path: string | null = `/admin/reconciliation?day=${day}`;
  const pages: string[] = [];
  while (path) {
    const text = await (await get(path, staff)).text();
    pages.push(text);
    const next = /href="([^"]+)"[^>]*data-testid="next-page"|data-testid="next-page"[^>]*href="([^"]+)"/.exec(text);
    path = next ? (next[1] ?? next[2]!).replaceAll("&amp;", "&").split("#")[0]! : null;
  }
  const html = pages.join("\n");
  const closed = /data-closed="yes"/.test(pages[0]!);
  const differences = [...html.matchAll(/data-testid="difference" data-key="([^"]+)" data-reason="([^"]*)" data-noted="(yes|no)"/g)].map((m) => ({
    key: m[1]!,
    reason: m[2]!,
    noted: m[3] === "yes",
  }));
  const seen = new Set(differences.map((d) => d.key));
  const others = [...new Set([...html.matchAll(/data-key="([^"]+)"/g)].map((m) => m[1]!))]
    .filter((k) => !seen.has(k))
    .map((key) => ({ key, reason: null, noted: false }));
  return { html, closed, lines: [...differences, ...others] };
}

// ---------------------------------------------------------------------------------------------
// Reading what the portal did (D1 and the wallets).

type CreditRow = { code: string; kind: string; source: string; witness_id: string; player_id: string | null; amount: string; settled: string | null };
const creditsOf = async (channel: string) =>
  (
    await env.DB.prepare(`SELECT code, kind, source, witness_id, player_id, amount, settled FROM bank_credits WHERE agency_id = ?1 AND channel_code = ?2`)
      .bind(AGENCY, channel)
      .all<CreditRow>()
  ).results;
type WitnessRow = { source: string; witness_id: string; transfer_id: string; amount: string; bank_time: number };
const witnessesOf = async (channel: string) =>
  (
    await env.DB.prepare(
      `SELECT source, witness_id, transfer_id, amount, bank_time FROM bank_witnesses WHERE agency_id = ?1 AND channel_code = ?2 AND direction = 'credit'`,
    )
      .bind(AGENCY, channel)
      .all<WitnessRow>()
  ).results;
type QueueRow = { id: string; transaction_id: string; status: string; amount: string | null; kind: string };
const queueOf = async (channel: string, status = "OPEN") =>
  (
    await env.DB.prepare(
      `SELECT id, transaction_id, status, amount, kind FROM unmatched_payments WHERE agency_id = ?1 AND channel_code = ?2 AND status = ?3 ORDER BY received_at, id`,
    )
      .bind(AGENCY, channel, status)
      .all<QueueRow>()
  ).results;

async function walletCredits(p: Player): Promise<number> {
  const { items } = await p.wallet.listDeposits(1, 200);
  return items.filter((o) => o.status === "PAID" || o.status === "SUCCESS" || o.status === "FAILED").length;
}

// ---------------------------------------------------------------------------------------------
// One seed.

/** Runs a batch at once; the first failure is thrown once every one of them has ended. */
async function together(runs: Promise<unknown>[]): Promise<void> {
  const settled = await Promise.allSettled(runs);
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

type Run = { log: string[]; cases: Record<string, number> };

async function runSeed(seed: number): Promise<Run> {
  await ensureDemo();
  const plan = planOf(seed);
  const r = seeded(seed * 7919 + 1); // staff's own choices: the queue's contents must not shift the plan
  const channel = `MDL-${seed}`;
  const log: string[] = [];
  const step = (what: string) => log.push(`${log.length + 1}. ${what}`);
  const cases: Record<string, number> = {};
  const count = (name: string) => {
    cases[name] = (cases[name] ?? 0) + 1;
  };
  try {
    await seedOwnAccountChannel(AGENCY, channel, "derived");
    const owner = await newStaff("owner", `mo${seed}`.slice(0, 20));
    const cashier = await newStaff("cashier", `mc${seed}`.slice(0, 20));
    const fwd = await createForwarder(owner, channel);

    // players and their orders, each life moved into the last two hours
    const players: Player[] = [];
    for (let i = 0; i < plan.players; i++) players.push(await playerWithBank());
    const now0 = Date.now();
    const orders: Order[] = [];
    for (const o of plan.orders) {
      const p = players[o.player]!;
      const res = await postDeposit(p.cookie, { channelCode: channel, amount: String(o.asked), provider: "betflix" });
      if (res.status !== 302) throw new Error(`deposit answered ${res.status}`);
      const order = (await p.wallet.openDepositOrder(Date.now()))!;
      const life = order.expiresAt - order.createdAt;
      // round 0 opens 115..90 minutes ago, round 1 60..35 minutes ago (a life is shorter than 25 minutes)
      const createdAt = seconds(now0 - (o.round === 0 ? 115 : 60) * MINUTE + Math.floor(o.at * 25 * MINUTE));
      await ageOrder(p.wallet, AGENCY, order.code, order.createdAt - createdAt);
      orders.push({ code: order.code, payAmount: order.payAmount!, createdAt, expiresAt: createdAt + life, player: p });
    }
    const latest = seconds(now0 - 3 * MINUTE);
    const transfers: Transfer[] = [];
    const firstOf = new Map<number, Transfer>();
    for (const t of plan.transfers) {
      const order = t.order >= 0 ? orders[t.order]! : null;
      let bankTime: number;
      let amount: string;
      if (t.kind === "noOrder") {
        bankTime = seconds(now0 - 115 * MINUTE + t.at * 110 * MINUTE);
        amount = `${300_000 + 1000 * t.n + (seed % 997)}.00`;
      } else if (t.kind === "first") {
        const life = order!.expiresAt - order!.createdAt;
        bankTime = seconds(order!.createdAt + 20_000 + t.at * (life - 40_000));
        amount = order!.payAmount;
      } else if (t.kind === "late") {
        bankTime = seconds(order!.expiresAt + t.at);
        amount = order!.payAmount;
      } else {
        bankTime = seconds(firstOf.get(t.order)!.bankTime + t.at);
        amount = order!.payAmount;
      }
      bankTime = Math.min(bankTime, latest - (transfers.length % 60) * 1000);
      const transfer: Transfer = {
        n: t.n,
        kind: t.kind,
        amount,
        bankTime,
        bankId: t.bankId,
        payer: players[t.payer]!,
        order,
        names: t.names,
        plan: t,
        unlinkable: [],
      };
      if (t.kind === "first") firstOf.set(t.order, transfer);
      transfers.push(transfer);
    }
    const dayStart = Math.min(...transfers.map((t) => t.bankTime)) - MINUTE;
    const dayEnd = latest + MINUTE;
    const at = (f: number) => dayStart + f * (dayEnd - dayStart);
    step(
      `seed ${seed}: channel ${channel}, ${transfers.length} transfers: ${transfers
        .map(
          (t) =>
            `#${t.n} ${t.kind} ${t.amount} at ${vientianeParts(t.bankTime).hms}${t.order ? ` order ${t.order.code} (${vientianeParts(t.order.createdAt).hm}-${vientianeParts(t.order.expiresAt).hm})` : ""} by ${t.payer.username}`,
        )
        .join("; ")}`,
    );

    // what the model sent, to trace what the portal keeps
    const sent: SentReport[] = [];
    const byKey = new Map<string, Transfer>();
    const remember = (report: SentReport) => {
      sent.push(report);
      if (report.id) byKey.set(`${report.source}:${report.id}`, report.transfer);
    };
    const traceOf = (w: { source: string; witness_id: string; amount: string; bank_time: number }): Transfer | null => {
      const known = byKey.get(`${w.source}:${w.witness_id}`);
      if (known) return known;
      const same = sent.filter(
        (s) =>
          s.source === w.source &&
          s.amount === w.amount &&
          (s.bankTime === w.bank_time || Math.floor(s.bankTime / MINUTE) === Math.floor(w.bank_time / MINUTE)),
      );
      const found = [...new Set(same.map((s) => s.transfer))];
      if (found.length === 1) {
        byKey.set(`${w.source}:${w.witness_id}`, found[0]!);
        return found[0]!;
      }
      return null;
    };

    // ---- the reports
    const smsText = (t: Transfer, bankTime: number, withId: boolean) => {
      const v = vientianeParts(bankTime);
      return `BCEL One: Received ${grouped(t.amount)} LAK from ${NAMES[t.plan.payer % NAMES.length]} on ${v.dmy} ${v.hms}.${withId ? ` Ref: ${t.bankId}` : ""}${t.names && t.order ? ` ${t.order.code}` : ""}`;
    };
    const sendSms = async (t: Transfer) => {
      const plan = t.plan.sms!;
      // a future-dated text: the bank's time an hour or so after it arrived (a wrong clock or date)
      const bankTime = plan.future ? seconds(Date.now() + 30 * MINUTE + (t.n % 30) * MINUTE) : t.bankTime;
      const content = smsText(t, bankTime, plan.withId);
      const id = plan.withId ? t.bankId : `sha256:${await sha256Hex(`BCEL\n${bankTime}\n${content}`)}`;
      remember({ source: "forwarder", id, amount: t.amount, bankTime, transfer: t });
      if (plan.future && !plan.withId) t.unlinkable.push(`forwarder:${id}`);
      if (plan.future) count("futureSms");
      const timestamp = String((postTimestamp = Math.max(postTimestamp + 1, Date.now() - 60_000)));
      const first = await phonePost(fwd, content, timestamp);
      step(
        `SMS of #${t.n} (${plan.withId ? "with id" : "no id"}${plan.future ? ", future-dated" : ""}): ${first.status} ${first.body.result ?? first.body.error}`,
      );
      expect(first.status, `SMS of #${t.n}`).toBe(200);
      if (plan.twice) {
        const ts = plan.twice === "same-post" ? timestamp : String((postTimestamp = Math.max(postTimestamp + 1, Date.now() - 60_000)));
        const again = await phonePost(fwd, content, ts);
        step(`SMS of #${t.n} delivered again (${plan.twice}): ${again.status} ${again.body.result ?? again.body.error}`);
        expect(again.status).toBe(200);
        count("smsDeliveredTwice");
      }
    };
    const markPaid = (t: Transfer, id: string, bankTime: number, minuteOnly: boolean, confirm = false) => {
      const v = vientianeParts(bankTime);
      const fields: Record<string, string> = { orderCode: t.order!.code, bankTransactionId: id, bankTime: `${v.day}T${minuteOnly ? v.hm : v.hms}` };
      if (confirm) fields.outsideLife = "confirm";
      return post("/admin/deposits/open", cashier, fields);
    };
    const reservationEnded = async (code: string) =>
      (
        await env.DB.prepare(`SELECT ended_at FROM pay_amount_reservations WHERE agency_id = ?1 AND order_code = ?2`)
          .bind(AGENCY, code)
          .first<{ ended_at: number | null }>()
      )?.ended_at != null;
    const creditedByOtherReport = async (code: string) =>
      (await env.DB.prepare(`SELECT COUNT(*) AS n FROM bank_transactions WHERE agency_id = ?1 AND order_code = ?2 AND source <> 'staff'`)
        .bind(AGENCY, code)
        .first<{ n: number }>())!.n > 0;
    const witnessCount = async (source: string, id: string) =>
      (await env.DB.prepare(`SELECT COUNT(*) AS n FROM bank_witnesses WHERE agency_id = ?1 AND channel_code = ?2 AND source = ?3 AND witness_id = ?4`)
        .bind(AGENCY, channel, source, id)
        .first<{ n: number }>())!.n;
    const sendStaff = async (t: Transfer) => {
      const plan = t.plan.staff!;
      const id = plan.idMistyped ? `${t.bankId.slice(0, 5)}${t.bankId[6]}${t.bankId[5]}${t.bankId.slice(7)}X` : t.bankId;
      const typed = plan.minuteOnly ? Math.floor(t.bankTime / MINUTE) * MINUTE : t.bankTime;
      if (plan.idMistyped) count("staffIdMistyped");
      if (plan.hourOff) {
        // an hour off, inside the day and never ahead of now
        const wrong = typed + (typed + 60 * MINUTE < Date.now() - MINUTE ? 60 * MINUTE : -60 * MINUTE);
        const wasOpen = !(await reservationEnded(t.order!.code));
        const refused = await markPaid(t, id, wrong, plan.minuteOnly);
        step(`cashier marks ${t.order!.code} paid for #${t.n} with ${id} at ${vientianeParts(wrong).hms} (an hour off): ${refused.status}`);
        if (refused.status === 409) {
          count("hourOffRefused");
          // refused: nothing recorded, the order still open
          expect(await witnessCount("staff", id), `an hour-off mark paid of #${t.n} recorded a report`).toBe(0);
          // a report of the same transfer arriving at the same moment (its SMS) may end the order; the refused mark never does
          if (await reservationEnded(t.order!.code))
            expect(await creditedByOtherReport(t.order!.code), `an hour-off mark paid of #${t.n} ended its order`).toBe(true);
        } else {
          // only an order no longer open answers otherwise (302 with "not open")
          expect(refused.status).toBe(302);
          expect(wasOpen && !(await reservationEnded(t.order!.code)), `an hour-off mark paid of open order ${t.order!.code} was not refused`).toBe(false);
          return;
        }
        if (plan.hourOff === "confirm") {
          remember({ source: "staff", id, amount: t.amount, bankTime: wrong, transfer: t });
          t.unlinkable.push(`staff:${id}`);
          const confirmed = await markPaid(t, id, wrong, plan.minuteOnly, true);
          step(`cashier confirms the hour-off time for #${t.n}: ${confirmed.status}`);
          count("hourOffConfirmed");
          return;
        }
        count("hourOffRetyped");
      }
      remember({ source: "staff", id, amount: t.amount, bankTime: typed, transfer: t });
      const res = await markPaid(t, id, typed, plan.minuteOnly);
      step(`cashier marks ${t.order!.code} paid for #${t.n} with ${id} at ${vientianeParts(typed).hms}: ${res.status} ${res.headers.get("Location") ?? ""}`);
      expect([302, 409]).toContain(res.status);
    };
    const statementImported: { from: number; to: number }[] = [];
    const sendStatement = async (from: number, to: number, label: string) => {
      const rows = transfers.filter((t) => t.bankTime >= from && t.bankTime <= to).sort((a, b) => a.bankTime - b.bankTime || a.n - b.n);
      const lines = [`Date,Description,Debit,Credit${plan.statementIds ? ",Ref" : ""}`];
      for (const t of rows) {
        const v = vientianeParts(t.bankTime);
        const description = `TRANSFER FROM ${NAMES[t.plan.payer % NAMES.length]}${t.names && t.order ? ` ${t.order.code}` : ""}`;
        lines.push(`${v.dmy} ${v.hms},"${description}",,"${grouped(t.amount)}"${plan.statementIds ? `,${t.bankId}` : ""}`);
        remember({ source: "statement", id: plan.statementIds ? t.bankId : null, amount: t.amount, bankTime: t.bankTime, transfer: t });
      }
      await importStatement(cashier, channel, `${lines.join("\r\n")}\r\n`, plan.statementIds);
      statementImported.push({ from, to });
      step(`statement "${label}" ${vientianeParts(from).hms}-${vientianeParts(to).hms} imported: ${rows.map((t) => `#${t.n}`).join(" ")}`);
    };

    // ---- the invariants after every step
    const players_ = new Map(players.map((p) => [p.playerId, p]));
    const credited = async () => {
      const [credits, witnesses] = await Promise.all([creditsOf(channel), witnessesOf(channel)]);
      const perTransfer = new Map<Transfer, CreditRow[]>();
      const perPlayer = new Map<string, number>();
      const wrong: string[] = [];
      for (const c of credits) {
        if (c.settled) continue;
        const w = witnesses.find((x) => x.source === c.source && x.witness_id === c.witness_id);
        const t = w ? traceOf(w) : null;
        if (!t) {
          wrong.push(`credit ${c.code} (${c.kind}) traced to no report the model sent (${c.source}:${c.witness_id})`);
          continue;
        }
        perTransfer.set(t, [...(perTransfer.get(t) ?? []), c]);
        if (c.player_id !== t.payer.playerId)
          wrong.push(`credit ${c.code} of #${t.n} went to ${players_.get(c.player_id ?? "")?.username ?? c.player_id}, paid by ${t.payer.username}`);
        perPlayer.set(c.player_id ?? "", (perPlayer.get(c.player_id ?? "") ?? 0) + 1);
      }
      return { perTransfer, perPlayer, wrong, credits, witnesses };
    };
    const check = async (when: string) => {
      const { perTransfer, perPlayer, wrong } = await credited();
      for (const [t, cs] of perTransfer)
        if (cs.length > 1)
          wrong.push(`#${t.n} (${t.kind}) credited ${cs.length} times: ${cs.map((c) => `${c.code} by ${c.source}:${c.witness_id}`).join(", ")}`);
      const settled = (await creditsOf(channel)).filter((c) => c.settled);
      for (const p of players) {
        const inWallet = await walletCredits(p);
        const traced = (perPlayer.get(p.playerId) ?? 0) + settled.filter((c) => c.player_id === p.playerId).length;
        const paid = transfers.filter((t) => t.payer === p).length;
        if (inWallet !== traced) {
          const { items } = await p.wallet.listDeposits(1, 200);
          const mine = (await creditsOf(channel)).filter((c) => c.player_id === p.playerId);
          wrong.push(
            `${p.username}: ${inWallet} credits in the wallet (${items.map((o) => `${o.code} ${o.status}`).join(", ")}), ${traced} traced to reports (${mine.map((c) => `${c.code} ${c.kind} ${c.source}:${c.witness_id}${c.settled ? ` settled ${c.settled}` : ""}`).join(", ")})`,
          );
        }
        if (inWallet > paid + settled.filter((c) => c.player_id === p.playerId).length)
          wrong.push(`${p.username}: ${inWallet} credits for ${paid} real payments`);
      }
      if (wrong.length) step(`CHECK after ${when}: ${wrong.join("; ")}`);
      if (!EXPLORE) expect(wrong, `after ${when}`).toEqual([]);
      for (const w of wrong) problemsSeen.add(w.replace(/ \(.*$/, ""));
    };

    // ---- a cashier at the queue: credits with the payer's username (now and then another name: an order's own amount credits that order whatever is typed)
    const creditItem = async (who: Staff, role: string, item: QueueRow, username: string, reason?: string) => {
      const fields: Record<string, string> = { intent: "credit", id: item.id, username, provider: "betflix" };
      if (reason) fields.reason = reason;
      const res = await post("/admin/payments", who, fields);
      const after = (await env.DB.prepare(`SELECT status FROM unmatched_payments WHERE id = ?1`).bind(item.id).first<{ status: string }>())?.status;
      step(`${role} credits queue item ${item.id} (${item.kind} ${item.amount}) to ${username}${reason ? " with a reason" : ""}: ${res.status} -> ${after}`);
      return { status: res.status, credited: after === "CREDITED" };
    };
    const itemTransfer = (item: QueueRow, witnesses: WitnessRow[]): Transfer | null => {
      const id = item.transaction_id.slice(`${AGENCY}:${channel}:`.length);
      const w = witnesses.filter((x) => x.witness_id === id);
      const ts = [...new Set(w.map((x) => traceOf(x)))];
      return ts.length === 1 ? ts[0]! : null;
    };
    const sweep = async () => {
      const { perTransfer, witnesses } = await credited();
      for (const item of await queueOf(channel)) {
        if (!r.chance(0.6)) continue;
        const t = itemTransfer(item, witnesses);
        if (!t) {
          step(`queue item ${item.id} (${item.kind} ${item.transaction_id}) traced to no real transfer`);
          expect.soft(t, `queue item ${item.id} ${item.transaction_id} traced to no real transfer`).not.toBeNull();
          continue;
        }
        const orderOpen = t.order !== null && t.amount === t.order.payAmount && ![...perTransfer.values()].flat().some((c) => c.code === t.order!.code);
        const wrongName = orderOpen && r.chance(0.25);
        const username = wrongName ? players.find((p) => p !== t.payer)!.username : t.payer.username;
        const done = await creditItem(cashier, "cashier", item, username);
        if (done.credited) count(wrongName ? "cashierCreditedOrderWhateverName" : "cashierCredited");
        else if (done.status === 409) count("cashierRefusedProbableDuplicate");
        // money already credited is never credited again by a cashier
        if ((perTransfer.get(t)?.length ?? 0) > 0) expect(done.credited, `cashier credited #${t.n} again`).toBe(false);
      }
    };

    // ---- the day
    let at_ = 0;
    for (const size of plan.batches) {
      const batch = plan.events.slice(at_, at_ + size);
      at_ += size;
      if (batch.length > 1) count("reportsAtOnce");
      await together(
        batch.map((e) => {
          if (e.kind === "staff") return sendStaff(transfers[e.transfer]!);
          if (e.kind === "sms") return sendSms(transfers[e.transfer]!);
          if (e.kind === "statement") {
            if (e.label === "morning again") count("statementImportedTwice");
            if (e.label === "overlapping") count("statementsOverlapping");
            return sendStatement(at(e.from), at(e.to), e.label);
          }
          return sweep();
        }),
      );
      await check(`step ${log.length}`);
    }

    // ---- the end of the day: the whole day's statement (twice when the seed says so), the cashier, then the owner
    await sendStatement(dayStart, dayEnd + 40 * MINUTE, "whole day");
    await check("the whole day's statement");
    await sweep();
    await check("the cashier's last sweep");
    const leftovers: string[] = [];
    {
      const { perTransfer, witnesses } = await credited();
      for (const item of await queueOf(channel)) {
        const t = itemTransfer(item, witnesses);
        if (!t) {
          leftovers.push(`queue item ${item.id} (${item.kind} ${item.transaction_id}) traced to no single real transfer`);
          continue;
        }
        if ((perTransfer.get(t)?.length ?? 0) > 0) {
          // a report of money already credited: only expected of reports the rules cannot link
          const id = item.transaction_id.slice(`${AGENCY}:${channel}:`.length);
          const reports = witnesses.filter((w) => w.witness_id === id).map((w) => `${w.source}:${w.witness_id}`);
          // (the report queued may be the linkable one: the unlinkable one took the credit first)
          if (t.unlinkable.length === 0)
            leftovers.push(`queue item ${item.id} (${item.kind}, ${reports.join(" ")}) is a report of #${t.n} (${t.kind}), already credited: not linked`);
          const res = await post("/admin/payments", owner, { intent: "refund", id: item.id, note: `a second report of transfer #${t.n}, already credited` });
          step(`owner dismisses queue item ${item.id} (a report of #${t.n}, already credited): ${res.status}`);
          count("ownerDismissed");
          continue;
        }
        let done = await creditItem(owner, "owner", item, t.payer.username);
        if (!done.credited && done.status === 409) {
          done = await creditItem(owner, "owner", item, t.payer.username, `a payment of its own on the statement (#${t.n})`);
          if (done.credited) count("ownerCreditedWithReason");
        } else if (done.credited) count("ownerCredited");
        expect(done.credited, `owner could not credit #${t.n} from queue item ${item.id}`).toBe(true);
        perTransfer.set(t, [...(perTransfer.get(t) ?? []), {} as CreditRow]);
      }
    }
    await check("the owner's credits");

    // ---- every real transfer credited exactly once, none lost
    const { perTransfer, witnesses } = await credited();
    const lost = transfers
      .filter((t) => (perTransfer.get(t)?.length ?? 0) !== 1)
      .map((t) => `#${t.n} (${t.kind}) credited ${perTransfer.get(t)?.length ?? 0} times`);
    expect([...leftovers, ...lost], "the end of the day").toEqual([]);
    expect(await queueOf(channel), "the queue after the owner").toEqual([]);

    // ---- the reconciliation of each bank day
    const days = [...new Set(transfers.map((t) => vientianeDay(t.bankTime)))].sort();
    const today = vientianeDay(Date.now());
    const mine = (l: Line) => l.key.includes(`:${channel}:`);
    const twiceBefore: string[] = [];
    for (const day of days) {
      const { lines } = await reconciliationDay(owner, day);
      for (const l of lines.filter((x) => mine(x) && x.reason === "CREDITED_TWICE")) twiceBefore.push(`${day} ${l.key}`);
    }
    // doubles: the owner settles each surplus credit (reversed at the provider), the later one
    const credits = (await creditsOf(channel)).filter((c) => !c.settled);
    const byTransfer = new Map<string, CreditRow[]>();
    for (const c of credits) {
      const w = witnesses.find((x) => x.source === c.source && x.witness_id === c.witness_id);
      if (w) byTransfer.set(w.transfer_id, [...(byTransfer.get(w.transfer_id) ?? []), c]);
    }
    for (const [transferId, cs] of byTransfer) {
      if (cs.length < 2) continue;
      const w = witnesses.find((x) => x.transfer_id === transferId)!;
      for (const c of cs.slice(1)) {
        const res = await post("/admin/reconciliation", owner, {
          intent: "settle",
          day: vientianeDay(w.bank_time),
          code: c.code,
          settled: "reversed",
          reason: "taken back at the provider",
        });
        step(`owner settles ${c.code} (transfer ${transferId} credited ${cs.length} times): ${res.status}`);
        count("ownerSettled");
      }
    }
    // notes on what can be noted; NO_CREDIT and CREDITED_TWICE must be gone, not noted
    const problems: string[] = twiceBefore.map((k) => `credited twice: ${k}`);
    for (const day of days) {
      const { lines } = await reconciliationDay(owner, day);
      for (const l of lines.filter((x) => mine(x) && x.reason && !x.noted)) {
        if (l.reason === "NO_CREDIT" || l.reason === "CREDITED_TWICE") {
          problems.push(`${day}: ${l.reason} ${l.key} at the end of the day`);
          continue;
        }
        const res = await post("/admin/reconciliation", owner, { day, lineKey: l.key, note: `checked against the bank (model seed ${seed})` });
        step(`owner notes ${l.reason} ${l.key}: ${res.status}`);
        count("ownerNoted");
      }
      const after = await reconciliationDay(owner, day);
      // each real transfer of the day credited on exactly one line of the day
      const linesOf = new Map<Transfer, string[]>();
      for (const l of after.lines.filter(mine)) {
        const m = /^(?:credit|staff-only|no-credit):[^:]+:(.+)$/.exec(l.key.replace(`:${channel}:`, ":X:"));
        if (!m) continue;
        const transferId = m[1]!;
        const row = await env.DB.prepare(
          `SELECT credits, outcome FROM bank_transactions WHERE agency_id = ?1 AND channel_code = ?2 AND bank_transaction_id = ?3`,
        )
          .bind(AGENCY, channel, transferId)
          .first<{ credits: number; outcome: string }>();
        const members = witnesses.filter((w) => w.transfer_id === transferId);
        const real = [...new Set(members.map((w) => traceOf(w)))];
        if (real.length !== 1 || !real[0]) {
          const parts = members.map((w) => `${w.source}:${w.witness_id.slice(0, 16)} of ${traceOf(w) ? `#${traceOf(w)!.n}` : "?"}`);
          problems.push(`${day}: line ${l.key} is ${real.length} real transfers (${parts.join(", ")})`);
          continue;
        }
        if ((row?.credits ?? 0) > 0 || row?.outcome === "APPLIED") linesOf.set(real[0], [...(linesOf.get(real[0]) ?? []), l.key]);
      }
      for (const t of transfers.filter((x) => vientianeDay(x.bankTime) === day)) {
        const ls = linesOf.get(t) ?? [];
        if (ls.length !== 1) problems.push(`${day}: #${t.n} (${t.kind}) credited on ${ls.length} lines ${ls.join(" ")}`);
      }
      // the day closes once this seed's lines are settled or noted; another seed's open line (seeds in one process share
      // today) is that seed's failure, not this one's
      const open = after.lines.filter((l) => l.reason && !l.noted);
      if (open.some(mine) || (!after.closed && open.length === 0))
        problems.push(`${day}: not closed at the end (${open.map((l) => `${l.reason} ${l.key}`).join(", ")})`);
    }
    // a future-dated report is listed on the day it arrived
    for (const s of sent.filter((x) => x.source === "forwarder" && x.transfer.plan.sms?.future)) {
      const { html } = await reconciliationDay(owner, today);
      const w = witnesses.find((x) => x.source === "forwarder" && traceOf(x) === s.transfer && x.bank_time === s.bankTime);
      if (!w || !html.includes(w.transfer_id)) problems.push(`future-dated SMS of #${s.transfer.n} not listed on ${today}, the day it arrived`);
    }
    for (const p of problems) step(`PROBLEM ${p}`);
    expect(problems, "the reconciliation at the end of the day").toEqual([]);
    if (EXPLORE) console.log(`seed ${seed} explored: ${[...problemsSeen].join(" | ")}`);
    return { log, cases };
  } catch (error) {
    console.log(`one-payment model, seed ${seed} failed; its steps:\n${log.join("\n")}`);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------

const asked = (env.MODEL_SEEDS ?? "").trim();
const range = /^(\d+)-(\d+)$/.exec(asked);
const manySeeds: number[] = /^\d+$/.test(asked)
  ? Array.from({ length: Number(asked) }, (_, i) => 1000 + i)
  : range
    ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => Number(range[1]) + i)
    : asked
        .split(",")
        .map((s) => s.trim())
        .filter((s) => /^\d+$/.test(s))
        .map(Number);

describe("one payment, one credit: a model of the day against the portal", () => {
  it("CI's seeds together plan every case", () => {
    const total: Record<string, number> = {};
    for (const seed of SEEDS) for (const [k, v] of Object.entries(casesOf(planOf(seed)))) total[k] = (total[k] ?? 0) + v;
    for (const seed of SEEDS) console.log(`seed ${seed}: ${JSON.stringify(casesOf(planOf(seed)))}`);
    for (const [name, n] of Object.entries(total)) expect(n, name).toBeGreaterThan(0);
  });

  // one test per seed (CI's, or the many asked for): a seed that fails leaves nothing running into the next
  const seeds = manySeeds.length > 0 ? manySeeds : SEEDS;
  const failed: { seed: number; message: string }[] = [];
  for (const seed of seeds)
    it(`seed ${seed}`, async () => {
      try {
        await runSeed(seed);
      } catch (error) {
        failed.push({
          seed,
          message: String((error as Error).message)
            .split("\n")
            .slice(0, 3)
            .join(" "),
        });
        throw error;
      }
    }, 120_000);
  afterAll(() => {
    if (manySeeds.length > 0)
      console.log(`one-payment model: ${seeds.length} seeds run, ${failed.length} failed${failed.map((f) => `\n  seed ${f.seed}: ${f.message}`).join("")}`);
  });
});
