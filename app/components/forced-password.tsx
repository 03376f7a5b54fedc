import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import { ErrorList, Field, PasswordToggle, usePasswordVisibility, useSchemaForm } from "./forms";
import { ForcedPasswordSchema } from "~/lib/schemas/forced-password";
import { useLiteValidation } from "./lite-form";

/**
 * After a staff reset: the player chooses their own password before any other page (plain
 * form post; works without JavaScript).
 */
export function ForcedPasswordForm({ result }: { result?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const visibility = usePasswordVisibility();
  const [form, fields] = useSchemaForm("forced-password", ForcedPasswordSchema, result);
  // the page is lite: the lite script validates with the same schema (decision 034)
  const validation = useLiteValidation("forced-password");
  return (
    <Form method="post" action="/player/password" {...getFormProps(form)} {...validation} noValidate className="stack" data-testid="forced-password-form">
      <input type="hidden" name="intent" value="forced" />
      <p className="notice" role="status" data-testid="forced-password-notice">
        {t("forcedPassword.intro")}
      </p>
      <Field
        label={t("password.new")}
        inputProps={{ ...getInputProps(fields.newPassword, { type: "password" }), type: visibility.type, autoComplete: "new-password" }}
        errors={fields.newPassword.errors}
      />
      <Field
        label={t("password.confirm")}
        inputProps={{ ...getInputProps(fields.confirmNewPassword, { type: "password" }), type: visibility.type, autoComplete: "new-password" }}
        errors={fields.confirmNewPassword.errors}
      />
      <PasswordToggle visible={visibility.visible} onChange={visibility.setVisible} />
      <div role="alert" className="form-alert">
        <ErrorList id={form.errorId} errors={form.errors} />
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary">
          {t("forcedPassword.save")}
        </button>
      </div>
    </Form>
  );
}
