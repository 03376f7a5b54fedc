import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { ALERT_TOPICS } from "@workers/core/alerts";
import { LANGUAGES } from "@workers/core/languages";
import { alertSettingsScreen, clearAlertToken, saveAlertSettings, sendTestAlert, type AlertTestAnswer } from "@workers/services/alerts";
import { TypedDateInput } from "~/components/admin";
import { ErrorList } from "~/components/forms";
import { LANGUAGE_NAMES } from "~/components/menus";
import { getAgency, getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { AlertSettingsSchema } from "~/lib/schemas/alert-settings";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/alerts";

/**
 * Staff alerts (owner only, decision 057): the Telegram bot, its chats, language, quiet hours, the
 * topics to send, the reminders' and summary's times and the primary domain links point at;
 * "send a test message" shows Telegram's answer per chat. Plain POST forms (no JavaScript needed).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  return alertSettingsScreen(getBindings(context), staff.agencyId);
}

type FieldName =
  | "token"
  | "chatIds"
  | "language"
  | "quietStart"
  | "quietEnd"
  | "topics"
  | "withdrawalReminderMinutes"
  | "depositWaitMinutes"
  | "summaryHour"
  | "primaryHost";
type ActionData =
  | { intent: "save"; field: FieldName | null; message: string; detail?: string; typed?: string }
  | { intent: "test"; answers: AlertTestAnswer[] | null; message?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const env = getBindings(context);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "test") {
    const sent = await sendTestAlert(env, staff.agencyId, getAgency(context).name);
    return data<ActionData>(
      sent.ok ? { intent: "test", answers: sent.answers } : { intent: "test", answers: null, message: "admin:alerts.errors.ALERT_NOT_SET_UP" },
      { status: sent.ok ? 200 : 409 },
    );
  }
  if (intent === "clear-token") {
    await clearAlertToken(env, auditContext(request, staff));
    return redirectWithSuccess({ request, context }, "/admin/settings/alerts", translate(context, "admin:alerts.tokenCleared"));
  }
  const strings = Object.fromEntries([...form.entries()].filter(([key, v]) => typeof v === "string" && key !== "topics"));
  const parsed = AlertSettingsSchema.safeParse({ ...strings, topics: form.getAll("topics").filter((v) => typeof v === "string") });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = (issue?.path[0] as FieldName | undefined) ?? null;
    // a refused time is shown back as typed, beside its message (never the token: it is write-only)
    const typed = field === "quietStart" || field === "quietEnd" ? String(strings[field] ?? "").slice(0, 20) : undefined;
    return data<ActionData>({ intent: "save", field, message: issue?.message ?? "admin:common.errorTitle", typed }, { status: 400 });
  }
  const saved = await saveAlertSettings(env, auditContext(request, staff), parsed.data);
  if (!saved.ok)
    return data<ActionData>({ intent: "save", field: saved.field, message: `admin:alerts.errors.${saved.code}`, detail: saved.detail }, { status: 409 });
  return redirectWithSuccess({ request, context }, "/admin/settings/alerts", translate(context, "admin:alerts.saved"));
}

export default function AlertSettingsPage({ loaderData: s, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const saveError = actionData?.intent === "save" ? actionData : null;
  const errorsFor = (field: FieldName) => (saveError?.field === field ? [saveError.message] : undefined);
  const described = (id: string, field: FieldName) => `${id}-hint${errorsFor(field) ? ` ${id}-error` : ""}`;
  const test = actionData?.intent === "test" ? actionData : null;
  return (
    <section data-testid="alert-settings" className="stack">
      <title>{t("alerts.title")}</title>
      <p>
        <Link to="/admin/settings">{t("providerSetup.back")}</Link>
      </p>
      <h1>{t("alerts.title")}</h1>
      <p className="muted">{t("alerts.intro")}</p>

      <article className="card stack" data-testid="alert-bot">
        <h2>{t("alerts.bot")}</h2>
        <p data-testid="alert-bot-state">{s.tokenSet ? t("alerts.tokenSet", { name: s.botName ? `@${s.botName}` : "—" }) : t("alerts.tokenNotSet")}</p>
        {/* "send test" first and plain; deleting the token is red and apart, so one is never taken for the other (decision 088) */}
        <div className="alert-bot-actions">
          <Form method="post">
            <input type="hidden" name="intent" value="test" />
            <button type="submit" className="button button-primary" data-testid="alert-test" disabled={!s.tokenSet || s.chatIds.length === 0}>
              {t("alerts.sendTest")}
            </button>
          </Form>
          {s.tokenSet && (
            <Form method="post" className="alert-bot-delete">
              <input type="hidden" name="intent" value="clear-token" />
              <button type="submit" className="button button-danger" data-testid="alert-clear-token">
                {t("alerts.clearToken")}
              </button>
            </Form>
          )}
        </div>
        {test && (
          <div role="status" data-testid="alert-test-answers">
            {test.answers ? (
              <ul>
                {test.answers.map((a) => (
                  <li key={a.chatId} className={a.ok ? undefined : "error"}>
                    {a.chatId}: {a.answer}
                  </li>
                ))}
              </ul>
            ) : (
              <ErrorList errors={[test.message ?? "admin:common.errorTitle"]} />
            )}
          </div>
        )}
      </article>

      <Form method="post" className="card stack" autoComplete="off" noValidate data-testid="alert-settings-form">
        <input type="hidden" name="intent" value="save" />
        <div className="field">
          <label htmlFor="alert-token">{t("alerts.fields.token")}</label>
          {/* Write-only: never filled back, not even after an error. */}
          <input
            id="alert-token"
            name="token"
            type="password"
            autoComplete="new-password"
            defaultValue=""
            aria-invalid={errorsFor("token") ? true : undefined}
            aria-describedby={described("alert-token", "token")}
          />
          <p id="alert-token-hint" className="field-hint">
            {t("alerts.hints.token")}
          </p>
          <ErrorList id="alert-token-error" errors={errorsFor("token")} />
          {saveError?.field === "token" && saveError.detail && (
            <p className="field-hint" data-testid="alert-token-answer">
              Telegram: {saveError.detail}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor="alert-chats">{t("alerts.fields.chatIds")}</label>
          <textarea
            id="alert-chats"
            name="chatIds"
            rows={3}
            defaultValue={s.chatIds.join("\n")}
            aria-invalid={errorsFor("chatIds") ? true : undefined}
            aria-describedby={described("alert-chats", "chatIds")}
          />
          <p id="alert-chats-hint" className="field-hint">
            {t("alerts.hints.chatIds")}
          </p>
          <ErrorList id="alert-chats-error" errors={errorsFor("chatIds")} />
        </div>
        <div className="field">
          <label htmlFor="alert-language">{t("alerts.fields.language")}</label>
          <select id="alert-language" name="language" defaultValue={s.language}>
            {LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="admin-checks" data-testid="alert-topics">
          <legend>{t("alerts.fields.topics")}</legend>
          {/* one 44 px row per topic, the whole row its label (decision 088) */}
          {ALERT_TOPICS.map((topic) => (
            <label key={topic} className="admin-check" htmlFor={`alert-topic-${topic}`}>
              <input id={`alert-topic-${topic}`} type="checkbox" name="topics" value={topic} defaultChecked={s.topics.includes(topic)} />
              <span>{t(`alerts.topics.${topic}`)}</span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{t("alerts.fields.quietHours")}</legend>
          <p id="alert-quiet-hint" className="field-hint">
            {t("alerts.hints.quietHours")}
          </p>
          <div className="field">
            <label htmlFor="alert-quiet-start">{t("alerts.fields.quietStart")}</label>
            <TypedDateInput
              kind="time"
              id="alert-quiet-start"
              name="quietStart"
              value={saveError?.field === "quietStart" ? (saveError.typed ?? "") : (s.quietStart ?? "")}
              describedBy="alert-quiet-hint"
              invalid={errorsFor("quietStart") !== undefined}
            />
            <ErrorList errors={errorsFor("quietStart")} />
          </div>
          <div className="field">
            <label htmlFor="alert-quiet-end">{t("alerts.fields.quietEnd")}</label>
            <TypedDateInput
              kind="time"
              id="alert-quiet-end"
              name="quietEnd"
              value={saveError?.field === "quietEnd" ? (saveError.typed ?? "") : (s.quietEnd ?? "")}
              describedBy="alert-quiet-hint"
              invalid={errorsFor("quietEnd") !== undefined}
            />
            <ErrorList errors={errorsFor("quietEnd")} />
          </div>
        </fieldset>
        <div className="field">
          <label htmlFor="alert-reminder">{t("alerts.fields.withdrawalReminderMinutes")}</label>
          <input
            id="alert-reminder"
            name="withdrawalReminderMinutes"
            type="number"
            inputMode="numeric"
            min={1}
            max={1440}
            defaultValue={s.withdrawalReminderMinutes}
            aria-invalid={errorsFor("withdrawalReminderMinutes") ? true : undefined}
          />
          <ErrorList errors={errorsFor("withdrawalReminderMinutes")} />
        </div>
        <div className="field">
          <label htmlFor="alert-deposit-wait">{t("alerts.fields.depositWaitMinutes")}</label>
          <input
            id="alert-deposit-wait"
            name="depositWaitMinutes"
            type="number"
            inputMode="numeric"
            min={1}
            max={1440}
            defaultValue={s.depositWaitMinutes}
            aria-invalid={errorsFor("depositWaitMinutes") ? true : undefined}
          />
          <ErrorList errors={errorsFor("depositWaitMinutes")} />
        </div>
        <div className="field">
          <label htmlFor="alert-summary-hour">{t("alerts.fields.summaryHour")}</label>
          <select id="alert-summary-hour" name="summaryHour" defaultValue={s.summaryHour === null ? "" : String(s.summaryHour)}>
            <option value="">{t("alerts.noSummary")}</option>
            {Array.from({ length: 24 }, (_, h) => (
              <option key={h} value={h}>{`${String(h).padStart(2, "0")}:00`}</option>
            ))}
          </select>
          <ErrorList errors={errorsFor("summaryHour")} />
        </div>
        <div className="field">
          <label htmlFor="alert-primary-host">{t("alerts.fields.primaryHost")}</label>
          <select
            id="alert-primary-host"
            name="primaryHost"
            defaultValue={s.hosts.find((h) => h.primary)?.host ?? ""}
            aria-describedby="alert-primary-host-hint"
          >
            <option value="">{t("alerts.noPrimaryHost")}</option>
            {s.hosts.map((h) => (
              <option key={h.host} value={h.host}>
                {h.host}
              </option>
            ))}
          </select>
          <p id="alert-primary-host-hint" className="field-hint">
            {t("alerts.hints.primaryHost")}
          </p>
          <ErrorList errors={errorsFor("primaryHost")} />
        </div>
        {saveError && saveError.field === null && (
          <div role="alert" className="form-alert">
            <ErrorList errors={[saveError.message]} />
          </div>
        )}
        <button type="submit" className="button button-primary" data-testid="alert-save">
          {t("common.save")}
        </button>
        {s.updatedAt && <p className="muted">{t("alerts.updated", { at: formatDateTime(s.updatedAt), by: s.updatedBy ?? "—" })}</p>}
      </Form>

      <article className="card stack" data-testid="alerts-undelivered">
        <h2>{t("alerts.undelivered", { count: s.undelivered.count })}</h2>
        {s.undelivered.latest.length === 0 ? (
          <p className="muted">{t("alerts.allDelivered")}</p>
        ) : (
          <ul>
            {s.undelivered.latest.map((e) => (
              <li key={e.id}>
                {formatDateTime(e.at)} · {e.id} · {e.error ?? "—"}
              </li>
            ))}
          </ul>
        )}
      </article>
    </section>
  );
}
