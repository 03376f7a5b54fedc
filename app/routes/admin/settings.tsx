import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { changeSettings, loadSettings } from "@workers/services/agency";
import { ChannelsSection, LimitsSection, ProfileSection, ProvidersSection, RatesSection } from "~/components/admin-settings";
import { translate } from "~/lib/i18n.server";
import { getBindings } from "~/lib/context.server";
import { isSettingsIntent, SETTINGS_SCHEMAS } from "~/lib/schemas/admin-settings";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/settings";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { lite: ["validate"], i18n: ["settings.validation"] } satisfies ScriptsHandle & I18nHandle;

/**
 * Agency settings (owner only): exchange rates with history, limits and auto-payout,
 * payment channels, providers and their write-only credentials, social links and the
 * fallback language. One plain POST form per section (`intent`), working without JS.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  return { settings: await loadSettings(getBindings(context).DB, staff.agencyId) };
}

const ERROR_KEYS: Record<string, string> = {
  RATE_INVALID: "admin:settings.validation.rate",
  RATE_BUY_ABOVE_SELL: "admin:settings.validation.buyAboveSell",
  CHANNEL_EXISTS: "admin:settings.errors.channelExists",
  CHANNEL_NOT_FOUND: "admin:settings.errors.channelNotFound",
  CHANNEL_OWN_ACCOUNT: "admin:ownAccount.errors.ownAccountEdit",
  GATEWAY_SECRET_UNSET: "admin:settings.errors.gatewaySecretUnset",
  BANK_UNKNOWN: "admin:settings.validation.bank",
  PROVIDERS_INVALID: "admin:settings.validation.providers",
  PROVIDER_UNKNOWN: "admin:settings.validation.provider",
};

const SECTION: Record<string, string> = {
  rate: "rates",
  limits: "limits",
  channel: "channels",
  "channel-active": "channels",
  providers: "providers",
  credentials: "providers",
  "credentials-clear": "providers",
  profile: "profile",
};

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (!isSettingsIntent(intent)) throw new Response("Unknown form", { status: 400 });
  const submission = parseWithZod(formData, { schema: SETTINGS_SCHEMAS[intent] });
  const formKey = intent === "channel" ? `channel-${formData.get("existing") ? String(formData.get("code") ?? "") : "new"}` : intent;
  if (submission.status !== "success") {
    return data({ intent: formKey, result: submission.reply({ hideFields: ["secret"] }) as SubmissionResult<string[]> }, { status: 400 });
  }
  const outcome = await changeSettings(getBindings(context), auditContext(request, staff), submission.value);
  if (!outcome.ok) {
    const message = ERROR_KEYS[outcome.code] ?? "admin:common.errorTitle";
    const reply = submission.reply({
      ...(outcome.field ? { fieldErrors: { [outcome.field]: [message] } } : { formErrors: [message] }),
      hideFields: ["secret"],
    });
    return data({ intent: formKey, result: reply as SubmissionResult<string[]> }, { status: 409 });
  }
  return redirectWithSuccess({ request, context }, `/admin/settings#${SECTION[intent]}`, translate(context, "admin:settings.saved"));
}

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { settings } = loaderData;
  return (
    <section data-testid="admin-settings">
      <title>{t("settings.title")}</title>
      <h1>{t("settings.title")}</h1>
      <p>
        {t("brand.linkIntro")}{" "}
        <Link to="/admin/settings/brand" data-testid="brand-link">
          {t("brand.link")}
        </Link>
      </p>
      <p>
        {t("alerts.linkIntro")}{" "}
        <Link to="/admin/settings/alerts" data-testid="alerts-link">
          {t("alerts.link")}
        </Link>
      </p>
      <nav aria-label={t("settings.sections")} className="admin-filter">
        {(["rates", "limits", "channels", "providers", "profile"] as const).map((s) => (
          <a key={s} href={`#${s}`}>
            {t(`settings.${s}.title`)}
          </a>
        ))}
      </nav>
      <RatesSection settings={settings} actionData={actionData} />
      <LimitsSection settings={settings} actionData={actionData} />
      <ChannelsSection settings={settings} actionData={actionData} />
      <ProvidersSection settings={settings} actionData={actionData} />
      <ProfileSection settings={settings} actionData={actionData} />
    </section>
  );
}
