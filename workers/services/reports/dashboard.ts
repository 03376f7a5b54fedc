import type { BoundedCount } from "../../core/keyset";
import { formatAmount } from "../../core/money";
import { PROVIDER_FAILURE_WINDOW_MS } from "../../core/provider-attempts";
import { presetRange, utcBounds, type ReportRange } from "../../core/report-range";
import { undeliveredAlerts } from "../../db/alerts";
import { listSilentForwarders } from "../../db/forwarder";
import { loadDashboardFigures } from "../../db/orders";
import { recentProviderFailures, waitingDeposits, type ProviderFailures } from "../../db/provider-attempts";
import { moneyReport } from "./reports";

/**
 * The back office's dashboard, from the D1 read models (deposit_orders_view,
 * withdraw_orders_view) of one agency. "Today" is the reports' today (workers/core/report-range.ts:
 * the Vientiane day, UTC+7, no daylight saving), and today's money is the reports' money
 * figures for that day (decision 019: a deposit counts at its paid time, a withdrawal at its
 * payout time), so the dashboard and /admin/reports always agree.
 */

/** The reports' "today" for `now`, one row for the whole day. */
function todayRange(now: number): ReportRange {
  return { ...presetRange("today", new Date(now)), grouping: "day" };
}

/** [start, end) of the Vientiane day containing `now`, as ISO strings (UTC). */
export function vientianeDay(now: number): { start: string; end: string; date: string } {
  const range = todayRange(now);
  const { fromIso, toIsoExclusive } = utcBounds(range);
  return { start: fromIso, end: toIsoExclusive, date: range.from };
}

export type Dashboard = {
  date: string;
  deposits: { count: number; amountLak: string; credit: string };
  withdrawals: { count: number; credit: string; paidLak: string };
  pending: { manualWithdrawals: number; flaggedDeposits: BoundedCount; failedDeposits: BoundedCount; unmatchedPayments: number };
  providerErrors: { provider: string; failedDeposits: number; failedWithdrawals: number }[];
  /**
   * Deposits paid and still waiting for their provider's credit (PAID: the wallet retries),
   * with the oldest one's wait in whole minutes (decision 049): a provider that does
   * not answer shows here while the orders are neither failed nor flagged.
   */
  waitingDeposits: { count: number; oldestMinutes: number | null };
  /** Each provider's timeouts and errors in the last 15 minutes (provider_attempts; providers without any left out). */
  providerFailures: ProviderFailures[];
  /** Notification forwarders silent for longer than their owner-set time while orders of their channel are open (decision 057). */
  silentForwarders: { channelCode: string; lastMessageAt: number | null; silenceMinutes: number }[];
  /** Staff alerts whose retries ran out or whose setup refused them (decision 057). */
  alertsNotDelivered: number;
};

export async function loadDashboard(db: D1Database, agencyId: string, now: number = Date.now()): Promise<Dashboard> {
  const day = vientianeDay(now);
  const [figures, money, silentForwarders, waiting, providerFailures, alerts] = await Promise.all([
    loadDashboardFigures(db, agencyId, day),
    moneyReport(db, agencyId, todayRange(now), now),
    listSilentForwarders(db, agencyId, now),
    waitingDeposits(db, agencyId),
    recentProviderFailures(db, agencyId, new Date(now - PROVIDER_FAILURE_WINDOW_MS).toISOString(), new Date(now).toISOString()),
    undeliveredAlerts(db, agencyId, 0),
  ]);
  const errors = new Map<string, { provider: string; failedDeposits: number; failedWithdrawals: number }>();
  for (const r of figures.failedDepositsByProvider) {
    errors.set(r.provider, { provider: r.provider, failedDeposits: r.count, failedWithdrawals: 0 });
  }
  for (const r of figures.failedWithdrawalsByProvider) {
    const entry = errors.get(r.provider) ?? { provider: r.provider, failedDeposits: 0, failedWithdrawals: 0 };
    entry.failedWithdrawals = r.count;
    errors.set(r.provider, entry);
  }
  const today = money.total;
  return {
    date: day.date,
    deposits: { count: today.depositCount, amountLak: formatAmount(BigInt(today.depositKip), "LAK"), credit: formatAmount(BigInt(today.depositCredit), "THB") },
    withdrawals: {
      count: today.withdrawCount,
      credit: formatAmount(BigInt(today.withdrawCredit), "THB"),
      paidLak: formatAmount(BigInt(today.withdrawKipPaid), "LAK"),
    },
    pending: {
      manualWithdrawals: figures.manualWithdrawals,
      flaggedDeposits: figures.flaggedDeposits,
      failedDeposits: figures.failedDeposits,
      unmatchedPayments: figures.unmatchedPayments,
    },
    providerErrors: [...errors.values()].sort((a, b) => a.provider.localeCompare(b.provider)),
    waitingDeposits: {
      count: waiting.count,
      oldestMinutes: waiting.oldestPaidAt === null ? null : Math.max(0, Math.floor((now - Date.parse(waiting.oldestPaidAt)) / 60_000)),
    },
    providerFailures,
    silentForwarders,
    alertsNotDelivered: alerts.count,
  };
}
