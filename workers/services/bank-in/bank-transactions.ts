import { DEFAULT_WITNESS_WINDOW_MINUTES, orderCodeCandidates, windowMs } from "../../core/bank-witness";
import { deriveTransfers, isFutureDated, refKey, type DerivedTransfer, type ReportFact } from "../../core/bank-transfers";
import { canonicalLak } from "../../core/money";
import { paidInTime, paidLate, PAY_AMOUNT_COOL_DOWN_MS } from "../../core/pay-amount";
import { sha256Hex } from "../../core/tokens";
import { auditStatement, recordAudit, type AuditActor } from "../../db/audit";
import {
  bumpScopeStatement,
  deleteTransferStatement,
  insertBankCredit,
  insertReportStatement,
  loadScope,
  placeReportStatement,
  unplacedReports,
  upsertTransferStatement,
  witnessWindowMinutes,
  type BankDirection,
  type BankTransactionOutcomeKind,
  type BankWitness,
  type Scope,
  type ScopeKey,
  type ScopeOrder,
  type ScopeReport,
  type TransferRow,
} from "../../db/bank-transactions";
import { endPayAmountReservation, findPayAmountReservation } from "../../db/pay-amounts";
import { deleteOpenUnmatchedStatement, insertBankUnmatchedPayment, listChannelKinds } from "../../db/payments";
import { findPlayer } from "../../db/players";
import { raiseAlert } from "../alerts";
import { announceDebitCandidates, payByDebit, payoutTried, planDebits, type CandidatesAct, type DebitTransfer, type PayoutAct } from "./debit-payouts";
import { walletOf } from "../wallets";

export type { BankWitness };

/**
 * The one way bank reports come in on own-account channels (decision 069, superseding 046): a
 * report from staff ("mark paid"), a statement row or a forwarded message is KEPT as it arrived,
 * then the transfers of its channel, direction and amount are derived again from every report
 * (workers/core/bank-transfers.ts), and credits follow the derived transfers:
 *  - a transfer with no credit is matched to the one order whose unique pay amount it carries,
 *    paid (by the bank's time) within that order's life, and applied through that player's
 *    wallet; what cannot be applied waits in the payments queue (one item per transfer);
 *  - a transfer with a credit is done; a queue item it no longer needs goes (audited);
 *  - a transfer with two unsettled credits was credited twice, and a transfer that lost the
 *    credit its reports had (a statement uncovered a second payment) is queued: both are
 *    alerted to staff at once and keep the day from closing until the owner settles them.
 * One arrival (one report, or one whole statement import) is one derivation per amount it
 * touched; a derivation writes only if nobody derived the same scope since it read, else it
 * reads again.
 */

export type BankTransactionSource = "staff" | "statement" | "forwarder";
export type BankTransactionInput = {
  channelCode: string;
  bankTransactionId: string;
  amount: string;
  bankTime: number;
  reference: string | null;
  source: BankTransactionSource;
  raw: string | null;
};
export type BankTransactionOutcome =
  | { kind: "applied"; orderCode: string }
  | { kind: "duplicate"; orderCode: string | null }
  | { kind: "unmatched"; reason: "NO_ORDER" | "AMBIGUOUS" | "LATE" };

type UnmatchedReason = "NO_ORDER" | "AMBIGUOUS" | "LATE";
type Decision = { kind: "order"; order: ScopeOrder; late: boolean } | { kind: "none"; reason: UnmatchedReason };

/** How far around the reports that arrived a derivation reads: the longest link (a day's window, an order's life and cool-down). */
const SCOPE_REACH_MS = 24 * 3600_000 + PAY_AMOUNT_COOL_DOWN_MS;
/** A derivation that lost its scope to another reads again; and acting on what it derived (a credit) derives once more. */
const DERIVE_PASSES = 8;

async function ownAccountChannels(db: D1Database, agencyId: string): Promise<Set<string>> {
  return new Set((await listChannelKinds(db, agencyId)).filter((c) => c.gateway === "own_account").map((c) => c.code));
}

export async function windowOf(db: D1Database, agencyId: string, channelCode: string): Promise<number> {
  return windowMs((await witnessWindowMinutes(db, agencyId, channelCode)) ?? DEFAULT_WITNESS_WINDOW_MINUTES);
}

/**
 * The match rule, over the orders given this pay amount. A text naming one of them decides:
 * that order if paid in its life (or late, in its cool-down). Else one order whose life holds
 * the bank's time is the order, several are AMBIGUOUS, none is LATE when an order of that amount
 * ended before the bank's time but within its cool-down, else NO_ORDER. A named order of
 * another amount makes an in-time candidate AMBIGUOUS (the text and the amount disagree).
 */
function decide(orders: readonly ScopeOrder[], bankTime: number | null, named: readonly string[], namesOtherAmount: boolean): Decision {
  if (bankTime === null) return { kind: "none", reason: "NO_ORDER" };
  const inTime = orders.filter((o) => paidInTime(bankTime, o));
  const namedOrder = orders.find((o) => named.includes(o.orderCode));
  if (namedOrder) {
    if (paidInTime(bankTime, namedOrder)) return { kind: "order", order: namedOrder, late: false };
    if (paidLate(bankTime, namedOrder)) return { kind: "order", order: namedOrder, late: true };
    return { kind: "none", reason: "NO_ORDER" };
  }
  if (namesOtherAmount) return { kind: "none", reason: inTime.length > 0 ? "AMBIGUOUS" : "NO_ORDER" };
  if (inTime.length === 1) return { kind: "order", order: inTime[0]!, late: false };
  if (inTime.length > 1) return { kind: "none", reason: "AMBIGUOUS" };
  const late = [...orders].sort((a, b) => b.createdAt - a.createdAt).find((o) => o.createdAt <= bankTime && paidLate(bankTime, o));
  return late ? { kind: "order", order: late, late: true } : { kind: "none", reason: "NO_ORDER" };
}

/** The bank time a transfer is matched by: the statement's, else the forwarder's, else staff's; never a future-dated report's. */
function matchingTime(members: readonly ScopeReport[]): number | null {
  for (const source of ["statement", "forwarder", "staff"] as const) {
    const r = members.find((m) => m.source === source && !m.future);
    if (r) return r.bankTime;
  }
  return null;
}

/** Order codes the reports' texts name that are orders of this channel with another pay amount. */
async function namesOrderOfOtherAmount(db: D1Database, agencyId: string, channelCode: string, named: readonly string[], scope: Scope): Promise<boolean> {
  for (const code of named) {
    if (scope.orders.some((o) => o.orderCode === code)) continue;
    const order = await findPayAmountReservation(db, agencyId, code);
    if (order && order.channelCode === channelCode) return true;
  }
  return false;
}

const reportOf = (r: ScopeReport, scope: Scope): ReportFact => ({
  source: r.source,
  id: r.witnessId,
  bankTime: r.bankTime,
  receivedAt: r.recordedAt,
  namedOrders: orderCodeCandidates(r.reference, r.raw),
  future: r.future,
  split: r.splitAt !== null,
  creditedOrder: scope.credits.find((c) => c.forOrder !== null && c.source === r.source && c.witnessId === r.witnessId && c.settled === null)?.forOrder ?? null,
});

const walletTransactionId = (channelCode: string, witnessId: string) => `${channelCode}:${witnessId}`;

/** Whether a deposit order was paid (its settlement at the provider may still be on its way, or have failed and wait for a retry). */
export const isPaidOrder = (status: string): boolean => status === "PAID" || status === "SUCCESS" || status === "FAILED";
const queueKey = (agencyId: string, channelCode: string, witnessId: string) => `${agencyId}:${channelCode}:${witnessId}`;

/** What acting on a derived transfer needs. */
type Act =
  | { kind: "credit"; key: ScopeReport; decision: Extract<Decision, { kind: "order" }>; aliases: string[]; openQueue: string[] }
  | { kind: "queue"; key: ScopeReport; reason: UnmatchedReason; lateOrder: ScopeOrder | null; lostCredit: boolean }
  | { kind: "unqueue"; id: string; transferId: string }
  | { kind: "twice"; transferId: string; codes: string[]; amount: string }
  | PayoutAct
  | CandidatesAct;

type Plan = { statements: D1PreparedStatement[]; acts: Act[] };

/**
 * The writes that make D1 say what the derivation derived (placements, transfer rows, their
 * credits and queue items), and what is left to do through the wallets and the queue.
 */
async function planOf(
  db: D1Database,
  agencyId: string,
  key: ScopeKey,
  scope: Scope,
  derived: DerivedTransfer[],
  walletTried: ReadonlySet<string>,
): Promise<Plan> {
  const statements: D1PreparedStatement[] = [];
  const acts: Act[] = [];
  const byRef = new Map(scope.reports.map((r) => [refKey({ source: r.source, id: r.witnessId }), r]));
  const previous = new Map(scope.transfers.map((t) => [t.bankTransactionId, t]));
  const keys = new Set(derived.map((t) => t.key.id));
  for (const old of new Set(scope.reports.map((r) => r.transferId)))
    if (old !== "" && !keys.has(old)) statements.push(deleteTransferStatement(db, agencyId, key.channelCode, old));
  statements.push(...overturnedLinks(db, agencyId, key.channelCode, scope, derived));
  // debits: written once the payouts they made (or may make) are known (decision 084)
  const debits: { row: TransferRow; transfer: DebitTransfer }[] = [];

  for (const transfer of derived) {
    const members = transfer.members.map((m) => byRef.get(refKey(m.ref))!);
    const keyReport = byRef.get(refKey(transfer.key))!;
    for (const m of transfer.members) {
      const r = byRef.get(refKey(m.ref))!;
      if (r.transferId !== transfer.key.id || r.link !== m.link)
        statements.push(placeReportStatement(db, agencyId, key.channelCode, r.source, r.witnessId, transfer.key.id, m.link));
    }
    const isMember = (source: string, witnessId: string) =>
      byRef.has(`${source}:${witnessId}`) && transfer.members.some((m) => m.ref.source === source && m.ref.id === witnessId);
    const credits = scope.credits.filter((c) => c.settled === null && isMember(c.source, c.witnessId));
    const memberQueueKeys = new Set(members.map((m) => queueKey(agencyId, key.channelCode, m.witnessId)));
    const queue = scope.queue.filter((q) => memberQueueKeys.has(q.transactionId));
    const resolvedQueue = queue.find((q) => q.status !== "OPEN");
    const keyQueue = queue.find((q) => q.transactionId === queueKey(agencyId, key.channelCode, keyReport.witnessId));
    const orderCredit = credits.find((c) => c.kind === "order") ?? null;
    const was = members.map((m) => previous.get(m.transferId)).find((t) => t && t.credits > 0);
    const row: TransferRow = {
      channelCode: key.channelCode,
      bankTransactionId: keyReport.witnessId,
      direction: key.direction,
      amount: keyReport.amount,
      bankTime: keyReport.bankTime,
      reference: keyReport.reference,
      source: keyReport.source,
      raw: keyReport.raw,
      outcome: "DEBIT",
      orderCode: orderCredit?.code ?? null,
      playerId: orderCredit?.playerId ?? null,
      staffUsername: keyReport.staffUsername,
      recordedAt: Math.min(...members.map((m) => m.recordedAt)),
      credits: credits.length,
      queueId: null,
    };
    if (key.direction === "debit") {
      debits.push({ row, transfer: { key: keyReport, members, bankTime: matchingTime(members) } });
      continue;
    }
    if (credits.length > 0) {
      // credited: a queue item still open would invite a second credit
      const kept = orderCredit ? null : (resolvedQueue ?? keyQueue ?? queue[0] ?? null);
      for (const q of queue) if (q.status === "OPEN" && q.id !== kept?.id) acts.push({ kind: "unqueue", id: q.id, transferId: keyReport.witnessId });
      row.outcome = orderCredit ? "APPLIED" : outcomeOfQueue(kept?.kind);
      row.queueId = kept?.id ?? null;
      if (credits.length > 1) acts.push({ kind: "twice", transferId: keyReport.witnessId, codes: credits.map((c) => c.code).sort(), amount: keyReport.amount });
      statements.push(upsertTransferStatement(db, agencyId, row));
      continue;
    }
    const named = [...new Set(members.flatMap((m) => orderCodeCandidates(m.reference, m.raw)))];
    const decision = canonicalLak(key.amount)
      ? decide(scope.orders, matchingTime(members), named, await namesOrderOfOtherAmount(db, agencyId, key.channelCode, named, scope))
      : ({ kind: "none", reason: "NO_ORDER" } as const);
    const settledByStaff = resolvedQueue !== undefined;
    const kept = resolvedQueue ?? keyQueue ?? queue[0] ?? null;
    // an order already credited by another transfer: this is a second payment, for staff
    const orderTaken = decision.kind === "order" && scope.credits.some((c) => c.forOrder === decision.order.orderCode && c.settled === null);
    const tried = decision.kind === "order" && walletTried.has(`${keyReport.witnessId}>${decision.order.orderCode}`);
    if (decision.kind === "order" && !settledByStaff && !orderTaken && !tried && (!kept || !decision.late)) {
      // an order to pay: through its player's wallet (ids this transfer's reports carried before count as ours)
      acts.push({
        kind: "credit",
        key: keyReport,
        decision,
        aliases: members.map((m) => walletTransactionId(key.channelCode, m.witnessId)),
        openQueue: queue.filter((q) => q.status === "OPEN").map((q) => q.id),
      });
      row.outcome = "PENDING";
      row.orderCode = decision.order.orderCode;
      row.playerId = decision.order.playerId;
      row.queueId = kept?.id ?? null;
    } else {
      const reason: UnmatchedReason = decision.kind === "order" ? (decision.late ? "LATE" : "NO_ORDER") : decision.reason;
      for (const q of queue) if (q.status === "OPEN" && q.id !== kept?.id) acts.push({ kind: "unqueue", id: q.id, transferId: keyReport.witnessId });
      if (!kept) acts.push({ kind: "queue", key: keyReport, reason, lateOrder: null, lostCredit: Boolean(was) });
      row.outcome = kept ? outcomeOfQueue(kept.kind) : reason;
      row.orderCode = decision.kind === "order" && decision.late ? decision.order.orderCode : null;
      row.playerId = decision.kind === "order" && decision.late ? decision.order.playerId : null;
      row.queueId = kept?.id ?? null;
    }
    statements.push(upsertTransferStatement(db, agencyId, row));
  }
  if (debits.length > 0) {
    const plan = await planDebits(
      db,
      agencyId,
      key.channelCode,
      debits.map((d) => d.transfer),
      scope.payouts,
      walletTried,
      Date.now(),
    );
    for (const { row } of debits) statements.push(upsertTransferStatement(db, agencyId, { ...row, orderCode: plan.linked.get(row.bankTransactionId) ?? null }));
    statements.push(...plan.statements);
    acts.push(...plan.acts);
  }
  return { statements, acts };
}

/** A transfer's outcome as its queue item says (LATE_PAYMENT is the queue's word for LATE). */
/**
 * One audit row per transfer whose reports the derivation now puts in different transfers (a
 * link overturned by stronger evidence, e.g. a statement listing two payments the window had
 * joined): which reports went where.
 */
function overturnedLinks(db: D1Database, agencyId: string, channelCode: string, scope: Scope, derived: DerivedTransfer[]): D1PreparedStatement[] {
  const newKeyOf = new Map(derived.flatMap((t) => t.members.map((m) => [refKey(m.ref), t.key.id] as const)));
  const before = new Map<string, string[]>();
  for (const r of scope.reports)
    if (r.transferId !== "") before.set(r.transferId, [...(before.get(r.transferId) ?? []), refKey({ source: r.source, id: r.witnessId })]);
  const out: D1PreparedStatement[] = [];
  for (const [old, refs] of before) {
    const into = new Map<string, string[]>();
    for (const ref of refs) {
      const now = newKeyOf.get(ref) ?? "";
      into.set(now, [...(into.get(now) ?? []), ref]);
    }
    if (into.size < 2) continue;
    out.push(
      auditStatement(
        db,
        { agencyId, staffId: null, staffUsername: null },
        {
          action: "bank-transaction.overturned",
          target: `${channelCode}:${old}`,
          before: { reports: refs },
          after: { transfers: Object.fromEntries(into) },
        },
      ),
    );
  }
  return out;
}

function outcomeOfQueue(kind: string | undefined): BankTransactionOutcomeKind {
  return kind === "LATE_PAYMENT" ? "LATE" : kind === "AMBIGUOUS" ? "AMBIGUOUS" : "NO_ORDER";
}

const isStaleWrite = (error: unknown) => error instanceof Error && /CHECK constraint failed/i.test(error.message);

/**
 * Derives the transfers of one scope (channel, direction, amount) around [from, to], writes
 * them, and acts on them (credits, queue items, alerts), until a pass finds nothing left to do.
 * `made` collects the orders credited here (what the caller reports as "applied").
 */
async function deriveScope(
  env: Env,
  agencyId: string,
  key: ScopeKey,
  span: { from: number; to: number },
  actor: AuditActor | null,
  made: Set<string>,
): Promise<void> {
  const window = await windowOf(env.DB, agencyId, key.channelCode);
  // a wallet that refused a transfer for an order is not asked again in this arrival (its answer is queued)
  const walletTried = new Set<string>();
  for (let pass = 0; pass < DERIVE_PASSES; pass++) {
    const scope = await loadScope(env.DB, agencyId, key, span.from - SCOPE_REACH_MS, span.to + SCOPE_REACH_MS);
    const derived = deriveTransfers(
      scope.reports.map((r) => reportOf(r, scope)),
      scope.orders,
      window,
    );
    const plan = await planOf(env.DB, agencyId, key, scope, derived, walletTried);
    try {
      await env.DB.batch([bumpScopeStatement(env.DB, agencyId, key, scope.version), ...plan.statements]);
    } catch (error) {
      if (isStaleWrite(error)) continue; // another arrival derived this scope meanwhile: read again
      throw error;
    }
    if (plan.acts.length === 0) return;
    for (const act of plan.acts) {
      if (act.kind === "credit") walletTried.add(`${act.key.witnessId}>${act.decision.order.orderCode}`);
      if (act.kind === "payout") walletTried.add(payoutTried(act.key, act.withdrawal.code));
      await perform(env, agencyId, key, act, actor, made);
    }
    // an alert changes nothing the derivation reads: nothing left to derive again
    if (plan.acts.every((act) => act.kind === "twice" || act.kind === "debitCandidates")) return;
  }
  throw new Error(`bank transfers of ${key.channelCode} ${key.direction} ${key.amount} did not settle after ${DERIVE_PASSES} passes`);
}

async function perform(env: Env, agencyId: string, key: ScopeKey, act: Act, actor: AuditActor | null, made: Set<string>): Promise<void> {
  const system = actor ?? { agencyId, staffId: null, staffUsername: null };
  if (act.kind === "payout") return payByDebit(env, agencyId, act);
  if (act.kind === "debitCandidates") return announceDebitCandidates(env, agencyId, act);
  if (act.kind === "unqueue") {
    const [deleted] = await env.DB.batch([deleteOpenUnmatchedStatement(env.DB, agencyId, act.id)]);
    if ((deleted.meta.changes ?? 0) > 0)
      await recordAudit(env.DB, system, { action: "bank-transaction.unqueued", target: act.id, after: { transfer: `${key.channelCode}:${act.transferId}` } });
    return;
  }
  if (act.kind === "twice") {
    await raiseAlert(env, agencyId, {
      id: `payment.twice:${key.channelCode}:${act.codes.join("+")}`,
      kind: "payment.twice",
      facts: { channelCode: key.channelCode, transferId: act.transferId, amountLak: act.amount, codes: act.codes },
    });
    return;
  }
  if (act.kind === "queue") {
    await keepUnmatched(env, agencyId, inputOfReport(act.key), canonicalLak(act.key.amount), act.reason, act.lateOrder);
    await audit(env, actor, agencyId, inputOfReport(act.key), { outcome: act.reason, lostCredit: act.lostCredit || undefined });
    if (act.lostCredit)
      await raiseAlert(env, agencyId, {
        id: `payment.uncovered:${key.channelCode}:${act.key.source}:${act.key.witnessId}`,
        kind: "payment.uncovered",
        facts: { channelCode: key.channelCode, transferId: act.key.witnessId, amountLak: act.key.amount, bankTime: new Date(act.key.bankTime).toISOString() },
      });
    return;
  }
  // credit: the transfer's open queue items go first; one a staff member is crediting by hand meanwhile keeps the
  // transfer's credit for that hand credit (never both)
  for (const id of act.openQueue) {
    const [deleted] = await env.DB.batch([deleteOpenUnmatchedStatement(env.DB, agencyId, id)]);
    if ((deleted.meta.changes ?? 0) === 0) return;
  }
  // the order's wallet applies a bank payment once per order
  const order = act.decision.order;
  const now = Date.now();
  const result = await walletOf(env, agencyId, order.playerId).applyBankPayment(
    order.orderCode,
    {
      transactionId: walletTransactionId(key.channelCode, act.key.witnessId),
      amount: key.amount,
      bankTime: matchingTime([act.key]) ?? act.key.bankTime,
      aliases: act.aliases,
    },
    now,
  );
  // "duplicate" is a payment only when the order is paid by it (a late payment flagged on a cancelled order is not)
  if (result.kind === "paid" || (result.kind === "duplicate" && isPaidOrder(result.order.status))) {
    const recorded = await insertBankCredit(env.DB, agencyId, {
      code: order.orderCode,
      kind: "order",
      channelCode: key.channelCode,
      source: act.key.source,
      witnessId: act.key.witnessId,
      playerId: order.playerId,
      amount: key.amount,
      forOrder: order.orderCode,
      creditedAt: now,
    });
    await endPayAmountReservation(env.DB, agencyId, order.orderCode, now);
    if (recorded) {
      made.add(order.orderCode);
      await audit(env, actor, agencyId, inputOfReport(act.key), { outcome: "APPLIED", orderCode: order.orderCode });
    }
    return;
  }
  const reason: UnmatchedReason = result.kind === "late" || result.kind === "duplicate" ? "LATE" : "NO_ORDER";
  await keepUnmatched(
    env,
    agencyId,
    inputOfReport(act.key),
    key.amount,
    reason,
    reason === "LATE" ? await findPayAmountReservation(env.DB, agencyId, order.orderCode) : null,
  );
  await audit(env, actor, agencyId, inputOfReport(act.key), { outcome: reason, orderCode: order.orderCode, wallet: result.kind });
}

const inputOfReport = (r: ScopeReport): BankTransactionInput => ({
  channelCode: r.channelCode,
  bankTransactionId: r.witnessId,
  amount: r.amount,
  bankTime: r.bankTime,
  reference: r.reference,
  source: r.source,
  raw: r.raw,
});

type Directed = BankTransactionInput & { direction: BankDirection };

/**
 * Keeps each report and derives the transfers of every amount they touched (one derivation per
 * amount, however many reports arrived together: a statement import is one call). Answers per
 * report: applied (its transfer credited an order now), duplicate (a report of a transfer known
 * before, or the same report again), or unmatched (queued).
 */
export async function recordBankReports(env: Env, agencyId: string, inputs: readonly Directed[], actor: AuditActor | null): Promise<BankTransactionOutcome[]> {
  const now = Date.now();
  const own = await ownAccountChannels(env.DB, agencyId);
  const prepared = inputs.map((input) => {
    const witnessId = input.bankTransactionId.trim();
    if (!witnessId || !own.has(input.channelCode)) return null;
    const bankTime = Number.isFinite(input.bankTime) ? input.bankTime : now;
    return {
      channelCode: input.channelCode,
      source: input.source,
      witnessId,
      direction: input.direction,
      amount: canonicalLak(input.amount) ?? input.amount.trim().slice(0, 40),
      bankTime,
      reference: input.reference,
      raw: input.raw,
      future: isFutureDated(bankTime, now),
      staffUsername: actor?.staffUsername ?? null,
      recordedAt: now,
    };
  });
  const kept = prepared.filter((p) => p !== null);
  const inserted = kept.length > 0 ? await env.DB.batch(kept.map((p) => insertReportStatement(env.DB, agencyId, p))) : [];
  const fresh = new Set(kept.filter((_, i) => (inserted[i]!.meta.changes ?? 0) > 0).map((p) => `${p.channelCode}:${p.source}:${p.witnessId}`));
  const scopes = new Map<string, { key: ScopeKey; from: number; to: number }>();
  for (const p of kept) {
    if (!fresh.has(`${p.channelCode}:${p.source}:${p.witnessId}`)) continue;
    const id = `${p.channelCode}\n${p.direction}\n${p.amount}`;
    const s = scopes.get(id);
    if (s) [s.from, s.to] = [Math.min(s.from, p.bankTime), Math.max(s.to, p.bankTime)];
    else scopes.set(id, { key: { channelCode: p.channelCode, direction: p.direction, amount: p.amount }, from: p.bankTime, to: p.bankTime });
  }
  const made = new Set<string>();
  for (const s of scopes.values()) await deriveScope(env, agencyId, s.key, s, actor, made);
  return outcomesOf(env.DB, agencyId, prepared, fresh, made);
}

/** Each report's answer, read after the derivations: its transfer and what became of it. */
async function outcomesOf(
  db: D1Database,
  agencyId: string,
  prepared: ({ channelCode: string; source: string; witnessId: string } | null)[],
  fresh: Set<string>,
  made: Set<string>,
): Promise<BankTransactionOutcome[]> {
  const refs = prepared.filter((p) => p !== null).map((p) => [p.channelCode, p.source, p.witnessId]);
  const { results } = refs.length
    ? await db
        .prepare(
          `SELECT w.channel_code, w.source, w.witness_id, t.outcome, t.order_code,
                  (SELECT COUNT(*) FROM bank_witnesses x WHERE x.agency_id = w.agency_id AND x.channel_code = w.channel_code AND x.transfer_id = w.transfer_id) AS members
             FROM json_each(?2) j
             JOIN bank_witnesses w ON w.agency_id = ?1 AND w.channel_code = j.value ->> 0 AND w.source = j.value ->> 1 AND w.witness_id = j.value ->> 2
             LEFT JOIN bank_transactions t ON t.agency_id = w.agency_id AND t.channel_code = w.channel_code AND t.bank_transaction_id = w.transfer_id`,
        )
        .bind(agencyId, JSON.stringify(refs))
        .all<{
          channel_code: string;
          source: string;
          witness_id: string;
          outcome: BankTransactionOutcomeKind | null;
          order_code: string | null;
          members: number;
        }>()
    : { results: [] };
  const byRef = new Map(results.map((r) => [`${r.channel_code}:${r.source}:${r.witness_id}`, r]));
  const answered = new Set<string>();
  return prepared.map((p): BankTransactionOutcome => {
    if (!p) return { kind: "unmatched", reason: "NO_ORDER" };
    const ref = `${p.channelCode}:${p.source}:${p.witnessId}`;
    const row = byRef.get(ref);
    const orderCode = row?.outcome === "APPLIED" ? row.order_code : null;
    if (!fresh.has(ref) || !row) return { kind: "duplicate", orderCode };
    if (orderCode && made.has(orderCode) && !answered.has(orderCode)) {
      answered.add(orderCode);
      return { kind: "applied", orderCode };
    }
    if (row.outcome === "NO_ORDER" || row.outcome === "AMBIGUOUS" || row.outcome === "LATE") {
      if (row.members === 1) return { kind: "unmatched", reason: row.outcome };
    }
    // a new debit of its own (recordBankDebit says "recorded")
    if (row.outcome === "DEBIT" && row.members === 1) return { kind: "unmatched", reason: "NO_ORDER" };
    return { kind: "duplicate", orderCode };
  });
}

/** One report of a transfer into an own-account channel (staff, statement row, forwarded message). */
export async function applyBankTransaction(env: Env, agencyId: string, input: BankTransactionInput, actor: AuditActor | null): Promise<BankTransactionOutcome> {
  const [outcome] = await recordBankReports(env, agencyId, [{ ...input, direction: "credit" }], actor);
  return outcome!;
}

/**
 * A bank debit (a statement debit row, a forwarded debit message): kept and derived the same
 * way; the payout of exactly one withdrawal waiting for the cashier marks it paid (decision 084).
 */
export async function recordBankDebit(env: Env, agencyId: string, input: BankTransactionInput, actor: AuditActor | null): Promise<"recorded" | "duplicate"> {
  if (!canonicalLak(input.amount)) return "duplicate";
  const [outcome] = await recordBankReports(env, agencyId, [{ ...input, direction: "debit" }], actor);
  return outcome!.kind === "unmatched" ? "recorded" : "duplicate";
}

/** Derives again the scope of one report (after the owner acted on its transfer: a split, a hand credit, a settlement). */
export async function deriveAround(
  env: Env,
  agencyId: string,
  report: { channelCode: string; direction: BankDirection; amount: string; bankTime: number },
  actor: AuditActor | null,
) {
  await deriveScope(
    env,
    agencyId,
    { channelCode: report.channelCode, direction: report.direction, amount: report.amount },
    { from: report.bankTime, to: report.bankTime },
    actor,
    new Set(),
  );
}

/**
 * Reports kept but never placed (the request that brought them died before its derivation):
 * each one's scope is derived now (the 5-minute cron). Bounded per run; the rest waits for the
 * next tick.
 */
export async function deriveUnplacedReports(env: Env, limit = 50): Promise<number> {
  const unplaced = await unplacedReports(env.DB, limit);
  for (const r of unplaced) await deriveAround(env, r.agencyId, r, null);
  return unplaced.length;
}

/** Preview without writing anything (statement import shows matches before applying). */
export async function matchBankTransaction(
  env: Env,
  agencyId: string,
  input: BankTransactionInput,
): Promise<
  | { kind: "match"; orderCode: string; username: string }
  | { kind: "duplicate"; orderCode?: string | null }
  | { kind: "none"; reason: "NO_ORDER" | "AMBIGUOUS" | "LATE" }
> {
  if (!(await ownAccountChannels(env.DB, agencyId)).has(input.channelCode)) return { kind: "none", reason: "NO_ORDER" };
  const amount = canonicalLak(input.amount);
  if (!amount || !Number.isFinite(input.bankTime)) return { kind: "none", reason: "NO_ORDER" };
  const key: ScopeKey = { channelCode: input.channelCode, direction: "credit", amount };
  const scope = await loadScope(env.DB, agencyId, key, input.bankTime - SCOPE_REACH_MS, input.bankTime + SCOPE_REACH_MS);
  const witnessId = input.bankTransactionId.trim();
  const known = scope.reports.find((r) => r.source === input.source && r.witnessId === witnessId);
  const transferOf = (id: string) => scope.transfers.find((t) => t.bankTransactionId === id);
  if (known) return { kind: "duplicate", orderCode: transferOf(known.transferId)?.orderCode ?? null };
  // the derivation as it would be with this row: does it join a transfer known before?
  const now = Date.now();
  const row: ScopeReport = {
    channelCode: input.channelCode,
    source: input.source,
    witnessId,
    transferId: "",
    amount,
    bankTime: input.bankTime,
    reference: input.reference,
    raw: input.raw,
    link: "key",
    staffUsername: null,
    recordedAt: now,
    splitBy: null,
    splitReason: null,
    splitAt: null,
    direction: "credit",
    future: isFutureDated(input.bankTime, now),
  };
  const all = [...scope.reports, row];
  const derived = deriveTransfers(
    all.map((r) => reportOf(r, scope)),
    scope.orders,
    await windowOf(env.DB, agencyId, input.channelCode),
  );
  const mine = derived.find((t) => t.members.some((m) => m.ref.source === input.source && m.ref.id === witnessId))!;
  const other = mine.members.map((m) => scope.reports.find((r) => r.source === m.ref.source && r.witnessId === m.ref.id)).find((r) => r !== undefined);
  if (other) return { kind: "duplicate", orderCode: transferOf(other.transferId)?.orderCode ?? null };
  const named = orderCodeCandidates(input.reference, input.raw);
  const decision = decide(
    scope.orders,
    row.future ? null : input.bankTime,
    named,
    await namesOrderOfOtherAmount(env.DB, agencyId, input.channelCode, named, scope),
  );
  if (decision.kind === "none") return decision;
  if (decision.late) return { kind: "none", reason: "LATE" };
  if (scope.credits.some((c) => c.kind === "order" && c.code === decision.order.orderCode)) return { kind: "none", reason: "NO_ORDER" };
  const player = await findPlayer(env.DB, agencyId, decision.order.playerId);
  return { kind: "match", orderCode: decision.order.orderCode, username: player?.username ?? "" };
}

/** Kept for staff (back office, payments): a late payment against its order (so resolving it releases the order's booking), anything else on its own. */
async function keepUnmatched(
  env: Env,
  agencyId: string,
  input: BankTransactionInput,
  amount: string | null,
  reason: UnmatchedReason,
  lateOrder: { orderCode: string; playerId: string } | null,
) {
  await insertBankUnmatchedPayment(env.DB, {
    agencyId,
    kind: reason === "LATE" ? "LATE_PAYMENT" : reason,
    reference: lateOrder ? lateOrder.orderCode : (input.reference?.trim() || input.bankTransactionId).slice(0, 60),
    transactionKey: queueKey(agencyId, input.channelCode, input.bankTransactionId),
    amount,
    orderPlayerId: lateOrder?.playerId ?? null,
    channelCode: input.channelCode,
    source: input.source,
    bankTime: Number.isFinite(input.bankTime) ? input.bankTime : null,
    raw: input.raw,
  });
}

async function audit(env: Env, actor: AuditActor | null, agencyId: string, input: BankTransactionInput, after: Record<string, unknown>) {
  await recordAudit(env.DB, actor ?? { agencyId, staffId: null, staffUsername: null }, {
    action: "bank-transaction.recorded",
    target: `${input.channelCode}:${input.bankTransactionId}`,
    after: { source: input.source, amount: input.amount, bankTime: new Date(input.bankTime).toISOString(), reference: input.reference, ...after },
  });
}

/** A notification/statement text no pattern could read: kept for staff with the raw text. */
export async function recordUnreadableBankMessage(
  env: Env,
  agencyId: string,
  input: { channelCode: string; source: BankTransactionSource; raw: string; receivedAt: number },
): Promise<void> {
  const digest = (await sha256Hex(`${input.channelCode}\n${input.source}\n${input.receivedAt}\n${input.raw}`)).slice(0, 24);
  await insertBankUnmatchedPayment(env.DB, {
    agencyId,
    kind: "UNREADABLE",
    reference: `UR${digest.slice(0, 16).toUpperCase()}`,
    transactionKey: `${agencyId}:${input.channelCode}:unreadable:${digest}`,
    amount: null,
    orderPlayerId: null,
    channelCode: input.channelCode,
    source: input.source,
    bankTime: input.receivedAt,
    raw: input.raw,
  });
  await recordAudit(
    env.DB,
    { agencyId, staffId: null, staffUsername: null },
    { action: "bank-transaction.unreadable", target: input.channelCode, after: { source: input.source, receivedAt: new Date(input.receivedAt).toISOString() } },
  );
}
