import { countWaitingHoldsStatement } from "../../db/forwarder";
import { countManualQueueStatement } from "../../db/orders";
import { countOpenReservationsStatement } from "../../db/pay-amounts";
import { countWaitingUnmatchedStatement } from "../../db/payments";

/**
 * How many items wait on each queue of the back office, for the badges of its menu (decision
 * 056). Each count is the one its queue page shows (the same statement or
 * predicate), so a badge never disagrees with the list it opens. One D1 batch: four COUNTs on
 * indexed columns, read on every back-office page.
 */
export type WaitingCounts = {
  /** withdrawals above the automatic limit waiting for staff (/admin/withdrawals) */
  withdrawals: number;
  /** own-account deposit orders staff may still mark paid (/admin/deposits/open) */
  openDeposits: number;
  /** money that matched no order, not yet credited or refunded (/admin/payments) */
  payments: number;
  /** forwarded credits above the auto-credit cap waiting for staff (/admin/forwarder) */
  heldCredits: number;
};

export async function waitingCounts(db: D1Database, agencyId: string, now: number = Date.now()): Promise<WaitingCounts> {
  const [withdrawals, openDeposits, payments, heldCredits] = await db.batch<{ n: number }>([
    countManualQueueStatement(db, agencyId),
    countOpenReservationsStatement(db, agencyId, now),
    countWaitingUnmatchedStatement(db, agencyId),
    countWaitingHoldsStatement(db, agencyId),
  ]);
  return { withdrawals: countOf(withdrawals), openDeposits: countOf(openDeposits), payments: countOf(payments), heldCredits: countOf(heldCredits) };
}

function countOf(result: D1Result<{ n: number }> | undefined): number {
  return Number(result?.results[0]?.n ?? 0);
}
