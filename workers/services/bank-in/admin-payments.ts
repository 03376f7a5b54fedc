import type { ListAsk } from "../../core/keyset";
import { canonicalLak, depositCredit, formatAmount, formatRate, parseAmount, parseRate } from "../../core/money";
import { isProvider, type Provider } from "../../core/providers";
import { gatewayPort } from "../../ports/gateway";
import type { DepositOrder } from "../../wallet/player-wallet";
import type { Agency } from "../agency";
import { auditIfChanged, type AuditActor } from "../../db/audit";
import { listUnrecordedFlaggedDeposits } from "../../db/orders";
import {
  claimUnmatchedForCreditStatement,
  fillUnmatchedAmount,
  findUnmatchedPayment,
  firstUnmatchedIdForReference,
  insertFlaggedOrderPaymentStatement,
  listUnmatchedPayments,
  markUnmatchedCreditedStatement,
  markUnmatchedRefundedStatement,
  renewUnmatchedClaim,
  unmatchedClaimedAt,
  UNMATCHED_STATUSES,
  type UnmatchedPayment,
  type UnmatchedStatus,
} from "../../db/payments";
import { findPlayerCard, findPlayerCardByUsername } from "../../db/players";
import { findBankCredit, insertBankCredit } from "../../db/bank-transactions";
import { endPayAmountReservation, reservationsWithPayAmount, type PayAmountReservation } from "../../db/pay-amounts";
import { markUnmatchedCreditedToOrderStatement } from "../../db/payments";
import { PAY_AMOUNT_COOL_DOWN_MS } from "../../core/pay-amount";
import type { WitnessSource } from "../../core/bank-witness";
import { creditRate, walletOf } from "../wallets";
import { twinsOfPayment, witnessesOfQueuedPayment, type PaymentTwin } from "./bank-witnesses";
import { deriveAround, isPaidOrder } from "./bank-transactions";

/**
 * Back office, payments with no matching order (decision 008); the webhook records them
 * (gateway-callbacks.ts). Three kinds reach staff:
 *  - UNKNOWN_REFERENCE: the webhook got a payment whose reference is no order of ours;
 *  - AMOUNT_MISMATCH: an OPEN order was paid another amount (the order is flagged, nothing booked);
 *  - LATE_PAYMENT: the order had expired or been cancelled (flagged, booked "late-paid" in its wallet).
 * Staff resolve each one by hand, once: credit a player of the agency (the kip converted at
 * today's sell rate, through that player's wallet as a MANUAL order `<reference>M` settled by
 * the usual saga), or mark it refunded outside the system with a note. The claim is one
 * guarded UPDATE (OPEN -> RESOLVING): a second or concurrent press changes nothing.
 */

export { UNMATCHED_STATUSES };
export type { UnmatchedPayment, PaymentTwin };

/**
 * How far back the payments page looks for flagged orders to take into its queue. An order is
 * flagged within hours of its creation (its payment came late or wrong) and every opening of
 * the page takes what it finds, so two weeks covers a queue nobody opened for days, without
 * reading every flag of the agency's history at each opening (decision 077).
 */
const FLAGGED_ORDERS_WINDOW_MS = 14 * 86_400_000;

/**
 * Flagged orders the webhook did not report (found by the player's Check button or the
 * wallet's reconciler) are taken from the read model, so none is missed.
 */
async function importFlaggedOrders(db: D1Database, agencyId: string, now = Date.now()): Promise<void> {
  const flagged = await listUnrecordedFlaggedDeposits(db, agencyId, new Date(now - FLAGGED_ORDERS_WINDOW_MS).toISOString());
  if (flagged.length === 0) return;
  await db.batch(
    flagged.map((order) =>
      insertFlaggedOrderPaymentStatement(db, {
        agencyId,
        kind: order.flag,
        reference: order.code,
        // a late payment was booked at the order's amount; a mismatch's amount is asked from the gateway
        amount: order.flag === "LATE_PAYMENT" ? order.amount : null,
        orderPlayerId: order.playerId,
      }),
    ),
  );
}

export async function listUnmatched(db: D1Database, agencyId: string, opts: { status?: string | null; ask: ListAsk }) {
  await importFlaggedOrders(db, agencyId);
  const status = opts.status && (UNMATCHED_STATUSES as readonly string[]).includes(opts.status) ? (opts.status as UnmatchedStatus) : null;
  return listUnmatchedPayments(db, agencyId, { status, ask: opts.ask });
}

export async function getUnmatched(db: D1Database, agencyId: string, id: string): Promise<UnmatchedPayment | null> {
  return findUnmatchedPayment(db, agencyId, id);
}

/** The payments page: a page of the list (flagged orders imported first) and the payment chosen with ?id= (null: that id is not ours). */
export async function unmatchedPaymentsPage(db: D1Database, agencyId: string, opts: { status: string; ask: ListAsk; id: string | null }) {
  const list = await listUnmatched(db, agencyId, { status: opts.status, ask: opts.ask });
  const selected = opts.id ? await getUnmatched(db, agencyId, opts.id) : null;
  if (opts.id && !selected) return null;
  // what else this money may have been credited as, and every witness of it (decision 046)
  const twins = selected && selected.status === "OPEN" ? await twinsOfPayment(db, agencyId, selected) : [];
  const witnesses = selected ? await witnessesOfQueuedPayment(db, agencyId, selected) : [];
  return { ...list, status: opts.status, selected, twins, witnesses };
}

export type ResolveError =
  | "NOT_FOUND"
  | "ALREADY_RESOLVED"
  | "PLAYER_NOT_FOUND"
  | "PROVIDER_REQUIRED"
  | "NO_RATE"
  | "AMOUNT_UNKNOWN"
  | "NOTE_REQUIRED"
  /** the payment may be money already credited: the owner's alone to credit (decision 046) */
  | "PROBABLE_DUPLICATE"
  /** the owner credits a probable duplicate only with a written reason */
  | "OVERRIDE_REASON_REQUIRED";

/** Who asks for a hand credit, and why when the payment may be money already credited. */
export type HandCreditInput = { username: string; provider: string; role?: "owner" | "cashier"; reason?: string | null };

export type CreditPreview = {
  payment: UnmatchedPayment;
  player: { id: string; username: string; displayName: string };
  provider: Provider;
  amount: string;
  amountMinor: bigint;
  credit: string;
  creditMinor: bigint;
  rateSell: string;
  manualCode: string;
  /** Credits this money may already have been (shown side by side; non-empty: owner and reason only). */
  twins: PaymentTwin[];
  overrideReason: string | null;
  /** the order whose unique pay amount this payment carries, not paid yet: the hand credit pays that order (decision 069) */
  toOrder: boolean;
};

/** The report behind an own-account queue item (its transaction id is `agency:channel:id`). */
function reportOf(agencyId: string, payment: UnmatchedPayment): { source: WitnessSource; witnessId: string } | null {
  const prefix = `${agencyId}:${payment.channelCode}:`;
  if (!payment.channelCode || !payment.source || !payment.transactionId?.startsWith(prefix)) return null;
  return { source: payment.source as WitnessSource, witnessId: payment.transactionId.slice(prefix.length) };
}

/**
 * The order a queued own-account payment belongs to by its amount, whatever bank time was
 * typed: the channel's order given exactly this pay amount that is still unpaid and within its
 * cool-down (no other order can hold the amount then). A paid one is a twin instead (only the
 * owner may credit it again).
 */
async function orderOfPayAmount(db: D1Database, agencyId: string, payment: UnmatchedPayment, now: number): Promise<PayAmountReservation | null> {
  const order = await reservationOfPayAmount(db, agencyId, payment, now);
  return order && !(await findBankCredit(db, agencyId, order.orderCode)) ? order : null;
}

/** The order given this payment's pay amount on its channel while the payment arrived (its life and cool-down hold that time). */
async function reservationOfPayAmount(db: D1Database, agencyId: string, payment: UnmatchedPayment, now: number): Promise<PayAmountReservation | null> {
  if (!payment.channelCode || !payment.amount || !reportOf(agencyId, payment)) return null;
  const received = Date.parse(payment.receivedAt) || now;
  for (const order of await reservationsWithPayAmount(db, agencyId, payment.channelCode, payment.amount)) {
    const end = Math.min(order.expiresAt, order.endedAt ?? order.expiresAt);
    if (order.createdAt - PAY_AMOUNT_COOL_DOWN_MS <= received && received <= end + PAY_AMOUNT_COOL_DOWN_MS) return order;
  }
  return null;
}

/** The amount of a payment: recorded by the webhook, else asked from the gateway by reference. */
async function knownAmount(env: Env, payment: UnmatchedPayment): Promise<{ amount: string; transactionId: string | null } | null> {
  if (payment.amount) return { amount: payment.amount, transactionId: payment.transactionId };
  // own-account payments have no gateway to ask (an unreadable text has no amount to credit)
  if (payment.kind === "UNKNOWN_REFERENCE" || payment.channelCode) return null;
  const status = await gatewayPort(env).paymentStatus(payment.reference);
  if (status.kind !== "paid") return null;
  const amount = canonicalLak(status.amount);
  if (!amount) return null;
  await fillUnmatchedAmount(env.DB, payment.id, amount, status.transactionId || null).catch(() => undefined); // the transaction id may already be recorded on another row; the amount is what matters here
  return { amount, transactionId: status.transactionId || null };
}

/**
 * The MANUAL order's code: `<order code>M` for the first payment recorded against an order
 * (an order code is ours: short and safe for every provider's reference field); `U<id>M`
 * for an unknown reference or a further payment for the same order, so no two resolutions
 * ever share a code (a unique index backs this up).
 */
async function manualCodeOf(db: D1Database, agencyId: string, payment: UnmatchedPayment): Promise<string> {
  if (payment.kind !== "AMOUNT_MISMATCH" && payment.kind !== "LATE_PAYMENT") return `U${payment.id}M`;
  if (!/^[A-Z0-9]{4,24}$/.test(payment.reference)) return `U${payment.id}M`;
  const first = await firstUnmatchedIdForReference(db, agencyId, payment.reference);
  return first === payment.id ? `${payment.reference}M` : `U${payment.id}M`;
}

/** The confirm step: who gets what, at today's sell rate. Nothing changes. */
export async function previewManualCredit(
  env: Env,
  agency: Agency,
  id: string,
  input: HandCreditInput,
): Promise<{ ok: true; preview: CreditPreview } | { ok: false; error: ResolveError; payment?: UnmatchedPayment; twins?: PaymentTwin[] }> {
  const payment = await getUnmatched(env.DB, agency.id, id);
  if (!payment) return { ok: false, error: "NOT_FOUND" };
  if (payment.status !== "OPEN") return { ok: false, error: "ALREADY_RESOLVED", payment };
  // The one check every hand credit passes (review and confirm), so payments queued before
  // witnesses were linked are covered too: money that may already be credited is the owner's
  // call, with a written reason (decision 046).
  const twins = await twinsOfPayment(env.DB, agency.id, payment);
  const reason = input.reason?.trim() || null;
  if (twins.length > 0 && input.role !== "owner") return { ok: false, error: "PROBABLE_DUPLICATE", payment, twins };
  if (twins.length > 0 && (!reason || reason.length < 3)) return { ok: false, error: "OVERRIDE_REASON_REQUIRED", payment, twins };
  // the order the amount belongs to decides who is credited, whatever name was typed
  const order = twins.length === 0 ? await orderOfPayAmount(env.DB, agency.id, payment, Date.now()) : null;
  const found = order ? await orderTarget(env, agency.id, payment, order) : null;
  if (found?.kind === "pay") return { ok: true, preview: found.preview };
  const paidMeanwhile = found?.kind === "paid";
  const target = found?.kind === "manual" ? found : null;
  if (paidMeanwhile) {
    // the order was paid meanwhile (by another report of this money, or a second payment): money that may be credited already
    if (input.role !== "owner") return { ok: false, error: "PROBABLE_DUPLICATE", payment, twins };
    if (!reason || reason.length < 3) return { ok: false, error: "OVERRIDE_REASON_REQUIRED", payment, twins };
  }
  const provider = target ? target.provider : input.provider;
  if (!isProvider(provider) || !agency.enabledProviders.includes(provider)) return { ok: false, error: "PROVIDER_REQUIRED", payment };
  const player = target ? target.player : await findPlayerCardByUsername(env.DB, agency.id, input.username.trim().toLowerCase());
  if (!player) return { ok: false, error: "PLAYER_NOT_FOUND", payment };
  const known = await knownAmount(env, payment);
  if (!known) return { ok: false, error: "AMOUNT_UNKNOWN", payment };
  const rate = await creditRate(env.DB, agency.id);
  const amountMinor = parseAmount(known.amount, "LAK")!;
  const creditMinor = depositCredit(amountMinor, rate);
  if (!rate || creditMinor <= 0n) return { ok: false, error: "NO_RATE", payment };
  return {
    ok: true,
    preview: {
      payment: { ...payment, amount: known.amount, transactionId: payment.transactionId ?? known.transactionId },
      player: { id: player.id, username: player.username, displayName: player.displayName },
      provider,
      amount: known.amount,
      amountMinor,
      credit: formatAmount(creditMinor, "THB"),
      creditMinor,
      rateSell: formatRate(rate.sell),
      manualCode: await manualCodeOf(env.DB, agency.id, payment),
      twins,
      overrideReason: twins.length > 0 || paidMeanwhile ? reason!.slice(0, 500) : null,
      toOrder: false,
    },
  };
}

/**
 * Who a hand credit of an order's pay amount goes to: the order itself when its wallet can still
 * pay it (open, or ended unpaid), the confirm step showing that order's player, provider and
 * credit; else (a late payment already flagged on it) a MANUAL credit, but to that order's player
 * at its provider. null: the order's player or deposit is gone.
 */
async function orderTarget(
  env: Env,
  agencyId: string,
  payment: UnmatchedPayment,
  order: PayAmountReservation,
): Promise<
  | { kind: "pay"; preview: CreditPreview }
  | { kind: "manual"; player: { id: string; username: string; displayName: string }; provider: string }
  | { kind: "paid" }
  | null
> {
  const [player, deposit] = await Promise.all([
    findPlayerCard(env.DB, agencyId, order.playerId),
    walletOf(env, agencyId, order.playerId).getDeposit(order.orderCode),
  ]);
  if (!player || !deposit) return null;
  if (isPaidOrder(deposit.status)) return { kind: "paid" };
  // payable: open, or ended unpaid (expired or cancelled); a late payment flagged on it took the order's payment slot
  if (!(deposit.status === "OPEN" || (deposit.status === "CANCELED" && deposit.flag !== "LATE_PAYMENT")))
    return { kind: "manual", player, provider: deposit.provider };
  return {
    kind: "pay",
    preview: {
      payment,
      player: { id: player.id, username: player.username, displayName: player.displayName },
      provider: deposit.provider,
      amount: payment.amount!,
      amountMinor: parseAmount(payment.amount!, "LAK")!,
      credit: deposit.credit,
      creditMinor: parseAmount(deposit.credit, "THB") ?? 0n,
      rateSell: deposit.rateSell ?? "",
      manualCode: order.orderCode,
      twins: [],
      overrideReason: null,
      toOrder: true,
    },
  };
}

/**
 * The hand credit of a payment that carries an unpaid order's unique pay amount: that order is
 * paid through its player's wallet (once: the wallet pays an order once, and the credit is
 * recorded against the payment's report), then the queue item is closed. A second press finds
 * the item closed.
 */
async function creditToOrder(env: Env, agencyId: string, actor: AuditActor, payment: UnmatchedPayment, order: PayAmountReservation) {
  const report = reportOf(agencyId, payment)!;
  const now = Date.now();
  const paid = await walletOf(env, agencyId, order.playerId).applyBankPayment(
    order.orderCode,
    // staff bound this payment to the order: it counts as paid in the order's life, whatever time the report carried
    { transactionId: `${payment.channelCode}:${report.witnessId}`, amount: payment.amount!, bankTime: order.createdAt },
    now,
  );
  // "duplicate" is a payment only when the order is paid by it (a late payment flagged on a cancelled order is not)
  if (paid.kind !== "paid" && !(paid.kind === "duplicate" && isPaidOrder(paid.order.status)))
    return { ok: false as const, error: "ALREADY_RESOLVED" as const, payment };
  await insertBankCredit(env.DB, agencyId, {
    code: order.orderCode,
    kind: "order",
    channelCode: payment.channelCode!,
    ...report,
    playerId: order.playerId,
    amount: payment.amount!,
    forOrder: order.orderCode,
    creditedAt: now,
  });
  await endPayAmountReservation(env.DB, agencyId, order.orderCode, now);
  await env.DB.batch([
    markUnmatchedCreditedToOrderStatement(env.DB, {
      id: payment.id,
      agencyId,
      playerId: order.playerId,
      orderCode: order.orderCode,
      staffUsername: actor.staffUsername,
      note: null,
      resolvedAt: new Date(now).toISOString(),
    }),
    auditIfChanged(env.DB, actor, {
      action: "payment.credited",
      target: payment.id,
      before: { status: "OPEN", kind: payment.kind, reference: payment.reference, amount: payment.amount },
      after: { status: "CREDITED", orderCode: order.orderCode, byPayAmount: true },
    }),
  ]);
  await deriveAround(
    env,
    agencyId,
    { channelCode: payment.channelCode!, direction: "credit", amount: payment.amount!, bankTime: payment.bankTime ?? now },
    actor,
  );
  return { ok: true as const, order: paid.order, payment: (await getUnmatched(env.DB, agencyId, payment.id))! };
}

/** A claim older than this whose credit never completed (the request died) may be resumed. */
const RESUME_AFTER_MS = 60_000;

/**
 * Credit the payment to a player, once. The claim (OPEN -> RESOLVING with the player,
 * provider, credit and rate) and its audit row are one D1 batch; only the press that won
 * it talks to the wallet. The wallet's MANUAL order is idempotent by the payment id, so a
 * claim whose request died can be resumed (by anyone, after a minute) without a second credit.
 */
export async function resolveWithCredit(
  env: Env,
  agency: Agency,
  actor: AuditActor,
  id: string,
  input: HandCreditInput,
): Promise<
  { ok: true; order: DepositOrder; payment: UnmatchedPayment } | { ok: false; error: ResolveError; payment?: UnmatchedPayment; twins?: PaymentTwin[] }
> {
  const now = Date.now();
  let payment = await getUnmatched(env.DB, agency.id, id);
  if (!payment) return { ok: false, error: "NOT_FOUND" };
  if (payment.status === "RESOLVING") {
    // resume a claim left half done (the wallet call is idempotent)
    const claimedAt = await unmatchedClaimedAt(env.DB, id);
    if (!claimedAt || now - claimedAt < RESUME_AFTER_MS) return { ok: false, error: "ALREADY_RESOLVED", payment };
    if (!(await renewUnmatchedClaim(env.DB, id, now, claimedAt))) return { ok: false, error: "ALREADY_RESOLVED", payment };
    return finishCredit(env, agency, actor, payment, now);
  }
  const priced = await previewManualCredit(env, agency, id, input);
  if (!priced.ok) return priced;
  const p = priced.preview;
  if (p.toOrder) {
    const order = await orderOfPayAmount(env.DB, agency.id, payment, now);
    if (order?.orderCode === p.manualCode) return creditToOrder(env, agency.id, actor, payment, order);
    return { ok: false, error: "ALREADY_RESOLVED", payment };
  }
  const after = {
    status: "RESOLVING",
    player: p.player.username,
    provider: p.provider,
    amount: p.amount,
    credit: p.credit,
    rateSell: p.rateSell,
    manualCode: p.manualCode,
    ...(p.overrideReason
      ? { override: { reason: p.overrideReason, twins: p.twins.map((t) => ({ orderCode: t.orderCode, source: t.source, id: t.witnessId })) } }
      : {}),
  };
  const [claim] = await env.DB.batch([
    claimUnmatchedForCreditStatement(env.DB, {
      id,
      agencyId: agency.id,
      playerId: p.player.id,
      provider: p.provider,
      amount: p.amount,
      credit: p.credit,
      rateSell: p.rateSell,
      manualCode: p.manualCode,
      staffUsername: actor.staffUsername,
      claimedAt: now,
      overrideReason: p.overrideReason,
    }),
    auditIfChanged(env.DB, actor, {
      action: "payment.credit",
      target: id,
      before: { status: "OPEN", kind: payment.kind, reference: payment.reference, amount: p.amount },
      after,
    }),
  ]);
  if ((claim.meta.changes ?? 0) === 0) return { ok: false, error: "ALREADY_RESOLVED", payment: (await getUnmatched(env.DB, agency.id, id)) ?? payment };
  payment = (await getUnmatched(env.DB, agency.id, id))!;
  return finishCredit(env, agency, actor, payment, now);
}

async function finishCredit(env: Env, agency: Agency, actor: AuditActor, payment: UnmatchedPayment, now: number) {
  const playerId = payment.resolvedPlayerId!;
  const player = await findPlayerCard(env.DB, agency.id, playerId);
  const wallet = walletOf(env, agency.id, playerId);
  await wallet.identify(agency.id, playerId, player!.username);
  const amountMinor = parseAmount(payment.amount!, "LAK")!;
  const creditMinor = parseAmount(payment.credit!, "THB")!;
  const rateSell = parseRate(payment.rateSell!)!;
  const made = await wallet.creditManualPayment({
    idempotencyKey: `manual:${payment.id}`,
    code: payment.manualCode!,
    provider: payment.resolvedProvider as Provider,
    amountMinor: amountMinor.toString(),
    creditMinor: creditMinor.toString(),
    rateSell: rateSell.toString(),
    now,
  });
  // the credit belongs to the payment's report: a transfer that turns out to be credited twice is seen at once (decision 069)
  const report = reportOf(agency.id, payment);
  if (report && payment.channelCode && payment.amount) {
    // the order whose money it was, so its other reports are known as this payment; not when the owner said it is money of its own
    const forOrder = payment.note ? null : ((await reservationOfPayAmount(env.DB, agency.id, payment, now))?.orderCode ?? null);
    await insertBankCredit(env.DB, agency.id, {
      code: payment.manualCode!,
      kind: "hand",
      channelCode: payment.channelCode,
      ...report,
      playerId,
      amount: payment.amount,
      forOrder,
      creditedAt: now,
    });
    await deriveAround(
      env,
      agency.id,
      { channelCode: payment.channelCode, direction: "credit", amount: payment.amount, bankTime: payment.bankTime ?? now },
      actor,
    );
  }
  // a late payment was booked as owed to the order's player: that booking is now accounted for
  if (payment.kind !== "UNKNOWN_REFERENCE" && payment.orderPlayerId) {
    await walletOf(env, agency.id, payment.orderPlayerId).releaseLatePayment(payment.reference, "late-credited", now);
  }
  await env.DB.batch([
    markUnmatchedCreditedStatement(env.DB, payment.id, new Date().toISOString()),
    auditIfChanged(env.DB, actor, {
      action: "payment.credited",
      target: payment.id,
      before: { status: "RESOLVING" },
      after: {
        status: "CREDITED",
        manualCode: made.order.code,
        orderStatus: made.order.status,
        player: player!.username,
        provider: payment.resolvedProvider,
        credit: made.order.credit,
      },
    }),
  ]);
  return { ok: true as const, order: made.order, payment: (await getUnmatched(env.DB, agency.id, payment.id))! };
}

/** Mark a payment refunded outside the system (a note says how), once. */
export async function resolveAsRefunded(
  env: Env,
  actor: AuditActor,
  id: string,
  note: string,
): Promise<{ ok: true; payment: UnmatchedPayment } | { ok: false; error: ResolveError; payment?: UnmatchedPayment }> {
  const payment = await getUnmatched(env.DB, actor.agencyId, id);
  if (!payment) return { ok: false, error: "NOT_FOUND" };
  const text = note.trim();
  if (!text) return { ok: false, error: "NOTE_REQUIRED", payment };
  if (payment.status !== "OPEN") return { ok: false, error: "ALREADY_RESOLVED", payment };
  const resolvedAt = new Date().toISOString();
  const [claim] = await env.DB.batch([
    markUnmatchedRefundedStatement(env.DB, { id, agencyId: actor.agencyId, note: text.slice(0, 500), staffUsername: actor.staffUsername, resolvedAt }),
    auditIfChanged(env.DB, actor, {
      action: "payment.refunded",
      target: id,
      before: { status: "OPEN", kind: payment.kind, reference: payment.reference, amount: payment.amount },
      after: { status: "REFUNDED", note: text.slice(0, 500) },
    }),
  ]);
  if ((claim.meta.changes ?? 0) === 0) return { ok: false, error: "ALREADY_RESOLVED", payment: (await getUnmatched(env.DB, actor.agencyId, id)) ?? payment };
  if (payment.kind !== "UNKNOWN_REFERENCE" && payment.orderPlayerId) {
    await walletOf(env, actor.agencyId, payment.orderPlayerId).releaseLatePayment(payment.reference, "late-refunded", Date.now());
  }
  return { ok: true, payment: (await getUnmatched(env.DB, actor.agencyId, id))! };
}
