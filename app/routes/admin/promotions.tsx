import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { listPromotions, setPromotionStatus } from "../../../workers/services/admin-promotions";
import { translate } from "~/lib/i18n.server";
import { getBindings } from "~/lib/context.server";
import { PromotionStatusSchema } from "~/lib/schemas/admin-promotion";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/promotions";
import { TableWrap } from "~/components/table-wrap";

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
      {promotions.length === 0 ? (
        <p className="empty">{t("promotions.none")}</p>
      ) : (
        <TableWrap label={t("promotions.title")}>
          <table className="admin-table" data-testid="promotions-table">
            <thead>
              <tr>
                <th scope="col">{t("promotions.form.sortOrder")}</th>
                <th scope="col">{t("promotions.form.title")}</th>
                <th scope="col">{t("promotions.form.bonus")}</th>
                <th scope="col">{t("promotions.form.providers")}</th>
                <th scope="col">{t("promotions.form.status")}</th>
                <th scope="col">{t("common.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {promotions.map((p) => (
                <tr key={p.id} data-testid={`promotion-row-${p.id}`}>
                  <td>{p.sortOrder}</td>
                  <td>
                    <Link to={`/admin/promotions/${p.id}`} lang="lo">
                      {p.title.lo}
                    </Link>
                  </td>
                  <td>
                    {p.bonusKind === "PERCENT"
                      ? t("promotions.percentBonus", { value: p.bonusValue, cap: p.bonusCap })
                      : t("promotions.fixedBonus", { value: p.bonusValue })}
                  </td>
                  <td>{p.providers.map((code) => t(`settings.providers.names.${code}`)).join(", ")}</td>
                  <td>
                    <span className={`status ${p.status === "ACTIVE" ? "status-green" : "status-grey"}`}>{t(`promotions.statuses.${p.status}`)}</span>
                  </td>
                  <td>
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
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
