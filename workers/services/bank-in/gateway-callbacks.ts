import { canonicalLak } from "../../core/money";
import type { WithdrawDecision } from "../../core/withdraw";
import { depositOwnerOf, depositOwnerStatement, findWithdrawOwner, type OrderOwner } from "../../db/orders";
import {
  fillFlaggedPaymentTransaction,
  findWebhookDelivery,
  insertUnmatchedPayment,
  recordGatewayEventStatement,
  recordWebhookSignatureStatement,
  saveWebhookAnswerStatement,
  type UnmatchedKind,
} from "../../db/payments";
import { verifyWebhookSignature, webhookSecret } from "../../ports/gateway";
import type { MarkPaidResult } from "../../wallet/player-wallet";
import { findAgencyByHost } from "../agency";
import { sha256Hex } from "../../core/tokens";
import { walletOf } from "../wallets";

/**
 * What the payment gateway calls back: the deposit payment webhook and the payout callback
 * (one signed endpoint for both).
 */

export type WebhookResult = {
  status: number;
  body: {
    ok: boolean;
    result?: MarkPaidResult["kind"] | "unknown-reference" | "applied" | "not-open" | "refused";
    flag?: "AMOUNT_MISMATCH" | "UNKNOWN_REFERENCE" | "LATE_PAYMENT";
    error?: string;
  };
};

/**
 * The gateway's payment webhook (payments and payout callbacks). Only what cannot be
 * verified is refused (4xx: signature, timestamp). Every verified delivery of an event the
 * portal has recorded answers 2xx with what was recorded, whether applied or kept for
 * staff (AMOUNT_MISMATCH, UNKNOWN_REFERENCE, LATE_PAYMENT): a gateway treats anything else
 * as a failed attempt, retries, and finally marks the delivery dead.
 *
 * A delivery is keyed by its parsed signature (timestamp + v1) and bound to the body it
 * signed: the same request seen again gets the answer it got the first time; the same
 * signature with another body is refused. A retry signed anew is a new delivery of the same
 * event, which the wallet applies once (the transaction id) and answers `duplicate`.
 */
export async function handlePaymentWebhook(env: Env, request: Request): Promise<WebhookResult> {
  const raw = await request.text();
  const secret = webhookSecret(env);
  if (!secret) return { status: 503, body: { ok: false, error: "NOT_CONFIGURED" } };
  const verdict = await verifyWebhookSignature(request.headers.get("X-Sandbox-Signature"), raw, secret, Math.floor(Date.now() / 1000));
  if (!verdict.ok) return { status: 401, body: { ok: false, error: verdict.reason } };
  const key = `${verdict.timestamp}:${verdict.signature}`;
  const bodyHash = await sha256Hex(raw);
  const event = parseEvent(raw);
  // One D1 round trip, not two: the replay row, and for a payment whose order it is
  // (decision 024: under a crowd every statement queues at the database).
  const reference = event?.event === "payment.succeeded" && typeof event.reference === "string" ? event.reference : null;
  const [recorded, owner] = await env.DB.batch([
    recordWebhookSignatureStatement(env.DB, key, bodyHash),
    ...(reference ? [depositOwnerStatement(env.DB, reference)] : []),
  ]);
  if ((recorded!.meta.changes ?? 0) === 0) {
    const seen = await findWebhookDelivery(env.DB, key);
    if (seen && seen.bodySha256 !== bodyHash) return { status: 409, body: { ok: false, error: "REPLAY" } };
    if (seen?.answerStatus != null && seen.answerJson) return { status: seen.answerStatus, body: JSON.parse(seen.answerJson) as WebhookResult["body"] };
    // First delivery still being applied (or cut short): applying again is safe, every step is idempotent.
  }
  const { result, alsoWrite } = await applyWebhookEvent(env, request, event, owner ? depositOwnerOf(owner) : null);
  // The gateway event (if any) and the answer to give again, in one batch.
  await env.DB.batch([...alsoWrite, saveWebhookAnswerStatement(env.DB, key, result.status, JSON.stringify(result.body))]);
  return result;
}

type GatewayEvent = { event?: string; reference?: string; transactionId?: string; amount?: string; currency?: string; reason?: string };

function parseEvent(raw: string): GatewayEvent | null {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" ? (value as GatewayEvent) : null;
  } catch {
    return null;
  }
}

/**
 * A verified webhook's event, applied: idempotent, so a second delivery changes nothing.
 * `owner`: the payment's order owner, read with the replay row. `alsoWrite`: statements the
 * caller commits with the answer.
 */
async function applyWebhookEvent(
  env: Env,
  request: Request,
  event: GatewayEvent | null,
  owner: OrderOwner | null,
): Promise<{ result: WebhookResult; alsoWrite: D1PreparedStatement[] }> {
  const result = (r: WebhookResult, alsoWrite: D1PreparedStatement[] = []) => ({ result: r, alsoWrite });
  if (!event) return result({ status: 400, body: { ok: false, error: "MALFORMED" } });
  if ((event.event === "payout.paid" || event.event === "payout.rejected") && event.reference) {
    const applied = await applyPayoutEvent(env, { ...event, event: event.event, reference: event.reference });
    return result(
      applied.kind === "unknown-order"
        ? { status: 404, body: { ok: false, error: "UNKNOWN_REFERENCE" } }
        : { status: 200, body: { ok: true, result: applied.kind } },
    );
  }
  if (event.event !== "payment.succeeded" || !event.reference || !event.transactionId || !event.amount || event.currency !== "LAK") {
    return result({ status: 400, body: { ok: false, error: "MALFORMED" } });
  }
  if (!owner) {
    // Money with a reference that is no order of ours: kept for staff to resolve by hand
    // (back office, payments). The agency is the one whose address the gateway called;
    // with no agency there, nothing could be kept, and the gateway should keep trying.
    const agency = await findAgencyByHost(env.DB, new URL(request.url).host);
    if (!agency) return result({ status: 404, body: { ok: false, error: "UNKNOWN_REFERENCE" } });
    await recordUnmatchedPayment(env.DB, {
      agencyId: agency.id,
      kind: "UNKNOWN_REFERENCE",
      reference: event.reference,
      transactionId: event.transactionId,
      amount: event.amount,
    });
    return result({ status: 200, body: { ok: true, result: "unknown-reference", flag: "UNKNOWN_REFERENCE" } });
  }
  const marked = await walletOf(env, owner.agencyId, owner.playerId).markPaid(
    event.reference,
    { transactionId: event.transactionId, amount: event.amount },
    Date.now(),
  );
  const gatewayEvent = [recordGatewayEventStatement(env.DB, event.transactionId, event.reference)];
  if (marked.kind === "unknown-order") return result({ status: 404, body: { ok: false, error: "UNKNOWN_REFERENCE" } }, gatewayEvent);
  if (marked.kind === "amount-mismatch" || marked.kind === "late") {
    const flag = marked.kind === "late" ? "LATE_PAYMENT" : "AMOUNT_MISMATCH";
    await recordUnmatchedPayment(env.DB, {
      agencyId: owner.agencyId,
      kind: flag,
      reference: event.reference,
      transactionId: event.transactionId,
      amount: event.amount,
      orderPlayerId: owner.playerId,
    });
    return result({ status: 200, body: { ok: true, result: marked.kind, flag } }, gatewayEvent);
  }
  return result({ status: 200, body: { ok: true, result: marked.kind } }, gatewayEvent);
}

/**
 * The gateway's payout callback (already signature-checked by the webhook), through the
 * wallet's one decision path: it applies only to a payout the wallet asked for.
 */
async function applyPayoutEvent(env: Env, event: { event: string; reference: string; transactionId?: string; reason?: string }) {
  const owner = await findWithdrawOwner(env.DB, event.reference);
  if (!owner) return { kind: "unknown-order" as const };
  const decision: WithdrawDecision =
    event.event === "payout.paid"
      ? { by: "gateway", action: "paid", transactionId: event.transactionId ?? "" }
      : { by: "gateway", action: "reject", reason: event.reason ?? "REJECTED" };
  const result = await walletOf(env, owner.agencyId, owner.playerId).decideWithdraw(event.reference, decision, Date.now());
  return { kind: result.kind === "not-found" ? ("unknown-order" as const) : result.kind };
}

/**
 * Records a payment staff must look at (webhook: unknown reference, wrong amount, late).
 * One row per gateway transaction, and one per flagged order: a gateway retry of the same
 * delivery, or the back office having found the flagged order first, adds nothing.
 */
async function recordUnmatchedPayment(
  db: D1Database,
  input: { agencyId: string; kind: UnmatchedKind; reference: string; transactionId: string; amount: string; orderPlayerId?: string | null },
): Promise<void> {
  const amount = canonicalLak(input.amount);
  const reported = { agencyId: input.agencyId, kind: input.kind, reference: input.reference, transactionId: input.transactionId, amount };
  if (await fillFlaggedPaymentTransaction(db, reported)) return;
  await insertUnmatchedPayment(db, { ...reported, orderPlayerId: input.orderPlayerId ?? null });
}
