import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { useTranslation } from "react-i18next";
import { createPromotion } from "../../../workers/services/admin-promotions";
import { PromotionForm } from "~/components/admin-promotion-form";
import { promotionErrors } from "~/lib/admin-promotions.server";
import { translate } from "~/lib/i18n.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { PromotionSchema } from "~/lib/schemas/admin-promotion";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/promotion-new";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, { role: "owner" });
  return { enabledProviders: getAgency(context).enabledProviders };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const submission = parseWithZod(await request.formData(), { schema: PromotionSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const outcome = await createPromotion(getBindings(context).DB, auditContext(request, staff), submission.value);
  if (!outcome.ok) return data({ result: submission.reply(promotionErrors(outcome)) }, { status: 409 });
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
        enabledProviders={loaderData.enabledProviders}
        defaultValue={{ bonusKind: "PERCENT", creditThreshold: "10", turnoverMultiple: "0", status: "ACTIVE", sortOrder: "0", providers: [...loaderData.enabledProviders] }}
        submitLabel={t("promotions.create")}
      />
    </section>
  );
}
