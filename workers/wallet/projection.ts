import { formatAmount } from "../core/money";
import { upsertDepositOrderViewStatement, upsertPromotionUsageViewStatement, upsertWithdrawOrderViewStatement } from "../db/order-projection";
import type { WalletContext } from "./context";

/**
 * Staff lists read D1: every change to an order or a promotion usage marks it unprojected
 * (and wakes the alarm), and the alarm copies what is marked to the read models, retried
 * until it succeeds. A row changed again while its copy was in flight stays marked.
 */

export function markDepositForProjection(w: WalletContext, code: string): void {
  w.store.markDepositUnprojected(code);
  w.alarm.schedule(Date.now());
}

export function markWithdrawForProjection(w: WalletContext, code: string): void {
  w.store.markWithdrawUnprojected(code);
  w.alarm.schedule(Date.now());
}

export function markUsageForProjection(w: WalletContext, id: string): void {
  w.store.markUsageUnprojected(id);
  w.alarm.schedule(Date.now());
}

/** Whose rows these are in D1; unknown until the wallet was identified. */
function owner(w: WalletContext): { agencyId: string; playerId: string } | null {
  const agencyId = w.store.readMeta("agencyId");
  const playerId = w.store.readMeta("playerId");
  return agencyId && playerId ? { agencyId, playerId } : null;
}

export async function projectDeposits(w: WalletContext): Promise<void> {
  const who = owner(w);
  if (!who) return;
  const dirty = w.store.unprojectedDeposits();
  if (dirty.length === 0) return;
  try {
    await w.env.DB.batch(
      dirty.map((row) =>
        upsertDepositOrderViewStatement(w.env.DB, {
          code: row.code,
          agencyId: who.agencyId,
          playerId: who.playerId,
          provider: row.provider,
          amount: formatAmount(BigInt(row.amount_minor), "LAK"),
          credit: formatAmount(BigInt(row.credit_minor), "THB"),
          status: row.status,
          flag: row.flag,
          createdAt: new Date(row.created_at).toISOString(),
          updatedAt: new Date().toISOString(),
        }),
      ),
    );
    for (const row of dirty) w.store.markDepositProjected(row);
  } catch (error) {
    console.error("deposit projection failed; retried at the next alarm", error);
  }
}

export async function projectWithdrawals(w: WalletContext): Promise<void> {
  const who = owner(w);
  if (!who) return;
  const dirty = w.store.unprojectedWithdraws();
  if (dirty.length === 0) return;
  try {
    await w.env.DB.batch(
      dirty.map((row) =>
        upsertWithdrawOrderViewStatement(w.env.DB, {
          code: row.code,
          agencyId: who.agencyId,
          playerId: who.playerId,
          provider: row.provider,
          credit: formatAmount(BigInt(row.credit_minor), "THB"),
          received: formatAmount(BigInt(row.received_lak_minor), "LAK"),
          status: row.status,
          review: row.review,
          returnState: row.return_state,
          reason: row.reason,
          createdAt: new Date(row.created_at).toISOString(),
          updatedAt: new Date().toISOString(),
        }),
      ),
    );
    for (const row of dirty) w.store.markWithdrawProjected(row);
  } catch (error) {
    console.error("withdraw projection failed; retried at the next alarm", error);
  }
}

export async function projectUsages(w: WalletContext): Promise<void> {
  const who = owner(w);
  if (!who) return;
  const dirty = w.store.unprojectedUsages();
  if (dirty.length === 0) return;
  try {
    await w.env.DB.batch(
      dirty.map((row) =>
        upsertPromotionUsageViewStatement(w.env.DB, {
          id: row.id,
          agencyId: who.agencyId,
          playerId: who.playerId,
          promotionId: row.promotion_id,
          provider: row.provider,
          status: row.status,
          depositCode: row.deposit_code,
          bonus: row.bonus_minor === null ? null : formatAmount(BigInt(row.bonus_minor), "THB"),
          reason: row.reason,
          claimedAt: new Date(row.claimed_at).toISOString(),
          updatedAt: new Date().toISOString(),
        }),
      ),
    );
    for (const row of dirty) w.store.markUsageProjected(row);
  } catch (error) {
    console.error("promotion usage projection failed; retried at the next alarm", error);
  }
}
