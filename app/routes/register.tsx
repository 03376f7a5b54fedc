import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { InputHTMLAttributes } from "react";
import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "react-i18next";
import { registerPlayer } from "@workers/services/players";
import { checkReferralCode } from "@workers/services/promotions";
import { ErrorList, Field, HONEYPOT_FIELD, Honeypot, PasswordToggle, usePasswordVisibility, useSchemaForm } from "~/components/forms";
import { translate, waitText } from "~/lib/i18n.server";
import { getAgency, getBindings, getPlayer } from "~/lib/context.server";
import { errorMessageKey } from "~/lib/errors";
import { RegisterSchema } from "~/lib/schemas/auth";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import { useLiteValidation } from "~/components/lite-form";
import type { I18nHandle } from "~/lib/i18n";
import { clientOf } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/register";
import { USERNAME_AVAILABLE, USERNAME_CHECK, USERNAME_TAKEN, hookProps } from "~/lib/lite/hooks";

/**
 * No React in the browser (decision 021): the lite script fills the `fingerprint` field
 * (docs/product.md §3), checks the username on blur (the `data-availability` endpoint, the two
 * messages on the form) and validates the form with its schema before the post (the `validate`
 * part, decision 034); the server validates everything with the same schema.
 */
export const handle = {
  scripts: "lite",
  lite: ["validate"],
  fingerprintField: true,
  // no groups of its own: declaring (none) ships the root's, whose `validation` messages the validate part shows (decision 032)
  i18n: [],
} satisfies ScriptsHandle & I18nHandle;
export const clientLoader = loadAsDocument;

/** Where the lite script asks whether a username is free (docs/product.md §7). */
const AVAILABILITY_URL = "/api/v2/players/username/validate";

/** `?ref=CODE` (a referral link, decision 030): "invited by", or a clear word when the code is not valid. */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (getPlayer(context)) throw redirect("/");
  const referral = await checkReferralCode(getBindings(context).DB, getAgency(context).id, new URL(request.url).searchParams.get("ref"));
  return { referral };
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
  const { username, password, displayName, phone, ref, fingerprint } = submission.value;
  const outcome = await registerPlayer(getBindings(context).DB, agency.id, { username, password, displayName, phone, ref, fingerprint }, clientOf(request));
  if (!outcome.ok) {
    if (outcome.code === "NAME_CHARACTERS") {
      return data(
        { result: submission.reply({ fieldErrors: { displayName: [errorMessageKey(outcome.code)] }, hideFields: hide }), wait: null },
        { status: 400 },
      );
    }
    if (outcome.code === "USERNAME_EXISTS") {
      return data(
        { result: submission.reply({ fieldErrors: { username: [errorMessageKey("USERNAME_EXISTS")] }, hideFields: hide }), wait: null },
        { status: 409 },
      );
    }
    if (outcome.code === "REGISTRATION_REFUSED") {
      // the owner's blocklist (decision 090): "contact staff", on the form, naming nothing
      return data({ result: submission.reply({ formErrors: [errorMessageKey(outcome.code)], hideFields: hide }), wait: null }, { status: 403 });
    }
    const wait = outcome.code === "TOO_MANY_ATTEMPTS" ? waitText(context, outcome.retryAfterSeconds) : null;
    return data({ result: submission.reply({ formErrors: [errorMessageKey(outcome.code)], hideFields: hide }), wait }, { status: 429 });
  }
  // A code that stopped being valid between the page and the post: the account is made, and the toast says no referrer was recorded.
  const registered = translate(context, "auth.registered");
  return redirectWithSuccess(
    { request, context },
    loginPathFor(username),
    outcome.referral === "invalid" ? `${registered} ${translate(context, "referral.registeredWithoutCode")}` : registered,
  );
}

/** The login page with the new username filled in (never the password): the player types the password once more. */
function loginPathFor(username: string): string {
  return `/login?${new URLSearchParams({ username })}`;
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const visibility = usePasswordVisibility();
  const [form, fields] = useSchemaForm("register", RegisterSchema, actionData?.result);
  const validation = useLiteValidation("register");
  // (a data-* attribute is not in InputHTMLAttributes' type, so it goes in through a cast)
  const availability = hookProps(USERNAME_CHECK, AVAILABILITY_URL) as InputHTMLAttributes<HTMLInputElement>;
  const referral = loaderData.referral;

  return (
    <section className="page narrow auth-page">
      <title>{t("auth.registerTitle")}</title>
      <h1>{t("auth.registerTitle")}</h1>
      {referral.status === "valid" && (
        <p className="notice" role="status" data-testid="referral-invited">
          {t("referral.invitedBy", { name: referral.referrerName, code: referral.code })}
        </p>
      )}
      {referral.status === "invalid" && (
        <p className="notice" role="alert" data-testid="referral-invalid">
          {t("referral.invalidCode", { code: referral.given })}
        </p>
      )}
      <Form
        method="post"
        {...getFormProps(form)}
        {...validation}
        noValidate
        className="stack"
        data-testid="register-form"
        {...hookProps(USERNAME_TAKEN, t(errorMessageKey("USERNAME_EXISTS")))}
        {...hookProps(USERNAME_AVAILABLE, t("auth.usernameAvailable"))}
      >
        <Honeypot />
        <input type="hidden" name="fingerprint" defaultValue="" />
        {referral.status === "valid" && <input type="hidden" name="ref" value={referral.code} />}
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
          <input
            {...getInputProps(fields.adult, { type: "checkbox" })}
            aria-invalid={fields.adult.errors ? true : undefined}
            aria-describedby={fields.adult.errors ? `${fields.adult.id}-error` : undefined}
          />
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
