import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { listManualQueue } from "@workers/services/withdrawals";
import { AdminListPager } from "~/components/admin";
import { AdminTable } from "~/components/data-table";
import { CopyButton } from "~/components/copy-button";
import { payoutAmountText } from "@workers/core/receive-qr";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { listAskOf } from "@workers/core/keyset";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/withdrawals";

const PAGE_SIZE = 10;

/** OPEN withdrawals waiting for a manual payout, oldest first (owner and cashier). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  return listManualQueue(getBindings(context).DB, staff.agencyId, listAskOf(new URL(request.url).searchParams, PAGE_SIZE));
}

export default function WithdrawQueue({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, total, next, previous } = loaderData;
  return (
    <section>
      <title>{t("withdrawals.title")}</title>
      <h1>{t("withdrawals.title")}</h1>
      <p className="muted">{t("withdrawals.intro", { count: total })}</p>
      <AdminTable
        label={t("withdrawals.title")}
        testId="withdraw-queue"
        empty={
          <p className="empty" data-testid="queue-empty">
            {t("withdrawals.empty")}
          </p>
        }
        rows={items}
        rowKey={(w) => w.code}
        rowProps={(w) => ({ "data-code": w.code })}
        columns={[
          { header: t("withdrawals.code"), cell: (w) => <Link to={`/admin/withdrawals/${w.code}`}>{w.code}</Link> },
          { header: t("withdrawals.createdAt"), cell: (w) => formatDateTime(w.createdAt) },
          {
            header: t("withdrawals.player"),
            cell: (w) => (
              <>
                {w.displayName} <span className="muted">({w.username})</span>
              </>
            ),
          },
          {
            header: t("withdrawals.credit"),
            lead: true,
            cell: (w) => (
              <>
                {formatMoney(w.credit, "THB")} <span className="muted">{t(`common:providers.${w.provider}`, { defaultValue: w.provider })}</span>
              </>
            ),
          },
          {
            header: t("withdrawals.toPay"),
            lead: true,
            cell: (w) => (
              <>
                {formatMoney(w.received, "LAK")} <CopyButton value={payoutAmountText(w.received) ?? w.received} what={t("withdrawals.toPay")} />
              </>
            ),
          },
          {
            header: t("withdrawals.bank"),
            cell: (w) =>
              w.bankCode ? (
                <>
                  {w.bankCode} · {w.accountName} <CopyButton value={w.accountName ?? ""} what={t("withdrawals.accountName")} /> · {w.accountNumber}{" "}
                  <CopyButton value={w.accountNumber ?? ""} what={t("withdrawals.accountNumber")} />
                </>
              ) : (
                t("common.none")
              ),
          },
        ]}
      />
      <AdminListPager next={next} previous={previous} basePath="/admin/withdrawals" />
    </section>
  );
}
