import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { loadDashboard } from "@workers/services/reports";
import { getBindings } from "~/lib/context.server";
import { boundedFigure, formatDateTime, formatMoney } from "~/lib/format";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/dashboard";
import { AdminTable } from "~/components/data-table";

/** Today (Vientiane day) at a glance: money in and out, what waits for staff or for a provider, provider failures and errors. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  return { dashboard: await loadDashboard(getBindings(context).DB, staff.agencyId), owner: staff.role === "owner" };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const d = loaderData.dashboard;
  const staffIsOwner = loaderData.owner;
  return (
    <section>
      <title>{t("dashboard.title")}</title>
      <h1>{t("dashboard.title")}</h1>
      <p className="muted">{t("dashboard.today", { date: d.date.split("-").reverse().join("/") })}</p>
      {d.silentForwarders.map((f) => (
        <div key={f.channelCode} className="notice" role="status" data-testid="dash-forwarder-silent" data-channel={f.channelCode}>
          <p>
            {f.lastMessageAt
              ? t("forwarder.silent", { channel: f.channelCode, since: formatDateTime(new Date(f.lastMessageAt)) })
              : t("forwarder.silentNever", { channel: f.channelCode })}{" "}
            <Link to="/admin/forwarder">{t("forwarder.title")}</Link>
          </p>
        </div>
      ))}
      {d.alertsNotDelivered > 0 && (
        <div className="notice" role="status" data-testid="dash-alerts-undelivered">
          <p>
            {t("alerts.dashboard.title")}: <strong>{d.alertsNotDelivered}</strong>{" "}
            {staffIsOwner && <Link to="/admin/settings/alerts">{t("alerts.dashboard.link")}</Link>}
          </p>
        </div>
      )}
      {d.providerFailures.length > 0 || d.waitingDeposits.count > 0 ? (
        <div className="notice" role="status" data-testid="dash-provider-outage">
          <p>
            {d.waitingDeposits.count > 0 ? t("dashboard.waitingNotice", { n: d.waitingDeposits.count, minutes: d.waitingDeposits.oldestMinutes ?? 0 }) : null}{" "}
            {d.providerFailures.length > 0
              ? t("dashboard.failingNotice", {
                  providers: d.providerFailures.map((f) => t(`common:providers.${f.provider}`, { defaultValue: f.provider })).join(", "),
                })
              : null}
          </p>
        </div>
      ) : null}
      <div className="admin-cards">
        <article className="admin-card" data-testid="dash-deposits">
          <h2>{t("dashboard.deposits")}</h2>
          <p className="admin-figure" data-testid="dash-deposit-count">
            {d.deposits.count}
          </p>
          <p>
            <span data-testid="dash-deposit-lak">{formatMoney(d.deposits.amountLak, "LAK")}</span> · {formatMoney(d.deposits.credit, "THB")}
          </p>
        </article>
        <article className="admin-card" data-testid="dash-withdrawals">
          <h2>{t("dashboard.withdrawals")}</h2>
          <p className="admin-figure" data-testid="dash-withdraw-count">
            {d.withdrawals.count}
          </p>
          <p>
            <span data-testid="dash-withdraw-thb">{formatMoney(d.withdrawals.credit, "THB")}</span> · {formatMoney(d.withdrawals.paidLak, "LAK")}
          </p>
        </article>
        <article className="admin-card" data-testid="dash-waiting">
          <h2>{t("dashboard.waitingDeposits")}</h2>
          <p className="admin-figure" data-testid="dash-waiting-count">
            {d.waitingDeposits.count}
          </p>
          <p data-testid="dash-waiting-oldest">
            {d.waitingDeposits.oldestMinutes === null ? t("dashboard.noneWaiting") : t("dashboard.oldestWaiting", { minutes: d.waitingDeposits.oldestMinutes })}
          </p>
        </article>
        <article className="admin-card" data-testid="dash-pending">
          <h2>{t("dashboard.pending")}</h2>
          <ul className="stack">
            <li>
              <Link to="/admin/withdrawals">{t("dashboard.manualWithdrawals")}</Link>:{" "}
              <strong data-testid="dash-pending-withdrawals">{d.pending.manualWithdrawals}</strong>
            </li>
            <li>
              <Link to="/admin/deposits?flagged=1">{t("dashboard.flaggedDeposits")}</Link>:{" "}
              <strong data-testid="dash-flagged">{boundedFigure(d.pending.flaggedDeposits)}</strong>
            </li>
            <li>
              <Link to="/admin/deposits?status=FAILED">{t("dashboard.failedDeposits")}</Link>:{" "}
              <strong data-testid="dash-failed">{boundedFigure(d.pending.failedDeposits)}</strong>
            </li>
            <li>
              <Link to="/admin/payments">{t("dashboard.unmatchedPayments")}</Link>: <strong data-testid="dash-unmatched">{d.pending.unmatchedPayments}</strong>
            </li>
          </ul>
        </article>
      </div>
      <h2>{t("dashboard.providerFailures")}</h2>
      <AdminTable
        label={t("dashboard.providerFailures")}
        testId="dash-provider-failures"
        empty={
          <p className="muted" data-testid="dash-no-provider-failures">
            {t("dashboard.noProviderFailures")}
          </p>
        }
        rows={d.providerFailures}
        rowKey={(f) => f.provider}
        rowProps={(f) => ({ "data-provider": f.provider })}
        columns={[
          { header: t("dashboard.provider"), cell: (f) => t(`common:providers.${f.provider}`, { defaultValue: f.provider }) },
          { header: t("dashboard.timeouts"), td: { "data-testid": "dash-timeouts" }, cell: (f) => f.timeouts },
          { header: t("dashboard.errors"), td: { "data-testid": "dash-errors" }, cell: (f) => f.errors },
          { header: t("dashboard.lastFailure"), cell: (f) => formatDateTime(new Date(f.lastFailureAt)) },
        ]}
      />
      <h2>{t("dashboard.providerErrors")}</h2>
      <AdminTable
        label={t("dashboard.providerErrors")}
        testId="dash-provider-errors"
        empty={
          <p className="muted" data-testid="dash-no-errors">
            {t("dashboard.noErrors")}
          </p>
        }
        rows={d.providerErrors}
        rowKey={(e) => e.provider}
        rowProps={(e) => ({ "data-provider": e.provider })}
        columns={[
          { header: t("dashboard.provider"), cell: (e) => t(`common:providers.${e.provider}`, { defaultValue: e.provider }) },
          { header: t("dashboard.failedDepositsToday"), cell: (e) => e.failedDeposits },
          { header: t("dashboard.failedWithdrawalsToday"), cell: (e) => e.failedWithdrawals },
        ]}
      />
    </section>
  );
}
