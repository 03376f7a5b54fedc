import { formatAmount } from "../core/money";
import {
  setFirstDepositStatement,
  upsertDepositOrderViewStatement,
  upsertPromotionUsageViewStatement,
  upsertWithdrawOrderViewStatement,
} from "../db/order-projection";
import { insertProviderAttemptStatement, type ProviderAttemptCopy } from "../db/provider-attempts";
import type { AttemptRow } from "./attempt-store";
import type { WalletContext } from "./context";
import { projectRewards } from "./rewards";
import type { DepositOrderRow, WithdrawOrderRow } from "./queries";

/**
 * Staff lists read D1: every change to an order or a promotion usage marks it unprojected
 * (and wakes the alarm), and the alarm copies what is marked to the read models, retried
 * until it succeeds. A row changed again while its copy was in flight stays marked. A staff
 * command copies its change itself before it answers (staff-operations.ts `answered`, issue
 * 45), so the page that confirms it reads the new state; the alarm's copy after it finds
 * nothing marked, or writes the same row again. Copies run one at a time (`projectChanges`).
 *
 * Reports (decision 019) read the integer minor-unit columns, the paid times, the
 * bonus credited and taken back, the promotion an order carried, and the player's first
 * deposit, all written here. `reprojectAll` copies a whole wallet again (the backfill of rows
 * written before those columns existed).
 */

/** Statements per D1 batch (a wallet re-projected whole may have many rows). */
const BATCH_SIZE = 100;

/** minor units, as the wallet's rows hold them -> a JS number, as D1's view columns take them (safe: far below 2^53). */
function minor(value: bigint | null): number {
  return value === null ? 0 : Number(value);
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The promotion a deposit or withdrawal carried, from the wallet's own usage row. */
function promotionOf(w: WalletContext, usageId: string | null): string | null {
  return usageId ? (w.store.usageById(usageId)?.promotion_id ?? null) : null;
}

async function batched(db: D1Database, statements: D1PreparedStatement[]): Promise<void> {
  for (let i = 0; i < statements.length; i += BATCH_SIZE) await db.batch(statements.slice(i, i + BATCH_SIZE));
}

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

/**
 * Changed deposits, and the provider attempts written since the last copy (decision 049): the
 * attempts ride in the same D1 batch, so a settlement still costs one D1 round trip (decision
 * 024), and an attempt lands in D1 no later than the order it concerns.
 */
async function projectDeposits(w: WalletContext): Promise<void> {
  const who = owner(w);
  if (!who) return;
  const dirty = w.store.unprojectedDeposits();
  const attempts = w.store.attempts.pending();
  if (dirty.length === 0 && attempts.length === 0) return;
  try {
    const statements = attempts.map((a) => insertProviderAttemptStatement(w.env.DB, attemptCopy(who, a)));
    if (dirty.length > 0) {
      const firstDeposit = iso(w.store.firstDepositPaidAt());
      statements.push(
        ...dirty.map((row) => upsertDepositOrderViewStatement(w.env.DB, depositView(w, who, row))),
        setFirstDepositStatement(w.env.DB, who.agencyId, who.playerId, firstDeposit),
      );
    }
    await batched(w.env.DB, statements);
    for (const row of dirty) w.store.markDepositProjected(row);
    if (attempts.length > 0) w.store.attempts.forgetUpTo(attempts[attempts.length - 1]!.id);
  } catch (error) {
    console.error("deposit projection failed; retried at the next alarm", error);
  }
}

function attemptCopy(who: Owner, a: AttemptRow): ProviderAttemptCopy {
  return {
    agencyId: who.agencyId,
    playerId: who.playerId,
    seq: a.id,
    provider: a.provider,
    orderCode: a.order_code,
    reference: a.reference,
    op: a.op,
    outcome: a.outcome,
    errorCode: a.error_code,
    detail: a.detail,
    at: new Date(a.at).toISOString(),
  };
}

async function projectWithdrawals(w: WalletContext): Promise<void> {
  const who = owner(w);
  if (!who) return;
  const dirty = w.store.unprojectedWithdraws();
  if (dirty.length === 0) return;
  try {
    await batched(
      w.env.DB,
      dirty.map((row) => upsertWithdrawOrderViewStatement(w.env.DB, withdrawView(w, who, row))),
    );
    for (const row of dirty) w.store.markWithdrawProjected(row);
  } catch (error) {
    console.error("withdraw projection failed; retried at the next alarm", error);
  }
}

async function projectUsages(w: WalletContext): Promise<void> {
  const who = owner(w);
  if (!who) return;
  const dirty = w.store.unprojectedUsages();
  if (dirty.length === 0) return;
  try {
    await batched(
      w.env.DB,
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
          usedAt: iso(row.used_at),
          endedAt: iso(row.ended_at),
        }),
      ),
    );
    for (const row of dirty) w.store.markUsageProjected(row);
  } catch (error) {
    console.error("promotion usage projection failed; retried at the next alarm", error);
  }
}

type Owner = { agencyId: string; playerId: string };

function depositView(w: WalletContext, who: Owner, row: DepositOrderRow) {
  const paid = row.paid_at !== null;
  return {
    code: row.code,
    agencyId: who.agencyId,
    playerId: who.playerId,
    provider: row.provider,
    amount: formatAmount(row.amount_minor, "LAK"),
    credit: formatAmount(row.credit_minor, "THB"),
    status: row.status,
    flag: row.flag,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date().toISOString(),
    channelCode: row.channel_code,
    amountMinor: minor(row.amount_minor),
    // what the bank received: the unique pay amount when the order has one (decision 016)
    paidMinor: paid ? minor(row.pay_amount_minor ?? row.amount_minor) : null,
    creditMinor: minor(row.credit_minor),
    bonusMinor: row.bonus_state === "DONE" ? minor(row.bonus_minor) : 0,
    promotionId: promotionOf(w, row.usage_id),
    paidAt: iso(row.paid_at),
  };
}

function withdrawView(w: WalletContext, who: Owner, row: WithdrawOrderRow) {
  const credit = row.credit_minor;
  const net = row.net_credit_minor;
  return {
    code: row.code,
    agencyId: who.agencyId,
    playerId: who.playerId,
    provider: row.provider,
    credit: formatAmount(credit, "THB"),
    received: formatAmount(row.received_lak_minor, "LAK"),
    status: row.status,
    review: row.review,
    returnState: row.return_state,
    reason: row.reason,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date().toISOString(),
    creditMinor: Number(credit),
    deductedMinor: Number(credit > net ? credit - net : 0n),
    paidLakMinor: minor(row.received_lak_minor),
    promotionId: promotionOf(w, row.usage_id),
    paidAt: row.status === "SUCCESS" ? iso(row.completed_at) : null,
  };
}

/** The copy in flight in each wallet, which the next one waits for. */
const copying = new WeakMap<WalletContext, Promise<void>>();

/**
 * Copies every marked row (orders, usages, rewards, provider attempts) to D1, after the copy
 * in flight, if any, has landed: the alarm's, a staff command's and the backfill's copies
 * run one at a time, so an older copy of a row cannot land after a newer one (the newer one
 * reads its rows only when the older is done). Never rejects: what fails stays marked.
 */
export function projectChanges(w: WalletContext): Promise<void> {
  const run = (copying.get(w) ?? Promise.resolve()).then(async () => {
    await projectDeposits(w);
    await projectWithdrawals(w);
    await projectUsages(w);
    await projectRewards(w);
  });
  const settled = run.catch((error) => console.error("projection failed; retried at the next alarm", error));
  copying.set(w, settled);
  return settled;
}

/**
 * Copies every order and usage of this wallet to the read models again, now (the reports'
 * backfill, workers/services/reports/report-backfill.ts). Returns how many rows are still not copied
 * (0 = done; otherwise the alarm retries them like any projection).
 */
export async function reprojectAll(w: WalletContext): Promise<{ rows: number; remaining: number }> {
  w.store.markAllUnprojected();
  const rows = w.store.unprojectedCount();
  await projectChanges(w);
  const remaining = w.store.unprojectedCount();
  if (remaining > 0) w.alarm.schedule(Date.now() + 5000);
  return { rows, remaining };
}
