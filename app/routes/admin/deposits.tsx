import { Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { DEPOSIT_FLAGS, listDeposits } from "@workers/services/deposits";
import { ORDER_STATUSES } from "@workers/core/orders";
import { PROVIDERS } from "@workers/core/providers";
import { listAskOf } from "@workers/core/keyset";
import { parseTypedDay, typedDayValue } from "@workers/core/vientiane";
import { AdminListCount, AdminListPager, DepositFlag, OrderStatus, ProviderName, TypedDateInput } from "~/components/admin";
import { AdminTable } from "~/components/data-table";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/deposits";

const PAGE_SIZE = 25;
const FILTERS = ["code", "username", "status", "flag", "provider", "from", "to"] as const;

/** Deposits of this agency, newest first, filtered by a plain GET form (works without JavaScript). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const url = new URL(request.url);
  const filter = Object.fromEntries(FILTERS.map((k) => [k, url.searchParams.get(k)?.trim() ?? ""])) as Record<(typeof FILTERS)[number], string>;
  // The days are typed DD/MM/YYYY (decision 088); one that is no day filters nothing and is
  // shown back as typed, with its message.
  const days = { from: filter.from ? parseTypedDay(filter.from) : "", to: filter.to ? parseTypedDay(filter.to) : "" };
  const dayErrors = { from: days.from === null, to: days.to === null };
  const list = await listDeposits(
    getBindings(context).DB,
    staff.agencyId,
    { ...filter, from: days.from ?? "", to: days.to ?? "" },
    listAskOf(url.searchParams, PAGE_SIZE),
  );
  return { ...list, filter, dayErrors, flags: DEPOSIT_FLAGS };
}

export default function AdminDeposits({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, total, next, previous, filter, dayErrors, flags } = loaderData;
  const query = Object.fromEntries(Object.entries(filter).filter(([, v]) => v));
  return (
    <section>
      <title>{t("deposits.title")}</title>
      <h1>{t("deposits.title")}</h1>
      <Form method="get" className="admin-filter" data-testid="deposit-filter" noValidate>
        <div className="field">
          <label htmlFor="f-code">{t("deposits.code")}</label>
          <input id="f-code" name="code" defaultValue={filter.code} autoCapitalize="characters" spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="f-username">{t("deposits.player")}</label>
          <input id="f-username" name="username" defaultValue={filter.username} autoCapitalize="none" spellCheck={false} />
        </div>
        <div className="field">
          <label htmlFor="f-status">{t("deposits.status")}</label>
          <select id="f-status" name="status" defaultValue={filter.status}>
            <option value="">{t("deposits.any")}</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`common:status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-flag">{t("deposits.flag")}</label>
          <select id="f-flag" name="flag" defaultValue={filter.flag}>
            <option value="">{t("deposits.any")}</option>
            {flags.map((f) => (
              <option key={f} value={f}>
                {t(`deposits.flags.${f === "PROVIDER_*" ? "PROVIDER" : f}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-provider">{t("deposits.provider")}</label>
          <select id="f-provider" name="provider" defaultValue={filter.provider}>
            <option value="">{t("deposits.any")}</option>
            {PROVIDERS.map((p) => (
              <option key={p} value={p}>
                {t(`common:providers.${p}`)}
              </option>
            ))}
          </select>
        </div>
        <DayFilterField name="from" label={t("deposits.from")} value={filter.from} invalid={dayErrors.from} message={t("staffScreens.dates.DAY_INVALID")} />
        <DayFilterField name="to" label={t("deposits.to")} value={filter.to} invalid={dayErrors.to} message={t("staffScreens.dates.DAY_INVALID")} />
        <button type="submit" className="button button-primary">
          {t("deposits.search")}
        </button>
        <a href="/admin/deposits" className="button button-ghost">
          {t("deposits.clear")}
        </a>
      </Form>
      <AdminListCount total={total} exact={t("deposits.count", { count: total.count })} />
      <AdminTable
        label={t("deposits.title")}
        testId="deposits-table"
        empty={<p data-testid="deposits-empty">{t("deposits.empty")}</p>}
        rows={items}
        rowKey={(d) => d.code}
        rowProps={(d) => ({ "data-code": d.code, "data-status": d.status })}
        columns={[
          { header: t("deposits.code"), cell: (d) => <Link to={`/admin/deposits/${d.code}`}>{d.code}</Link> },
          { header: t("deposits.createdAt"), cell: (d) => formatDateTime(d.createdAt) },
          { header: t("deposits.player"), cell: (d) => <Link to={`/admin/players/${d.playerId}`}>{d.username}</Link> },
          { header: t("deposits.provider"), cell: (d) => <ProviderName provider={d.provider} /> },
          { header: t("deposits.amount"), lead: true, cell: (d) => formatMoney(d.amount, "LAK") },
          { header: t("deposits.credit"), cell: (d) => formatMoney(d.credit, "THB") },
          { header: t("deposits.status"), lead: true, cell: (d) => <OrderStatus status={d.status} /> },
          { header: t("deposits.flag"), cell: (d) => <DepositFlag flag={d.flag} /> },
        ]}
      />
      <AdminListPager next={next} previous={previous} basePath="/admin/deposits" query={query} />
    </section>
  );
}

/** A day of the filter, typed DD/MM/YYYY; a day that does not read keeps what was typed, with its message. */
function DayFilterField({ name, label, value, invalid, message }: { name: "from" | "to"; label: string; value: string; invalid: boolean; message: string }) {
  const id = `f-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <TypedDateInput kind="day" id={id} name={name} value={typedDayValue(value)} invalid={invalid} describedBy={invalid ? `${id}-error` : undefined} />
      {invalid && (
        <p id={`${id}-error`} className="field-errors" data-testid={`${id}-error`}>
          {message}
        </p>
      )}
    </div>
  );
}
