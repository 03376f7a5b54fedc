import { getCollectionProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { BANKS } from "@workers/core/banks";
import { LANGUAGES } from "@workers/core/languages";
import { PROVIDERS } from "@workers/core/providers";
import type { ChannelRow, SettingsScreen } from "@workers/services/agency";
import { AdminTable } from "~/components/data-table";
import { ErrorList, Field, SelectField, getFormProps, useSchemaForm } from "~/components/forms";
import { formatDateTime } from "~/lib/format";
import {
  ChannelSchema,
  CREDIT_CURRENCIES,
  CredentialsSchema,
  LimitsSchema,
  ProfileSchema,
  ProvidersSchema,
  RateSchema,
  SOCIAL_NETWORKS,
} from "~/lib/schemas/admin-settings";

/**
 * The sections of the agency settings page (app/routes/admin/settings.tsx): one plain POST
 * form each (`intent`), working without JavaScript; the route parses, saves and answers.
 */

export type SettingsActionData = { intent: string; result: SubmissionResult<string[]> } | undefined;
const resultFor = (actionData: SettingsActionData, key: string) => (actionData?.intent === key ? actionData.result : undefined);

type SectionProps = { settings: SettingsScreen; actionData: SettingsActionData };

function FormError({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <div role="alert" className="form-alert">
      <ErrorList id={id} errors={errors} />
    </div>
  );
}

export function RatesSection({ settings, actionData }: SectionProps) {
  const { t } = useTranslation("admin");
  const current = settings.rates.find((r) => r.currency === "THB");
  const [form, fields] = useSchemaForm("settings-rate", RateSchema, resultFor(actionData, "rate"), {
    intent: "rate",
    currency: "THB",
    buy: current?.buy ?? "",
    sell: current?.sell ?? "",
  });
  return (
    <section id="rates" className="admin-card stack" aria-labelledby="rates-title" data-testid="settings-rates">
      <h2 id="rates-title">{t("settings.rates.title")}</h2>
      <p className="muted">{t("settings.rates.intro")}</p>
      <AdminTable
        label={t("settings.rates.current")}
        caption="sr-only"
        testId="rates-current"
        empty={
          <p className="notice" role="note">
            {t("settings.rates.none")}
          </p>
        }
        rows={settings.rates}
        rowKey={(r) => r.currency}
        columns={[
          { header: t("settings.rates.currency"), cell: (r) => r.currency },
          { header: t("settings.rates.buy"), cell: (r) => r.buy },
          { header: t("settings.rates.sell"), cell: (r) => r.sell },
          { header: t("settings.rates.updatedAt"), cell: (r) => formatDateTime(r.updatedAt) },
        ]}
      />
      <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="rate-form">
        <input type="hidden" name="intent" value="rate" />
        <SelectField label={t("settings.rates.currency")} field={fields.currency} options={CREDIT_CURRENCIES.map((c) => ({ value: c, label: c }))} />
        <Field
          label={t("settings.rates.buyLabel")}
          hint={t("settings.rates.buyHint")}
          inputProps={{ ...getInputProps(fields.buy, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
          errors={fields.buy.errors}
        />
        <Field
          label={t("settings.rates.sellLabel")}
          hint={t("settings.rates.sellHint")}
          inputProps={{ ...getInputProps(fields.sell, { type: "text" }), inputMode: "decimal", autoComplete: "off" }}
          errors={fields.sell.errors}
        />
        <FormError id={form.errorId} errors={form.errors} />
        <button type="submit" className="button button-primary">
          {t("settings.rates.save")}
        </button>
      </Form>
      <h3>{t("settings.rates.history")}</h3>
      <AdminTable
        label={t("settings.rates.history")}
        testId="rates-history"
        empty={<p className="muted">{t("common.none")}</p>}
        rows={settings.rateHistory}
        rowKey={(h) => h.id}
        columns={[
          { header: t("settings.rates.changedAt"), cell: (h) => formatDateTime(h.changedAt) },
          { header: t("settings.rates.currency"), cell: (h) => h.currency },
          { header: t("settings.rates.buy"), cell: (h) => h.buy },
          { header: t("settings.rates.sell"), cell: (h) => h.sell },
          { header: t("settings.rates.changedBy"), cell: (h) => h.changedBy ?? t("common.none") },
        ]}
      />
    </section>
  );
}

export function LimitsSection({ settings, actionData }: SectionProps) {
  const { t } = useTranslation("admin");
  const [form, fields] = useSchemaForm("settings-limits", LimitsSchema, resultFor(actionData, "limits"), { intent: "limits", ...settings.limits });
  const input = (field: (typeof fields)["depositMin"]) => ({ ...getInputProps(field, { type: "text" }), inputMode: "decimal" as const, autoComplete: "off" });
  return (
    <section id="limits" className="admin-card stack" aria-labelledby="limits-title" data-testid="settings-limits">
      <h2 id="limits-title">{t("settings.limits.title")}</h2>
      <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="limits-form">
        <input type="hidden" name="intent" value="limits" />
        <fieldset className="stack">
          <legend>{t("settings.limits.deposit")}</legend>
          <Field label={t("settings.limits.depositMin")} inputProps={input(fields.depositMin)} errors={fields.depositMin.errors} />
          <Field label={t("settings.limits.depositMax")} inputProps={input(fields.depositMax)} errors={fields.depositMax.errors} />
        </fieldset>
        <fieldset className="stack">
          <legend>{t("settings.limits.withdraw")}</legend>
          <Field label={t("settings.limits.withdrawMin")} inputProps={input(fields.withdrawMin)} errors={fields.withdrawMin.errors} />
          <Field label={t("settings.limits.withdrawMax")} inputProps={input(fields.withdrawMax)} errors={fields.withdrawMax.errors} />
          <Field
            label={t("settings.limits.withdrawAutoMax")}
            hint={t("settings.limits.withdrawAutoMaxHint")}
            inputProps={input(fields.withdrawAutoMax)}
            errors={fields.withdrawAutoMax.errors}
          />
        </fieldset>
        <FormError id={form.errorId} errors={form.errors} />
        <button type="submit" className="button button-primary">
          {t("common.save")}
        </button>
      </Form>
    </section>
  );
}

function ChannelForm({ channel, actionData }: { channel: ChannelRow | null; actionData: SettingsActionData }) {
  const { t } = useTranslation("admin");
  const key = `channel-${channel ? channel.code : "new"}`;
  const [form, fields] = useSchemaForm(
    `settings-${key}`,
    ChannelSchema,
    resultFor(actionData, key),
    channel
      ? {
          intent: "channel",
          existing: "1",
          code: channel.code,
          mid: channel.mid,
          displayName: channel.displayName,
          currency: "LAK",
          bankCode: channel.bankCode,
          merchantName: channel.merchantName,
          merchantCity: channel.merchantCity,
          active: channel.active ? "on" : undefined,
        }
      : { intent: "channel", currency: "LAK", active: "on" },
  );
  const { key: _activeKey, ...activeProps } = getInputProps(fields.active, { type: "checkbox" });
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid={channel ? `channel-form-${channel.code}` : "channel-form-new"}>
      <input type="hidden" name="intent" value="channel" />
      <input type="hidden" name="currency" value="LAK" />
      {channel ? (
        <>
          <input type="hidden" name="existing" value="1" />
          <input type="hidden" name="code" value={channel.code} />
        </>
      ) : (
        <Field
          label={t("settings.channels.code")}
          hint={t("settings.channels.codeHint")}
          inputProps={{ ...getInputProps(fields.code, { type: "text" }), autoComplete: "off", autoCapitalize: "characters" }}
          errors={fields.code.errors}
        />
      )}
      <Field
        label={t("settings.channels.mid")}
        inputProps={{ ...getInputProps(fields.mid, { type: "text" }), autoComplete: "off" }}
        errors={fields.mid.errors}
      />
      <Field label={t("settings.channels.displayName")} inputProps={getInputProps(fields.displayName, { type: "text" })} errors={fields.displayName.errors} />
      <SelectField
        label={t("settings.channels.bank")}
        field={fields.bankCode}
        placeholder={t("settings.channels.chooseBank")}
        options={BANKS.map((b) => ({ value: b.code, label: `${b.code} · ${b.name}` }))}
      />
      <Field
        label={t("settings.channels.merchantName")}
        hint={t("settings.channels.merchantNameHint")}
        inputProps={getInputProps(fields.merchantName, { type: "text" })}
        errors={fields.merchantName.errors}
      />
      <Field
        label={t("settings.channels.merchantCity")}
        inputProps={getInputProps(fields.merchantCity, { type: "text" })}
        errors={fields.merchantCity.errors}
      />
      <p className="muted">{t("settings.channels.currencyNote")}</p>
      <label className="field field-check">
        <input {...activeProps} />
        {t("settings.channels.active")}
      </label>
      <FormError id={form.errorId} errors={form.errors} />
      <button type="submit" className="button button-primary">
        {channel ? t("common.save") : t("settings.channels.add")}
      </button>
    </Form>
  );
}

export function ChannelsSection({ settings, actionData }: SectionProps) {
  const { t } = useTranslation("admin");
  return (
    <section id="channels" className="admin-card stack" aria-labelledby="channels-title" data-testid="settings-channels">
      <h2 id="channels-title">{t("settings.channels.title")}</h2>
      <p className="muted">{t("settings.channels.intro")}</p>
      <p>
        {t("ownAccount.settingsIntro")}{" "}
        <Link to="/admin/settings/channels" data-testid="own-account-link">
          {t("ownAccount.settingsLink")}
        </Link>
      </p>
      {settings.channels.length === 0 && <p className="notice">{t("settings.channels.none")}</p>}
      <ul className="card-list" role="list">
        {settings.channels.map((c) => (
          <li key={c.code} className="card stack" data-testid={`channel-${c.code}`}>
            <p className="card-title">
              {c.displayName} <span className="muted">({c.code})</span>{" "}
              <span className={`status ${c.active ? "status-green" : "status-grey"}`}>
                {c.active ? t("settings.channels.isActive") : t("settings.channels.isInactive")}
              </span>
            </p>
            <p className="muted">
              {c.bankCode} · MID {c.mid} · {c.merchantName}, {c.merchantCity} · {c.currency}
            </p>
            <Form method="post" className="admin-inline-form">
              <input type="hidden" name="intent" value="channel-active" />
              <input type="hidden" name="code" value={c.code} />
              <input type="hidden" name="active" value={c.active ? "0" : "1"} />
              <button type="submit" className="button button-small">
                {c.active ? t("settings.channels.deactivate") : t("settings.channels.activate")}
              </button>
            </Form>
            {settings.ownAccountCodes.includes(c.code) ? (
              <p>
                <Link to={`/admin/settings/channels#channel-${c.code}`}>{t("ownAccount.ownAccountBadge")}</Link>
              </p>
            ) : (
              <details open={actionData?.intent === `channel-${c.code}`}>
                <summary>{t("settings.channels.edit")}</summary>
                <ChannelForm channel={c} actionData={actionData} />
              </details>
            )}
          </li>
        ))}
      </ul>
      {/* a refused switch (e.g. a gateway channel while GATEWAY_WEBHOOK_SECRET is unset) */}
      <FormError id="channel-active-error" errors={resultFor(actionData, "channel-active")?.error?.[""] ?? undefined} />
      <h3>{t("settings.channels.new")}</h3>
      <ChannelForm channel={null} actionData={actionData} />
    </section>
  );
}

export function ProvidersSection({ settings, actionData }: SectionProps) {
  const { t } = useTranslation("admin");
  const [form, fields] = useSchemaForm("settings-providers", ProvidersSchema, resultFor(actionData, "providers"), {
    intent: "providers",
    providers: settings.enabledProviders,
  });
  return (
    <section id="providers" className="admin-card stack" aria-labelledby="providers-title" data-testid="settings-providers">
      <h2 id="providers-title">{t("settings.providers.title")}</h2>
      <p>
        <Link to="/admin/settings/providers" data-testid="provider-setup-link">
          {t("providerSetup.link")}
        </Link>
      </p>
      <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="providers-form">
        <input type="hidden" name="intent" value="providers" />
        <fieldset aria-describedby={fields.providers.errors ? `${fields.providers.id}-error` : undefined}>
          <legend>{t("settings.providers.enabled")}</legend>
          {getCollectionProps(fields.providers, { type: "checkbox", options: [...PROVIDERS] }).map(({ key, ...props }) => (
            <label key={key} className="field field-check">
              <input {...props} />
              {t(`settings.providers.names.${props.value}`)}
            </label>
          ))}
          <ErrorList id={`${fields.providers.id}-error`} errors={fields.providers.errors} />
        </fieldset>
        <FormError id={form.errorId} errors={form.errors} />
        <button type="submit" className="button button-primary">
          {t("common.save")}
        </button>
      </Form>

      <h3>{t("settings.providers.credentials")}</h3>
      <p className="muted">{t("settings.providers.credentialsIntro")}</p>
      <AdminTable
        label={t("settings.providers.credentials")}
        testId="credentials-status"
        rows={settings.credentials}
        rowKey={(c) => c.provider}
        rowProps={(c) => ({ "data-testid": `credentials-${c.provider}` })}
        columns={[
          { header: t("settings.providers.provider"), cell: (c) => t(`settings.providers.names.${c.provider}`) },
          {
            header: t("settings.providers.status"),
            cell: (c) => (c.setAt ? t("settings.providers.setOn", { date: formatDateTime(c.setAt) }) : t("settings.providers.notSet")),
          },
          {
            header: t("common.actions"),
            cell: (c) =>
              c.setAt && (
                <Form method="post" className="admin-inline-form">
                  <input type="hidden" name="intent" value="credentials-clear" />
                  <input type="hidden" name="provider" value={c.provider} />
                  <button type="submit" className="button button-small button-danger">
                    {t("settings.providers.clear")}
                  </button>
                </Form>
              ),
          },
        ]}
      />
      {/* Remounted after every change of the stored credentials: the secret never stays in the page. */}
      <CredentialsForm key={settings.credentials.map((c) => c.setAt ?? "-").join("|")} actionData={actionData} />
    </section>
  );
}

function CredentialsForm({ actionData }: { actionData: SettingsActionData }) {
  const { t } = useTranslation("admin");
  const [credForm, credFields] = useSchemaForm("settings-credentials", CredentialsSchema, resultFor(actionData, "credentials"), { intent: "credentials" });
  return (
    <Form method="post" {...getFormProps(credForm)} noValidate className="stack" data-testid="credentials-form" autoComplete="off">
      <input type="hidden" name="intent" value="credentials" />
      <SelectField
        label={t("settings.providers.provider")}
        field={credFields.provider}
        placeholder={t("settings.providers.chooseProvider")}
        options={PROVIDERS.map((p) => ({ value: p, label: t(`settings.providers.names.${p}`) }))}
      />
      <Field
        label={t("settings.providers.agent")}
        inputProps={{ ...getInputProps(credFields.agent, { type: "text" }), autoComplete: "off" }}
        errors={credFields.agent.errors}
      />
      <Field
        label={t("settings.providers.secret")}
        hint={t("settings.providers.secretHint")}
        inputProps={{ ...getInputProps(credFields.secret, { type: "password" }), autoComplete: "new-password", defaultValue: "" }}
        errors={credFields.secret.errors}
      />
      <FormError id={credForm.errorId} errors={credForm.errors} />
      <button type="submit" className="button button-primary">
        {t("settings.providers.saveCredentials")}
      </button>
    </Form>
  );
}

export function ProfileSection({ settings, actionData }: SectionProps) {
  const { t } = useTranslation("admin");
  const p = settings.profile;
  const [form, fields] = useSchemaForm("settings-profile", ProfileSchema, resultFor(actionData, "profile"), {
    intent: "profile",
    fallbackLanguage: p.fallbackLanguage,
    telegram: p.telegram ?? "",
    whatsapp: p.whatsapp ?? "",
    facebook: p.facebook ?? "",
    twitter: p.twitter ?? "",
    line: p.line ?? "",
  });
  return (
    <section id="profile" className="admin-card stack" aria-labelledby="profile-title" data-testid="settings-profile">
      <h2 id="profile-title">{t("settings.profile.title")}</h2>
      <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="profile-form">
        <input type="hidden" name="intent" value="profile" />
        <SelectField
          label={t("settings.profile.fallbackLanguage")}
          field={fields.fallbackLanguage}
          options={LANGUAGES.map((l) => ({ value: l, label: t(`settings.profile.languages.${l}`) }))}
        />
        {SOCIAL_NETWORKS.map((network) => (
          <Field
            key={network}
            label={t(`settings.profile.social.${network}`)}
            inputProps={{ ...getInputProps(fields[network], { type: "url" }), placeholder: "https://", autoComplete: "off" }}
            errors={fields[network].errors}
          />
        ))}
        <FormError id={form.errorId} errors={form.errors} />
        <button type="submit" className="button button-primary">
          {t("common.save")}
        </button>
      </Form>
    </section>
  );
}
