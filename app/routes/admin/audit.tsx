import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import { auditLogPage } from "../../../workers/services/admin-audit";
import { AdminPager } from "~/components/admin";
import { TableWrap } from "~/components/table-wrap";
import { getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { readPaging } from "~/lib/paging";
import { requireStaff } from "~/lib/staff.server";
import type { Route } from "./+types/audit";

/** Owner only: the append-only audit log, newest first, filterable by action. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const url = new URL(request.url);
  const { page } = readPaging(url);
  const pageSize = 25;
  const action = url.searchParams.get("action")?.slice(0, 80) || null;
  return { page, pageSize, action, ...(await auditLogPage(getBindings(context).DB, staff.agencyId, { page, pageSize, action })) };
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, page, pageSize, total, action, actions } = loaderData;
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
      {items.length === 0 ? (
        <p className="empty">{t("audit.empty")}</p>
      ) : (
        <TableWrap label={t("audit.title")}>
          <table className="admin-table" data-testid="audit-table">
            <thead>
              <tr>
                <th scope="col">{t("audit.when")}</th>
                <th scope="col">{t("audit.who")}</th>
                <th scope="col">{t("audit.action")}</th>
                <th scope="col">{t("audit.target")}</th>
                <th scope="col">{t("audit.before")}</th>
                <th scope="col">{t("audit.after")}</th>
                <th scope="col">{t("audit.from")}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <tr key={e.id} data-action={e.action}>
                  <td>{formatDateTime(e.createdAt)}</td>
                  <td>{e.staffUsername === "api-token" && !e.staffId ? t("audit.apiToken") : (e.staffUsername ?? t("common.none"))}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>{e.target ?? t("common.none")}</td>
                  <td>{e.before ? <pre>{e.before}</pre> : t("common.none")}</td>
                  <td>{e.after ? <pre>{e.after}</pre> : t("common.none")}</td>
                  <td>
                    {e.ip ?? t("common.none")}
                    {e.userAgent && <div className="muted">{e.userAgent.slice(0, 80)}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <AdminPager page={page} pageSize={pageSize} total={total} basePath="/admin/audit" query={action ? { action } : undefined} />
    </section>
  );
}
