import { canonicalLak } from "../core/money";
import { paidInTime, paidLate } from "../core/pay-amount";
import { sha256Hex } from "../core/tokens";
import { recordAudit, type AuditActor } from "../db/audit";
import { DEFAULT_WITNESS_WINDOW_MINUTES, orderCodeCandidates, pickTransfer, windowMs, type Report } from "../core/bank-witness";
import {
  claimTransfer,
  findTransferByWitnessId,
  insertWitness,
  linkCandidates,
  settleBankTransaction,
  witnessWindowMinutes,
  type BankDirection,
  type BankTransactionOutcomeKind,
  type BankTransactionRecord,
  type BankWitness,
  type WitnessLink,
} from "../db/bank-transactions";

export type { BankWitness };
import { endPayAmountReservation, findPayAmountReservation, reservationsWithPayAmount, type PayAmountReservation } from "../db/pay-amounts";
import { insertBankUnmatchedPayment, listChannelKinds } from "../db/payments";
import { findPlayer } from "../db/players";
import { walletOf } from "./wallet";

/**
 * The one matcher of own-account channels (decision 016): a bank transaction reported by staff
 * ("mark paid"), a statement import or a notification forwarder is matched to the one order
 * whose unique pay amount it carries, paid (by the BANK's time) within that order's life, and
 * whose code it names when it names one; it is applied at most once (agency + channel + the
 * bank's transaction id), and what cannot be applied goes to the unmatched-payments queue.
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
/** What the recorded facts say before the wallet is asked: the order meant (in time, or late), or none. */
type Decision = { kind: "order"; order: PayAmountReservation; late: boolean } | { kind: "none"; reason: UnmatchedReason };

async function isOwnAccountChannel(db: D1Database, agencyId: string, channelCode: string): Promise<boolean> {
  return (await listChannelKinds(db, agencyId)).some((c) => c.code === channelCode && c.gateway === "own_account");
}

/**
 * The match rule. Candidates: the channel's reservations of exactly this pay amount whose
 * life (created..expires, with the clock grace) holds the bank's time. A reference naming one
 * of our orders of this channel decides between them: that order if it is a candidate; if the
 * amount points at another order, AMBIGUOUS. Without a usable reference: one candidate is the
 * order, several are AMBIGUOUS, none is LATE when an order of that amount ended before the
 * bank's time but within its cool-down, else NO_ORDER.
 */
async function decide(db: D1Database, agencyId: string, input: BankTransactionInput, amount: string | null): Promise<Decision> {
  if (!amount || !Number.isFinite(input.bankTime)) return { kind: "none", reason: "NO_ORDER" };
  const sameAmount = await reservationsWithPayAmount(db, agencyId, input.channelCode, amount);
  const inTime = sameAmount.filter((r) => paidInTime(input.bankTime, r));
  const reference = input.reference?.trim().toUpperCase() || null;
  const named = reference ? await findPayAmountReservation(db, agencyId, reference) : null;
  if (named && named.channelCode === input.channelCode) {
    if (named.payAmount === amount) {
      if (paidInTime(input.bankTime, named)) return { kind: "order", order: named, late: false };
      if (paidLate(input.bankTime, named)) return { kind: "order", order: named, late: true };
      return { kind: "none", reason: "NO_ORDER" };
    }
    return { kind: "none", reason: inTime.length > 0 ? "AMBIGUOUS" : "NO_ORDER" };
  }
  if (inTime.length === 1) return { kind: "order", order: inTime[0], late: false };
  if (inTime.length > 1) return { kind: "none", reason: "AMBIGUOUS" };
  const late = sameAmount.find((r) => r.createdAt <= input.bankTime && paidLate(input.bankTime, r));
  return late ? { kind: "order", order: late, late: true } : { kind: "none", reason: "NO_ORDER" };
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
  if (!(await isOwnAccountChannel(env.DB, agencyId, input.channelCode))) return { kind: "none", reason: "NO_ORDER" };
  const amount = canonicalLak(input.amount);
  const seen = await findTransferByWitnessId(env.DB, agencyId, input.channelCode, input.bankTransactionId.trim(), input.source);
  if (seen) return { kind: "duplicate", orderCode: seen.transfer.orderCode };
  if (amount) {
    const linked = await transferToLink(env.DB, agencyId, input, amount, "credit");
    if (linked) return { kind: "duplicate", orderCode: linked.transfer.orderCode };
  }
  const decision = await decide(env.DB, agencyId, input, amount);
  if (decision.kind === "none") return decision;
  if (decision.late) return { kind: "none", reason: "LATE" };
  const player = await findPlayer(env.DB, agencyId, decision.order.playerId);
  return { kind: "match", orderCode: decision.order.orderCode, username: player?.username ?? "" };
}

/** The wallet's order key of a transfer: unique per channel within the agency (the transfer's key, never an alias). */
function walletTransactionId(transfer: { channelCode: string; bankTransactionId: string }): string {
  return `${transfer.channelCode}:${transfer.bankTransactionId}`;
}

/** The report as the witness rules see it. */
function reportOf(input: BankTransactionInput, amount: string): Report {
  return {
    channelCode: input.channelCode,
    source: input.source,
    amount,
    bankTime: input.bankTime,
    namedOrders: orderCodeCandidates(input.reference, input.raw),
  };
}

export async function windowOf(db: D1Database, agencyId: string, channelCode: string): Promise<number> {
  return windowMs((await witnessWindowMinutes(db, agencyId, channelCode)) ?? DEFAULT_WITNESS_WINDOW_MINUTES);
}

/** The transfer this report is a further witness of, by the window and order rules (decision 046). */
async function transferToLink(db: D1Database, agencyId: string, input: BankTransactionInput, amount: string, direction: BankDirection) {
  if (!Number.isFinite(input.bankTime)) return null;
  const window = await windowOf(db, agencyId, input.channelCode);
  const report = reportOf(input, amount);
  const candidates = await linkCandidates(db, agencyId, {
    channelCode: input.channelCode,
    direction,
    amount,
    from: input.bankTime - window,
    to: input.bankTime + window,
    namedOrders: report.namedOrders,
  });
  const picked = pickTransfer(report, candidates, window);
  return picked ? { ...picked, window, report } : null;
}

/** Tries to record a transfer a report names, links or creates; racing reports go round again (a handful of times at most). */
const LINK_ATTEMPTS = 5;

/**
 * Records a report of a bank transfer and applies it (idempotent, audited with `actor` when
 * staff act). The one place every witness passes through (decision 046):
 *  1. the id rule: an id some witness reported before (the key or an alias) is that transfer;
 *  2. the window and order rules: the same amount on the account within the channel's window,
 *     or a text naming the order a transfer paid, with no witness of this source yet, is a
 *     further witness of that transfer: linked, nothing applied;
 *  3. else a new transfer, matched to an order and applied through the player's wallet, or
 *     queued for staff. Its INSERT re-checks rules 1-2, so two witnesses arriving at once
 *     cannot both become transfers.
 */
export async function applyBankTransaction(env: Env, agencyId: string, input: BankTransactionInput, actor: AuditActor | null): Promise<BankTransactionOutcome> {
  const bankTransactionId = input.bankTransactionId.trim();
  const tx = { ...input, bankTransactionId };
  if (!bankTransactionId || !(await isOwnAccountChannel(env.DB, agencyId, input.channelCode))) return { kind: "unmatched", reason: "NO_ORDER" };
  const amount = canonicalLak(input.amount);
  for (let attempt = 0; attempt < LINK_ATTEMPTS; attempt++) {
    const now = Date.now();
    const known = await recordIfKnown(env, agencyId, tx, amount, "credit", actor, now);
    if (known) return known.kind === "resume" ? resumeOrDuplicate(env, agencyId, known.transfer, actor, now) : known.outcome;
    const decision = await decide(env.DB, agencyId, tx, amount);
    const claimed = await claimNewTransfer(env.DB, agencyId, tx, amount, "credit", actor, now, {
      outcome: decision.kind === "order" ? "PENDING" : decision.reason,
      orderCode: decision.kind === "order" ? decision.order.orderCode : null,
      playerId: decision.kind === "order" ? decision.order.playerId : null,
    });
    if (!claimed) continue; // a twin or a witness of the same transfer was recorded first: look again
    if (decision.kind === "none") {
      await keepUnmatched(env, agencyId, tx, amount, decision.reason, null);
      await audit(env, agencyId, actor, tx, { outcome: decision.reason });
      return { kind: "unmatched", reason: decision.reason };
    }
    return applyToWallet(env, agencyId, { channelCode: tx.channelCode, bankTransactionId, bankTime: tx.bankTime }, tx, decision.order, actor, now, "claimed");
  }
  throw new Error(`bank transaction ${input.channelCode}:${bankTransactionId} could not be recorded after ${LINK_ATTEMPTS} attempts`);
}

type Known = { kind: "done"; outcome: BankTransactionOutcome } | { kind: "resume"; transfer: BankTransactionRecord };

/**
 * Rules 1 and 2: a report of a transfer already recorded. The same source and id again is a
 * duplicate (resumed when its wallet step never finished); another source's report is linked
 * as a witness of it. null: no transfer to link to (or the link was lost to a racing witness
 * of the same source: the caller looks again).
 */
async function recordIfKnown(
  env: Env,
  agencyId: string,
  tx: BankTransactionInput,
  amount: string | null,
  direction: BankDirection,
  actor: AuditActor | null,
  now: number,
): Promise<Known | null> {
  const byId = await findTransferByWitnessId(env.DB, agencyId, tx.channelCode, tx.bankTransactionId, tx.source);
  if (byId) {
    if (!byId.sameSource)
      await insertWitness(env.DB, agencyId, witnessOf(tx, amount ?? byId.transfer.amount, byId.transfer.bankTransactionId, "id", actor, now));
    if (byId.sameSource && byId.transfer.bankTransactionId === tx.bankTransactionId) return { kind: "resume", transfer: byId.transfer };
    return { kind: "done", outcome: { kind: "duplicate", orderCode: byId.transfer.orderCode } };
  }
  if (!amount) return null;
  const linked = await transferToLink(env.DB, agencyId, tx, amount, direction);
  if (!linked) return null;
  if (!(await insertWitness(env.DB, agencyId, witnessOf(tx, amount, linked.transfer.bankTransactionId, linked.rule, actor, now)))) {
    // a witness of this source linked to it first (or this very report's twin did): look again
    return recordIfKnown(env, agencyId, tx, amount, direction, actor, now);
  }
  await recordAudit(env.DB, actor ?? { agencyId, staffId: null, staffUsername: null }, {
    action: "bank-transaction.witness",
    target: `${tx.channelCode}:${linked.transfer.bankTransactionId}`,
    after: {
      source: tx.source,
      id: tx.bankTransactionId,
      rule: linked.rule,
      amount,
      bankTime: new Date(tx.bankTime).toISOString(),
      orderCode: linked.transfer.orderCode,
    },
  });
  return { kind: "done", outcome: { kind: "duplicate", orderCode: linked.transfer.orderCode } };
}

function witnessOf(tx: BankTransactionInput, amount: string, transferId: string, link: WitnessLink, actor: AuditActor | null, now: number) {
  return {
    channelCode: tx.channelCode,
    source: tx.source,
    witnessId: tx.bankTransactionId,
    transferId,
    amount,
    bankTime: Number.isFinite(tx.bankTime) ? tx.bankTime : now,
    reference: tx.reference,
    raw: tx.raw,
    link,
    staffUsername: actor?.staffUsername ?? null,
    recordedAt: now,
  };
}

/** Rule 3: a new transfer with its key witness, unless rules 1-2 find a transfer by the time it is written. */
async function claimNewTransfer(
  db: D1Database,
  agencyId: string,
  tx: BankTransactionInput,
  amount: string | null,
  direction: BankDirection,
  actor: AuditActor | null,
  now: number,
  what: { outcome: BankTransactionOutcomeKind; orderCode: string | null; playerId: string | null },
): Promise<boolean> {
  const bankTime = Number.isFinite(tx.bankTime) ? tx.bankTime : now;
  const window = await windowOf(db, agencyId, tx.channelCode);
  return claimTransfer(db, agencyId, {
    channelCode: tx.channelCode,
    bankTransactionId: tx.bankTransactionId,
    direction,
    amount: amount ?? tx.amount.slice(0, 40),
    bankTime,
    reference: tx.reference,
    source: tx.source,
    raw: tx.raw,
    ...what,
    staffUsername: actor?.staffUsername ?? null,
    recordedAt: now,
    // an unreadable amount links to nothing: the guard looks at an impossible window
    guard: amount
      ? { from: bankTime - window, to: bankTime + window, namedOrders: orderCodeCandidates(tx.reference, tx.raw) }
      : { from: 1, to: 0, namedOrders: [] },
  });
}

/**
 * A bank debit (a statement debit row, a forwarded debit message): kept as a transfer with its
 * witnesses by the same rules, for reconciliation against withdrawals paid. Nothing is applied.
 */
export async function recordBankDebit(env: Env, agencyId: string, input: BankTransactionInput, actor: AuditActor | null): Promise<"recorded" | "duplicate"> {
  const bankTransactionId = input.bankTransactionId.trim();
  const amount = canonicalLak(input.amount);
  if (!bankTransactionId || !amount) return "duplicate";
  const tx = { ...input, bankTransactionId };
  for (let attempt = 0; attempt < LINK_ATTEMPTS; attempt++) {
    const now = Date.now();
    if (await recordIfKnown(env, agencyId, tx, amount, "debit", actor, now)) return "duplicate";
    if (await claimNewTransfer(env.DB, agencyId, tx, amount, "debit", actor, now, { outcome: "DEBIT", orderCode: null, playerId: null })) return "recorded";
  }
  throw new Error(`bank debit ${input.channelCode}:${bankTransactionId} could not be recorded after ${LINK_ATTEMPTS} attempts`);
}

/**
 * A transfer recorded before: a duplicate, unless its wallet step never finished (the request
 * died between the record and the wallet): then the wallet is asked again, which is safe (it
 * applies a transaction id once), and the one outcome is completed.
 */
async function resumeOrDuplicate(
  env: Env,
  agencyId: string,
  seen: BankTransactionRecord,
  actor: AuditActor | null,
  now: number,
): Promise<BankTransactionOutcome> {
  if (seen.outcome !== "PENDING" || !seen.orderCode || !seen.playerId) return { kind: "duplicate", orderCode: seen.orderCode };
  const order = await findPayAmountReservation(env.DB, agencyId, seen.orderCode);
  if (!order) return { kind: "duplicate", orderCode: seen.orderCode };
  const input: BankTransactionInput = {
    channelCode: seen.channelCode,
    bankTransactionId: seen.bankTransactionId,
    amount: seen.amount,
    bankTime: seen.bankTime,
    reference: seen.reference,
    source: seen.source,
    raw: seen.raw,
  };
  await applyToWallet(env, agencyId, seen, input, order, actor, now, "resumed");
  return { kind: "duplicate", orderCode: seen.orderCode };
}

async function applyToWallet(
  env: Env,
  agencyId: string,
  transfer: { channelCode: string; bankTransactionId: string; bankTime: number },
  input: BankTransactionInput,
  order: PayAmountReservation,
  actor: AuditActor | null,
  now: number,
  how: "claimed" | "resumed",
): Promise<BankTransactionOutcome> {
  const result = await walletOf(env, agencyId, order.playerId).applyBankPayment(
    order.orderCode,
    { transactionId: walletTransactionId(transfer), amount: order.payAmount, bankTime: transfer.bankTime },
    now,
  );
  if (result.kind === "paid" || result.kind === "duplicate") {
    await settleBankTransaction(env.DB, agencyId, transfer.channelCode, transfer.bankTransactionId, "APPLIED");
    await endPayAmountReservation(env.DB, agencyId, order.orderCode, now);
    if (how === "claimed") await audit(env, agencyId, actor, input, { outcome: "APPLIED", orderCode: order.orderCode });
    return { kind: "applied", orderCode: order.orderCode };
  }
  const reason: UnmatchedReason = result.kind === "late" ? "LATE" : "NO_ORDER";
  await settleBankTransaction(env.DB, agencyId, transfer.channelCode, transfer.bankTransactionId, reason);
  await keepUnmatched(env, agencyId, input, order.payAmount, reason, reason === "LATE" ? order : null);
  if (how === "claimed") await audit(env, agencyId, actor, input, { outcome: reason, orderCode: order.orderCode, wallet: result.kind });
  return { kind: "unmatched", reason };
}

/** Kept for staff (back office, payments): a late payment against its order (so resolving it releases the order's booking), anything else on its own. */
export async function keepUnmatched(
  env: Env,
  agencyId: string,
  input: BankTransactionInput,
  amount: string | null,
  reason: UnmatchedReason,
  lateOrder: PayAmountReservation | null,
) {
  await insertBankUnmatchedPayment(env.DB, {
    agencyId,
    kind: reason === "LATE" ? "LATE_PAYMENT" : reason,
    reference: lateOrder ? lateOrder.orderCode : (input.reference?.trim() || input.bankTransactionId).slice(0, 60),
    transactionKey: `${agencyId}:${input.channelCode}:${input.bankTransactionId}`,
    amount,
    orderPlayerId: lateOrder?.playerId ?? null,
    channelCode: input.channelCode,
    source: input.source,
    bankTime: Number.isFinite(input.bankTime) ? input.bankTime : null,
    raw: input.raw,
  });
}

async function audit(env: Env, agencyId: string, actor: AuditActor | null, input: BankTransactionInput, after: Record<string, unknown>) {
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
