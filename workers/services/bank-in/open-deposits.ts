import { paidInTime } from "../../core/pay-amount";
import type { AuditActor } from "../../db/audit";
import { findTransferByWitnessId } from "../../db/bank-transactions";
import { endPayAmountReservation, findPayAmountReservation, listOpenReservations, reopenPayAmountReservation } from "../../db/pay-amounts";
import { applyBankTransaction } from "./bank-transactions";
import { slipQueue, type QueuedSlip } from "./slips";

/**
 * Back office, open deposits of own-account channels (cashier and owner): the orders waiting
 * for money in the agency's own bank account, and "mark paid" with the bank's transaction id
 * and time, through the one matcher (source "staff"). Two staff pressing at once get one
 * outcome: the press that ends the order's reservation first goes on, the other is told the
 * order is no longer open.
 */

export type OpenDepositItem = {
  code: string;
  username: string | null;
  playerId: string;
  channelCode: string;
  askedAmount: string;
  payAmount: string;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
};

/**
 * The cashier's queue of deposits: the players' slips first (decision 087: a slip puts its order at
 * the top, with what it says and the bank's reports beside it), then every open order.
 */
export async function openDepositsQueue(env: Env, agencyId: string): Promise<{ items: OpenDepositItem[]; slips: QueuedSlip[]; now: string }> {
  const now = Date.now();
  const [rows, slips] = await Promise.all([listOpenReservations(env.DB, agencyId, now, 200), slipQueue(env, agencyId)]);
  return {
    now: new Date(now).toISOString(),
    slips,
    items: rows.map((r) => ({
      code: r.orderCode,
      username: r.username,
      playerId: r.playerId,
      channelCode: r.channelCode,
      askedAmount: r.askedAmount,
      payAmount: r.payAmount,
      createdAt: new Date(r.createdAt).toISOString(),
      expiresAt: new Date(r.expiresAt).toISOString(),
      expired: r.expiresAt <= now,
    })),
  };
}

export type MarkPaidInput = { orderCode: string; bankTransactionId: string; bankTime: number; outsideLife?: boolean };
export type MarkPaidError = "TRANSACTION_ID_REQUIRED" | "BANK_TIME_INVALID" | "BANK_TIME_OUTSIDE_ORDER" | "NOT_OPEN" | "ALREADY_USED" | "LATE";
/** The order's life, shown when the bank time typed falls outside it (the cashier corrects the time; nothing was recorded). */
export type OrderLife = { createdAt: string; expiresAt: string };

/**
 * Staff saw the money in the bank app: the order is paid by that bank transaction (id
 * required). A bank time outside the order's life is refused with the life shown (a mistyped
 * hour must not turn the order's own money into a queued "no order" payment that a hand credit
 * would pay again); the order stays open. The cashier who checked the time in the bank app may
 * record it anyway ("outside its life: record"): it is matched like any report (late: to the
 * payments queue against the order). The reservation is ended first (two staff pressing at
 * once get one outcome) and reopened on every path that did not pay the order.
 */
export async function markOpenDepositPaid(
  env: Env,
  actor: AuditActor,
  input: MarkPaidInput,
): Promise<{ ok: true; orderCode: string } | { ok: false; error: MarkPaidError; life?: OrderLife }> {
  const bankTransactionId = input.bankTransactionId.trim();
  if (!bankTransactionId) return { ok: false, error: "TRANSACTION_ID_REQUIRED" };
  const now = Date.now();
  if (!Number.isFinite(input.bankTime) || input.bankTime > now + 5 * 60_000) return { ok: false, error: "BANK_TIME_INVALID" };
  const order = await findPayAmountReservation(env.DB, actor.agencyId, input.orderCode);
  if (!order || order.endedAt !== null) return { ok: false, error: "NOT_OPEN" };
  if (!input.outsideLife && !paidInTime(input.bankTime, order))
    return {
      ok: false,
      error: "BANK_TIME_OUTSIDE_ORDER",
      life: { createdAt: new Date(order.createdAt).toISOString(), expiresAt: new Date(order.expiresAt).toISOString() },
    };
  const used = await findTransferByWitnessId(env.DB, actor.agencyId, order.channelCode, bankTransactionId, "staff");
  if (used && used.transfer.orderCode !== null && used.transfer.orderCode !== order.orderCode) return { ok: false, error: "ALREADY_USED" };
  if (!(await endPayAmountReservation(env.DB, actor.agencyId, order.orderCode, now))) return { ok: false, error: "NOT_OPEN" };
  const outcome = await applyBankTransaction(
    env,
    actor.agencyId,
    {
      channelCode: order.channelCode,
      bankTransactionId,
      amount: order.payAmount,
      bankTime: input.bankTime,
      reference: order.orderCode,
      source: "staff",
      raw: null,
    },
    actor,
  );
  if (outcome.kind !== "unmatched" && outcome.orderCode === order.orderCode) return { ok: true, orderCode: order.orderCode };
  await reopenPayAmountReservation(env.DB, actor.agencyId, order.orderCode, now);
  if (outcome.kind !== "unmatched") return { ok: false, error: "ALREADY_USED" };
  if (outcome.reason === "LATE") return { ok: false, error: "LATE" };
  return { ok: false, error: "NOT_OPEN" };
}
