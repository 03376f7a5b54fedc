import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { useTranslation } from "react-i18next";
import { promotionEditPage, setPromotionStatus, updatePromotion } from "@workers/services/promotions";
import { PromotionForm } from "~/components/admin-promotion-form";
import { promotionErrors, withUploadedBanner } from "~/lib/admin-promotions.server";
import { translate } from "~/lib/i18n.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { PromotionSchema, PromotionStatusSchema } from "~/lib/schemas/admin-promotion";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/promotion-edit";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { lite: ["validate"], i18n: ["promotions.validation"] } satisfies ScriptsHandle & I18nHandle;

/** A chosen banner file never goes back into the form state. */
const HIDDEN = { hideFields: ["banner"] };

/** One promotion of this agency: edit every field, activate or deactivate. Another agency's id is 404. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const page = await promotionEditPage(getBindings(context).DB, staff.agencyId, params.promotionId);
  if (!page) throw new Response("Not found", { status: 404 });
  return { ...page, enabledProviders: getAgency(context).enabledProviders };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const db = getBindings(context).DB;
  const actor = auditContext(request, staff);
  const formData = await request.formData();
  const self = `/admin/promotions/${params.promotionId}`;
  if (formData.get("intent") === "status") {
    const parsed = PromotionStatusSchema.safeParse({ status: formData.get("status"), version: formData.get("version") ?? undefined });
    if (!parsed.success) return data({ result: undefined }, { status: 400 });
    const outcome = await setPromotionStatus(db, actor, params.promotionId, parsed.data.status, parsed.data.version);
    if (!outcome.ok && outcome.code === "NOT_FOUND") throw new Response("Not found", { status: 404 });
    if (!outcome.ok) return redirectWithError({ request, context }, self, translate(context, "admin:promotions.errors.stale"));
    return redirectWithSuccess(
      { request, context },
      self,
      translate(context, parsed.data.status === "ACTIVE" ? "admin:promotions.activated" : "admin:promotions.deactivated"),
    );
  }
  const submission = parseWithZod(formData, { schema: PromotionSchema });
  if (submission.status !== "success") return data({ result: submission.reply(HIDDEN) }, { status: 400 });
  const banner = await withUploadedBanner(getBindings(context), actor, formData, submission.value);
  if (!banner.ok) return data({ result: submission.reply(HIDDEN), bannerError: banner.message }, { status: 422 });
  const outcome = await updatePromotion(db, actor, params.promotionId, banner.value);
  if (!outcome.ok && outcome.code === "NOT_FOUND") throw new Response("Not found", { status: 404 });
  if (!outcome.ok) return data({ result: submission.reply({ ...promotionErrors(outcome), ...HIDDEN }) }, { status: 409 });
  return redirectWithSuccess({ request, context }, "/admin/promotions", translate(context, "admin:promotions.saved"));
}

export default function EditPromotion({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { promotion, values } = loaderData;
  return (
    <section className="narrow" data-testid="admin-promotion-edit">
      <title>{promotion.title.lo}</title>
      <p>
        <a href="/admin/promotions">{t("promotions.back")}</a>
      </p>
      <h1 lang="lo">{promotion.title.lo}</h1>
      <p className="muted">
        {t("promotions.updatedAt", { date: formatDateTime(promotion.updatedAt) })} ·{" "}
        <span className={`status ${promotion.status === "ACTIVE" ? "status-green" : "status-grey"}`} data-testid="promotion-status">
          {t(`promotions.statuses.${promotion.status}`)}
        </span>
      </p>
      <Form method="post" className="admin-inline-form" data-testid="promotion-status-form">
        <input type="hidden" name="intent" value="status" />
        <input type="hidden" name="version" value={promotion.updatedAt} />
        <input type="hidden" name="status" value={promotion.status === "ACTIVE" ? "INACTIVE" : "ACTIVE"} />
        <button type="submit" className="button">
          {promotion.status === "ACTIVE" ? t("promotions.deactivate") : t("promotions.activate")}
        </button>
      </Form>
      <PromotionForm
        key={promotion.updatedAt}
        id={`promotion-${promotion.id}`}
        lastResult={actionData?.result}
        bannerError={(actionData as { bannerError?: string } | undefined)?.bannerError}
        enabledProviders={loaderData.enabledProviders}
        defaultValue={values}
        submitLabel={t("common.save")}
      />
    </section>
  );
}
