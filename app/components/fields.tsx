import { useId, useState, type InputHTMLAttributes, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AUTH_LIMITS } from "~/lib/schemas/auth-limits";
import { Icon } from "./icons";

/*
 * The form building blocks without zod or conform's zod adapter: player pages import them
 * from here so that validation code is not part of their first load (decision 022).
 * forms.tsx re-exports them beside the eager useSchemaForm.
 */

/** Renders translation keys coming from zod (client or server) as messages. */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <ul id={id} className="field-errors" role="list">
      {errors.map((error) => (
        <li key={error}>{t(error, AUTH_LIMITS)}</li>
      ))}
    </ul>
  );
}

/** A labelled input with its description and errors wired for screen readers. */
export function Field({
  label,
  inputProps,
  errors,
  hint,
  after,
}: {
  label: ReactNode;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { key?: string | null };
  errors?: string[] | null;
  hint?: ReactNode;
  after?: ReactNode;
}) {
  const fallbackId = useId();
  const { key, ...props } = inputProps;
  const id = props.id ?? fallbackId;
  const errorId = errors?.length ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        key={key ?? undefined}
        {...props}
        id={id}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
      />
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {after}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/**
 * One "show passwords" switch for every password field of a form (docs/product.md §2). A checkbox,
 * so it is reachable by keyboard; with JavaScript it flips the inputs' type. Without
 * JavaScript it does nothing and is hidden.
 */
export function usePasswordVisibility() {
  const [visible, setVisible] = useState(false);
  return { type: visible ? "text" : "password", visible, setVisible } as const;
}

export function PasswordToggle({ visible, onChange }: { visible: boolean; onChange: (v: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <label className="password-toggle js-only">
      <input type="checkbox" checked={visible} onChange={(e) => onChange(e.currentTarget.checked)} />
      <Icon name="user" size={16} />
      {t("auth.showPasswords")}
    </label>
  );
}

/** A visually hidden field bots fill and people never see (the registration honeypot, decision 003). */
export const HONEYPOT_FIELD = "website";
export function Honeypot() {
  return (
    <div className="honeypot" aria-hidden="true">
      <label htmlFor={HONEYPOT_FIELD}>Website</label>
      <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

/** A labelled <select> wired like <Field>: the field's errors, ids and initial value. */
export function SelectField({
  label,
  field,
  options,
  placeholder,
  fallback,
}: {
  label: ReactNode;
  field: { id: string; name: string; initialValue?: unknown; errors?: string[] };
  options: { value: string; label: ReactNode }[];
  placeholder?: string;
  fallback?: string;
}) {
  const errorId = field.errors?.length ? `${field.id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <select
        id={field.id}
        name={field.name}
        defaultValue={String(field.initialValue ?? fallback ?? "")}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ErrorList id={errorId} errors={field.errors} />
    </div>
  );
}
