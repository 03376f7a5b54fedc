import type { BoundedCount, ListAsk, ListPage } from "../../core/keyset";
import { ORDER_STATUSES } from "../../core/orders";
import { PROVIDERS } from "../../core/providers";
import { vientianeDayBounds } from "../../core/vientiane";
import type { DepositOrder, StaffRetryResult } from "../../wallet/player-wallet";
import { auditStatement, type AuditActor } from "../../db/audit";
import { slipsOfOrder } from "../../db/deposit-slips";
import { findAgencyDepositOrder, listDepositOrders, type DepositListItem } from "../../db/orders";
import { walletOf } from "../wallets";
import { witnessesOfOrder, type BankWitness } from "../bank-in";

/**
 * Back office, deposits (decision 008): the agency's deposit orders from the read model
 * (deposit_orders_view, projected by each wallet), their detail from the wallet itself, and
 * the staff retry of a FAILED settlement. Every query is scoped by agency_id: an order code
 * of another agency is "not found".
 */

/** Flags a staff member filters on (PROVIDER_* = any provider refusal; NONE = no flag). */
export const DEPOSIT_FLAGS = ["LATE_PAYMENT", "AMOUNT_MISMATCH", "EXPIRED", "GATEWAY", "MANUAL", "PROVIDER_*", "NONE"] as const;

export type DepositFilter = {
  status?: string | null;
  flag?: string | null;
  provider?: string | null;
  username?: string | null;
  code?: string | null;
  /** YYYY-MM-DD, a day in Vientiane time (UTC+7), inclusive */
  from?: string | null;
  to?: string | null;
};

export type DepositRow = DepositListItem;

/** The first instant of a Vientiane day, as the ISO string the read model stores (null: no such day). */
function dayStartIso(day: string): string | null {
  const bounds = vientianeDayBounds(day);
  return bounds ? new Date(bounds.start).toISOString() : null;
}

/** A keyset page of the agency's deposit orders (decision 077); `ask` from the URL (listAskOf). */
export async function listDeposits(
  db: D1Database,
  agencyId: string,
  filter: DepositFilter,
  ask: ListAsk,
): Promise<ListPage<DepositRow> & { total: BoundedCount }> {
  const from = filter.from ? dayStartIso(filter.from) : null;
  const toStart = filter.to ? dayStartIso(filter.to) : null;
  return listDepositOrders(
    db,
    agencyId,
    {
      status: filter.status && (ORDER_STATUSES as readonly string[]).includes(filter.status) ? filter.status : null,
      flag: filter.flag || null,
      provider: filter.provider && (PROVIDERS as readonly string[]).includes(filter.provider) ? filter.provider : null,
      username: filter.username?.trim() ? filter.username.trim().toLowerCase() : null,
      codePrefix: filter.code?.trim() ? filter.code.trim().toUpperCase() : null,
      from,
      until: toStart ? new Date(Date.parse(toStart) + 86_400_000).toISOString() : null,
    },
    ask,
  );
}

export type DepositDetail = {
  row: DepositRow;
  order: DepositOrder | null;
  ledger: { entry: string; account: string; currency: string; amountMinor: string }[];
  retries: number;
  player: { id: string; username: string; displayName: string; status: string };
  witnesses: BankWitness[];
  /** the player's slips of this order (decision 087), with the other orders one's reference is on */
  slips: { id: string; ticket: string; reference: string; receivedAt: number; conflict: boolean; otherOrders: string[]; checkedBy: string | null }[];
};

export async function getDepositDetail(env: Env, agencyId: string, code: string): Promise<DepositDetail | null> {
  const found = await findAgencyDepositOrder(env.DB, agencyId, code);
  if (!found) return null;
  const wallet = walletOf(env, agencyId, found.playerId);
  const [order, ledger, retries, transfers, slips] = await Promise.all([
    wallet.getDeposit(code),
    wallet.ledgerFor(code),
    wallet.settlementRetries(code),
    witnessesOfOrder(env.DB, agencyId, code),
    slipsOfOrder(env.DB, agencyId, code),
  ]);
  return {
    row: {
      code: found.code,
      playerId: found.playerId,
      username: found.username,
      provider: found.provider,
      amount: found.amount,
      credit: found.credit,
      status: order?.status ?? found.status,
      flag: order ? order.flag : found.flag,
      createdAt: found.createdAt,
      updatedAt: found.updatedAt,
    },
    order,
    ledger,
    retries,
    player: { id: found.playerId, username: found.username, displayName: found.displayName, status: found.playerStatus },
    // every bank transfer that paid it, each with every witness (decision 046)
    witnesses: transfers.flatMap((t) => t.witnesses),
    slips: slips.map((x) => ({
      id: x.id,
      ticket: x.ticket,
      reference: x.reference,
      receivedAt: x.receivedAt,
      conflict: x.conflict,
      otherOrders: x.otherOrders,
      checkedBy: x.checkedBy,
    })),
  };
}

export type RetryOutcome = StaffRetryResult["kind"];

/**
 * Staff retry of a FAILED settlement: the wallet re-runs the transfer-in saga once per
 * press (see PlayerWallet.retryFailedSettlement). Audited right after the wallet answers,
 * with its before/after, whatever the outcome (a refused press is recorded too).
 */
export async function retryDeposit(
  env: Env,
  actor: AuditActor,
  code: string,
  expectedRetries: number,
): Promise<{ kind: RetryOutcome | "not-found"; order: DepositOrder | null }> {
  const found = await findAgencyDepositOrder(env.DB, actor.agencyId, code);
  if (!found) return { kind: "not-found", order: null };
  const wallet = walletOf(env, actor.agencyId, found.playerId);
  await wallet.identify(actor.agencyId, found.playerId, found.username);
  const before = await wallet.getDeposit(code);
  if (!before) return { kind: "not-found", order: null };
  const result = (await wallet.retryFailedSettlement(code, expectedRetries, Date.now())) as StaffRetryResult;
  const after = "order" in result ? result.order : null;
  await auditStatement(env.DB, actor, {
    action: "deposit.retry",
    target: code,
    before: { status: before.status, flag: before.flag, retries: expectedRetries },
    after: { outcome: result.kind, status: after?.status ?? null, flag: after?.flag ?? null, reference: "reference" in result ? result.reference : null },
  }).run();
  return { kind: result.kind, order: after };
}
