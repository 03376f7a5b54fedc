import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatMoney } from "~/lib/format";
import { TableWrap } from "./table-wrap";

/**
 * Staff retry of a FAILED reward (decision 029): a plain POST to the list's own action
 * (app/lib/reward-retry.server.ts), with the retry count the page showed, so a double click
 * or a resent page is one retry. Works the same without JavaScript.
 */
function RewardRetryButton({ code, retries }: { code: string; retries: number }) {
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

/** One reward claim as the staff lists show it (workers/services cashback and referral pages). */
type RewardClaimLine = {
  code: string;
  createdAt: string;
  username: string;
  period: string;
  provider: string;
  amount: string;
  status: string;
  reason: string | null;
  retries: number;
  retryable: boolean;
};

/** The staff table of reward claims (/admin/cashback, /admin/referrals), a retry on each FAILED line that can be. */
export function RewardClaimsTable({ claims, label, testId }: { claims: readonly RewardClaimLine[]; label: string; testId: string }) {
  const { t } = useTranslation("admin");
  return (
    <TableWrap label={label}>
      <table className="admin-table" data-testid={testId}>
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr>
            <th scope="col">{t("cashback.col.date")}</th>
            <th scope="col">{t("cashback.col.player")}</th>
            <th scope="col">{t("cashback.col.period")}</th>
            <th scope="col">{t("cashback.col.provider")}</th>
            <th scope="col">{t("cashback.col.amount")}</th>
            <th scope="col">{t("cashback.col.status")}</th>
          </tr>
        </thead>
        <tbody>
          {claims.map((c) => (
            <tr key={c.code} data-code={c.code}>
              <td>{formatDateTime(c.createdAt)}</td>
              <td>{c.username}</td>
              <td>{c.period}</td>
              <td>{c.provider}</td>
              <td>{formatMoney(c.amount, "THB")}</td>
              <td data-status={c.status}>
                {t(`cashback.status.${c.status}`)}
                {c.reason ? <span className="muted"> ({c.reason})</span> : null}
                {c.retryable ? <RewardRetryButton code={c.code} retries={c.retries} /> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
