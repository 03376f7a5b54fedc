import { Form } from "react-router";
import { useTranslation } from "react-i18next";

/**
 * Staff retry of a FAILED reward (decision 029): a plain POST to the list's own action
 * (app/lib/reward-retry.server.ts), with the retry count the page showed, so a double click
 * or a resent page is one retry. Works the same without JavaScript.
 */
export function RewardRetryButton({ code, retries }: { code: string; retries: number }) {
  const { t } = useTranslation("admin");
  return (
    <Form method="post" className="admin-inline-form" data-testid="reward-retry">
      <input type="hidden" name="intent" value="retry" />
      <input type="hidden" name="code" value={code} />
      <input type="hidden" name="retries" value={retries} />
      <button type="submit" className="button button-small" aria-label={`${t("reward.retry.start")} ${code}`}>
        {t("reward.retry.start")}
      </button>
    </Form>
  );
}
