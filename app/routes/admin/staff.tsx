import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { listStaff, resetSecondFactor, setStaffStatus } from "@workers/services/staff";
import { translate } from "~/lib/i18n.server";
import { getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { StaffActionSchema } from "~/lib/schemas/admin";
import { auditContext, enrolUrl, requireStaff } from "~/lib/staff.server";
import { EnrolLink } from "~/components/admin";
import { AdminTable } from "~/components/data-table";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/staff";

/** Owner only: the agency's staff; disable/enable; reset the second factor (new link). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const me = await requireStaff(request, context, { role: "owner" });
  return { me: me.id, staff: await listStaff(getBindings(context).DB, me.agencyId) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireStaff(request, context, { role: "owner" });
  const submission = parseWithZod(await request.formData(), { schema: StaffActionSchema });
  if (submission.status !== "success") return data({ link: null }, { status: 400 });
  const db = getBindings(context).DB;
  const { intent, staffId } = submission.value;
  const who = auditContext(request, me);
  if (intent === "reset") {
    const reset = await resetSecondFactor(db, who, staffId);
    if (!reset.ok) throw new Response("Not found", { status: 404 });
    return data({
      link: { username: reset.username, url: enrolUrl(request, reset.enrolToken) },
      message: translate(context, "admin:staff.resetDone", { username: reset.username }),
    });
  }
  const outcome = await setStaffStatus(db, who, staffId, intent === "disable" ? "DISABLED" : "ACTIVE");
  if (!outcome.ok) {
    if (outcome.code === "NOT_FOUND") throw new Response("Not found", { status: 404 });
    const key =
      outcome.code === "SELF" ? "admin:staff.errors.self" : outcome.code === "UNCHANGED" ? "admin:staff.errors.unchanged" : "admin:staff.errors.notFound";
    return redirectWithError({ request, context }, "/admin/staff", translate(context, key));
  }
  return redirectWithSuccess(
    { request, context },
    "/admin/staff",
    translate(context, intent === "disable" ? "admin:staff.disabled" : "admin:staff.enabled", { username: outcome.username }),
  );
}

export default function StaffList({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const link = actionData && "link" in actionData ? actionData.link : null;
  return (
    <section>
      <title>{t("staff.title")}</title>
      <h1>{t("staff.title")}</h1>
      <p className="muted">{t("staff.intro")}</p>
      {link && <EnrolLink username={link.username} url={link.url} />}
      <p>
        <Link to="/admin/staff/new" className="button button-primary">
          {t("staff.create")}
        </Link>
      </p>
      <AdminTable
        label={t("staff.title")}
        testId="staff-table"
        rows={loaderData.staff}
        rowKey={(s) => s.id}
        rowProps={(s) => ({ "data-username": s.username })}
        columns={[
          {
            header: t("staff.username"),
            cell: (s) => (
              <>
                {s.username} {s.id === loaderData.me && <span className="muted">{t("staff.you")}</span>}
              </>
            ),
          },
          { header: t("staff.role"), cell: (s) => t(`common.roles.${s.role}`) },
          { header: t("staff.status"), td: { "data-testid": "staff-status" }, cell: (s) => t(`staff.statuses.${s.status}`) },
          {
            header: t("staff.secondFactor"),
            cell: (s) => (s.enrolled ? t("staff.enrolled") : s.enrolPending ? t("staff.enrolPending") : t("staff.notEnrolled")),
          },
          { header: t("staff.lastLogin"), cell: (s) => (s.lastLoginAt ? formatDateTime(s.lastLoginAt) : t("common.none")) },
          {
            header: t("common.actions"),
            cell: (s) =>
              s.id !== loaderData.me && (
                <div className="form-actions">
                  <Form method="post" className="admin-inline-form">
                    <input type="hidden" name="staffId" value={s.id} />
                    <input type="hidden" name="intent" value={s.status === "ACTIVE" ? "disable" : "enable"} />
                    <button type="submit" className={`button button-small ${s.status === "ACTIVE" ? "button-danger" : ""}`}>
                      {s.status === "ACTIVE" ? t("staff.disable") : t("staff.enable")}
                    </button>
                  </Form>
                  <Form method="post" className="admin-inline-form">
                    <input type="hidden" name="staffId" value={s.id} />
                    <input type="hidden" name="intent" value="reset" />
                    <button type="submit" className="button button-small">
                      {t("staff.reset")}
                    </button>
                  </Form>
                </div>
              ),
          },
        ]}
      />
    </section>
  );
}
