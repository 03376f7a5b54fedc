import { getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { useTranslation } from "react-i18next";
import { REFERRAL_MODES } from "@workers/core/referral";
import { adminReferralsPage, saveReferralSettings } from "@workers/services/promotions";
import { ErrorList, Field, SelectField, getFormProps, useSchemaForm } from "~/components/forms";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, formatDay, formatMoney } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { ReferralSettingsSchema } from "~/lib/schemas/referral";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { rewardRetryAction } from "~/lib/reward-retry.server";
import { RewardClaimsTable } from "~/components/reward-retry";
import { AdminTable } from "~/components/data-table";
import type { Route } from "./+types/referrals";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { lite: ["validate"], i18n: ["referral.validation"] } satisfies ScriptsHandle & I18nHandle;

/**
 * Referral (owner, decision 030): the settings (audited), the report of a complete week, and
 * the shares a provider refused, each with a retry button (decision 029, audited).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  return adminReferralsPage(getBindings(context).DB, staff.agencyId, new URL(request.url).searchParams.get("week"));
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const form = await request.formData();
  if (form.get("intent") === "retry") return rewardRetryAction({ request, context }, staff, form, "REFERRAL", "/admin/referrals");
  const submission = parseWithZod(form, { schema: ReferralSettingsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  await saveReferralSettings(getBindings(context).DB, auditContext(request, staff), submission.value);
  return redirectWithSuccess({ request, context }, "/admin/referrals", translate(context, "admin:referral.saved"));
}

/** "250" hundredths -> "2.5" for the form. */
const capInput = (cap: string | null) => (cap === null ? "" : cap.replace(/\.00$/, ""));

export default function AdminReferrals({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { settings, week, weeks, rows, notCounting, flagged, totals, failedCredits } = loaderData;
  const [form, fields] = useSchemaForm("referral-settings", ReferralSettingsSchema, actionData?.result, {
    enabled: settings.enabled ? "on" : undefined,
    mode: settings.mode,
    percentBp: settings.percent,
    weeklyCapMinor: capInput(settings.weeklyCap),
    turnoverMultiplier: String(settings.turnoverMultiplier),
  });
  return (
    <section data-testid="admin-referrals">
      <title>{t("referral.title")}</title>
      <h1>{t("referral.title")}</h1>

      <h2>{t("referral.settingsTitle")}</h2>
      <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="referral-settings">
        <div className="field field-check">
          <input {...getInputProps(fields.enabled, { type: "checkbox" })} />
          <label htmlFor={fields.enabled.id}>{t("referral.enabled")}</label>
        </div>
        <SelectField label={t("referral.mode")} field={fields.mode} options={REFERRAL_MODES.map((m) => ({ value: m, label: t(`referral.modes.${m}`) }))} />
        <Field
          label={t("referral.percent")}
          hint={t("referral.percentHint")}
          inputProps={{ ...getInputProps(fields.percentBp, { type: "text" }), inputMode: "decimal" }}
          errors={fields.percentBp.errors}
        />
        <Field
          label={t("referral.cap")}
          hint={t("referral.capHint")}
          inputProps={{ ...getInputProps(fields.weeklyCapMinor, { type: "text" }), inputMode: "decimal" }}
          errors={fields.weeklyCapMinor.errors}
        />
        <Field
          label={t("referral.turnover")}
          hint={t("referral.turnoverHint")}
          inputProps={{ ...getInputProps(fields.turnoverMultiplier, { type: "text" }), inputMode: "numeric" }}
          errors={fields.turnoverMultiplier.errors}
        />
        <div role="alert" className="form-alert">
          <ErrorList id={form.errorId} errors={form.errors} />
        </div>
        <button type="submit" className="button button-primary" data-testid="referral-save">
          {t("referral.save")}
        </button>
      </Form>

      <h2>{t("referral.reportTitle", { from: formatDay(week.start), to: formatDay(week.end) })}</h2>
      <Form method="get" className="form-inline" data-testid="referral-week-form">
        <label htmlFor="referral-week">{t("referral.week")}</label>{" "}
        <select id="referral-week" name="week" defaultValue={week.start}>
          {weeks.map((w) => (
            <option key={w.start} value={w.start}>
              {formatDay(w.start)} – {formatDay(w.end)}
            </option>
          ))}
        </select>{" "}
        <button type="submit" className="button">
          {t("referral.show")}
        </button>
      </Form>
      <p data-testid="referral-totals">
        {t("referral.totals", {
          referred: totals.referred,
          counting: totals.counting,
          amount: formatMoney(totals.amount, "THB"),
          claimed: formatMoney(totals.claimed, "THB"),
        })}
      </p>
      <AdminTable
        label={t("referral.title")}
        testId="referral-report"
        empty={<p className="empty">{t("referral.none")}</p>}
        rows={rows}
        rowKey={(r) => r.playerId}
        rowProps={(r) => ({ "data-referrer": r.username })}
        columns={[
          { header: t("referral.referrer"), cell: (r) => r.username },
          { header: t("referral.referred"), cell: (r) => r.referred },
          { header: t("referral.counting"), cell: (r) => r.counting },
          { header: t("referral.basis"), cell: (r) => formatMoney(r.basis, "THB") },
          {
            header: t("referral.earnings"),
            cell: (r) => (
              <>
                {formatMoney(r.amount, "THB")}
                {r.capped ? ` (${t("referral.capped")})` : ""}
              </>
            ),
          },
          {
            header: t("referral.claimedWeek"),
            cell: (r) => (r.claimed ? `${formatMoney(r.claimed.amount, "THB")} · ${t(`referral.status.${r.claimed.status}`)}` : "—"),
          },
          { header: t("referral.claimedTotal"), cell: (r) => formatMoney(r.claimedTotal, "THB") },
        ]}
      />
      <h2 id="referral-failed-title">{t("reward.retry.failedTitle")}</h2>
      <p className="muted">{t("reward.retry.failedIntro")}</p>
      {failedCredits.length === 0 ? (
        <p className="empty">{t("reward.retry.none")}</p>
      ) : (
        <RewardClaimsTable claims={failedCredits} label={t("reward.retry.failedTitle")} testId="referral-failed-credits" />
      )}
      {notCounting.length > 0 && (
        <>
          <h2>{t("referral.notCountingTitle")}</h2>
          <ul data-testid="referral-not-counting">
            {notCounting.map((n, i) => (
              <li key={i}>
                {t("referral.notCountingLine", {
                  referred: n.referred,
                  referrer: n.referrer,
                  reason: t(`referral.reasons.${n.reason ?? "same_device"}`),
                  at: formatDateTime(n.reasonAt),
                })}
              </li>
            ))}
          </ul>
        </>
      )}
      {flagged.length > 0 && (
        <>
          <h2>{t("referral.flaggedTitle")}</h2>
          <p className="muted">{t("referral.flaggedIntro")}</p>
          <ul data-testid="referral-flagged">
            {flagged.map((f, i) => (
              <li key={i}>
                {t("referral.flaggedLine", {
                  referred: f.referred,
                  referrer: f.referrer,
                  flag: t(`referral.flags.${f.flag}`),
                  at: formatDateTime(f.createdAt),
                })}
                {f.counts ? "" : ` (${t("referral.notCountingTitle")})`}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
