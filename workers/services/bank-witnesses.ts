/**
 * What staff see of a transfer's witnesses (decision 046), and what they may do with them: the
 * credits a queued own-account payment may duplicate, shown side by side; the witnesses of a
 * queued payment and of an order; the owner's split of a witness wrongly linked. The matcher
 * that links them: bank-transactions.ts.
 */
import { orderCodeCandidates } from "../core/bank-witness";
import { PAY_AMOUNT_COOL_DOWN_MS } from "../core/pay-amount";
import { auditIfChanged, type AuditActor } from "../db/audit";
import { appliedTransfersNear, findBankTransaction, findWitness, splitWitnessStatements, transfersOfOrder, witnessesOfTransfer } from "../db/bank-transactions";
import { handCreditedNear } from "../db/payments";
import { keepUnmatched, windowOf, type BankTransactionSource } from "./bank-transactions";

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
};

/** The transfer key of an own-account queue item (its transaction id is `agency:channel:key`). */
function transferKeyOf(agencyId: string, payment: QueuedPayment): string | null {
  const prefix = `${agencyId}:${payment.channelCode}:`;
  return payment.transactionId?.startsWith(prefix) ? payment.transactionId.slice(prefix.length) : null;
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
  const key = transferKeyOf(agencyId, payment);
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
  })) {
    twins.push({
      kind: "hand-credited",
      orderCode: u.manualCode,
      source: (u.source ?? "staff") as BankTransactionSource,
      witnessId: transferKeyOf(agencyId, u) ?? u.reference,
      bankTime: u.bankTime ?? 0,
      raw: u.raw,
      sameSource: u.source !== null && ownSources.has(u.source),
    });
  }
  return twins;
}

/** The witnesses of a queued own-account payment's transfer (none for a gateway payment). */
export async function witnessesOfQueuedPayment(db: D1Database, agencyId: string, payment: QueuedPayment) {
  const key = payment.channelCode ? transferKeyOf(agencyId, payment) : null;
  return key && payment.channelCode ? witnessesOfTransfer(db, agencyId, payment.channelCode, key) : [];
}

/** Every transfer that paid an order, with each witness (source, id, bank time, raw text): the order's page. */
export async function witnessesOfOrder(db: D1Database, agencyId: string, orderCode: string) {
  return transfersOfOrder(db, agencyId, orderCode);
}

export type SplitError = "NOT_FOUND" | "NOT_LINKED" | "REASON_REQUIRED";

/**
 * The owner splits a witness off the transfer it was linked to (two transfers really
 * happened): it becomes a transfer of its own with no order, queued for staff with its raw
 * text (where a hand credit is checked against the transfer it left). Once, audited.
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
  if (witness.link !== "window" && witness.link !== "order") return { ok: false, error: "NOT_LINKED" };
  const [, moved] = await env.DB.batch([
    ...splitWitnessStatements(env.DB, actor.agencyId, {
      channelCode: input.channelCode,
      source: input.source,
      witnessId: input.witnessId,
      fromTransferId: witness.transferId,
      by: actor.staffUsername ?? "?",
      reason,
      at: now,
    }),
    auditIfChanged(env.DB, actor, {
      action: "bank-transaction.split",
      target: `${input.channelCode}:${witness.transferId}`,
      before: { transfer: witness.transferId, link: witness.link },
      after: { source: input.source, id: input.witnessId, reason: reason.slice(0, 500) },
    }),
  ]);
  if ((moved.meta.changes ?? 0) === 0) return { ok: false, error: "NOT_LINKED" };
  const transfer = await findBankTransaction(env.DB, actor.agencyId, input.channelCode, input.witnessId);
  if (transfer && transfer.direction === "credit") {
    await keepUnmatched(
      env,
      actor.agencyId,
      {
        channelCode: input.channelCode,
        bankTransactionId: input.witnessId,
        amount: witness.amount,
        bankTime: witness.bankTime,
        reference: witness.reference,
        source: input.source,
        raw: witness.raw,
      },
      witness.amount,
      "NO_ORDER",
      null,
    );
  }
  return { ok: true };
}
