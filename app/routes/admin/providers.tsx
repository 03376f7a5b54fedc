import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { providerSetupScreen, saveProviderSetup } from "@workers/services/providers";
import { ErrorList } from "~/components/forms";
import { getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { ProviderSetupSchema } from "~/lib/schemas/provider-setup";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/providers";

/**
 * Provider setup (owner only, decision 017): per game provider, the adapter that reaches
 * it (the sandbox only in a local environment, AMB Super API, Betflix v4, or disabled),
 * its base URL, product or brand code, lobby and image hosts, Betflix's optional member
 * prefix (decision 048), and write-only credentials.
 * A changed base URL asks for the credentials again. One plain POST form per provider.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  return providerSetupScreen(getBindings(context), staff.agencyId);
}

type FieldName = "adapter" | "baseUrl" | "productCode" | "lobbyUrl" | "imageUrl" | "memberPrefix" | "agent" | "secret";

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const form = Object.fromEntries([...(await request.formData()).entries()].filter(([, v]) => typeof v === "string"));
  const parsed = ProviderSetupSchema.safeParse(form);
  const provider = typeof form.provider === "string" ? form.provider : "";
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = (issue?.path[0] as FieldName | "provider" | undefined) ?? null;
    return data({ provider, field: field === "provider" ? null : field, message: issue?.message ?? "admin:common.errorTitle" }, { status: 400 });
  }
  const outcome = await saveProviderSetup(getBindings(context), auditContext(request, staff), parsed.data);
  if (!outcome.ok) {
    return data({ provider, field: (outcome.field as FieldName | undefined) ?? null, message: `admin:providerSetup.errors.${outcome.code}` }, { status: 409 });
  }
  return redirectWithSuccess({ request, context }, `/admin/settings/providers#setup-${parsed.data.provider}`, translate(context, "admin:providerSetup.saved"));
}

export default function ProviderSetupPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  return (
    <section data-testid="provider-setup">
      <title>{t("providerSetup.title")}</title>
      <p>
        <Link to="/admin/settings#providers">{t("providerSetup.back")}</Link>
      </p>
      <h1>{t("providerSetup.title")}</h1>
      <p className="muted">{t("providerSetup.intro")}</p>
      {loaderData.providers.map((p) => {
        const error = actionData?.provider === p.provider ? actionData : null;
        const errorsFor = (field: FieldName) => (error && error.field === field ? [error.message] : undefined);
        const input = (field: "baseUrl" | "productCode" | "lobbyUrl" | "imageUrl" | "memberPrefix", type: "url" | "text", value: string | null) => {
          const id = `${p.provider}-${field}`;
          const errors = errorsFor(field);
          return (
            <div className="field">
              <label htmlFor={id}>{t(`providerSetup.fields.${field}`)}</label>
              <input
                id={id}
                name={field}
                type={type}
                defaultValue={value ?? ""}
                aria-invalid={errors ? true : undefined}
                aria-describedby={`${id}-hint${errors ? ` ${id}-error` : ""}`}
              />
              <p id={`${id}-hint`} className="field-hint">
                {t(`providerSetup.hints.${field}`)}
              </p>
              <ErrorList id={`${id}-error`} errors={errors} />
            </div>
          );
        };
        return (
          <article key={p.provider} id={`setup-${p.provider}`} className="card stack" data-testid={`setup-${p.provider}`}>
            <h2>{t(`settings.providers.names.${p.provider}`)}</h2>
            <p className="muted" data-testid={`setup-${p.provider}-current`}>
              {t(`providerSetup.adapters.${p.adapter}`)}
              {" · "}
              {p.credentialsSetAt ? t("settings.providers.setOn", { date: formatDateTime(p.credentialsSetAt) }) : t("settings.providers.notSet")}
            </p>
            {p.noPublicApi && <p className="notice">{t("providerSetup.noPublicApi")}</p>}
            <Form method="post" className="stack" autoComplete="off" noValidate>
              <input type="hidden" name="provider" value={p.provider} />
              <div className="field">
                <label htmlFor={`${p.provider}-adapter`}>{t("providerSetup.fields.adapter")}</label>
                <select
                  id={`${p.provider}-adapter`}
                  name="adapter"
                  defaultValue={p.adapter === "default" ? (loaderData.local ? "sandbox" : "disabled") : p.adapter}
                >
                  {loaderData.adapters.map((a) => (
                    <option key={a} value={a}>
                      {t(`providerSetup.adapters.${a}`)}
                    </option>
                  ))}
                </select>
                <ErrorList errors={errorsFor("adapter")} />
              </div>
              {input("baseUrl", "url", p.baseUrl)}
              {input("productCode", "text", p.productCode)}
              {input("lobbyUrl", "url", p.lobbyUrl)}
              {input("imageUrl", "url", p.imageUrl)}
              {input("memberPrefix", "text", p.memberPrefix)}
              <fieldset>
                <legend>{t("providerSetup.credentials")}</legend>
                <p className="field-hint">{t("providerSetup.credentialsHint")}</p>
                <div className="field">
                  <label htmlFor={`${p.provider}-agent`}>{t("settings.providers.agent")}</label>
                  <input
                    id={`${p.provider}-agent`}
                    name="agent"
                    type="text"
                    autoComplete="off"
                    defaultValue=""
                    aria-invalid={errorsFor("agent") ? true : undefined}
                    aria-describedby={`${p.provider}-agent-hint`}
                  />
                  <p id={`${p.provider}-agent-hint`} className="field-hint">
                    {t("providerSetup.hints.agent")}
                  </p>
                  <ErrorList errors={errorsFor("agent")} />
                </div>
                <div className="field">
                  <label htmlFor={`${p.provider}-secret`}>{t("settings.providers.secret")}</label>
                  {/* Write-only: never filled back, not even after an error. */}
                  <input
                    id={`${p.provider}-secret`}
                    name="secret"
                    type="password"
                    autoComplete="new-password"
                    defaultValue=""
                    aria-invalid={errorsFor("secret") ? true : undefined}
                    aria-describedby={`${p.provider}-secret-hint`}
                  />
                  <p id={`${p.provider}-secret-hint`} className="field-hint">
                    {t("providerSetup.hints.secret")}
                  </p>
                  <ErrorList errors={errorsFor("secret")} />
                </div>
              </fieldset>
              {error && error.field === null && (
                <div role="alert" className="form-alert">
                  <ErrorList errors={[error.message]} />
                </div>
              )}
              <button type="submit" className="button button-primary">
                {t("common.save")}
              </button>
            </Form>
          </article>
        );
      })}
    </section>
  );
}
