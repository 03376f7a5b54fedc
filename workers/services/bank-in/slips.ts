import type { OneProof } from "../../core/one-proof";
import { PAY_AMOUNT_COOL_DOWN_MS } from "../../core/pay-amount";
import { auditIfChanged, type AuditActor } from "../../db/audit";
import {
  candidateReportsStatement,
  checkSlipStatement,
  findSlip,
  insertSlip,
  reportsByReferenceStatement,
  toSlipReports,
  waitingSlips,
  type SlipReport,
  type WaitingSlip,
} from "../../db/deposit-slips";
import { raiseAlert } from "../alerts";
import { windowOf } from "./bank-transactions";

/**
 * The player's transfer slip as a report of its own source, 'slip' (decision 087): the player's
 * claim, untrusted. It is kept beside the bank's reports and never among them, so the derivation
 * of transfers (decision 069) never sees it: a slip never credits, joins or splits a transfer.
 * What it does: it puts its order at the top of the cashier's queue with what it says (ticket,
 * bank reference, the picture), raises a staff alert, and is shown beside the bank's reports:
 * - linked by id to the statement row or SMS whose id is the slip's reference, only on a channel
 *   whose owner confirmed, from a real slip beside its SMS, that the bank uses the same reference
 *   (the OneProof reference is not known to equal the id the bank's reports carry);
 * - otherwise beside the candidates: the credits of the order's pay amount during its life and
 *   its pay amount's cool-down.
 * The same slip (its bank reference) on a second order is kept, and both orders are flagged.
 */

/** Pictures of slips: in the agency bucket under their own prefix (never a brand image's `agencies/` key, never served at /brand). */
const pictureKey = (agencyId: string, id: string) => `slips/${agencyId}/${id}`;
/** The queue shows this many slips; more wait behind them (each one alerted). */
const QUEUE_LIMIT = 50;
/** Candidates shown beside one slip. */
const CANDIDATES = 10;

type SlipOrder = { code: string; playerId: string; username: string; channelCode: string; amount: string; payAmount: string | null };
type SlipPicture = { bytes: Uint8Array; contentType: "image/png" | "image/jpeg" };

/**
 * Keeps a slip read from the player's picture: the picture first (a row never names a missing
 * picture), then the row; the same slip on the same order again is one slip (the second picture
 * is removed). A new slip raises a staff alert, saying when its reference is on another order too.
 */
export async function recordDepositSlip(
  env: Env,
  agencyId: string,
  order: SlipOrder,
  slip: OneProof,
  picture: SlipPicture,
  now: number = Date.now(),
): Promise<{ kind: "received" | "repeated"; conflict: boolean }> {
  const id = crypto.randomUUID();
  await env.BRAND_ASSETS.put(pictureKey(agencyId, id), picture.bytes, { httpMetadata: { contentType: picture.contentType } });
  const kept = await insertSlip(env.DB, agencyId, {
    id,
    orderCode: order.code,
    playerId: order.playerId,
    channelCode: order.channelCode,
    ticket: slip.ticket,
    reference: slip.reference,
    qrText: slip.text,
    contentType: picture.contentType,
    bytes: picture.bytes.byteLength,
    receivedAt: now,
  });
  const conflict = kept.otherOrders.length > 0;
  if (!kept.inserted) {
    await env.BRAND_ASSETS.delete(pictureKey(agencyId, id));
    return { kind: "repeated", conflict };
  }
  await raiseAlert(
    env,
    agencyId,
    {
      id: `deposit.slip:${id}`,
      kind: "deposit.slip",
      facts: {
        orderCode: order.code,
        username: order.username,
        amountLak: order.payAmount ?? order.amount,
        ticket: slip.ticket,
        reference: slip.reference,
        otherOrders: kept.otherOrders,
      },
    },
    now,
  );
  return { kind: "received", conflict };
}

/** A slip as the cashier's queue shows it: its order, the bank's report linked by its reference, or the candidates. */
export type QueuedSlip = WaitingSlip & { linked: SlipReport[]; candidates: SlipReport[] };

/**
 * The slips waiting for the cashier (not checked, their order not paid), newest first, each with
 * the bank's reports it is shown beside: one read for the slips, one batch for their reports.
 */
export async function slipQueue(env: Env, agencyId: string): Promise<QueuedSlip[]> {
  const slips = await waitingSlips(env.DB, agencyId, QUEUE_LIMIT);
  if (slips.length === 0) return [];
  const windows = new Map<string, number>();
  for (const channel of new Set(slips.map((s) => s.channelCode))) windows.set(channel, await windowOf(env.DB, agencyId, channel));
  const reads = slips.flatMap((s) => {
    const link = s.referenceConfirmed ? [reportsByReferenceStatement(env.DB, agencyId, s.channelCode, s.reference)] : [];
    const amount = s.payAmount ?? s.orderAmount;
    const from = s.orderCreatedAt === null ? null : s.orderCreatedAt - (windows.get(s.channelCode) ?? 0);
    const to = s.orderExpiresAt === null ? null : s.orderExpiresAt + PAY_AMOUNT_COOL_DOWN_MS;
    const candidates = amount && from !== null && to !== null ? [candidateReportsStatement(env.DB, agencyId, s.channelCode, amount, from, to, CANDIDATES)] : [];
    return [...link, ...candidates];
  });
  const results = reads.length > 0 ? await env.DB.batch(reads) : [];
  let next = 0;
  return slips.map((s) => {
    const linked = s.referenceConfirmed ? toSlipReports(results[next++]!) : [];
    const hasCandidates = Boolean((s.payAmount ?? s.orderAmount) && s.orderCreatedAt !== null && s.orderExpiresAt !== null);
    const candidates = hasCandidates ? toSlipReports(results[next++]!) : [];
    // linked by its reference: that report is the slip's transfer; the candidates are shown only without a link
    return { ...s, linked, candidates: linked.length > 0 ? [] : candidates };
  });
}

/** The picture of a slip, for staff only (the route checks the staff session). */
export async function slipPicture(env: Env, agencyId: string, id: string): Promise<{ body: ReadableStream; contentType: string; size: number } | null> {
  const slip = await findSlip(env.DB, agencyId, id);
  if (!slip) return null;
  const object = await env.BRAND_ASSETS.get(pictureKey(agencyId, id));
  return object ? { body: object.body, contentType: slip.contentType, size: object.size } : null;
}

/** Staff checked the slip and take it off the queue (nothing else changes: no credit, no report). Once, audited. */
export async function checkDepositSlip(env: Env, actor: AuditActor, id: string, now: number = Date.now()): Promise<boolean> {
  const slip = await findSlip(env.DB, actor.agencyId, id);
  if (!slip || slip.checkedAt !== null) return false;
  const [changed] = await env.DB.batch([
    checkSlipStatement(env.DB, actor.agencyId, id, actor.staffUsername ?? "?", now),
    auditIfChanged(env.DB, actor, {
      action: "deposit.slip.checked",
      target: slip.orderCode,
      before: null,
      after: { slip: id, ticket: slip.ticket, reference: slip.reference },
    }),
  ]);
  return (changed.meta.changes ?? 0) > 0;
}
