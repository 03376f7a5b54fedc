import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { listManualQueue } from "../../../workers/services/withdraw-review";
import { AdminPager } from "~/components/admin";
import { TableWrap } from "~/components/table-wrap";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { readPaging } from "~/lib/paging";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/withdrawals";

/** OPEN withdrawals waiting for a manual payout, oldest first (owner and cashier). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const { page, pageSize } = readPaging(new URL(request.url));
  const { items, total } = await listManualQueue(getBindings(context).DB, staff.agencyId, { page, pageSize });
  return { items, total, page, pageSize };
}

export default function WithdrawQueue({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, total, page, pageSize } = loaderData;
  return (
    <section>
      <title>{t("withdrawals.title")}</title>
      <h1>{t("withdrawals.title")}</h1>
      <p className="muted">{t("withdrawals.intro", { count: total })}</p>
      {items.length === 0 ? (
        <p className="empty" data-testid="queue-empty">
          {t("withdrawals.empty")}
        </p>
      ) : (
        <TableWrap label={t("withdrawals.title")}>
          <table className="admin-table admin-table-cards" data-testid="withdraw-queue">
            <thead>
              <tr>
                <th scope="col">{t("withdrawals.code")}</th>
                <th scope="col">{t("withdrawals.createdAt")}</th>
                <th scope="col">{t("withdrawals.player")}</th>
                <th scope="col">{t("withdrawals.credit")}</th>
                <th scope="col">{t("withdrawals.toPay")}</th>
                <th scope="col">{t("withdrawals.bank")}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((w) => (
                <tr key={w.code} data-code={w.code}>
                  <td data-label={t("withdrawals.code")}>
                    <Link to={`/admin/withdrawals/${w.code}`}>{w.code}</Link>
                  </td>
                  <td data-label={t("withdrawals.createdAt")}>{formatDateTime(w.createdAt)}</td>
                  <td data-label={t("withdrawals.player")}>
                    {w.displayName} <span className="muted">({w.username})</span>
                  </td>
                  <td data-label={t("withdrawals.credit")}>
                    {formatMoney(w.credit, "THB")} <span className="muted">{t(`common:providers.${w.provider}`)}</span>
                  </td>
                  <td data-label={t("withdrawals.toPay")}>{formatMoney(w.received, "LAK")}</td>
                  <td data-label={t("withdrawals.bank")}>{w.bankCode ? `${w.bankCode} · ${w.accountName} · ${w.accountNumber}` : t("common.none")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <AdminPager page={page} pageSize={pageSize} total={total} basePath="/admin/withdrawals" />
    </section>
  );
}
