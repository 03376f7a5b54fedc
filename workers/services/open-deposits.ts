import type { AuditActor } from "../db/audit";
import { findBankTransaction } from "../db/bank-transactions";
import { endPayAmountReservation, findPayAmountReservation, listOpenReservations, reopenPayAmountReservation } from "../db/pay-amounts";
import { applyBankTransaction } from "./bank-transactions";

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

export async function openDepositsQueue(env: Env, agencyId: string): Promise<{ items: OpenDepositItem[]; now: string }> {
  const now = Date.now();
  const rows = await listOpenReservations(env.DB, agencyId, now, 200);
  return {
    now: new Date(now).toISOString(),
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

export type MarkPaidInput = { orderCode: string; bankTransactionId: string; bankTime: number };
export type MarkPaidError = "TRANSACTION_ID_REQUIRED" | "BANK_TIME_INVALID" | "NOT_OPEN" | "ALREADY_USED" | "LATE";

/** Staff saw the money in the bank app: the order is paid by that bank transaction (id required, unique per channel). */
export async function markOpenDepositPaid(
  env: Env,
  actor: AuditActor,
  input: MarkPaidInput,
): Promise<{ ok: true; orderCode: string } | { ok: false; error: MarkPaidError }> {
  const bankTransactionId = input.bankTransactionId.trim();
  if (!bankTransactionId) return { ok: false, error: "TRANSACTION_ID_REQUIRED" };
  const now = Date.now();
  if (!Number.isFinite(input.bankTime) || input.bankTime > now + 5 * 60_000) return { ok: false, error: "BANK_TIME_INVALID" };
  const order = await findPayAmountReservation(env.DB, actor.agencyId, input.orderCode);
  if (!order || order.endedAt !== null) return { ok: false, error: "NOT_OPEN" };
  if (await findBankTransaction(env.DB, actor.agencyId, order.channelCode, bankTransactionId)) return { ok: false, error: "ALREADY_USED" };
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
  if (outcome.kind === "applied") return { ok: true, orderCode: outcome.orderCode };
  if (outcome.kind === "duplicate") {
    if (outcome.orderCode === order.orderCode) return { ok: true, orderCode: order.orderCode };
    await reopenPayAmountReservation(env.DB, actor.agencyId, order.orderCode, now);
    return { ok: false, error: "ALREADY_USED" };
  }
  if (outcome.reason === "LATE") return { ok: false, error: "LATE" }; // kept in the payments queue against the order
  return { ok: false, error: "NOT_OPEN" };
}
