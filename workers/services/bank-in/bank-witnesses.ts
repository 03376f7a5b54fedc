/**
 * What staff see of a transfer's witnesses (decision 046), and what they may do with them: the
 * credits a queued own-account payment may duplicate, shown side by side; the witnesses of a
 * queued payment and of an order; the owner's split of a witness wrongly linked. The matcher
 * that links them: bank-transactions.ts.
 */
import { orderCodeCandidates } from "../../core/bank-witness";
import { PAY_AMOUNT_COOL_DOWN_MS } from "../../core/pay-amount";
import { auditIfChanged, type AuditActor } from "../../db/audit";
import { appliedTransfersNear, findWitness, splitReportStatement, transfersOfOrder, witnessesOfTransfer } from "../../db/bank-transactions";
import { handCreditedNear } from "../../db/payments";
import { deriveAround, windowOf, type BankTransactionSource } from "./bank-transactions";

/** Another credit of the same money a queued payment may be: what staff are shown, side by side. */
export type PaymentTwin = {
  kind: "applied" | "hand-credited";
  orderCode: string | null;
  source: BankTransactionSource;
  witnessId: string;
  bankTime: number;
  raw: string | null;
  /**
   * true: the same source reported both under two ids, so these are two transfers (a player
   * paid the same QR twice); false: probably one transfer seen by two witnesses.
   */
  sameSource: boolean;
};

type QueuedPayment = {
  id: string;
  channelCode: string | null;
  amount: string | null;
  bankTime: number | null;
  transactionId: string | null;
  reference: string;
  source: string | null;
  raw: string | null;
  receivedAt: string;
};

/** The report id of an own-account queue item (its transaction id is `agency:channel:id`). */
function reportIdOf(agencyId: string, payment: { channelCode: string | null; transactionId: string | null }): string | null {
  const prefix = `${agencyId}:${payment.channelCode}:`;
  return payment.transactionId?.startsWith(prefix) ? payment.transactionId.slice(prefix.length) : null;
}

/** The transfer a queued own-account payment's report is in now (derived: not always the report's own id). */
async function transferKeyOf(db: D1Database, agencyId: string, payment: QueuedPayment): Promise<string | null> {
  const id = reportIdOf(agencyId, payment);
  if (!id || !payment.channelCode) return null;
  const report = payment.source ? await findWitness(db, agencyId, payment.channelCode, payment.source as BankTransactionSource, id) : null;
  return report?.transferId || id;
}

/**
 * The credits a queued own-account payment may duplicate (decision 046): transfers applied to
 * an order with the same amount on the account within the window, naming the order, or during
 * the order's life and its pay amount's cool-down; and payments of the queue already credited
 * by hand within the window. Empty: nothing suggests this money was credited before.
 */
export async function twinsOfPayment(db: D1Database, agencyId: string, payment: QueuedPayment): Promise<PaymentTwin[]> {
  if (!payment.channelCode || !payment.amount || payment.bankTime === null) return [];
  const window = await windowOf(db, agencyId, payment.channelCode);
  const key = await transferKeyOf(db, agencyId, payment);
  const own = key ? await witnessesOfTransfer(db, agencyId, payment.channelCode, key) : [];
  const ownSources = new Set<string>(own.length > 0 ? own.map((w) => w.source) : payment.source ? [payment.source] : []);
  const named = orderCodeCandidates(payment.reference, payment.raw, ...own.map((w) => w.raw));
  const twins: PaymentTwin[] = [];
  const applied = await appliedTransfersNear(db, agencyId, {
    channelCode: payment.channelCode,
    amount: payment.amount,
    bankTime: payment.bankTime,
    window,
    coolDown: PAY_AMOUNT_COOL_DOWN_MS,
    namedOrders: named,
    exceptTransferId: key,
    receivedAt: Date.parse(payment.receivedAt) || Date.now(),
  });
  for (const t of applied) {
    const witnesses = await witnessesOfTransfer(db, agencyId, t.channelCode, t.bankTransactionId);
    const first = witnesses[0];
    twins.push({
      kind: "applied",
      orderCode: t.orderCode,
      source: first?.source ?? t.source,
      witnessId: first?.witnessId ?? t.bankTransactionId,
      bankTime: t.bankTime,
      raw: witnesses.find((w) => w.raw)?.raw ?? t.raw,
      sameSource: t.sources.some((s) => ownSources.has(s)),
    });
  }
  for (const u of await handCreditedNear(db, agencyId, {
    channelCode: payment.channelCode,
    amount: payment.amount,
    bankTime: payment.bankTime,
    window,
    exceptId: payment.id,
    receivedAt: Date.parse(payment.receivedAt) || Date.now(),
    coolDown: PAY_AMOUNT_COOL_DOWN_MS,
  })) {
    twins.push({
      kind: "hand-credited",
      orderCode: u.manualCode,
      source: (u.source ?? "staff") as BankTransactionSource,
      witnessId: reportIdOf(agencyId, u) ?? u.reference,
      bankTime: u.bankTime ?? 0,
      raw: u.raw,
      sameSource: u.source !== null && ownSources.has(u.source),
    });
  }
  return twins;
}

/** The witnesses of a queued own-account payment's transfer (none for a gateway payment). */
export async function witnessesOfQueuedPayment(db: D1Database, agencyId: string, payment: QueuedPayment) {
  const key = payment.channelCode ? await transferKeyOf(db, agencyId, payment) : null;
  return key && payment.channelCode ? witnessesOfTransfer(db, agencyId, payment.channelCode, key) : [];
}

/** Every transfer that paid an order, with each witness (source, id, bank time, raw text): the order's page. */
export async function witnessesOfOrder(db: D1Database, agencyId: string, orderCode: string) {
  return transfersOfOrder(db, agencyId, orderCode);
}

export type SplitError = "NOT_FOUND" | "NOT_LINKED" | "REASON_REQUIRED";

/**
 * The owner splits a witness off the transfer it was linked to (two transfers really
 * happened): from now on it is tied to others by its id only, and the transfers of its amount
 * are derived again: it becomes a transfer of its own, queued for staff with its raw text
 * (where a hand credit is checked against the transfer it left). Once, audited.
 */
export async function splitWitness(
  env: Env,
  actor: AuditActor,
  input: { channelCode: string; source: BankTransactionSource; witnessId: string; reason: string },
  now: number = Date.now(),
): Promise<{ ok: true } | { ok: false; error: SplitError }> {
  const reason = input.reason.trim();
  if (reason.length < 3) return { ok: false, error: "REASON_REQUIRED" };
  const witness = await findWitness(env.DB, actor.agencyId, input.channelCode, input.source, input.witnessId);
  if (!witness) return { ok: false, error: "NOT_FOUND" };
  // a report alone, or tied by the same id (firm), is not a link the owner can undo
  const others = (await witnessesOfTransfer(env.DB, actor.agencyId, input.channelCode, witness.transferId)).filter(
    (w) => !(w.source === witness.source && w.witnessId === witness.witnessId),
  );
  if (witness.splitAt !== null || others.length === 0 || others.some((w) => w.witnessId === witness.witnessId)) return { ok: false, error: "NOT_LINKED" };
  const [moved] = await env.DB.batch([
    splitReportStatement(env.DB, actor.agencyId, { ...input, by: actor.staffUsername ?? "?", reason, at: now }),
    auditIfChanged(env.DB, actor, {
      action: "bank-transaction.split",
      target: `${input.channelCode}:${witness.transferId}`,
      before: { transfer: witness.transferId, link: witness.link },
      after: { source: input.source, id: input.witnessId, reason: reason.slice(0, 500) },
    }),
  ]);
  if ((moved.meta.changes ?? 0) === 0) return { ok: false, error: "NOT_LINKED" };
  await deriveAround(env, actor.agencyId, { ...witness, direction: witness.direction }, actor);
  return { ok: true };
}
