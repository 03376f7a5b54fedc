import { useTranslation } from "react-i18next";
import type { SlipError } from "@workers/services/deposits";

/**
 * The upload form, here and on the deposit page's QR step: a file field that takes a screenshot
 * or the camera (no `capture`: the phone offers both), posted as multipart without JavaScript.
 */
export function SlipForm({ code, maxMb, error }: { code: string; maxMb: number; error: SlipError | null }) {
  const { t } = useTranslation();
  const id = `slip-${code}`;
  return (
    <form
      method="post"
      action={`/player/deposit/${encodeURIComponent(code)}/slip`}
      encType="multipart/form-data"
      className="stack slip-form"
      aria-labelledby={`${id}-title`}
      data-testid="slip-form"
    >
      <h2 id={`${id}-title`}>{t("depositSlip.add")}</h2>
      <p className="field-hint">{t("depositSlip.intro")}</p>
      <div className="field">
        <label htmlFor={id}>{t("depositSlip.picture")}</label>
        <input
          id={id}
          name="slip"
          type="file"
          accept="image/png,image/jpeg"
          required
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          aria-invalid={error ? true : undefined}
        />
        <p id={`${id}-hint`} className="field-hint">
          {t("depositSlip.pictureHint", { mb: maxMb })}
        </p>
        <div role="alert" className="form-alert">
          {error && (
            <ul id={`${id}-error`} className="field-errors" role="list" data-testid="slip-error">
              <li>{t(`depositSlip.errors.${error}`, { mb: maxMb })}</li>
            </ul>
          )}
        </div>
      </div>
      <button type="submit" className="button button-secondary button-block" data-testid="slip-submit">
        {t("depositSlip.send")}
      </button>
    </form>
  );
}
