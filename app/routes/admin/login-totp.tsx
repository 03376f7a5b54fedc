import { getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { staffSecondFactor } from "@workers/services/staff";
import { AdminAuthShell } from "~/components/admin";
import { ErrorList, Field, getFormProps, useSchemaForm } from "~/components/forms";
import { translate, waitText } from "~/lib/i18n.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { RecoveryCodeSchema, TotpSchema } from "~/lib/schemas/admin";
import { deviceCookieHeader, loginDevice } from "~/lib/device.server";
import { adminHeadersMiddleware, clearStaffCookie, currentStaffSession, readStaffSessionId, safeAdminPath, staffClient, staffCookie } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import adminStyles from "~/styles/admin.css?url";
import type { Route } from "./+types/login-totp";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { scripts: "lite", lite: ["validate", "pending"], i18n: ["auth.validation"] } satisfies ScriptsHandle & I18nHandle;
export const clientLoader = loadAsDocument;

export const middleware: Route.MiddlewareFunction[] = [adminHeadersMiddleware];
export const links: Route.LinksFunction = () => (adminStyles ? [{ rel: "stylesheet", href: adminStyles }] : []);

/** Step 2 of the staff login: only for a browser that just gave the right password. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await currentStaffSession(request, context);
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  if (session?.stage === "FULL") throw redirect(safeAdminPath(redirectTo));
  if (session?.stage !== "PASSWORD") throw redirect("/admin/login");
  return { agencyName: getAgency(context).name };
}

const ERROR_KEYS = {
  INVALID_CODE: "admin:auth.errors.invalidCode",
  TOO_MANY_ATTEMPTS: "admin:auth.errors.tooManyAttempts",
} as const;

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const useRecovery = formData.has("recoveryCode");
  const submission = useRecovery ? parseWithZod(formData, { schema: RecoveryCodeSchema }) : parseWithZod(formData, { schema: TotpSchema });
  const form = useRecovery ? "recovery" : "totp";
  if (submission.status !== "success") return data({ form, result: submission.reply({ hideFields: ["code", "recoveryCode"] }), wait: null }, { status: 400 });
  const agency = getAgency(context);
  const halfSession = await readStaffSessionId(request);
  const value = submission.value as { code?: string; recoveryCode?: string };
  const device = await loginDevice(request, context);
  const outcome = halfSession
    ? await staffSecondFactor(
        getBindings(context).DB,
        agency.id,
        halfSession,
        { code: value.code, recoveryCode: value.recoveryCode },
        { ...staffClient(request), device },
      )
    : ({ ok: false, code: "SESSION_EXPIRED" } as const);
  if (!outcome.ok) {
    if (outcome.code === "SESSION_EXPIRED") throw redirect("/admin/login", { headers: { "Set-Cookie": await clearStaffCookie(request) } });
    const wait = outcome.code === "TOO_MANY_ATTEMPTS" ? waitText(context, outcome.retryAfterSeconds) : null;
    return data(
      {
        form,
        result: submission.reply({
          formErrors: [ERROR_KEYS[outcome.code as keyof typeof ERROR_KEYS] ?? ERROR_KEYS.INVALID_CODE],
          hideFields: ["code", "recoveryCode"],
        }),
        wait,
      },
      { status: outcome.code === "TOO_MANY_ATTEMPTS" ? 429 : 401 },
    );
  }
  const message = outcome.usedRecoveryCode
    ? translate(context, "admin:auth.recoveryUsed", { count: outcome.recoveryCodesLeft ?? 0 })
    : translate(context, "admin:auth.welcome", { username: outcome.staff.username });
  return redirectWithSuccess({ request, context }, safeAdminPath(new URL(request.url).searchParams.get("redirectTo")), message, {
    headers: [
      ["Set-Cookie", await staffCookie(request, outcome.sessionId)],
      // a full login (password and second factor) makes this browser a known device of the account
      ["Set-Cookie", await deviceCookieHeader(request, context, device, { realm: "staff", agencyId: agency.id, username: outcome.staff.username })],
    ],
  });
}

export default function AdminLoginTotp({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const [searchParams] = useSearchParams();
  const [totpForm, totpFields] = useSchemaForm("admin-totp", TotpSchema, actionData?.form === "totp" ? actionData.result : undefined);
  const [recoveryForm, recoveryFields] = useSchemaForm("admin-recovery", RecoveryCodeSchema, actionData?.form === "recovery" ? actionData.result : undefined);
  const query = searchParams.toString();
  return (
    <AdminAuthShell agencyName={loaderData.agencyName}>
      <title>{t("auth.totpTitle")}</title>
      <h1>{t("auth.totpTitle")}</h1>
      <p>{t("auth.totpIntro")}</p>
      <Form
        method="post"
        action={`/admin/login/totp${query ? `?${query}` : ""}`}
        {...getFormProps(totpForm)}
        noValidate
        className="stack"
        data-testid="admin-totp-form"
      >
        <Field
          label={t("auth.code")}
          inputProps={{ ...getInputProps(totpFields.code, { type: "text" }), inputMode: "numeric", autoComplete: "one-time-code", maxLength: 7 }}
          errors={totpFields.code.errors}
        />
        <div role="alert" className="form-alert" data-testid="form-error">
          <ErrorList id={totpForm.errorId} errors={totpForm.errors} />
          {actionData?.form === "totp" && actionData.wait && <p>{t("auth.tryAgainIn", { wait: actionData.wait })}</p>}
        </div>
        <button type="submit" className="button button-primary button-block">
          {t("auth.verifyButton")}
        </button>
      </Form>
      {/* open only when the recovery form answered; otherwise left to the browser (a re-render must not close it) */}
      <details className="stack" open={actionData?.form === "recovery" ? true : undefined}>
        <summary>{t("auth.recoveryTitle")}</summary>
        <p className="muted">{t("auth.recoveryIntro")}</p>
        <Form
          method="post"
          action={`/admin/login/totp${query ? `?${query}` : ""}`}
          {...getFormProps(recoveryForm)}
          noValidate
          className="stack"
          data-testid="admin-recovery-form"
        >
          <Field
            label={t("auth.recoveryCode")}
            inputProps={{ ...getInputProps(recoveryFields.recoveryCode, { type: "text" }), autoComplete: "off", autoCapitalize: "none", spellCheck: false }}
            errors={recoveryFields.recoveryCode.errors}
          />
          <div role="alert" className="form-alert">
            <ErrorList id={recoveryForm.errorId} errors={recoveryForm.errors} />
            {actionData?.form === "recovery" && actionData.wait && <p>{t("auth.tryAgainIn", { wait: actionData.wait })}</p>}
          </div>
          <button type="submit" className="button button-block">
            {t("auth.recoveryButton")}
          </button>
        </Form>
      </details>
      <p>
        <Link to="/admin/login">{t("auth.startOver")}</Link>
      </p>
    </AdminAuthShell>
  );
}
