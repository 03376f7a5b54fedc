import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { promotionHistoryPage } from "@workers/services/promotions";
import { HistoryTable, Pagination } from "~/components/money";
import { UsageStatusBadge } from "~/components/promotion";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { readPaging } from "~/lib/paging";
import { getLocale } from "~/middleware/i18next.server";
import type { Route } from "./+types/promotion-history";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** The translation key groups this page renders (decision 032). */
export const handle = { scripts: "lite", i18n: ["promotion", "history", "status"] } satisfies ScriptsHandle & I18nHandle;
/** No React in the browser (decision 034): a link from a page that hydrates loads it as a document. */
export const clientLoader = loadAsDocument;

export async function loader({ request, context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const { page, pageSize } = readPaging(new URL(request.url));
  return promotionHistoryPage(getBindings(context), getAgency(context), player, page, pageSize, getLocale(context));
}

export default function PromotionHistory({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { items, page, pageSize, total } = loaderData;
  return (
    <section className="page">
      <title>{t("menu.promotionHistory")}</title>
      <h1>{t("menu.promotionHistory")}</h1>
      {items.length === 0 ? (
        <div className="empty" data-testid="history-empty">
          <p>{t("promotion.historyEmpty")}</p>
          <Link to="/player/promotion" className="button button-primary">
            {t("menu.promotion")}
          </Link>
        </div>
      ) : (
        <HistoryTable
          testId="promotion-history"
          rows={items}
          columns={[
            { label: t("promotion.col.usedAt"), cell: (u) => formatDateTime(u.usedAt) },
            {
              label: t("promotion.col.promotion"),
              cell: (u) => (
                <>
                  {u.title} <span className="muted">{t(`providers.${u.provider}`)}</span>
                </>
              ),
            },
            { label: t("promotion.col.bonus"), testId: "bonus", cell: (u) => (u.bonus ? formatMoney(u.bonus, "THB") : "-") },
            {
              label: t("promotion.col.status"),
              cell: (u) => (
                <>
                  <UsageStatusBadge status={u.status} /> {u.reason && <span className="muted">{t(`promotion.reason.${u.reason}`)}</span>}
                </>
              ),
            },
            {
              label: t("promotion.col.action"),
              cell: (u) => (
                <Link to={u.status === "CLAIMED" || u.status === "USED" ? "/player/promotion" : `/player/promotion/${u.promotionId}`}>
                  {u.status === "CLAIMED" ? t("promotion.cancel") : t("promotion.view")}
                </Link>
              ),
            },
          ]}
        />
      )}
      <Pagination page={page} pageSize={pageSize} total={total} basePath="/player/promotion/history" />
    </section>
  );
}
