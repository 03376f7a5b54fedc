import { Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { CurrentPromotionView, PromotionRules, UsageStatus } from "@workers/core/promotion";
import { formatDateTime, formatMoney } from "~/lib/format";

const USAGE_COLOUR: Record<UsageStatus, "grey" | "yellow" | "green" | "red"> = { CLAIMED: "grey", USED: "yellow", SUCCESS: "green", CANCELED: "red" };

/** docs/product.md §4 promotion statuses; the colours follow the order statuses' (in use = yellow, like PAID). */
export function UsageStatusBadge({ status }: { status: UsageStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`status status-${USAGE_COLOUR[status]}`} data-status={status}>
      {t(`promotion.status.${status}`)}
    </span>
  );
}

/** Every rule of a promotion in the player's words (the conditions a player agrees to). */
export function PromotionRuleList({ rules }: { rules: PromotionRules }) {
  const { t } = useTranslation();
  const multiple = Number(rules.turnoverMultiple);
  return (
    <ul className="rules" data-testid="promotion-rules">
      <li>
        {rules.bonusKind === "FIXED"
          ? t("promotion.rule.bonusFixed", { value: formatMoney(rules.bonusValue, "THB") })
          : t("promotion.rule.bonusPercent", { value: rules.bonusValue, cap: formatMoney(rules.bonusCap ?? "0", "THB") })}
      </li>
      {rules.setAmount && <li>{t("promotion.rule.setAmount", { amount: formatMoney(rules.setAmount, "LAK") })}</li>}
      {rules.firstOrderOnly && <li>{t("promotion.rule.firstOrder")}</li>}
      <li>{t("promotion.rule.threshold", { value: formatMoney(rules.creditThreshold, "THB") })}</li>
      <li>{multiple > 0 ? t("promotion.rule.turnover", { multiple: rules.turnoverMultiple }) : t("promotion.rule.noTurnover")}</li>
      {rules.maxWithdrawCredit && <li>{t("promotion.rule.maxWithdraw", { value: formatMoney(rules.maxWithdrawCredit, "THB") })}</li>}
      {rules.withdrawAll && <li>{t("promotion.rule.withdrawAll")}</li>}
      <li>{t("promotion.rule.providers", { list: rules.providers.map((p) => t(`providers.${p}`)).join(", ") })}</li>
    </ul>
  );
}

/**
 * The promotion claimed or in use: what happens next, the turnover so far, and (while only
 * claimed) a cancel button that asks first — a second form post, so it works without JS.
 */
export function CurrentPromotion({ current, confirmCancel, action }: { current: CurrentPromotionView; confirmCancel: boolean; action: string }) {
  const { t } = useTranslation();
  const provider = t(`providers.${current.provider}`);
  return (
    <div className="card current-promotion" data-testid="current-promotion">
      <h2>
        {t("promotion.current")}: <Link to={`/player/promotion/${current.promotionId}`}>{current.title}</Link> <UsageStatusBadge status={current.status} />
      </h2>
      {current.held && (
        <p className="notice" role="status" data-testid="promotion-held">
          {t("promotion.bonusBeingChecked")}
        </p>
      )}
      <dl className="facts">
        <dt>{t("promotion.provider")}</dt>
        <dd>{provider}</dd>
        <dt>{t("promotion.col.usedAt")}</dt>
        <dd>{formatDateTime(current.claimedAt)}</dd>
        {current.bonus && (
          <>
            <dt>{t("promotion.col.bonus")}</dt>
            <dd data-testid="promotion-bonus">
              {t(current.bonusCredited ? "promotion.bonusCredited" : "promotion.bonusPending", { bonus: formatMoney(current.bonus, "THB") })}
            </dd>
          </>
        )}
        {current.turnoverTarget && current.turnoverDone !== null && (
          <>
            <dt>{t("promotion.turnoverLabel")}</dt>
            <dd data-testid="promotion-turnover">
              {t("promotion.turnover", { done: formatMoney(current.turnoverDone, "THB"), target: formatMoney(current.turnoverTarget, "THB") })}
            </dd>
          </>
        )}
      </dl>
      {current.status === "CLAIMED" && (
        <>
          <p>
            {current.setAmount
              ? t("promotion.nextDepositAmount", { amount: formatMoney(current.setAmount, "LAK"), provider })
              : t("promotion.nextDeposit", { provider })}{" "}
            <Link to="/player/deposit" className="button button-primary">
              {t("promotion.depositNow")}
            </Link>
          </p>
          {confirmCancel ? (
            <Form method="post" action={action} className="confirm" data-testid="cancel-promotion-confirm">
              <p role="alert">{t("promotion.cancelConfirm")}</p>
              <input type="hidden" name="usageId" value={current.usageId} />
              <div className="form-actions">
                <Link to={action} className="button button-ghost">
                  {t("promotion.keep")}
                </Link>
                <button type="submit" name="intent" value="cancel" className="button button-danger">
                  {t("promotion.cancelYes")}
                </button>
              </div>
            </Form>
          ) : (
            <Form method="post" action={action}>
              <input type="hidden" name="usageId" value={current.usageId} />
              <button type="submit" name="intent" value="cancel-request" className="button button-ghost">
                {t("promotion.cancel")}
              </button>
            </Form>
          )}
        </>
      )}
    </div>
  );
}
