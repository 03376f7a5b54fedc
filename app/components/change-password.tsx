import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { useEffect } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { useTranslation } from "react-i18next";
import { ErrorList, Field, PasswordToggle, usePasswordVisibility, useSchemaForm } from "./forms";
import { JsMarker } from "./js-marker";
import { useLiteValidation } from "./lite-form";
import { PASSWORD_CHANGED, PASSWORD_FORM, hookProps } from "~/lib/lite/hooks";
import { ChangePasswordSchema } from "~/lib/schemas/auth";

/**
 * The change-password form of the /player/password page and of the navbar's dialog
 * (docs/product.md §2): it posts to /player/password with a fetcher when JavaScript runs, as a plain
 * form post when it does not.
 */
type ChangeResult = { result: SubmissionResult<string[]>; changed: boolean; wait: string | null };

export function ChangePasswordForm({ onCancel, serverResult }: { onCancel?: () => void; serverResult?: ChangeResult }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<ChangeResult>({ key: "change-password" });
  const revalidator = useRevalidator();
  const visibility = usePasswordVisibility();
  // With JavaScript the fetcher holds the answer; after a plain form post, the page's action data does.
  const result = fetcher.data ?? serverResult;
  const [form, fields] = useSchemaForm("change-password", ChangePasswordSchema, result?.result);
  // on the lite /player/password page the lite script validates with the same schema (decision 034)
  const validation = useLiteValidation("change-password");
  // The form does not revalidate the page's loaders (defaultShouldRevalidate={false}): after a
  // change every session is gone, and revalidating would swap the navbar (and this dialog)
  // for the visitor's and send /player/* to the login page before the success dialog shows.
  // A refused change still needs the root loader to run, for its error toast.
  const failed = fetcher.state === "idle" && fetcher.data !== undefined && !fetcher.data.changed;
  // biome-ignore lint/correctness/useExhaustiveDependencies(fetcher.data): each refused answer revalidates, a second one too (failed stays true)
  useEffect(() => {
    if (failed) void revalidator.revalidate();
  }, [failed, fetcher.data, revalidator.revalidate]);
  if (result?.changed) return <PasswordChanged />;
  return (
    <fetcher.Form
      method="post"
      action="/player/password"
      defaultShouldRevalidate={false}
      {...getFormProps(form)}
      {...validation}
      noValidate
      className="stack"
      {...hookProps(PASSWORD_FORM)}
    >
      <JsMarker />
      <Field
        label={t("password.current")}
        inputProps={{ ...getInputProps(fields.currentPassword, { type: "password" }), type: visibility.type, autoComplete: "current-password" }}
        errors={fields.currentPassword.errors}
      />
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
      <ErrorList id={form.errorId} errors={form.errors} />
      <div className="form-actions">
        {onCancel && (
          <button type="button" className="button button-ghost" onClick={onCancel}>
            {t("nav.close")}
          </button>
        )}
        <button type="submit" className="button button-primary" disabled={fetcher.state !== "idle"}>
          {t("password.save")}
        </button>
      </div>
    </fetcher.Form>
  );
}

/** Success (docs/product.md §4): title, message, Close; Close reloads into the login screen. */
function PasswordChanged() {
  const { t } = useTranslation();
  return (
    <div
      className="success-panel"
      role="alertdialog"
      aria-labelledby="password-changed-title"
      aria-describedby="password-changed-body"
      {...hookProps(PASSWORD_CHANGED)}
    >
      <h2 id="password-changed-title">{t("password.changedTitle")}</h2>
      <p id="password-changed-body">{t("password.changedBody")}</p>
      <a href="/login" className="button button-primary" data-testid="password-changed-close">
        {t("nav.close")}
      </a>
    </div>
  );
}

/** With JavaScript, "Change password" in the player menu opens this dialog instead of the page. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <dialog
      className="dialog"
      aria-labelledby="change-password-title"
      data-testid="password-dialog"
      ref={(node) => {
        if (!node) return;
        if (open && !node.open) node.showModal();
        if (!open && node.open) node.close();
      }}
      onClose={onClose}
    >
      <h2 id="change-password-title">{t("password.title")}</h2>
      {open && <ChangePasswordForm onCancel={onClose} />}
    </dialog>
  );
}
