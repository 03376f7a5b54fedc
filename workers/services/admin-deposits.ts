import { ORDER_STATUSES } from "../core/orders";
import { PROVIDERS } from "../core/providers";
import type { DepositOrder, StaffRetryResult } from "../wallet/player-wallet";
import { auditStatement, type AuditActor } from "../db/audit";
import { walletOf } from "./wallet";

/**
 * Back office, deposits (issue 7 item 3): the agency's deposit orders from the read model
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
  page: number;
  pageSize: number;
};

export type DepositRow = {
  code: string;
  playerId: string;
  username: string;
  provider: string;
  amount: string;
  credit: string;
  status: string;
  flag: string | null;
  createdAt: string;
  updatedAt: string;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The first instant of a Vientiane day (UTC+7), as the ISO string the read model stores. */
export function vientianeDayStart(day: string): string | null {
  if (!DAY.test(day)) return null;
  const t = Date.parse(`${day}T00:00:00+07:00`);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listDeposits(db: D1Database, agencyId: string, filter: DepositFilter): Promise<{ items: DepositRow[]; total: number }> {
  const where = ["v.agency_id = ?1"];
  const params: unknown[] = [agencyId];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replace("?", `?${params.length}`));
  };
  if (filter.status && (ORDER_STATUSES as readonly string[]).includes(filter.status)) add("v.status = ?", filter.status);
  if (filter.flag === "PROVIDER_*") where.push("v.flag LIKE 'PROVIDER\\_%' ESCAPE '\\'");
  else if (filter.flag === "NONE") where.push("v.flag IS NULL");
  else if (filter.flag) add("v.flag = ?", filter.flag);
  if (filter.provider && (PROVIDERS as readonly string[]).includes(filter.provider)) add("v.provider = ?", filter.provider);
  if (filter.username?.trim()) add("p.username LIKE ? ESCAPE '\\'", `%${likeEscape(filter.username.trim().toLowerCase())}%`);
  if (filter.code?.trim()) add("v.code LIKE ? ESCAPE '\\'", `${likeEscape(filter.code.trim().toUpperCase())}%`);
  const from = filter.from ? vientianeDayStart(filter.from) : null;
  if (from) add("v.created_at >= ?", from);
  const toStart = filter.to ? vientianeDayStart(filter.to) : null;
  if (toStart) add("v.created_at < ?", new Date(Date.parse(toStart) + 86_400_000).toISOString());
  const joined = `FROM deposit_orders_view v JOIN players p ON p.id = v.player_id AND p.agency_id = v.agency_id WHERE ${where.join(" AND ")}`;
  const total = (await db.prepare(`SELECT COUNT(*) AS n ${joined}`).bind(...params).first<{ n: number }>())?.n ?? 0;
  const { results } = await db
    .prepare(
      `SELECT v.code, v.player_id, p.username, v.provider, v.amount, v.credit, v.status, v.flag, v.created_at, v.updated_at ${joined}
        ORDER BY v.created_at DESC, v.code DESC LIMIT ${Math.floor(filter.pageSize)} OFFSET ${Math.floor((filter.page - 1) * filter.pageSize)}`,
    )
    .bind(...params)
    .all<{ code: string; player_id: string; username: string; provider: string; amount: string; credit: string; status: string; flag: string | null; created_at: string; updated_at: string }>();
  return {
    total,
    items: results.map((r) => ({
      code: r.code,
      playerId: r.player_id,
      username: r.username,
      provider: r.provider,
      amount: r.amount,
      credit: r.credit,
      status: r.status,
      flag: r.flag,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    })),
  };
}

export type DepositDetail = {
  row: DepositRow;
  order: DepositOrder | null;
  ledger: { entry: string; account: string; currency: string; amountMinor: string }[];
  retries: number;
  player: { id: string; username: string; displayName: string; status: string };
};

/** Where an order code of this agency lives (null for an unknown code or another agency's). */
async function locate(db: D1Database, agencyId: string, code: string) {
  return db
    .prepare(
      `SELECT v.code, v.player_id, p.username, p.display_name, p.status AS player_status, v.provider, v.amount, v.credit, v.status, v.flag, v.created_at, v.updated_at
         FROM deposit_orders_view v JOIN players p ON p.id = v.player_id AND p.agency_id = v.agency_id
        WHERE v.code = ?1 AND v.agency_id = ?2`,
    )
    .bind(code, agencyId)
    .first<{ code: string; player_id: string; username: string; display_name: string; player_status: string; provider: string; amount: string; credit: string; status: string; flag: string | null; created_at: string; updated_at: string }>();
}

export async function getDepositDetail(env: Env, agencyId: string, code: string): Promise<DepositDetail | null> {
  const found = await locate(env.DB, agencyId, code);
  if (!found) return null;
  const wallet = walletOf(env, agencyId, found.player_id);
  const [order, ledger, retries] = await Promise.all([wallet.getDeposit(code), wallet.ledgerFor(code), wallet.settlementRetries(code)]);
  return {
    row: {
      code: found.code,
      playerId: found.player_id,
      username: found.username,
      provider: found.provider,
      amount: found.amount,
      credit: found.credit,
      status: order?.status ?? found.status,
      flag: order ? order.flag : found.flag,
      createdAt: found.created_at,
      updatedAt: found.updated_at,
    },
    order,
    ledger,
    retries,
    player: { id: found.player_id, username: found.username, displayName: found.display_name, status: found.player_status },
  };
}

export type RetryOutcome = StaffRetryResult["kind"];

/**
 * Staff retry of a FAILED settlement: the wallet re-runs the transfer-in saga once per
 * press (see PlayerWallet.retryFailedSettlement). Audited right after the wallet answers,
 * with its before/after, whatever the outcome (a refused press is recorded too).
 */
export async function retryDeposit(env: Env, actor: AuditActor, code: string, expectedRetries: number): Promise<{ kind: RetryOutcome | "not-found"; order: DepositOrder | null }> {
  const found = await locate(env.DB, actor.agencyId, code);
  if (!found) return { kind: "not-found", order: null };
  const wallet = walletOf(env, actor.agencyId, found.player_id);
  await wallet.identify(actor.agencyId, found.player_id, found.username);
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
