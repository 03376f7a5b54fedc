import { getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { qrSvg } from "@workers/services/agency";
import { completeEnrolment, openEnrolment } from "@workers/services/staff";
import { AdminAuthShell } from "~/components/admin";
import { ErrorList, Field, getFormProps, useSchemaForm } from "~/components/forms";
import { waitText } from "~/lib/i18n.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { EnrolSchema } from "~/lib/schemas/admin";
import { adminHeadersMiddleware, staffClient, staffCookie } from "~/lib/staff.server";
import adminStyles from "~/styles/admin.css?url";
import type { Route } from "./+types/enrol";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { scripts: "lite", lite: ["validate", "pending"], i18n: ["auth.validation"] } satisfies ScriptsHandle & I18nHandle;
export const clientLoader = loadAsDocument;

export const middleware: Route.MiddlewareFunction[] = [adminHeadersMiddleware];
export const links: Route.LinksFunction = () => (adminStyles ? [{ rel: "stylesheet", href: adminStyles }] : []);

/**
 * The one-time enrolment link (/admin/enrol?token=...): choose a password, scan the QR code
 * (or type the secret), confirm with a first code; ten recovery codes are shown once.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const agency = getAgency(context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const view = token ? await openEnrolment(getBindings(context).DB, agency.id, agency.name, token) : null;
  return {
    agencyName: agency.name,
    token,
    enrolment: view
      ? {
          username: view.staff.username,
          secret: view.secret,
          qrSvg: qrSvg(view.otpauthUri),
        }
      : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: EnrolSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword", "code"] }), wait: null, recoveryCodes: null }, { status: 400 });
  }
  const agency = getAgency(context);
  const outcome = await completeEnrolment(getBindings(context).DB, agency.id, submission.value.token, submission.value, staffClient(request));
  if (!outcome.ok) {
    const key =
      outcome.code === "LINK_INVALID"
        ? "admin:auth.errors.linkInvalid"
        : outcome.code === "TOO_MANY_ATTEMPTS"
          ? "admin:auth.errors.tooManyAttempts"
          : "admin:auth.errors.invalidCode";
    const wait = outcome.code === "TOO_MANY_ATTEMPTS" ? waitText(context, outcome.retryAfterSeconds ?? 1) : null;
    return data(
      { result: submission.reply({ formErrors: [key], hideFields: ["password", "confirmPassword", "code"] }), wait, recoveryCodes: null },
      { status: outcome.code === "LINK_INVALID" ? 410 : 400 },
    );
  }
  return data(
    { result: null, wait: null, recoveryCodes: outcome.recoveryCodes },
    { headers: { "Set-Cookie": await staffCookie(request, outcome.sessionId), "Cache-Control": "no-store" } },
  );
}

export default function AdminEnrol({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const [form, fields] = useSchemaForm("admin-enrol", EnrolSchema, actionData?.result);
  const { enrolment, token, agencyName } = loaderData;
  if (actionData?.recoveryCodes) {
    return (
      <AdminAuthShell agencyName={agencyName}>
        <title>{t("auth.recoveryCodesTitle")}</title>
        <h1>{t("auth.recoveryCodesTitle")}</h1>
        <p>{t("auth.recoveryCodesIntro")}</p>
        <ol className="admin-codes" data-testid="recovery-codes">
          {actionData.recoveryCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ol>
        <a href="/admin" className="button button-primary button-block">
          {t("auth.continue")}
        </a>
      </AdminAuthShell>
    );
  }
  if (!enrolment) {
    return (
      <AdminAuthShell agencyName={agencyName}>
        <title>{t("auth.enrolTitle")}</title>
        <h1>{t("auth.enrolTitle")}</h1>
        <p role="alert" className="form-alert" data-testid="enrol-invalid">
          {t("auth.errors.linkInvalid")}
        </p>
        <Link to="/admin/login">{t("auth.loginTitle")}</Link>
      </AdminAuthShell>
    );
  }
  return (
    <AdminAuthShell agencyName={agencyName}>
      <title>{t("auth.enrolTitle")}</title>
      <h1>{t("auth.enrolTitle")}</h1>
      <p>{t("auth.enrolIntro", { username: enrolment.username })}</p>
      <h2>{t("auth.enrolScan")}</h2>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the SVG is the qrcode package's drawing of our own otpauth URI, made in the loader */}
      <div className="qr" role="img" aria-label={t("auth.enrolScan")} dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }} />
      <p>{t("auth.enrolSecret")}</p>
      <p className="admin-secret" data-testid="totp-secret">
        {enrolment.secret}
      </p>
      <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="admin-enrol-form">
        <input type="hidden" name="token" value={token} />
        <input type="text" name="username" value={enrolment.username} autoComplete="username" readOnly hidden />
        <Field
          label={t("auth.newPassword")}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.password.errors}
        />
        <Field
          label={t("auth.confirmPassword")}
          inputProps={{ ...getInputProps(fields.confirmPassword, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.confirmPassword.errors}
        />
        <Field
          label={t("auth.firstCode")}
          inputProps={{ ...getInputProps(fields.code, { type: "text" }), inputMode: "numeric", autoComplete: "one-time-code", maxLength: 7 }}
          errors={fields.code.errors}
        />
        <div role="alert" className="form-alert" data-testid="form-error">
          <ErrorList id={form.errorId} errors={form.errors} />
          {actionData?.wait && <p>{t("auth.tryAgainIn", { wait: actionData.wait })}</p>}
        </div>
        <button type="submit" className="button button-primary button-block">
          {t("auth.enrolButton")}
        </button>
      </Form>
    </AdminAuthShell>
  );
}
