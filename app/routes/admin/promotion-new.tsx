import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { useTranslation } from "react-i18next";
import { createPromotion } from "@workers/services/promotions";
import { PromotionForm } from "~/components/admin-promotion-form";
import { promotionErrors, withUploadedBanner } from "~/lib/admin-promotions.server";
import { translate } from "~/lib/i18n.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { PromotionSchema } from "~/lib/schemas/admin-promotion";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/promotion-new";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { lite: ["validate"], i18n: ["promotions.validation"] } satisfies ScriptsHandle & I18nHandle;

/** A chosen banner file never goes back into the form state. */
const HIDDEN = { hideFields: ["banner"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, { role: "owner" });
  return { enabledProviders: getAgency(context).enabledProviders };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: PromotionSchema });
  if (submission.status !== "success") return data({ result: submission.reply(HIDDEN) }, { status: 400 });
  const env = getBindings(context);
  const actor = auditContext(request, staff);
  const banner = await withUploadedBanner(env, actor, formData, submission.value);
  if (!banner.ok) return data({ result: submission.reply(HIDDEN), bannerError: banner.message }, { status: 422 });
  const outcome = await createPromotion(env.DB, actor, banner.value);
  if (!outcome.ok) return data({ result: submission.reply({ ...promotionErrors(outcome), ...HIDDEN }) }, { status: 409 });
  return redirectWithSuccess({ request, context }, "/admin/promotions", translate(context, "admin:promotions.created"));
}

export default function NewPromotion({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  return (
    <section className="narrow" data-testid="admin-promotion-new">
      <title>{t("promotions.new")}</title>
      <p>
        <a href="/admin/promotions">{t("promotions.back")}</a>
      </p>
      <h1>{t("promotions.new")}</h1>
      <PromotionForm
        id="promotion-new"
        lastResult={actionData?.result}
        bannerError={(actionData as { bannerError?: string } | undefined)?.bannerError}
        enabledProviders={loaderData.enabledProviders}
        defaultValue={{
          bonusKind: "PERCENT",
          creditThreshold: "10",
          turnoverMultiple: "0",
          status: "ACTIVE",
          sortOrder: "0",
          providers: [...loaderData.enabledProviders],
        }}
        submitLabel={t("promotions.create")}
      />
    </section>
  );
}
