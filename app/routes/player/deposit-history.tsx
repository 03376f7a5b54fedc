import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { depositHistoryPage } from "@workers/services/deposits";
import { HistoryTable, Pagination, StatusBadge } from "~/components/money";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { readPaging } from "~/lib/paging";
import type { Route } from "./+types/deposit-history";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** The translation key groups this page renders (decision 032). */
export const handle = { scripts: "lite", i18n: ["history", "status", "depositSlip"] } satisfies ScriptsHandle & I18nHandle;
/** No React in the browser (decision 034): a link from a page that hydrates loads it as a document. */
export const clientLoader = loadAsDocument;

export async function loader({ request, context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const { page, pageSize } = readPaging(new URL(request.url));
  return depositHistoryPage(getBindings(context), getAgency(context).id, player.id, { page, pageSize });
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
        <HistoryTable
          testId="deposit-history"
          rows={items}
          columns={[
            { label: t("history.code"), cell: (o) => o.code },
            { label: t("history.dateTime"), cell: (o) => formatDateTime(o.createdAt) },
            { label: t("history.provider"), cell: (o) => t(`providers.${o.provider}`) },
            {
              label: t("history.amount"),
              cell: (o) => (
                <>
                  {formatMoney(o.amount, "LAK")}
                  <span className="muted"> → {formatMoney(o.credit, "THB")}</span>
                </>
              ),
            },
            {
              label: t("history.status"),
              cell: (o) => (
                <>
                  <StatusBadge status={o.status} />
                  {/* an open or expired order takes the bank's transfer slip (decision 087) */}
                  {o.canAddSlip && (
                    <>
                      {" "}
                      <Link to={`/player/deposit/${o.code}/slip`} className="button button-ghost button-small" data-testid="add-slip">
                        {t("depositSlip.add")}
                      </Link>
                    </>
                  )}
                </>
              ),
            },
          ]}
        />
      )}
      <Pagination page={page} pageSize={pageSize} total={total} basePath="/player/deposit/history" />
    </section>
  );
}
