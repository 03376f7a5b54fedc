import { Fragment } from "react";
import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { formatAmount } from "@workers/core/money";
import { confirmWithdraw, reviewWithdraw, withdrawPage, type WithdrawError } from "@workers/services/withdrawals";
import { CreditsPanel } from "~/components/credits";
import { ErrorList, SelectField } from "~/components/fields";
import { useLiteForm, useLiteValidation } from "~/components/lite-form";
import type { I18nHandle } from "~/lib/i18n";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import { translate } from "~/lib/i18n.server";
import { getAgency, getBindings, getWaitUntil, requirePlayer } from "~/lib/context.server";
import type { Agency } from "@workers/services/agency";
import { formatMoney } from "~/lib/format";
import { withdrawSchema, type WithdrawSchema } from "~/lib/schemas/withdraw";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/withdraw";
import { BankMark } from "../../components/bank-mark";

/**
 * A lite page (decisions 021, 034): no React in the browser. Its React version did one thing
 * with JavaScript, client validation with the schema fetched on the first touch: the lite
 * script does it with the same schema (lib/lite/validate.ts); the confirm step is a plain form
 * post and a link back. The translation key groups it renders (decision 032).
 */
export const handle = {
  scripts: "lite",
  lite: ["validate"],
  i18n: ["withdraw", "bankNames", "deposit.provider", "deposit.chooseProvider", "credits", "reward.errors", "levels.errors", "errors.code"],
} satisfies ScriptsHandle & I18nHandle;
export const clientLoader = loadAsDocument;

/** The agency's withdraw bounds in credit, as the form's schema takes them (here and, carried by the form, in the browser). */
function withdrawLimits(agency: Agency) {
  return { min: agency.limits.withdrawMin, max: agency.limits.withdrawMax };
}

export async function loader({ context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const agency = getAgency(context);
  // the fields' constraints, before the schema reads `amount` into `amountMinor` (lib/schemas/withdraw.ts)
  return {
    ...(await withdrawPage(getBindings(context), agency, player, getWaitUntil(context))),
    constraint: getZodConstraint(withdrawSchema(withdrawLimits(agency)).in),
  };
}

/** The service's refusals shown on a field ("all credit" outside the agency's bounds, more than the credit...). */
const ERROR_FIELD: Partial<Record<WithdrawError, "provider" | "amount">> = {
  PROVIDER_REQUIRED: "provider",
  AMOUNT_INVALID: "amount",
  AMOUNT_TOO_LOW: "amount",
  AMOUNT_TOO_HIGH: "amount",
  CREDIT_NOT_ENOUGH: "amount",
};

type Summary = {
  provider: string;
  amount: string;
  all: boolean;
  idempotencyKey: string;
  bankCode: string;
  accountName: string;
  accountNumber: string;
  credit: string;
  deductions: { kind: string; credit: string }[];
  received: string;
  manual: boolean;
  /** A claim of the player's is held for review (decision 094): said instead of the usual "staff will pay". */
  checking: boolean;
  promotion: { outcome: "SUCCESS" | "CANCELED"; turnoverDone: string; turnoverTarget: string } | null;
};

/** Promotion rules speak with the catalogue's messages (docs/product.md §8); the rest with the withdraw page's. */
function errorKey(error: string): string {
  if (error.startsWith("REWARD_")) return `reward.errors.${error}`; // decision 029: a reward's turnover holds the provider
  if (error.startsWith("LEVEL_")) return `levels.errors.${error}`; // decision 091: the VIP level's daily limit
  return error.startsWith("PROMOTION_") ? `errors.code.${error}` : `withdraw.errors.${error}`;
}

export async function action({ request, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  const agency = getAgency(context);
  const env = getBindings(context);
  const formData = await request.formData();
  const intent = formData.get("intent");
  // the one reading of the typed amount: `amountMinor` (credit minor units, or "ALL") from here on
  const submission = parseWithZod(formData, { schema: withdrawSchema(withdrawLimits(agency)) });
  if (submission.status !== "success") return data({ result: submission.reply(), summary: null as Summary | null }, { status: 400 });
  const { provider, amountMinor, idempotencyKey } = submission.value;

  if (intent === "confirm") {
    const confirmed = await confirmWithdraw(env, agency, player, { provider, amountMinor, idempotencyKey }, new URL(request.url).origin);
    const args = { request, context };
    if (!confirmed.ok) return redirectWithError(args, "/player/withdraw", translate(context, errorKey(confirmed.error)));
    if (confirmed.order.status === "FAILED") return redirectWithError(args, "/player/withdraw", translate(context, "withdraw.cannotWithdraw"));
    return redirectWithSuccess(
      args,
      "/player/withdraw/history",
      translate(context, "withdraw.requested", { credit: formatMoney(confirmed.order.credit, "THB") }),
    );
  }

  const reviewed = await reviewWithdraw(env, agency, player, { provider, amountMinor });
  if (!reviewed.ok) {
    const field = ERROR_FIELD[reviewed.error];
    const key = errorKey(reviewed.error);
    return data(
      { result: submission.reply(field ? { fieldErrors: { [field]: [key] } } : { formErrors: [key] }), summary: null as Summary | null },
      { status: 400 },
    );
  }
  const { review } = reviewed;
  const summary: Summary = {
    provider: review.provider,
    // the confirm step posts the amount back as the schema read it, in our decimal form ("200.00")
    amount: amountMinor === "ALL" ? "" : formatAmount(amountMinor, "THB"),
    all: amountMinor === "ALL",
    idempotencyKey,
    bankCode: review.bank.bankCode,
    accountName: review.bank.accountName,
    accountNumber: review.bank.maskedNumber,
    credit: formatAmount(review.quote.creditMinor, "THB"),
    deductions: review.quote.deductions.map((d) => ({ kind: d.kind, credit: formatAmount(d.creditMinor, "THB") })),
    received: formatAmount(review.quote.receivedLakMinor, "LAK"),
    manual: review.review === "MANUAL",
    checking: review.checking,
    promotion: review.promotion && {
      outcome: review.promotion.outcome,
      turnoverDone: review.promotion.turnoverDone,
      turnoverTarget: review.promotion.turnoverTarget,
    },
  };
  return data({ result: submission.reply(), summary });
}

export default function WithdrawPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const summary = actionData?.summary ?? null;
  return (
    <section className="page narrow">
      <title>{t("menu.withdraw")}</title>
      <h1>{t("menu.withdraw")}</h1>
      <CreditsPanel credits={loaderData.credits} />
      {!loaderData.bank ? (
        <p className="notice" data-testid="bank-required">
          {t("withdraw.bankRequired")} <Link to="/player/bank">{t("menu.bankAccount")}</Link>
        </p>
      ) : summary ? (
        <ConfirmStep summary={summary} />
      ) : (
        <WithdrawForm loaderData={loaderData} lastResult={actionData?.result ?? null} />
      )}
      <p>
        <Link to="/player/withdraw/history">{t("menu.withdrawHistory")}</Link>
      </p>
    </section>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

function WithdrawForm({ loaderData, lastResult }: { loaderData: LoaderData; lastResult: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  const [form, fields] = useLiteForm<WithdrawSchema>("withdraw", loaderData.constraint, lastResult);
  // the browser checks the agency's bounds too: the schema's argument, "min,max" in credit (lib/lite/form-validators.ts)
  const validation = useLiteValidation("withdraw", `${loaderData.limits.min},${loaderData.limits.max}`);
  const bank = loaderData.bank!;
  return (
    <Form method="post" {...getFormProps(form)} {...validation} noValidate className="stack" data-testid="withdraw-form">
      <input type="hidden" name="idempotencyKey" value={loaderData.idempotencyKey} />
      <SelectField
        label={t("deposit.provider")}
        field={fields.provider}
        placeholder={t("deposit.chooseProvider")}
        options={loaderData.providers.map((p) => ({ value: p, label: t(`providers.${p}`) }))}
      />
      <div className="card bank-card" data-testid="withdraw-bank">
        <BankMark code={bank.bankCode} size={40} />
        <div>
          <p className="card-title">{t(`bankNames.${bank.bankCode}`)}</p>
          <p className="muted">
            {bank.accountName} · {bank.maskedNumber}
          </p>
        </div>
      </div>
      <div className="field">
        <label htmlFor={fields.amount.id}>{t("withdraw.amount")}</label>
        <input
          {...getInputProps(fields.amount, { type: "text" })}
          inputMode="decimal"
          autoComplete="off"
          aria-describedby={`${fields.amount.id}-hint${fields.amount.errors ? ` ${fields.amount.id}-error` : ""}`}
          aria-invalid={fields.amount.errors ? true : undefined}
        />
        <p id={`${fields.amount.id}-hint`} className="field-hint">
          {t("withdraw.limits", { min: formatMoney(loaderData.limits.min, "THB"), max: formatMoney(loaderData.limits.max, "THB") })}
        </p>
        <ErrorList id={`${fields.amount.id}-error`} errors={fields.amount.errors} />
      </div>
      <div className="field field-check">
        <input {...getInputProps(fields.all, { type: "checkbox" })} />
        <label htmlFor={fields.all.id}>{t("withdraw.all")}</label>
      </div>
      <div role="alert" className="form-alert">
        <ErrorList id={form.errorId} errors={form.errors} />
      </div>
      <button type="submit" name="intent" value="review" className="button button-primary button-block">
        {t("withdraw.next")}
      </button>
    </Form>
  );
}

/** The confirm summary (docs/product.md §2): bank, account name and number, amount, amount received. */
function ConfirmStep({ summary }: { summary: Summary }) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="card stack" data-testid="withdraw-confirm">
      <h2>{t("withdraw.confirmTitle")}</h2>
      <input type="hidden" name="provider" value={summary.provider} />
      <input type="hidden" name="amount" value={summary.amount} />
      {summary.all && <input type="hidden" name="all" value="on" />}
      <input type="hidden" name="idempotencyKey" value={summary.idempotencyKey} />
      <dl className="facts">
        <dt>{t("withdraw.bank")}</dt>
        <dd>{t(`bankNames.${summary.bankCode}`)}</dd>
        <dt>{t("withdraw.accountName")}</dt>
        <dd>{summary.accountName}</dd>
        <dt>{t("withdraw.accountNumber")}</dt>
        <dd>{summary.accountNumber}</dd>
        <dt>{t("withdraw.from")}</dt>
        <dd>{t(`providers.${summary.provider}`)}</dd>
        <dt>{t("withdraw.amount")}</dt>
        <dd data-testid="confirm-credit">{formatMoney(summary.credit, "THB")}</dd>
        {summary.deductions.length === 0 ? (
          <>
            <dt>{t("withdraw.fee")}</dt>
            <dd>{formatMoney("0", "THB")}</dd>
          </>
        ) : (
          summary.deductions.map((d) => (
            <Fragment key={d.kind}>
              <dt>{t(`withdraw.deduction.${d.kind}`)}</dt>
              <dd data-testid={`deduction-${d.kind}`}>-{formatMoney(d.credit, "THB")}</dd>
            </Fragment>
          ))
        )}
        <dt>{t("withdraw.received")}</dt>
        <dd data-testid="confirm-received">{formatMoney(summary.received, "LAK")}</dd>
      </dl>
      {summary.promotion && (
        <p className="notice" data-testid="withdraw-promotion">
          {t("withdraw.promotionTurnover", {
            done: formatMoney(summary.promotion.turnoverDone, "THB"),
            target: formatMoney(summary.promotion.turnoverTarget, "THB"),
          })}{" "}
          · {t(summary.promotion.outcome === "SUCCESS" ? "withdraw.promotionMet" : "withdraw.promotionNotMet")}
        </p>
      )}
      {summary.manual && (
        <p className="notice" data-testid={summary.checking ? "withdraw-checking" : undefined}>
          {t(summary.checking ? "withdraw.checking" : "withdraw.manualReview")}
        </p>
      )}
      <div className="form-actions">
        <Link to="/player/withdraw" className="button button-ghost">
          {t("withdraw.back")}
        </Link>
        <button type="submit" name="intent" value="confirm" className="button button-primary" data-testid="withdraw-confirm-button">
          {t("withdraw.confirm")}
        </button>
      </div>
    </Form>
  );
}
