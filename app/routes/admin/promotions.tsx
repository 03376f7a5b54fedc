import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { listPromotions, setPromotionStatus } from "@workers/services/promotions";
import { translate } from "~/lib/i18n.server";
import { getBindings } from "~/lib/context.server";
import { PromotionStatusSchema } from "~/lib/schemas/admin-promotion";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/promotions";
import { AdminTable } from "~/components/data-table";

/** The agency's promotions (owner only): list, activate/deactivate, links to edit and create. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  return { promotions: await listPromotions(getBindings(context).DB, staff.agencyId) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const form = await request.formData();
  const parsed = PromotionStatusSchema.safeParse({ status: form.get("status"), version: form.get("version") ?? undefined });
  const id = String(form.get("id") ?? "");
  if (!parsed.success || !id) return data({ error: "bad request" }, { status: 400 });
  const outcome = await setPromotionStatus(getBindings(context).DB, auditContext(request, staff), id, parsed.data.status, parsed.data.version);
  if (!outcome.ok) {
    if (outcome.code === "NOT_FOUND") throw new Response("Not found", { status: 404 });
    return redirectWithError({ request, context }, "/admin/promotions", translate(context, "admin:promotions.errors.stale"));
  }
  return redirectWithSuccess(
    { request, context },
    "/admin/promotions",
    translate(context, parsed.data.status === "ACTIVE" ? "admin:promotions.activated" : "admin:promotions.deactivated"),
  );
}

export default function AdminPromotions({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { promotions } = loaderData;
  return (
    <section data-testid="admin-promotions">
      <title>{t("promotions.title")}</title>
      <h1>{t("promotions.title")}</h1>
      <p>
        <Link to="/admin/promotions/new" className="button button-primary" data-testid="promotion-new">
          {t("promotions.new")}
        </Link>
      </p>
      <AdminTable
        label={t("promotions.title")}
        testId="promotions-table"
        empty={<p className="empty">{t("promotions.none")}</p>}
        rows={promotions}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ "data-testid": `promotion-row-${p.id}` })}
        columns={[
          { header: t("promotions.form.sortOrder"), cell: (p) => p.sortOrder },
          {
            header: t("promotions.form.title"),
            cell: (p) => (
              <Link to={`/admin/promotions/${p.id}`} lang="lo">
                {p.title.lo}
              </Link>
            ),
          },
          {
            header: t("promotions.form.bonus"),
            cell: (p) =>
              p.bonusKind === "PERCENT"
                ? t("promotions.percentBonus", { value: p.bonusValue, cap: p.bonusCap })
                : t("promotions.fixedBonus", { value: p.bonusValue }),
          },
          { header: t("promotions.form.providers"), cell: (p) => p.providers.map((code) => t(`settings.providers.names.${code}`)).join(", ") },
          {
            header: t("promotions.form.status"),
            cell: (p) => <span className={`status ${p.status === "ACTIVE" ? "status-green" : "status-grey"}`}>{t(`promotions.statuses.${p.status}`)}</span>,
          },
          {
            header: t("common.actions"),
            cell: (p) => (
              <Form method="post" className="admin-inline-form">
                <input type="hidden" name="id" value={p.id} />
                <input type="hidden" name="version" value={p.updatedAt} />
                <input type="hidden" name="status" value={p.status === "ACTIVE" ? "INACTIVE" : "ACTIVE"} />
                <button
                  type="submit"
                  className="button button-small"
                  aria-label={`${p.status === "ACTIVE" ? t("promotions.deactivate") : t("promotions.activate")}: ${p.title.lo}`}
                >
                  {p.status === "ACTIVE" ? t("promotions.deactivate") : t("promotions.activate")}
                </button>
              </Form>
            ),
          },
        ]}
      />
    </section>
  );
}
