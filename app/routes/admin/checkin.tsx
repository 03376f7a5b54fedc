import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { useTranslation } from "react-i18next";
import { checkinAdminPage, checkinClaimKind, saveCheckinSettings } from "@workers/services/promotions";
import { ErrorList, Field, getFormProps, useSchemaForm } from "~/components/forms";
import { RewardClaimsTable } from "~/components/reward-retry";
import { getBindings } from "~/lib/context.server";
import { formatMoney } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { rewardRetryAction } from "~/lib/reward-retry.server";
import { CheckinSettingsSchema, checkinSettingsInput } from "~/lib/schemas/checkin";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/checkin";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { lite: ["validate"], i18n: ["checkin.validation"] } satisfies ScriptsHandle & I18nHandle;

/**
 * Check-in and deposit streak (decision 095; owner only, like cashback): whether each is
 * offered, its amount and turnover multiple, the streak's days in a row; and the claims of
 * both, where one the provider refused has a retry button. Plain POST forms; every save and
 * every retry is audited.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  return checkinAdminPage(getBindings(context).DB, staff.agencyId);
}

const FIELD_ERROR = {
  AMOUNT_INVALID: "admin:checkin.validation.amount",
  MULTIPLE_INVALID: "admin:checkin.validation.multiple",
  DAYS_INVALID: "admin:checkin.validation.days",
};

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const form = await request.formData();
  if (form.get("intent") === "retry") {
    // the retry names only the code: the list it is on is the claim's own kind
    const kind = await checkinClaimKind(getBindings(context).DB, staff.agencyId, String(form.get("code") ?? ""));
    return rewardRetryAction({ request, context }, staff, form, kind ?? "CHECKIN", "/admin/checkin");
  }
  const submission = parseWithZod(form, { schema: CheckinSettingsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() as SubmissionResult<string[]> }, { status: 400 });
  const outcome = await saveCheckinSettings(getBindings(context).DB, auditContext(request, staff), checkinSettingsInput(submission.value));
  if (!outcome.ok)
    return data({ result: submission.reply({ fieldErrors: { [outcome.field]: [FIELD_ERROR[outcome.code]] } }) as SubmissionResult<string[]> }, { status: 409 });
  return redirectWithSuccess({ request, context }, "/admin/checkin", translate(context, "admin:checkin.saved"));
}

export default function AdminCheckin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { settings, checkins, streaks, totalCredited } = loaderData;
  const [form, fields] = useSchemaForm("checkin-settings", CheckinSettingsSchema, actionData?.result, {
    checkinEnabled: settings.checkinEnabled ? "on" : undefined,
    checkinAmount: settings.checkinAmount,
    checkinMultiple: settings.checkinMultiple,
    streakEnabled: settings.streakEnabled ? "on" : undefined,
    streakDays: String(settings.streakDays),
    streakAmount: settings.streakAmount,
    streakMultiple: settings.streakMultiple,
  });
  const { key: _checkinKey, ...checkinEnabledProps } = getInputProps(fields.checkinEnabled, { type: "checkbox" });
  const { key: _streakKey, ...streakEnabledProps } = getInputProps(fields.streakEnabled, { type: "checkbox" });
  const decimal = { inputMode: "decimal", autoComplete: "off" } as const;
  return (
    <section data-testid="admin-checkin">
      <title>{t("checkin.title")}</title>
      <h1>{t("checkin.title")}</h1>
      <section className="admin-card stack" aria-labelledby="checkin-settings-title">
        <h2 id="checkin-settings-title">{t("checkin.settings")}</h2>
        <p className="muted">{t("checkin.intro")}</p>
        <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="checkin-settings-form">
          <fieldset className="stack">
            <legend>{t("checkin.checkinLegend")}</legend>
            <label className="field field-check">
              <input {...checkinEnabledProps} />
              {t("checkin.checkinEnabled")}
            </label>
            <Field
              label={t("checkin.amount")}
              inputProps={{ ...getInputProps(fields.checkinAmount, { type: "text" }), ...decimal }}
              errors={fields.checkinAmount.errors}
            />
            <Field
              label={t("checkin.turnoverMultiple")}
              hint={t("checkin.turnoverHint")}
              inputProps={{ ...getInputProps(fields.checkinMultiple, { type: "text" }), ...decimal }}
              errors={fields.checkinMultiple.errors}
            />
          </fieldset>
          <fieldset className="stack">
            <legend>{t("checkin.streakLegend")}</legend>
            <label className="field field-check">
              <input {...streakEnabledProps} />
              {t("checkin.streakEnabled")}
            </label>
            <Field
              label={t("checkin.streakDays")}
              hint={t("checkin.streakDaysHint")}
              inputProps={{ ...getInputProps(fields.streakDays, { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
              errors={fields.streakDays.errors}
            />
            <Field
              label={t("checkin.amount")}
              inputProps={{ ...getInputProps(fields.streakAmount, { type: "text" }), ...decimal }}
              errors={fields.streakAmount.errors}
            />
            <Field
              label={t("checkin.turnoverMultiple")}
              hint={t("checkin.turnoverHint")}
              inputProps={{ ...getInputProps(fields.streakMultiple, { type: "text" }), ...decimal }}
              errors={fields.streakMultiple.errors}
            />
          </fieldset>
          <div role="alert" className="form-alert">
            <ErrorList id={form.errorId} errors={form.errors} />
          </div>
          <button type="submit" className="button button-primary">
            {t("common.save")}
          </button>
        </Form>
      </section>
      <section className="admin-card stack" aria-labelledby="checkin-claims-title">
        <h2 id="checkin-claims-title">{t("checkin.claims")}</h2>
        <p>
          {t("checkin.totalCredited")}: <strong data-testid="checkin-total">{formatMoney(totalCredited, "THB")}</strong>
        </p>
        {checkins.length === 0 && streaks.length === 0 ? (
          <p className="notice" role="note">
            {t("checkin.noClaims")}
          </p>
        ) : (
          <>
            <h3>{t("checkin.checkinLegend")}</h3>
            <RewardClaimsTable claims={checkins} label={t("checkin.checkinLegend")} testId="checkin-claims" />
            <h3>{t("checkin.streakLegend")}</h3>
            <RewardClaimsTable claims={streaks} label={t("checkin.streakLegend")} testId="streak-claims" />
          </>
        )}
      </section>
    </section>
  );
}
