import { Link, useRouteLoaderData } from "react-router";
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
  // the queues' counts the layout read for the menu's badges (decision 056): the same figures, no second read
  const waiting = (useRouteLoaderData("routes/admin/layout") as { waiting?: { openDeposits: number; heldCredits: number } } | undefined)?.waiting;
  const d = loaderData.dashboard;
  const staffIsOwner = loaderData.owner;
  return (
    <section>
      <title>{t("dashboard.title")}</title>
      <h1>{t("dashboard.title")}</h1>
      <p className="muted">{t("dashboard.today", { date: d.date.split("-").reverse().join("/") })}</p>
      <WaitingTiles
        tiles={[
          {
            key: "withdrawals",
            label: t("dashboard.manualWithdrawals"),
            to: "/admin/withdrawals",
            count: String(d.pending.manualWithdrawals),
            testId: "dash-pending-withdrawals",
          },
          {
            key: "openDeposits",
            label: t("openDeposits.nav"),
            to: "/admin/deposits/open",
            count: String(waiting?.openDeposits ?? 0),
            testId: "dash-open-deposits",
          },
          {
            key: "payments",
            label: t("dashboard.unmatchedPayments"),
            to: "/admin/payments",
            count: String(d.pending.unmatchedPayments),
            testId: "dash-unmatched",
          },
          {
            key: "heldCredits",
            label: t("forwarder.holdsTitle"),
            to: "/admin/forwarder",
            count: String(waiting?.heldCredits ?? 0),
            testId: "dash-held-credits",
          },
          {
            key: "flagged",
            label: t("dashboard.flaggedDeposits"),
            to: "/admin/deposits?flagged=1",
            count: boundedFigure(d.pending.flaggedDeposits),
            testId: "dash-flagged",
          },
          {
            key: "failed",
            label: t("dashboard.failedDeposits"),
            to: "/admin/deposits?status=FAILED",
            count: boundedFigure(d.pending.failedDeposits),
            testId: "dash-failed",
          },
        ]}
      />
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
          { header: t("dashboard.timeouts"), lead: true, td: { "data-testid": "dash-timeouts" }, cell: (f) => f.timeouts },
          { header: t("dashboard.errors"), lead: true, td: { "data-testid": "dash-errors" }, cell: (f) => f.errors },
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

type Tile = { key: string; label: string; to: string; count: string; testId: string };

/**
 * What waits for staff, first on the dashboard as large tiles (decision 088): each a link to its
 * queue, its count large enough to read at arm's length; a queue with something waiting stands
 * out. Two a line on a phone, one line on a desktop.
 */
function WaitingTiles({ tiles }: { tiles: Tile[] }) {
  const { t } = useTranslation("admin");
  return (
    <nav aria-label={t("staffScreens.tiles.title")} data-testid="dash-pending">
      <ul className="admin-tiles">
        {tiles.map((tile) => (
          <li key={tile.key}>
            <Link to={tile.to} className="admin-tile" data-waiting={tile.count === "0" ? undefined : ""} data-tile={tile.key}>
              <strong className="admin-tile-figure" data-testid={tile.testId}>
                {tile.count}
              </strong>
              <span>{tile.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
