import { formatAmount, parseAmount, type Currency } from "../core/money";
import { UNDECIDED } from "./withdraw-review";

/**
 * The back office's dashboard, from the D1 read models (deposit_orders_view,
 * withdraw_orders_view) of one agency. "Today" is the Vientiane day (UTC+7, no daylight
 * saving), the day staff work in; an order counts on the day it was created.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
const VIENTIANE_OFFSET_MS = 7 * 60 * 60 * 1000;

/** [start, end) of the Vientiane day containing `now`, as ISO strings (UTC). */
export function vientianeDay(now: number): { start: string; end: string; date: string } {
  const startMs = Math.floor((now + VIENTIANE_OFFSET_MS) / DAY_MS) * DAY_MS - VIENTIANE_OFFSET_MS;
  return {
    start: new Date(startMs).toISOString(),
    end: new Date(startMs + DAY_MS).toISOString(),
    date: new Date(startMs + VIENTIANE_OFFSET_MS).toISOString().slice(0, 10),
  };
}

function sum(values: string[], currency: Currency): string {
  let total = 0n;
  for (const v of values) total += parseAmount(v, currency) ?? 0n;
  return formatAmount(total, currency);
}

export type Dashboard = {
  date: string;
  deposits: { count: number; amountLak: string; credit: string };
  withdrawals: { count: number; credit: string; paidLak: string };
  pending: { manualWithdrawals: number; flaggedDeposits: number; failedDeposits: number; unmatchedPayments: number };
  providerErrors: { provider: string; failedDeposits: number; failedWithdrawals: number }[];
};

export async function loadDashboard(db: D1Database, agencyId: string, now: number = Date.now()): Promise<Dashboard> {
  const day = vientianeDay(now);
  const [deposits, withdrawals, manual, flagged, failed, unmatched, depositErrors, withdrawErrors] = await db.batch<Record<string, unknown>>([
    db.prepare(`SELECT amount, credit FROM deposit_orders_view WHERE agency_id = ?1 AND status = 'SUCCESS' AND created_at >= ?2 AND created_at < ?3`).bind(agencyId, day.start, day.end),
    db.prepare(`SELECT credit, received FROM withdraw_orders_view WHERE agency_id = ?1 AND status = 'SUCCESS' AND created_at >= ?2 AND created_at < ?3`).bind(agencyId, day.start, day.end),
    db.prepare(`SELECT COUNT(*) AS n FROM withdraw_orders_view v WHERE v.agency_id = ?1 AND v.status = 'OPEN' AND v.review = 'MANUAL' AND ${UNDECIDED}`).bind(agencyId),
    db.prepare(`SELECT COUNT(*) AS n FROM deposit_orders_view WHERE agency_id = ?1 AND flag IS NOT NULL`).bind(agencyId),
    db.prepare(`SELECT COUNT(*) AS n FROM deposit_orders_view WHERE agency_id = ?1 AND status = 'FAILED'`).bind(agencyId),
    // money that matched no order, not yet credited or refunded by staff
    db.prepare(`SELECT COUNT(*) AS n FROM unmatched_payments WHERE agency_id = ?1 AND status IN ('OPEN', 'RESOLVING')`).bind(agencyId),
    db
      .prepare(`SELECT provider, COUNT(*) AS n FROM deposit_orders_view WHERE agency_id = ?1 AND status = 'FAILED' AND created_at >= ?2 AND created_at < ?3 GROUP BY provider`)
      .bind(agencyId, day.start, day.end),
    db
      .prepare(`SELECT provider, COUNT(*) AS n FROM withdraw_orders_view WHERE agency_id = ?1 AND status = 'FAILED' AND created_at >= ?2 AND created_at < ?3 GROUP BY provider`)
      .bind(agencyId, day.start, day.end),
  ]);
  const dep = deposits.results as { amount: string; credit: string }[];
  const wd = withdrawals.results as { credit: string; received: string }[];
  const count = (r: D1Result<Record<string, unknown>>) => Number((r.results[0] as { n: number } | undefined)?.n ?? 0);
  const errors = new Map<string, { provider: string; failedDeposits: number; failedWithdrawals: number }>();
  for (const r of depositErrors.results as { provider: string; n: number }[]) {
    errors.set(r.provider, { provider: r.provider, failedDeposits: Number(r.n), failedWithdrawals: 0 });
  }
  for (const r of withdrawErrors.results as { provider: string; n: number }[]) {
    const entry = errors.get(r.provider) ?? { provider: r.provider, failedDeposits: 0, failedWithdrawals: 0 };
    entry.failedWithdrawals = Number(r.n);
    errors.set(r.provider, entry);
  }
  return {
    date: day.date,
    deposits: { count: dep.length, amountLak: sum(dep.map((d) => d.amount), "LAK"), credit: sum(dep.map((d) => d.credit), "THB") },
    withdrawals: { count: wd.length, credit: sum(wd.map((w) => w.credit), "THB"), paidLak: sum(wd.map((w) => w.received), "LAK") },
    pending: { manualWithdrawals: count(manual), flaggedDeposits: count(flagged), failedDeposits: count(failed), unmatchedPayments: count(unmatched) },
    providerErrors: [...errors.values()].sort((a, b) => a.provider.localeCompare(b.provider)),
  };
}
