import { formatAmount, parseAmount, type Currency } from "../core/money";
import { listSilentForwarders } from "../db/forwarder";
import { loadDashboardFigures } from "../db/orders";

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
  /** Notification forwarders silent for longer than their owner-set time while orders of their channel are open (issue 14). */
  silentForwarders: { channelCode: string; lastMessageAt: number | null; silenceMinutes: number }[];
};

export async function loadDashboard(db: D1Database, agencyId: string, now: number = Date.now()): Promise<Dashboard> {
  const day = vientianeDay(now);
  const [figures, silentForwarders] = await Promise.all([loadDashboardFigures(db, agencyId, day), listSilentForwarders(db, agencyId, now)]);
  const errors = new Map<string, { provider: string; failedDeposits: number; failedWithdrawals: number }>();
  for (const r of figures.failedDepositsByProvider) {
    errors.set(r.provider, { provider: r.provider, failedDeposits: r.count, failedWithdrawals: 0 });
  }
  for (const r of figures.failedWithdrawalsByProvider) {
    const entry = errors.get(r.provider) ?? { provider: r.provider, failedDeposits: 0, failedWithdrawals: 0 };
    entry.failedWithdrawals = r.count;
    errors.set(r.provider, entry);
  }
  const dep = figures.deposits;
  const wd = figures.withdrawals;
  return {
    date: day.date,
    deposits: { count: dep.length, amountLak: sum(dep.map((d) => d.amount), "LAK"), credit: sum(dep.map((d) => d.credit), "THB") },
    withdrawals: { count: wd.length, credit: sum(wd.map((w) => w.credit), "THB"), paidLak: sum(wd.map((w) => w.received), "LAK") },
    pending: { manualWithdrawals: figures.manualWithdrawals, flaggedDeposits: figures.flaggedDeposits, failedDeposits: figures.failedDeposits, unmatchedPayments: figures.unmatchedPayments },
    providerErrors: [...errors.values()].sort((a, b) => a.provider.localeCompare(b.provider)),
    silentForwarders,
  };
}
