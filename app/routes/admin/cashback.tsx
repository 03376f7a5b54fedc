import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { useTranslation } from "react-i18next";
import { cashbackAdminPage, saveCashbackSettings } from "@workers/services/promotions";
import { ErrorList, Field, getFormProps, useSchemaForm } from "~/components/forms";
import { translate } from "~/lib/i18n.server";
import { getBindings } from "~/lib/context.server";
import { formatDay, formatMoney } from "~/lib/format";
import { CashbackSettingsSchema, cashbackSettingsInput } from "~/lib/schemas/cashback";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { rewardRetryAction } from "~/lib/reward-retry.server";
import { RewardClaimsTable } from "~/components/reward-retry";
import type { Route } from "./+types/cashback";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { lite: ["validate"], i18n: ["cashback.validation"] } satisfies ScriptsHandle & I18nHandle;

/**
 * Cashback (owner only, like the other settings): the rules (percent, cap and minimum per
 * claim, turnover multiple, combinable with a promotion) and the claims report, where a claim
 * the provider refused has a retry button. Plain POST forms, working without JavaScript;
 * every save and every retry is audited.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  return cashbackAdminPage(getBindings(context).DB, staff.agencyId);
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const form = await request.formData();
  if (form.get("intent") === "retry") return rewardRetryAction({ request, context }, staff, form, "CASHBACK", "/admin/cashback");
  const submission = parseWithZod(form, { schema: CashbackSettingsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() as SubmissionResult<string[]> }, { status: 400 });
  const outcome = await saveCashbackSettings(getBindings(context).DB, auditContext(request, staff), cashbackSettingsInput(submission.value));
  if (!outcome.ok) {
    const key =
      outcome.code === "PERCENT_INVALID"
        ? "admin:cashback.validation.percent"
        : outcome.code === "MULTIPLE_INVALID"
          ? "admin:cashback.validation.multiple"
          : "admin:cashback.validation.amount";
    return data({ result: submission.reply({ fieldErrors: { [outcome.field]: [key] } }) as SubmissionResult<string[]> }, { status: 409 });
  }
  return redirectWithSuccess({ request, context }, "/admin/cashback", translate(context, "admin:cashback.saved"));
}

export default function AdminCashback({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { settings, claims, totalCredited, week } = loaderData;
  const [form, fields] = useSchemaForm("cashback-settings", CashbackSettingsSchema, actionData?.result, {
    enabled: settings.enabled ? "on" : undefined,
    percent: settings.percent,
    cap: settings.cap,
    min: settings.min,
    turnoverMultiple: settings.turnoverMultiple,
    combinable: settings.combinable ? "on" : undefined,
  });
  const { key: _enabledKey, ...enabledProps } = getInputProps(fields.enabled, { type: "checkbox" });
  const { key: _combinableKey, ...combinableProps } = getInputProps(fields.combinable, { type: "checkbox" });
  return (
    <section data-testid="admin-cashback">
      <title>{t("cashback.title")}</title>
      <h1>{t("cashback.title")}</h1>
      <section className="admin-card stack" aria-labelledby="cashback-settings-title">
        <h2 id="cashback-settings-title">{t("cashback.settings")}</h2>
        <p className="muted">{t("cashback.intro")}</p>
        <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="cashback-settings-form">
          <label className="field field-check">
            <input {...enabledProps} />
            {t("cashback.enabled")}
          </label>
          <Field
            label={t("cashback.percent")}
            hint={t("cashback.percentHint")}
            inputProps={{ ...getInputProps(fields.percent, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
            errors={fields.percent.errors}
          />
          <Field
            label={t("cashback.cap")}
            hint={t("cashback.capHint")}
            inputProps={{ ...getInputProps(fields.cap, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
            errors={fields.cap.errors}
          />
          <Field
            label={t("cashback.min")}
            inputProps={{ ...getInputProps(fields.min, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
            errors={fields.min.errors}
          />
          <Field
            label={t("cashback.turnoverMultiple")}
            hint={t("cashback.turnoverHint")}
            inputProps={{ ...getInputProps(fields.turnoverMultiple, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
            errors={fields.turnoverMultiple.errors}
          />
          <label className="field field-check">
            <input {...combinableProps} />
            {t("cashback.combinable")}
          </label>
          <div role="alert" className="form-alert">
            <ErrorList id={form.errorId} errors={form.errors} />
          </div>
          <button type="submit" className="button button-primary">
            {t("common.save")}
          </button>
        </Form>
      </section>
      <section className="admin-card stack" aria-labelledby="cashback-claims-title">
        <h2 id="cashback-claims-title">{t("cashback.claims")}</h2>
        <p>
          {t("cashback.lastWeek", { key: week.key, from: formatDay(week.from), to: formatDay(week.to) })} · {t("cashback.totalCredited")}:{" "}
          <strong data-testid="cashback-total">{formatMoney(totalCredited, "THB")}</strong>
        </p>
        {claims.length === 0 ? (
          <p className="notice" role="note">
            {t("cashback.noClaims")}
          </p>
        ) : (
          <RewardClaimsTable claims={claims} label={t("cashback.claims")} testId="cashback-claims" />
        )}
      </section>
    </section>
  );
}
