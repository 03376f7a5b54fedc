import { getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { staffPasswordLogin } from "@workers/services/staff";
import { AdminAuthShell } from "~/components/admin";
import { ErrorList, Field, getFormProps, useSchemaForm } from "~/components/forms";
import { waitText } from "~/lib/i18n.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { StaffLoginSchema } from "~/lib/schemas/admin";
import { loginDevice } from "~/lib/device.server";
import { adminHeadersMiddleware, currentStaffSession, readStaffSessionId, safeAdminPath, staffClient, staffCookie } from "~/lib/staff.server";
import adminStyles from "~/styles/admin.css?url";
import type { Route } from "./+types/login";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { scripts: "lite", lite: ["validate", "pending"], i18n: ["auth.validation"] } satisfies ScriptsHandle & I18nHandle;
export const clientLoader = loadAsDocument;

export const middleware: Route.MiddlewareFunction[] = [adminHeadersMiddleware];
export const links: Route.LinksFunction = () => (adminStyles ? [{ rel: "stylesheet", href: adminStyles }] : []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await currentStaffSession(request, context);
  if (session?.stage === "FULL") throw redirect(safeAdminPath(new URL(request.url).searchParams.get("redirectTo")));
  return { agencyName: getAgency(context).name };
}

const ERROR_KEYS = {
  INVALID_CREDENTIALS: "admin:auth.errors.invalidCredentials",
  ENROL_REQUIRED: "admin:auth.errors.enrolRequired",
  TOO_MANY_ATTEMPTS: "admin:auth.errors.tooManyAttempts",
} as const;

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: StaffLoginSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }), wait: null }, { status: 400 });
  }
  // Session fixation: whatever staff session this browser had ends; the new id is fresh.
  const credentials = { ...submission.value, replacesSessionId: await readStaffSessionId(request) };
  const outcome = await staffPasswordLogin(getBindings(context).DB, getAgency(context).id, credentials, {
    ...staffClient(request),
    device: await loginDevice(request, context),
  });
  if (!outcome.ok) {
    const code = outcome.code as keyof typeof ERROR_KEYS;
    const wait = outcome.code === "TOO_MANY_ATTEMPTS" ? waitText(context, outcome.retryAfterSeconds) : null;
    return data(
      { result: submission.reply({ formErrors: [ERROR_KEYS[code] ?? ERROR_KEYS.INVALID_CREDENTIALS], hideFields: ["password"] }), wait },
      { status: outcome.code === "TOO_MANY_ATTEMPTS" ? 429 : 401 },
    );
  }
  const next = safeAdminPath(submission.value.redirectTo);
  return redirect(`/admin/login/totp${next === "/admin" ? "" : `?redirectTo=${encodeURIComponent(next)}`}`, {
    headers: { "Set-Cookie": await staffCookie(request, outcome.sessionId) },
  });
}

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const [form, fields] = useSchemaForm("admin-login", StaffLoginSchema, actionData?.result);
  return (
    <AdminAuthShell agencyName={loaderData.agencyName}>
      <title>{t("auth.loginTitle")}</title>
      <h1>{t("auth.loginTitle")}</h1>
      <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="admin-login-form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          label={t("auth.username")}
          inputProps={{ ...getInputProps(fields.username, { type: "text" }), autoComplete: "username", autoCapitalize: "none", spellCheck: false }}
          errors={fields.username.errors}
        />
        <Field
          label={t("auth.password")}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
          errors={fields.password.errors}
        />
        <div role="alert" className="form-alert" data-testid="form-error">
          <ErrorList id={form.errorId} errors={form.errors} />
          {actionData?.wait && <p>{t("auth.tryAgainIn", { wait: actionData.wait })}</p>}
        </div>
        <button type="submit" className="button button-primary button-block">
          {t("auth.loginButton")}
        </button>
      </Form>
    </AdminAuthShell>
  );
}
