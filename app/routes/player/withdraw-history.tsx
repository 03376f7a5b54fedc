import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { withdrawDisplayStatus } from "../../../workers/core/withdraw";
import { walletOf } from "../../../workers/services/wallet";
import { Pagination, StatusBadge } from "~/components/money";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { readPaging } from "~/lib/paging";
import type { Route } from "./+types/withdraw-history";

export async function loader({ request, context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const { page, pageSize } = readPaging(new URL(request.url));
  const { items, total } = await walletOf(getBindings(context), getAgency(context).id, player.id).listWithdraws(page, pageSize);
  return {
    page,
    pageSize,
    total,
    items: items.map((o) => ({
      code: o.code,
      createdAt: new Date(o.createdAt).toISOString(),
      provider: o.provider,
      credit: o.credit,
      status: withdrawDisplayStatus(o.status),
      received: o.status === "SUCCESS" ? o.receivedLak : null,
      returned: o.returnState === "DONE" ? o.credit : null,
      returning: o.returnState === "PENDING",
    })),
  };
}

export default function WithdrawHistory({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { items, page, pageSize, total } = loaderData;
  return (
    <section className="page">
      <title>{t("menu.withdrawHistory")}</title>
      <h1>{t("menu.withdrawHistory")}</h1>
      {items.length === 0 ? (
        <div className="empty" data-testid="history-empty">
          <p>{t("history.emptyWithdrawals")}</p>
          <Link to="/player/withdraw" className="button button-primary">
            {t("menu.withdraw")}
          </Link>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="history" data-testid="withdraw-history">
            <thead>
              <tr>
                <th scope="col">{t("history.code")}</th>
                <th scope="col">{t("history.dateTime")}</th>
                <th scope="col">{t("history.provider")}</th>
                <th scope="col">{t("history.status")}</th>
                <th scope="col">{t("history.received")}</th>
                <th scope="col">{t("history.returned")}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((o) => (
                <tr key={o.code} data-code={o.code}>
                  <td data-label={t("history.code")}>{o.code}</td>
                  <td data-label={t("history.dateTime")}>{formatDateTime(o.createdAt)}</td>
                  <td data-label={t("history.provider")}>
                    {t(`providers.${o.provider}`)} <span className="muted">{formatMoney(o.credit, "THB")}</span>
                  </td>
                  <td data-label={t("history.status")}>
                    <StatusBadge status={o.status} />
                  </td>
                  <td data-label={t("history.received")} data-testid="received">{o.received ? formatMoney(o.received, "LAK") : "-"}</td>
                  <td data-label={t("history.returned")} data-testid="returned">
                    {o.returned ? formatMoney(o.returned, "THB") : o.returning ? t("history.returning") : "-"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} pageSize={pageSize} total={total} basePath="/player/withdraw/history" />
    </section>
  );
}
