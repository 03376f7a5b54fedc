import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { withdrawHistoryPage } from "@workers/services/withdrawals";
import { HistoryTable, Pagination, StatusBadge } from "~/components/money";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { readPaging } from "~/lib/paging";
import type { Route } from "./+types/withdraw-history";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** The translation key groups this page renders (decision 032). */
export const handle = { scripts: "lite", i18n: ["history", "status"] } satisfies ScriptsHandle & I18nHandle;
/** No React in the browser (decision 034): a link from a page that hydrates loads it as a document. */
export const clientLoader = loadAsDocument;

export async function loader({ request, context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const { page, pageSize } = readPaging(new URL(request.url));
  return withdrawHistoryPage(getBindings(context), getAgency(context).id, player.id, { page, pageSize });
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
        <HistoryTable
          testId="withdraw-history"
          rows={items}
          columns={[
            { label: t("history.code"), cell: (o) => o.code },
            { label: t("history.dateTime"), cell: (o) => formatDateTime(o.createdAt) },
            {
              label: t("history.provider"),
              cell: (o) => (
                <>
                  {t(`providers.${o.provider}`)} <span className="muted">{formatMoney(o.credit, "THB")}</span>
                </>
              ),
            },
            { label: t("history.status"), cell: (o) => <StatusBadge status={o.status} /> },
            { label: t("history.received"), testId: "received", cell: (o) => (o.received ? formatMoney(o.received, "LAK") : "-") },
            {
              label: t("history.returned"),
              testId: "returned",
              cell: (o) => (o.returned ? formatMoney(o.returned, "THB") : o.returning ? t("history.returning") : "-"),
            },
          ]}
        />
      )}
      <Pagination page={page} pageSize={pageSize} total={total} basePath="/player/withdraw/history" />
    </section>
  );
}
