import { useTranslation } from "react-i18next";
import { formatMoney } from "~/lib/format";

/**
 * A reward's turnover requirement in its history line (decision 029): "met", or while a
 * credited reward is still to be played through, the bets so far of the target, in the words
 * the current promotion uses ("Turnover X / Y"); otherwise (not credited yet, or the provider
 * did not answer) the target alone.
 */
export function RewardTurnover({ target, done, met }: { target: string; done: string | null; met: boolean }) {
  const { t } = useTranslation();
  if (met)
    return (
      <span data-testid="reward-turnover" data-met="true">
        {t("reward.turnoverMet")}
      </span>
    );
  if (done !== null)
    return <span data-testid="reward-turnover">{t("reward.turnoverProgress", { done: formatMoney(done, "THB"), target: formatMoney(target, "THB") })}</span>;
  return <span data-testid="reward-turnover">{formatMoney(target, "THB")}</span>;
}
