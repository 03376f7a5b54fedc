import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import { listAskOf } from "@workers/core/keyset";
import { auditLogPage } from "@workers/services/staff";
import { AdminListPager } from "~/components/admin";
import { AdminTable } from "~/components/data-table";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, withDisplayDates } from "~/lib/format";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/audit";

const PAGE_SIZE = 25;

/** Owner only: the append-only audit log, newest first, filterable by action. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const url = new URL(request.url);
  const action = url.searchParams.get("action")?.slice(0, 80) || null;
  return { action, ...(await auditLogPage(getBindings(context).DB, staff.agencyId, { action, ask: listAskOf(url.searchParams, PAGE_SIZE) })) };
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, next, previous, action, actions } = loaderData;
  return (
    <section>
      <title>{t("audit.title")}</title>
      <h1>{t("audit.title")}</h1>
      <p className="muted">{t("audit.intro")}</p>
      <Form method="get" className="admin-filter">
        <div className="field">
          <label htmlFor="audit-action">{t("audit.action")}</label>
          <select id="audit-action" name="action" defaultValue={action ?? ""}>
            <option value="">{t("audit.all")}</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t("audit.filter")}
        </button>
      </Form>
      <AdminTable
        label={t("audit.title")}
        testId="audit-table"
        empty={<p className="empty">{t("audit.empty")}</p>}
        rows={items}
        rowKey={(e) => e.id}
        rowProps={(e) => ({ "data-action": e.action })}
        columns={[
          { header: t("audit.when"), cell: (e) => formatDateTime(e.createdAt) },
          {
            header: t("audit.who"),
            cell: (e) => (e.staffUsername === "api-token" && !e.staffId ? t("audit.apiToken") : (e.staffUsername ?? t("common.none"))),
          },
          { header: t("audit.action"), cell: (e) => <code>{e.action}</code> },
          { header: t("audit.target"), cell: (e) => e.target ?? t("common.none") },
          { header: t("audit.before"), cell: (e) => (e.before ? <pre>{withDisplayDates(e.before)}</pre> : t("common.none")) },
          { header: t("audit.after"), cell: (e) => (e.after ? <pre>{withDisplayDates(e.after)}</pre> : t("common.none")) },
          {
            header: t("audit.from"),
            cell: (e) => (
              <>
                {e.ip ?? t("common.none")}
                {e.userAgent && <div className="muted">{e.userAgent.slice(0, 80)}</div>}
              </>
            ),
          },
        ]}
      />
      <AdminListPager next={next} previous={previous} basePath="/admin/audit" query={action ? { action } : undefined} />
    </section>
  );
}
