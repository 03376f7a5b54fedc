import { useTranslation } from "react-i18next";
import { COPIED, COPY, hookProps } from "~/lib/lite/hooks";

/**
 * A staff page's copy button for a value a cashier types into the bank app (account number,
 * name, amount; decision 086): the lite `copy` part's markup (lib/lite/copy.ts), shown only with
 * JavaScript (`.js-only`); without it the value beside it is plain text to select. The name of
 * what it copies is in the button for a screen reader ("Copy account number").
 */
export function CopyButton({ value, what, testId }: { value: string; what: string; testId?: string }) {
  const { t } = useTranslation("admin");
  return (
    <button
      type="button"
      className="button button-small copy-button js-only"
      data-testid={testId}
      {...hookProps(COPY, value)}
      {...hookProps(COPIED, t("payoutQr.copied"))}
    >
      {t("payoutQr.copy")}
      <span className="sr-only"> {what}</span>
    </button>
  );
}
