import { canonicalLak } from "../core/money";
import { paidInTime, paidLate } from "../core/pay-amount";
import { sha256Hex } from "../core/tokens";
import { recordAudit, type AuditActor } from "../db/audit";
import { claimBankTransaction, findBankTransaction, settleBankTransaction, type BankTransactionOutcomeKind } from "../db/bank-transactions";
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
): Promise<{ kind: "match"; orderCode: string; username: string } | { kind: "duplicate" } | { kind: "none"; reason: "NO_ORDER" | "AMBIGUOUS" | "LATE" }> {
  if (!(await isOwnAccountChannel(env.DB, agencyId, input.channelCode))) return { kind: "none", reason: "NO_ORDER" };
  if (await findBankTransaction(env.DB, agencyId, input.channelCode, input.bankTransactionId)) return { kind: "duplicate" };
  const decision = await decide(env.DB, agencyId, input, canonicalLak(input.amount));
  if (decision.kind === "none") return decision;
  if (decision.late) return { kind: "none", reason: "LATE" };
  const player = await findPlayer(env.DB, agencyId, decision.order.playerId);
  return { kind: "match", orderCode: decision.order.orderCode, username: player?.username ?? "" };
}

/** The wallet's order key of a bank transaction: unique per channel within the agency. */
function walletTransactionId(input: { channelCode: string; bankTransactionId: string }): string {
  return `${input.channelCode}:${input.bankTransactionId}`;
}

/** Records and applies (idempotent, audited with `actor` when staff act). */
export async function applyBankTransaction(env: Env, agencyId: string, input: BankTransactionInput, actor: AuditActor | null): Promise<BankTransactionOutcome> {
  const now = Date.now();
  const bankTransactionId = input.bankTransactionId.trim();
  const tx = { ...input, bankTransactionId };
  if (!bankTransactionId || !(await isOwnAccountChannel(env.DB, agencyId, input.channelCode))) return { kind: "unmatched", reason: "NO_ORDER" };
  const seen = await findBankTransaction(env.DB, agencyId, input.channelCode, bankTransactionId);
  if (seen) return resumeOrDuplicate(env, agencyId, tx, seen, actor, now);
  const amount = canonicalLak(input.amount);
  const decision = await decide(env.DB, agencyId, tx, amount);
  const claimed = await claimBankTransaction(env.DB, agencyId, {
    channelCode: input.channelCode,
    bankTransactionId,
    amount: amount ?? input.amount.slice(0, 40),
    bankTime: Number.isFinite(input.bankTime) ? input.bankTime : now,
    reference: input.reference,
    source: input.source,
    raw: input.raw,
    outcome: decision.kind === "order" ? "PENDING" : decision.reason,
    orderCode: decision.kind === "order" ? decision.order.orderCode : null,
    playerId: decision.kind === "order" ? decision.order.playerId : null,
    staffUsername: actor?.staffUsername ?? null,
    recordedAt: now,
  });
  if (!claimed) {
    // a twin of this call recorded it first: whatever it did is the one outcome
    const twin = await findBankTransaction(env.DB, agencyId, input.channelCode, bankTransactionId);
    return { kind: "duplicate", orderCode: twin?.orderCode ?? null };
  }
  if (decision.kind === "none") {
    await keepUnmatched(env, agencyId, tx, amount, decision.reason, null);
    await audit(env, agencyId, actor, tx, { outcome: decision.reason });
    return { kind: "unmatched", reason: decision.reason };
  }
  return applyToWallet(env, agencyId, tx, decision.order, actor, now, "claimed");
}

/**
 * A transaction recorded before: a duplicate, unless its wallet step never finished (the
 * request died between the record and the wallet): then the wallet is asked again, which is
 * safe (it applies a transaction id once), and the one outcome is completed.
 */
async function resumeOrDuplicate(
  env: Env,
  agencyId: string,
  input: BankTransactionInput,
  seen: { outcome: BankTransactionOutcomeKind; orderCode: string | null; playerId: string | null },
  actor: AuditActor | null,
  now: number,
): Promise<BankTransactionOutcome> {
  if (seen.outcome !== "PENDING" || !seen.orderCode || !seen.playerId) return { kind: "duplicate", orderCode: seen.orderCode };
  const order = await findPayAmountReservation(env.DB, agencyId, seen.orderCode);
  if (!order) return { kind: "duplicate", orderCode: seen.orderCode };
  await applyToWallet(env, agencyId, input, order, actor, now, "resumed");
  return { kind: "duplicate", orderCode: seen.orderCode };
}

async function applyToWallet(
  env: Env,
  agencyId: string,
  input: BankTransactionInput,
  order: PayAmountReservation,
  actor: AuditActor | null,
  now: number,
  how: "claimed" | "resumed",
): Promise<BankTransactionOutcome> {
  const result = await walletOf(env, agencyId, order.playerId).applyBankPayment(
    order.orderCode,
    { transactionId: walletTransactionId(input), amount: order.payAmount, bankTime: input.bankTime },
    now,
  );
  if (result.kind === "paid" || result.kind === "duplicate") {
    await settleBankTransaction(env.DB, agencyId, input.channelCode, input.bankTransactionId, "APPLIED");
    await endPayAmountReservation(env.DB, agencyId, order.orderCode, now);
    if (how === "claimed") await audit(env, agencyId, actor, input, { outcome: "APPLIED", orderCode: order.orderCode });
    return { kind: "applied", orderCode: order.orderCode };
  }
  const reason: UnmatchedReason = result.kind === "late" ? "LATE" : "NO_ORDER";
  await settleBankTransaction(env.DB, agencyId, input.channelCode, input.bankTransactionId, reason);
  await keepUnmatched(env, agencyId, input, order.payAmount, reason, reason === "LATE" ? order : null);
  if (how === "claimed") await audit(env, agencyId, actor, input, { outcome: reason, orderCode: order.orderCode, wallet: result.kind });
  return { kind: "unmatched", reason };
}

/** Kept for staff (back office, payments): a late payment against its order (so resolving it releases the order's booking), anything else on its own. */
async function keepUnmatched(env: Env, agencyId: string, input: BankTransactionInput, amount: string | null, reason: UnmatchedReason, lateOrder: PayAmountReservation | null) {
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
  await recordAudit(env.DB, { agencyId, staffId: null, staffUsername: null }, { action: "bank-transaction.unreadable", target: input.channelCode, after: { source: input.source, receivedAt: new Date(input.receivedAt).toISOString() } });
}
