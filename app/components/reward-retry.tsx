import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatMoney } from "~/lib/format";
import { AdminTable } from "./data-table";

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
    <AdminTable
      label={label}
      caption="sr-only"
      testId={testId}
      rows={claims}
      rowKey={(c) => c.code}
      rowProps={(c) => ({ "data-code": c.code })}
      columns={[
        { header: t("cashback.col.date"), cell: (c) => formatDateTime(c.createdAt) },
        { header: t("cashback.col.player"), cell: (c) => c.username },
        { header: t("cashback.col.period"), cell: (c) => c.period },
        { header: t("cashback.col.provider"), cell: (c) => c.provider },
        { header: t("cashback.col.amount"), lead: true, cell: (c) => formatMoney(c.amount, "THB") },
        {
          header: t("cashback.col.status"),
          td: (c) => ({ "data-status": c.status }),
          cell: (c) => (
            <>
              {t(`cashback.status.${c.status}`)}
              {c.reason ? <span className="muted"> ({c.reason})</span> : null}
              {c.retryable ? <RewardRetryButton code={c.code} retries={c.retries} /> : null}
            </>
          ),
        },
      ]}
    />
  );
}
