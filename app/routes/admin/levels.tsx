import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { useTranslation } from "react-i18next";
import { deleteLevel, levelsAdminPage, saveLevel, saveLevelPeriod, type LevelError } from "@workers/services/promotions";
import { ErrorList, Field, getFormProps, useSchemaForm } from "~/components/forms";
import { translate } from "~/lib/i18n.server";
import { getBindings } from "~/lib/context.server";
import { formatMoney } from "~/lib/format";
import { LevelPeriodSchema, LevelSchema, levelInput } from "~/lib/schemas/levels";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/levels";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

// the forms checked in the browser by the lite validator (decision 089), with their messages
export const handle = { lite: ["validate"], i18n: ["levels.validation"] } satisfies ScriptsHandle & I18nHandle;

/**
 * VIP levels (owner only, decision 091): the period deposits are counted over, and the levels
 * (name, threshold, cashback percent and cap, credit withdrawn per day). Plain POST forms that
 * work without JavaScript; a level saved under an existing name replaces it; every change is
 * audited.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  return levelsAdminPage(getBindings(context).DB, staff.agencyId);
}

type ActionData = { level?: SubmissionResult<string[]>; period?: SubmissionResult<string[]> };

const ERROR_KEY: Record<LevelError["code"], string> = {
  NAME_INVALID: "admin:levels.validation.name",
  AMOUNT_INVALID: "admin:levels.validation.amount",
  PERCENT_INVALID: "admin:levels.validation.percent",
  THRESHOLD_TAKEN: "admin:levels.validation.thresholdTaken",
  TOO_MANY: "admin:levels.validation.tooMany",
};

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const db = getBindings(context).DB;
  const form = await request.formData();
  const intent = form.get("intent");
  const args = { request, context };
  if (intent === "delete") {
    await deleteLevel(db, auditContext(request, staff), String(form.get("name") ?? ""));
    return redirectWithSuccess(args, "/admin/levels", translate(context, "admin:levels.deleted"));
  }
  if (intent === "period") {
    const submission = parseWithZod(form, { schema: LevelPeriodSchema });
    if (submission.status !== "success") return data<ActionData>({ period: submission.reply() as SubmissionResult<string[]> }, { status: 400 });
    await saveLevelPeriod(db, auditContext(request, staff), submission.value.periodDays);
    return redirectWithSuccess(args, "/admin/levels", translate(context, "admin:levels.saved"));
  }
  const submission = parseWithZod(form, { schema: LevelSchema });
  if (submission.status !== "success") return data<ActionData>({ level: submission.reply() as SubmissionResult<string[]> }, { status: 400 });
  const saved = await saveLevel(db, auditContext(request, staff), levelInput(submission.value));
  if (!saved.ok)
    return data<ActionData>(
      { level: submission.reply({ fieldErrors: { [saved.field]: [ERROR_KEY[saved.code]] } }) as SubmissionResult<string[]> },
      { status: 409 },
    );
  return redirectWithSuccess(args, "/admin/levels", translate(context, "admin:levels.saved"));
}

export default function AdminLevels({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { levels, periodDays } = loaderData;
  const [periodForm, periodFields] = useSchemaForm("levels-period", LevelPeriodSchema, actionData?.period, { periodDays: String(periodDays) as never });
  const [form, fields] = useSchemaForm("level", LevelSchema, actionData?.level, { cashbackPercent: "5", cashbackCap: "1000" });
  return (
    <section data-testid="admin-levels">
      <title>{t("levels.title")}</title>
      <h1>{t("levels.title")}</h1>
      <p className="muted">{t("levels.intro")}</p>
      <section className="admin-card stack" aria-labelledby="levels-period-title">
        <h2 id="levels-period-title">{t("levels.periodTitle")}</h2>
        <Form method="post" {...getFormProps(periodForm)} noValidate className="stack" data-testid="levels-period-form">
          <Field
            label={t("levels.periodDays")}
            hint={t("levels.periodHint")}
            inputProps={{ ...getInputProps(periodFields.periodDays, { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
            errors={periodFields.periodDays.errors}
          />
          <button type="submit" name="intent" value="period" className="button button-primary">
            {t("common.save")}
          </button>
        </Form>
      </section>
      <section className="admin-card stack" aria-labelledby="levels-list-title">
        <h2 id="levels-list-title">{t("levels.listTitle")}</h2>
        {levels.length === 0 ? (
          <p className="notice" role="note" data-testid="levels-empty">
            {t("levels.empty")}
          </p>
        ) : (
          <ul className="card-list" data-testid="levels-list">
            {levels.map((l) => (
              <li key={l.name} className="card stack" data-level={l.name}>
                <p className="card-title">{l.name}</p>
                <p>
                  {t("levels.thresholdLine", { amount: formatMoney(l.threshold, "LAK"), days: periodDays })} ·{" "}
                  {t("levels.cashbackLine", { percent: l.cashbackPercent, cap: formatMoney(l.cashbackCap, "THB") })} ·{" "}
                  {l.withdrawDay === null ? t("levels.noWithdrawLimit") : t("levels.withdrawLine", { amount: formatMoney(l.withdrawDay, "THB") })}
                </p>
                <Form method="post">
                  <input type="hidden" name="name" value={l.name} />
                  <button type="submit" name="intent" value="delete" className="button button-ghost" aria-label={`${t("levels.delete")}: ${l.name}`}>
                    {t("levels.delete")}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="admin-card stack" aria-labelledby="level-form-title">
        <h2 id="level-form-title">{t("levels.formTitle")}</h2>
        <p className="muted">{t("levels.formHelp")}</p>
        <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="level-form">
          <Field label={t("levels.name")} inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off" }} errors={fields.name.errors} />
          <Field
            label={t("levels.threshold")}
            hint={t("levels.thresholdHint")}
            inputProps={{ ...getInputProps(fields.threshold, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
            errors={fields.threshold.errors}
          />
          <Field
            label={t("levels.cashbackPercent")}
            inputProps={{ ...getInputProps(fields.cashbackPercent, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
            errors={fields.cashbackPercent.errors}
          />
          <Field
            label={t("levels.cashbackCap")}
            hint={t("levels.cashbackCapHint")}
            inputProps={{ ...getInputProps(fields.cashbackCap, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
            errors={fields.cashbackCap.errors}
          />
          <Field
            label={t("levels.withdrawDay")}
            hint={t("levels.withdrawDayHint")}
            inputProps={{ ...getInputProps(fields.withdrawDay, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
            errors={fields.withdrawDay.errors}
          />
          <div role="alert" className="form-alert">
            <ErrorList id={form.errorId} errors={form.errors} />
          </div>
          <button type="submit" name="intent" value="save" className="button button-primary" data-testid="level-save">
            {t("levels.save")}
          </button>
        </Form>
      </section>
    </section>
  );
}
