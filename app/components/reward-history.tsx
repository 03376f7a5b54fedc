import { useTranslation } from "react-i18next";
import { HistoryTable, type HistoryColumn } from "~/components/money";
import { RewardTurnover } from "~/components/reward-turnover";
import { formatDateTime, formatMoney } from "~/lib/format";

type RewardLine = {
  code: string;
  createdAt: string;
  provider: string;
  amount: string;
  turnoverTarget: string;
  turnoverDone: string | null;
  turnoverMet: boolean;
  status: string;
};

/**
 * The player's reward history (cashback, check-in and streak pages): date, what (`detail`: the
 * period, or the kind), provider, amount, the turnover as above, status; or the empty line.
 */
export function RewardHistory<T extends RewardLine>({ history, detail }: { history: T[]; detail: HistoryColumn<T> }) {
  const { t } = useTranslation();
  return (
    <>
      <h2>{t("reward.history")}</h2>
      {history.length === 0 ? (
        <p className="empty" data-testid="reward-history-empty">
          {t("reward.historyEmpty")}
        </p>
      ) : (
        <HistoryTable
          testId="reward-history"
          rows={history}
          columns={[
            { label: t("reward.col.date"), cell: (r) => formatDateTime(r.createdAt) },
            detail,
            { label: t("reward.col.provider"), cell: (r) => t(`providers.${r.provider}`) },
            { label: t("reward.col.amount"), testId: "reward-amount", cell: (r) => formatMoney(r.amount, "THB") },
            { label: t("reward.col.turnover"), cell: (r) => <RewardTurnover target={r.turnoverTarget} done={r.turnoverDone} met={r.turnoverMet} /> },
            { label: t("reward.col.status"), cell: (r) => <span data-status={r.status}>{t(`reward.status.${r.status}`)}</span> },
          ]}
        />
      )}
    </>
  );
}
