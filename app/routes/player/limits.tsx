import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { useTranslation } from "react-i18next";
import { COOLING_OFF_DAYS, EXCLUSION_MONTHS, PERIODS, type BreakKind } from "@workers/core/responsible-gaming";
import { limitsPage, setLimits, startBreak } from "@workers/services/players";
import { OffersPaused } from "~/components/offers-paused";
import { ErrorList, Field, SelectField } from "~/components/fields";
import { useLiteForm, useLiteValidation, type FormConstraint } from "~/components/lite-form";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { BreakSchema, LimitsSchema } from "~/lib/schemas/limits";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { I18nHandle } from "~/lib/i18n";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { Route } from "./+types/limits";

/** Responsible gaming (decision 025): the player's deposit and play-time limits, cooling-off and self-exclusion. */
/** The translation key groups this page renders (decision 032). */
/**
 * A lite page (decisions 021, 034): no React in the browser; its three forms are validated by
 * the lite script with the same schemas (lib/lite/validate.ts, lib/lite/form-validators.ts).
 */
export const handle = { scripts: "lite", lite: ["validate"], i18n: ["limits", "offers"] } satisfies ScriptsHandle & I18nHandle;
export const clientLoader = loadAsDocument;

export async function loader({ context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const page = await limitsPage(getBindings(context), getAgency(context).id, player.id);
  // the native constraints (required, pattern) of the forms, which render on the server only
  // (components/lite-form.tsx); the browser validates with the same schemas (lib/lite/validate.ts)
  return { ...page, constraints: { limits: getZodConstraint(LimitsSchema), break: getZodConstraint(BreakSchema) } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  const env = getBindings(context);
  const agencyId = getAgency(context).id;
  const formData = await request.formData();
  const args = { request, context };
  if (formData.get("intent") === "break") {
    const submission = parseWithZod(formData, { schema: BreakSchema });
    const kind = String(formData.get("kind"));
    if (submission.status !== "success") return data({ limits: null, breakKind: kind, break: submission.reply() }, { status: 400 });
    const started = await startBreak(env, agencyId, player.id, submission.value);
    if (!started.ok)
      return data({ limits: null, breakKind: kind, break: submission.reply({ formErrors: [`limits.errors.${started.error}`] }) }, { status: 409 });
    return redirectWithSuccess(
      args,
      "/player/limits",
      translate(context, `limits.${started.break.kind}.started`, { until: formatDateTime(new Date(started.break.endsAt)) }),
    );
  }
  const submission = parseWithZod(formData, { schema: LimitsSchema });
  if (submission.status !== "success") return data({ limits: submission.reply(), breakKind: null, break: null }, { status: 400 });
  const changes = await setLimits(env.DB, agencyId, player.id, submission.value);
  const pending = changes.some((c) => c.applied === "pending");
  return redirectWithSuccess(args, "/player/limits", translate(context, pending ? "limits.savedPending" : "limits.saved"));
}

/** "500000.00" -> "500000" for the form's input. */
const kipInput = (v: string | null) => (v === null ? "" : v.replace(/\.00$/, ""));

export default function LimitsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { deposit, playDay, usage, playedMs } = loaderData;
  const held = loaderData.break;
  const paused = loaderData.offersPaused;
  const [form, fields] = useLiteForm<typeof LimitsSchema>("limits", loaderData.constraints.limits, actionData?.limits, {
    day: kipInput(deposit.day.value),
    week: kipInput(deposit.week.value),
    month: kipInput(deposit.month.value),
    playMinutes: playDay.value ?? "",
  });
  const validation = useLiteValidation("limits");
  const show = (v: string | null, kind: "kip" | "min") =>
    v === null ? t("limits.none") : kind === "kip" ? formatMoney(v, "LAK") : t("limits.minutes", { count: Number(v) });
  return (
    <section className="page narrow">
      <title>{t("limits.title")}</title>
      <h1>{t("limits.title")}</h1>
      <p className="muted">{t("limits.intro")}</p>
      {held && (
        <p className="notice" role="status" data-testid="limits-break" data-kind={held.kind}>
          {t(`limits.${held.kind}.active`, { until: formatDateTime(new Date(held.endsAt)) })} {t("limits.stillWithdraw")}
        </p>
      )}
      <h2>{t("offers.limitsTitle")}</h2>
      {/* the player hears here that their break or limit also pauses every offer (decision 091) */}
      {paused ? (
        <OffersPaused pause={paused} link={false} />
      ) : (
        <p className="muted" data-testid="offers-active">
          {t("offers.active")}
        </p>
      )}
      <h2>{t("limits.depositTitle")}</h2>
      <ul className="card-list" role="list" data-testid="deposit-limits">
        {PERIODS.map((p) => (
          <li key={p} className="card" data-period={p}>
            <p className="card-title">
              {t(`limits.period.${p}`)}: {show(deposit[p].value, "kip")}
            </p>
            <p className="muted">{t("limits.used", { used: formatMoney(usage[p].used, "LAK"), resets: formatDateTime(new Date(usage[p].resetsAt)) })}</p>
            {deposit[p].pending && (
              <p className="notice" data-testid={`pending-${p}`}>
                {t("limits.pending", { value: show(deposit[p].pending.value, "kip"), from: formatDateTime(new Date(deposit[p].pending.from)) })}
              </p>
            )}
          </li>
        ))}
      </ul>
      <h2>{t("limits.playTitle")}</h2>
      <p data-testid="play-limit">
        {t("limits.playLimit")}: {show(playDay.value, "min")} · {t("limits.playedToday", { minutes: Math.floor(playedMs / 60000) })}
      </p>
      {playDay.pending && (
        <p className="notice" data-testid="pending-play">
          {t("limits.pending", { value: show(playDay.pending.value, "min"), from: formatDateTime(new Date(playDay.pending.from)) })}
        </p>
      )}
      <Form method="post" {...getFormProps(form)} {...validation} noValidate className="stack card" data-testid="limits-form">
        <p className="muted">{t("limits.formHelp")}</p>
        {PERIODS.map((p) => (
          <Field
            key={p}
            label={t("limits.depositField", { period: t(`limits.period.${p}`) })}
            inputProps={{ ...getInputProps(fields[p], { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
            errors={fields[p].errors}
          />
        ))}
        <Field
          label={t("limits.playField")}
          inputProps={{ ...getInputProps(fields.playMinutes, { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
          errors={fields.playMinutes.errors}
        />
        <div role="alert" className="form-alert">
          <ErrorList id={form.errorId} errors={form.errors} />
        </div>
        <button type="submit" className="button button-primary button-block" name="intent" value="limits" data-testid="limits-save">
          {t("limits.save")}
        </button>
      </Form>
      {held?.kind !== "self_exclusion" && (
        <>
          <BreakForm
            kind="cooling_off"
            lengths={COOLING_OFF_DAYS}
            constraint={loaderData.constraints.break}
            lastResult={actionData?.breakKind === "cooling_off" ? actionData.break : null}
          />
          <BreakForm
            kind="self_exclusion"
            lengths={EXCLUSION_MONTHS}
            constraint={loaderData.constraints.break}
            lastResult={actionData?.breakKind === "self_exclusion" ? actionData.break : null}
          />
        </>
      )}
    </section>
  );
}

/** Cooling-off (days) or self-exclusion (months): a length and a confirmation. */
function BreakForm({
  kind,
  lengths,
  constraint,
  lastResult,
}: {
  kind: BreakKind;
  lengths: readonly number[];
  constraint: FormConstraint;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useLiteForm<typeof BreakSchema>(kind, constraint, lastResult, { kind, length: lengths[0] });
  const validation = useLiteValidation(kind);
  const unit = kind === "cooling_off" ? "limits.days" : "limits.months";
  return (
    <Form method="post" {...getFormProps(form)} {...validation} noValidate className="stack card" data-testid={`${kind}-form`}>
      <h2>{t(`limits.${kind}.title`)}</h2>
      <p className="muted">{t(`limits.${kind}.help`)}</p>
      <input type="hidden" name="intent" value="break" />
      <input type="hidden" name={fields.kind.name} value={kind} />
      <SelectField label={t("limits.length")} field={fields.length} options={lengths.map((n) => ({ value: String(n), label: t(unit, { count: n }) }))} />
      <div className="field field-check">
        <input
          {...getInputProps(fields.confirm, { type: "checkbox" })}
          aria-invalid={fields.confirm.errors ? true : undefined}
          aria-describedby={fields.confirm.errors ? `${fields.confirm.id}-error` : undefined}
        />
        <label htmlFor={fields.confirm.id}>{t(`limits.${kind}.confirm`)}</label>
        <ErrorList id={`${fields.confirm.id}-error`} errors={fields.confirm.errors} />
      </div>
      <div role="alert" className="form-alert">
        <ErrorList id={form.errorId} errors={form.errors} />
      </div>
      <button type="submit" className="button button-primary button-block" data-testid={`${kind}-submit`}>
        {t(`limits.${kind}.submit`)}
      </button>
    </Form>
  );
}
