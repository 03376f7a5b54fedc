import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { walletOf } from "../../../workers/services/deposit";
import { Pagination, StatusBadge } from "~/components/money";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { readPaging } from "~/lib/paging";
import type { Route } from "./+types/deposit-history";

export async function loader({ request, context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const { page, pageSize } = readPaging(new URL(request.url));
  const { items, total } = await walletOf(getBindings(context), getAgency(context).id, player.id).listDeposits(page, pageSize);
  return {
    page,
    pageSize,
    total,
    items: items.map((o) => ({ code: o.code, createdAt: new Date(o.createdAt).toISOString(), provider: o.provider, amount: o.amount, credit: o.credit, status: o.status })),
  };
}

export default function DepositHistory({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { items, page, pageSize, total } = loaderData;
  return (
    <section className="page">
      <title>{t("menu.depositHistory")}</title>
      <h1>{t("menu.depositHistory")}</h1>
      {items.length === 0 ? (
        <div className="empty" data-testid="history-empty">
          <p>{t("history.emptyDeposits")}</p>
          <Link to="/player/deposit" className="button button-primary">
            {t("menu.deposit")}
          </Link>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="history" data-testid="deposit-history">
            <thead>
              <tr>
                <th scope="col">{t("history.code")}</th>
                <th scope="col">{t("history.dateTime")}</th>
                <th scope="col">{t("history.provider")}</th>
                <th scope="col">{t("history.amount")}</th>
                <th scope="col">{t("history.status")}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((o) => (
                <tr key={o.code} data-code={o.code}>
                  <td data-label={t("history.code")}>{o.code}</td>
                  <td data-label={t("history.dateTime")}>{formatDateTime(o.createdAt)}</td>
                  <td data-label={t("history.provider")}>{t(`providers.${o.provider}`)}</td>
                  <td data-label={t("history.amount")}>
                    {formatMoney(o.amount, "LAK")}
                    <span className="muted"> → {formatMoney(o.credit, "THB")}</span>
                  </td>
                  <td data-label={t("history.status")}>
                    <StatusBadge status={o.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} pageSize={pageSize} total={total} basePath="/player/deposit/history" />
    </section>
  );
}
