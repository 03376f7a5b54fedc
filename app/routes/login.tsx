import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { login } from "@workers/services/players";
import { ErrorList, Field, PasswordToggle, usePasswordVisibility, useSchemaForm } from "~/components/forms";
import { translate, waitText } from "~/lib/i18n.server";
import { getAgency, getBindings, getPlayer } from "~/lib/context.server";
import { errorMessageKey } from "~/lib/errors";
import { safeRedirectPath } from "~/lib/menu";
import { LoginSchema, UsernameValidateSchema } from "~/lib/schemas/auth";
import { clientOf, readSessionId, sessionCookie } from "~/lib/session.server";
import { deviceCookieHeader, loginDevice } from "~/lib/device.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { Route } from "./+types/login";

/**
 * No React in the browser (decision 021): the form posts as a document and the server
 * validates with the same schema; the lite script gives the password switch and the toast.
 */
export const handle = { scripts: "lite" } satisfies ScriptsHandle;
export const clientLoader = loadAsDocument;

export function loader({ request, context }: Route.LoaderArgs) {
  if (getPlayer(context)) {
    throw redirect(safeRedirectPath(new URL(request.url).searchParams.get("redirectTo")));
  }
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: LoginSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }), wait: null }, { status: 400 });
  }
  const agency = getAgency(context);
  const device = await loginDevice(request, context);
  // Session fixation: whatever session id the browser brought is ended, never upgraded.
  const credentials = { ...submission.value, replacesSessionId: await readSessionId(request) };
  const outcome = await login(getBindings(context).DB, agency.id, credentials, { ...clientOf(request), device });
  if (!outcome.ok) {
    const wait = outcome.code === "TOO_MANY_ATTEMPTS" ? waitText(context, outcome.retryAfterSeconds) : null;
    return data(
      { result: submission.reply({ formErrors: [errorMessageKey(outcome.code)], hideFields: ["password"] }), wait },
      { status: outcome.code === "TOO_MANY_ATTEMPTS" ? 429 : 401 },
    );
  }
  return redirectWithSuccess(
    { request, context },
    safeRedirectPath(submission.value.redirectTo),
    translate(context, "auth.loginSuccess", { name: outcome.player.displayName }),
    {
      headers: [
        ["Set-Cookie", await sessionCookie(request, outcome.sessionId)],
        ["Set-Cookie", await deviceCookieHeader(request, context, device, { realm: "player", agencyId: agency.id, username: outcome.player.username })],
      ],
    },
  );
}

/** A username the address carries, if it is one (anything else is ignored, not shown). */
function registeredUsername(value: string | null): string | null {
  return value !== null && UsernameValidateSchema.safeParse({ username: value }).success ? value : null;
}

export default function Login({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const redirectTo = safeRedirectPath(searchParams.get("redirectTo"), "");
  const visibility = usePasswordVisibility();
  // Just registered (register.tsx sends `?username=`): the name is filled in, the password is next.
  const username = registeredUsername(searchParams.get("username"));
  const [form, fields] = useSchemaForm("login", LoginSchema, actionData?.result, username ? { username } : undefined);
  return (
    <section className="page narrow auth-page">
      <title>{t("auth.loginTitle")}</title>
      <h1>{t("auth.loginTitle")}</h1>
      {/* noValidate: messages come from our schema in the player's language, never the browser's. */}
      <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="login-form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          label={t("auth.username")}
          inputProps={{ ...getInputProps(fields.username, { type: "text" }), autoComplete: "username", autoCapitalize: "none", spellCheck: false }}
          errors={fields.username.errors}
        />
        <Field
          label={t("auth.password")}
          inputProps={{
            ...getInputProps(fields.password, { type: "password" }),
            type: visibility.type,
            autoComplete: "current-password",
            autoFocus: username !== null && !actionData,
          }}
          errors={fields.password.errors}
        />
        <PasswordToggle visible={visibility.visible} onChange={visibility.setVisible} />
        <div role="alert" className="form-alert" data-testid="form-error">
          <ErrorList id={form.errorId} errors={form.errors} />
          {actionData?.wait && <p>{t("auth.tryAgainIn", { wait: actionData.wait })}</p>}
        </div>
        <button type="submit" className="button button-primary button-block">
          {t("auth.loginButton")}
        </button>
      </Form>
      <p className="auth-switch">
        {t("auth.noAccount")} <Link to="/register">{t("nav.register")}</Link>
      </p>
    </section>
  );
}
