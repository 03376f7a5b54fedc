import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { InputHTMLAttributes } from "react";
import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "react-i18next";
import { registerPlayer } from "../../workers/services/auth";
import { ErrorList, Field, HONEYPOT_FIELD, Honeypot, PasswordToggle, usePasswordVisibility, useSchemaForm } from "~/components/forms";
import { translate, waitText } from "~/lib/i18n.server";
import { getAgency, getBindings, getPlayer } from "~/lib/context.server";
import { errorMessageKey } from "~/lib/errors";
import { RegisterSchema } from "~/lib/schemas/auth";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import { clientOf } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/register";

/**
 * No React in the browser (decision 021): the lite script fills the `fingerprint` field
 * (SPEC §3) and checks the username on blur (the `data-availability` endpoint, the two
 * messages on the form); the server validates everything with the same schema.
 */
export const handle = { scripts: "lite", fingerprintField: true } satisfies ScriptsHandle;
export const clientLoader = loadAsDocument;

/** Where the lite script asks whether a username is free (SPEC §7). */
const AVAILABILITY_URL = "/api/v2/players/username/validate";

export function loader({ context }: Route.LoaderArgs) {
  if (getPlayer(context)) throw redirect("/");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: RegisterSchema });
  const hide = ["password", "confirmPassword"];
  if (formData.get(HONEYPOT_FIELD)) {
    // A bot filled the invisible field: refuse without saying why.
    return data({ result: submission.reply({ formErrors: ["errors.generic.title"], hideFields: hide }), wait: null }, { status: 400 });
  }
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: hide }), wait: null }, { status: 400 });
  }
  const agency = getAgency(context);
  const { username, password, displayName, phone } = submission.value;
  const outcome = await registerPlayer(getBindings(context).DB, agency.id, { username, password, displayName, phone }, clientOf(request));
  if (!outcome.ok) {
    if (outcome.code === "NAME_CHARACTERS") {
      return data({ result: submission.reply({ fieldErrors: { displayName: [errorMessageKey(outcome.code)] }, hideFields: hide }), wait: null }, { status: 400 });
    }
    if (outcome.code === "USERNAME_EXISTS") {
      return data({ result: submission.reply({ fieldErrors: { username: [errorMessageKey("USERNAME_EXISTS")] }, hideFields: hide }), wait: null }, { status: 409 });
    }
    const wait = outcome.code === "TOO_MANY_ATTEMPTS" ? waitText(context, outcome.retryAfterSeconds) : null;
    return data({ result: submission.reply({ formErrors: [errorMessageKey(outcome.code)], hideFields: hide }), wait }, { status: 429 });
  }
  return redirectWithSuccess({ request, context }, "/login", translate(context, "auth.registered"));
}

export default function Register({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const visibility = usePasswordVisibility();
  const [form, fields] = useSchemaForm("register", RegisterSchema, actionData?.result);
  // (a data-* attribute is not in InputHTMLAttributes' type, so it goes in through a cast)
  const availability = { "data-availability": AVAILABILITY_URL } as InputHTMLAttributes<HTMLInputElement>;

  return (
    <section className="page narrow auth-page">
      <title>{t("auth.registerTitle")}</title>
      <h1>{t("auth.registerTitle")}</h1>
      <Form
        method="post"
        {...getFormProps(form)}
        noValidate
        className="stack"
        data-testid="register-form"
        data-username-taken={t(errorMessageKey("USERNAME_EXISTS"))}
        data-username-available={t("auth.usernameAvailable")}
      >
        <Honeypot />
        <input type="hidden" name="fingerprint" defaultValue="" />
        <Field
          label={t("auth.username")}
          hint={t("auth.usernameHint", { min: 4, max: 20 })}
          inputProps={{
            ...getInputProps(fields.username, { type: "text" }),
            autoComplete: "username",
            autoCapitalize: "none",
            spellCheck: false,
            ...availability,
          }}
          errors={fields.username.errors}
        />
        <Field
          label={t("auth.displayName")}
          hint={t("auth.displayNameHint")}
          inputProps={{ ...getInputProps(fields.displayName, { type: "text" }), autoComplete: "nickname" }}
          errors={fields.displayName.errors}
        />
        <Field
          label={t("auth.phone")}
          hint={t("auth.phoneHint")}
          inputProps={{ ...getInputProps(fields.phone, { type: "tel" }), autoComplete: "tel", inputMode: "tel" }}
          errors={fields.phone.errors}
        />
        <Field
          label={t("auth.password")}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), type: visibility.type, autoComplete: "new-password" }}
          errors={fields.password.errors}
        />
        <Field
          label={t("auth.confirmPassword")}
          inputProps={{ ...getInputProps(fields.confirmPassword, { type: "password" }), type: visibility.type, autoComplete: "new-password" }}
          errors={fields.confirmPassword.errors}
        />
        <PasswordToggle visible={visibility.visible} onChange={visibility.setVisible} />
        <div className="field field-check">
          <input {...getInputProps(fields.adult, { type: "checkbox" })} aria-invalid={fields.adult.errors ? true : undefined} aria-describedby={fields.adult.errors ? `${fields.adult.id}-error` : undefined} />
          <label htmlFor={fields.adult.id}>{t("auth.adult")}</label>
          <ErrorList id={`${fields.adult.id}-error`} errors={fields.adult.errors} />
        </div>
        <div role="alert" className="form-alert" data-testid="form-error">
          <ErrorList id={form.errorId} errors={form.errors} />
          {actionData?.wait && <p>{t("auth.tryAgainIn", { wait: actionData.wait })}</p>}
        </div>
        <button type="submit" className="button button-primary button-block">
          {t("auth.registerButton")}
        </button>
      </Form>
      <p className="auth-switch">
        {t("auth.haveAccount")} <Link to="/login">{t("nav.login")}</Link>
      </p>
    </section>
  );
}
