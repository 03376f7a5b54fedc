import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import depositStyles from "~/styles/deposit.css?inline";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useMemo } from "react";
import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "react-i18next";
import { depositAmountError, formatAmount, parseWholeKip, previewCredit } from "@workers/core/money";
import { quickAmounts } from "@workers/core/quick-amounts";
import { vientianeTime } from "@workers/core/vientiane";
import { cancelDeposit, checkDeposit, depositPage, startDeposit, type DepositError } from "@workers/services/deposits";
import { MAX_QR_IMAGE_BYTES } from "@workers/services/agency";
import { CreditsPanel } from "~/components/credits";
import { SlipForm } from "~/components/deposit-slip";
import { ErrorList, SelectField } from "~/components/fields";
import { useLiteForm, useLiteValidation } from "~/components/lite-form";
import { translate } from "~/lib/i18n.server";
import { getAgency, getBindings, getWaitUntil, requirePlayer } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { GAME_LINKS } from "~/lib/menu";
import { QR_POLL } from "~/lib/offline";
import type { I18nHandle } from "~/lib/i18n";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import { depositSchema, type DepositSchema } from "~/lib/schemas/deposit";
import { limitMessage, limitOf } from "~/lib/limits.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { currentPromotionView, promotionErrorMessage } from "~/lib/promotion.server";
import type { PromotionError } from "@workers/core/promotion";
import type { Agency } from "@workers/services/agency";
import type { CurrentPlayer } from "@workers/core/session";
import type { Route } from "./+types/deposit";
import {
  COPIED,
  COPY,
  COUNTDOWN,
  CREDIT_PREVIEW,
  CREDIT_RATE,
  PLAY_NOW,
  POLL_MS,
  QR_POLL_STEP,
  QR_STATUS,
  QUICK_AMOUNT,
  SAVE_QR,
  SELECT_ON_FOCUS,
  hookProps,
} from "~/lib/lite/hooks";

/**
 * A lite page (decisions 021, 034): no React in the browser; the lite script gives client
 * validation (the schema on first touch), the credit preview, QR status polling, the countdown
 * the copy button, the quick amounts and "Save QR" (lib/lite/validate.ts, lib/lite/deposit.ts,
 * lib/lite/save-qr.ts). The translation key groups it renders (decision 032) are also the words
 * those parts use.
 */
export const handle = {
  scripts: "lite",
  styles: depositStyles,
  lite: ["validate", "creditPreview", "quickAmount", "depositStatus", "countdown", "selectOnFocus", "copy", "saveQr"],
  i18n: ["deposit", "depositQr", "depositSlip", "ownAccount", "credits", "offline", "promotion.rule.setAmount", "promotion.col.bonus"],
} satisfies ScriptsHandle & I18nHandle;
export const clientLoader = loadAsDocument;

/** The agency's deposit bounds, as the form's schema takes them (here and, carried by the form, in the browser). */
function depositLimits(agency: Agency) {
  return { min: agency.limits.depositMin, max: agency.limits.depositMax };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const agency = getAgency(context);
  const [page, promotion] = await Promise.all([
    depositPage(getBindings(context), agency, player, new URL(request.url).origin, getWaitUntil(context)),
    currentPromotionView(context, agency, player),
  ]);
  // the fields' constraints, before the schema renames `amount` (lib/schemas/deposit.ts)
  return {
    ...page,
    promotion,
    constraint: getZodConstraint(depositSchema(depositLimits(agency)).in),
    quickAmounts: quickAmounts(depositLimits(agency)),
    prefill: quickAmountPrefill(new URL(request.url).searchParams, page),
  };
}

/**
 * A quick amount tapped without JavaScript submits the form by GET (`?quick=50000&provider=...`):
 * the form comes back with that amount and the provider and channel the player had chosen.
 */
function quickAmountPrefill(query: URLSearchParams, page: { providers: string[]; channels: { code: string }[] }) {
  const amount = query.get("quick");
  if (!amount || !/^\d{1,12}$/.test(amount)) return null;
  const provider = query.get("provider");
  const channelCode = query.get("channelCode");
  return {
    amount,
    provider: provider && page.providers.includes(provider) ? provider : undefined,
    channelCode: channelCode && page.channels.some((c) => c.code === channelCode) ? channelCode : undefined,
  };
}

const ERROR_FIELD: Partial<Record<DepositError, "provider" | "channelCode" | "amount">> = {
  PROMOTION_SET_AMOUNT: "amount",
  PROMOTION_OTHER_PROVIDER: "provider",
  PROVIDER_REQUIRED: "provider",
  CHANNEL_REQUIRED: "channelCode",
};

/** A promotion rule said no: its message, with the provider holding it or the set amount. */
async function depositPromotionMessage(context: Route.ActionArgs["context"], agency: Agency, player: CurrentPlayer, error: PromotionError, provider?: string) {
  const current = error === "PROMOTION_SET_AMOUNT" ? await currentPromotionView(context, agency, player) : null;
  return promotionErrorMessage(context, error, { provider, setAmount: current?.setAmount });
}

export async function action({ request, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  const agency = getAgency(context);
  const env = getBindings(context);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const code = String(formData.get("code") ?? "");
  const args = { request, context };

  if (intent === "check") {
    const { result } = await checkDeposit(env, agency.id, player.id, code);
    if (result === "PAID") return redirectWithSuccess(args, "/player/deposit", translate(context, "deposit.paidCrediting"));
    if (result === "EXPIRED") return redirectWithError(args, "/player/deposit", translate(context, "deposit.expired"));
    return data({ result: null, message: result === "UNAVAILABLE" ? "deposit.checkUnavailable" : "deposit.notPaid", confirmCancel: false }, { status: 200 });
  }
  if (intent === "cancel-request") return data({ result: null, message: null, confirmCancel: true });
  if (intent === "cancel") {
    await cancelDeposit(env, agency.id, player.id, code);
    return redirectWithSuccess(args, "/player/deposit", translate(context, "deposit.cancelled"));
  }

  // the one reading of the typed amount: `submission.value.amountMinor` (LAK minor units) from here on
  const submission = parseWithZod(formData, { schema: depositSchema(depositLimits(agency)) });
  if (submission.status !== "success") return data({ result: submission.reply(), message: null, confirmCancel: false }, { status: 400 });
  const started = await startDeposit(env, agency, player, submission.value, new URL(request.url).origin);
  if (!started.ok) {
    const field = ERROR_FIELD[started.error];
    const limit = limitOf(started);
    const key = limit
      ? limitMessage(context, limit)
      : started.error.startsWith("PROMOTION_") || started.error === "CANNOT_USE_PROMOTION_WHILE_ORDER_IS_OPEN"
        ? await depositPromotionMessage(context, agency, player, started.error as PromotionError, started.provider)
        : started.error === "CHANNEL_BUSY"
          ? "ownAccount.busy"
          : `deposit.errors.${started.error}`;
    return data(
      { result: submission.reply(field ? { fieldErrors: { [field]: [key] } } : { formErrors: [key] }), message: null, confirmCancel: false },
      { status: 400 },
    );
  }
  // Post/Redirect/Get: a refresh never posts again (and a repost would find the same order).
  return redirect("/player/deposit");
}

export default function DepositPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { order } = loaderData;
  return (
    <section className="page narrow">
      <title>{t("menu.deposit")}</title>
      <h1>{t("menu.deposit")}</h1>
      {/* On the QR step the code comes first, inside the first screen; the credits follow it. */}
      {!order && <CreditsPanel credits={loaderData.credits} />}
      {loaderData.promotion && !order && (
        <p className="notice" data-testid="deposit-promotion">
          {t("deposit.promotionClaimed", { title: loaderData.promotion.title, provider: t(`providers.${loaderData.promotion.provider}`) })}
          {loaderData.promotion.status === "CLAIMED" && loaderData.promotion.setAmount && (
            <> · {t("promotion.rule.setAmount", { amount: formatMoney(loaderData.promotion.setAmount, "LAK") })}</>
          )}
        </p>
      )}
      {order ? (
        <QrStep order={order} message={actionData?.message ?? null} confirmCancel={actionData?.confirmCancel ?? false} />
      ) : !loaderData.hasBank ? (
        <p className="notice" data-testid="bank-required">
          {t("deposit.bankRequired")} <Link to="/player/bank">{t("menu.bankAccount")}</Link>
        </p>
      ) : (
        <DepositForm loaderData={loaderData} lastResult={actionData?.result ?? null} />
      )}
      {order && <CreditsPanel credits={loaderData.credits} />}
      <p>
        <Link to="/player/deposit/history">{t("menu.depositHistory")}</Link>
      </p>
    </section>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

function DepositForm({ loaderData, lastResult }: { loaderData: LoaderData; lastResult: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  // A claimed promotion fixes the provider and (when it has one) the amount: filled in for the player.
  const claimed = loaderData.promotion?.status === "CLAIMED" ? loaderData.promotion : null;
  const [form, fields] = useLiteForm<DepositSchema>(
    "deposit",
    loaderData.constraint,
    lastResult,
    claimed
      ? { provider: claimed.provider as never, amount: claimed.setAmount?.replace(/\.0+$/, "") ?? undefined }
      : ((loaderData.prefill as { provider?: never; channelCode?: string; amount: string } | null) ?? undefined),
  );
  // the browser checks the agency's bounds too: the schema's argument, "min,max" (lib/lite/form-validators.ts)
  const validation = useLiteValidation("deposit", `${loaderData.limits.min},${loaderData.limits.max}`);
  // The preview of the amount the server rendered (a post answered with errors keeps it); the
  // lite script recomputes it as the player types, with the same functions (lib/lite/deposit.ts).
  // No quote for an amount the schema refuses: "you get" beside "below the minimum" contradicts it.
  const amountWrong = Boolean(fields.amount.errors);
  const credit = useMemo(() => {
    if (!loaderData.rate || amountWrong) return null;
    const typed = String(fields.amount.initialValue ?? "");
    const minor = parseWholeKip(typed);
    if (minor === null || depositAmountError(minor, loaderData.limits)) return null;
    const credit = previewCredit(typed, BigInt(loaderData.rate.sellScaled));
    return credit === null ? null : formatAmount(credit, "THB");
  }, [fields.amount.initialValue, loaderData.rate, loaderData.limits, amountWrong]);
  return (
    <Form method="post" {...getFormProps(form)} {...validation} noValidate className="stack" data-testid="deposit-form">
      <input type="hidden" name="idempotencyKey" value={loaderData.idempotencyKey} />
      <input type="hidden" name="intent" value="create" />
      <SelectField
        label={t("deposit.provider")}
        field={fields.provider}
        placeholder={t("deposit.chooseProvider")}
        options={loaderData.providers.map((p) => ({ value: p, label: t(`providers.${p}`) }))}
      />
      <SelectField
        label={t("deposit.channel")}
        field={fields.channelCode}
        fallback={loaderData.channels[0]?.code}
        options={loaderData.channels.map((c) => ({ value: c.code, label: `${c.displayName} · ${c.currency}` }))}
      />
      <div className="field">
        <label htmlFor={fields.amount.id}>{t("deposit.amount")}</label>
        <input
          {...getInputProps(fields.amount, { type: "text" })}
          inputMode="numeric"
          autoComplete="off"
          {...(loaderData.rate ? hookProps(CREDIT_RATE, loaderData.rate.sellScaled) : {})}
          aria-invalid={fields.amount.errors ? true : undefined}
          aria-describedby={`${fields.amount.id}-hint${fields.amount.errors ? ` ${fields.amount.id}-error` : ""}`}
        />
        {!claimed?.setAmount && <QuickAmounts amounts={loaderData.quickAmounts} />}
        <p id={`${fields.amount.id}-hint`} className="field-hint">
          {t("deposit.limits", { min: formatMoney(loaderData.limits.min, "LAK"), max: formatMoney(loaderData.limits.max, "LAK") })}
          {loaderData.rate && <> · {t("deposit.rate", { sell: formatMoney(loaderData.rate.sell, "LAK") })}</>}
        </p>
        {loaderData.rate && (
          <p className="field-ok" {...hookProps(CREDIT_PREVIEW)} aria-live="polite" hidden={!credit}>
            {credit && t("deposit.youGet", { credit: formatMoney(credit, "THB") })}
          </p>
        )}
        <ErrorList id={`${fields.amount.id}-error`} errors={fields.amount.errors} />
      </div>
      <div role="alert" className="form-alert">
        <ErrorList id={form.errorId} errors={form.errors} />
      </div>
      <button type="submit" className="button button-primary button-block">
        {t("deposit.createQr")}
      </button>
    </Form>
  );
}

/** The bank apps most Lao players pay with (docs/product.md §5), then any other with LAO QR. */
const BANK_APPS = ["BCEL One", "LDB Trust", "JDB Yes"] as const;

/**
 * The QR step, built for a player paying from the phone that shows it (decision 080): the
 * amount, the time left and the code inside the first screen, "Save QR" (a picture for the bank
 * app's "scan from gallery") as the main action, "check payment" beside it; the steps per bank
 * app, the order's facts and the QR's text (for support: bank apps do not take it) below.
 */
function QrStep({ order, message, confirmCancel }: { order: NonNullable<LoaderData["order"]>; message: string | null; confirmCancel: boolean }) {
  const { t } = useTranslation();
  const payAmount = formatMoney(order.payAmount ?? order.amount, "LAK");
  const provider = t(`providers.${order.provider}`);
  return (
    <div className="qr-step card" data-testid="qr-step" {...hookProps(QR_POLL_STEP, order.code)} {...hookProps(POLL_MS, `${QR_POLL.min},${QR_POLL.max}`)}>
      <h2 className="sr-only">{t("deposit.scanTitle")}</h2>
      <div className="qr-head">
        <p className="qr-amount" data-testid="qr-amount">
          <span className="qr-label">{t("depositQr.payAmount")}</span> {payAmount}
        </p>
        <p className="qr-time" data-testid="qr-valid-until">
          <span className="qr-label">{t("depositQr.validUntil")}</span> {vientianeTime(Date.parse(order.expiresAt))} <Countdown until={order.expiresAt} />
        </p>
      </div>
      {order.qrSvg ? (
        <div
          className="qr"
          role="img"
          aria-label={t("deposit.qrLabel", { amount: payAmount })}
          data-testid="qr"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the SVG is the qrcode package's drawing of the order's own LAO QR payload, made by the server
          dangerouslySetInnerHTML={{ __html: order.qrSvg }}
        />
      ) : (
        <p className="notice" data-testid="qr-not-ready">
          {t("deposit.qrNotReady")} <a href="/player/deposit">{t("credits.retry")}</a>
        </p>
      )}
      {order.payload && (
        <a
          href={`/player/deposit/qr/${order.code}.png`}
          download
          className="button button-primary button-block"
          data-testid="save-qr"
          {...hookProps(SAVE_QR, t("deposit.qrLabel", { amount: payAmount }))}
        >
          {t("depositQr.saveQr")}
        </a>
      )}
      {message && (
        <p className="form-alert" role="alert" data-testid="deposit-message">
          {t(message)}
        </p>
      )}
      {confirmCancel ? (
        <Form method="post" className="confirm" data-testid="cancel-confirm">
          <input type="hidden" name="code" value={order.code} />
          <p>{t("deposit.cancelConfirm")}</p>
          <div className="form-actions">
            <Link to="/player/deposit" className="button button-ghost">
              {t("deposit.keep")}
            </Link>
            <button type="submit" name="intent" value="cancel" className="button button-danger">
              {t("deposit.cancelYes")}
            </button>
          </div>
        </Form>
      ) : (
        <Form method="post" className="form-actions qr-actions">
          <input type="hidden" name="code" value={order.code} />
          <button type="submit" name="intent" value="cancel-request" className="button button-ghost">
            {t("deposit.cancel")}
          </button>
          <button type="submit" name="intent" value="check" className="button button-secondary" data-testid="check-payment">
            {t("deposit.check")}
          </button>
        </Form>
      )}
      {/* With JavaScript the page follows the order by itself (lib/lite/deposit.ts fills and shows
          this, and "play now" once paid); without, "check payment" below. */}
      <p className="notice" role="status" {...hookProps(QR_STATUS)} hidden />
      <a href={GAME_LINKS[order.provider as keyof typeof GAME_LINKS] ?? "/"} className="button button-primary button-block" {...hookProps(PLAY_NOW)} hidden>
        {t("depositQr.playNow", { provider })}
      </a>
      {order.payAmount ? (
        <div className="pay-exactly" data-testid="pay-exactly" data-qr-mode={order.qrMode}>
          <p className="pay-exactly-amount" data-testid="pay-amount" data-amount={order.payAmount}>
            {t("ownAccount.payExactly", { amount: payAmount })}
          </p>
          <p>{t("ownAccount.payExactlyHint", { asked: formatMoney(order.amount, "LAK") })}</p>
          <p>{order.qrMode === "static" ? t("ownAccount.staticHint") : t("ownAccount.derivedHint", { amount: payAmount })}</p>
          <p className="muted">{t("ownAccount.waiting")}</p>
        </div>
      ) : (
        <p>{t("deposit.scanHelp")}</p>
      )}
      {order.payload && <BankSteps amount={payAmount} />}
      {/* paid and nothing came: the bank's slip goes to the cashier (decision 087) */}
      <SlipForm code={order.code} maxMb={MAX_QR_IMAGE_BYTES / 1024 / 1024} error={null} />
      <dl className="facts">
        <dt>{t("deposit.code")}</dt>
        <dd data-testid="deposit-code">{order.code}</dd>
        <dt>{t("deposit.amount")}</dt>
        <dd>{formatMoney(order.amount, "LAK")}</dd>
        <dt>{t("deposit.credit")}</dt>
        <dd>
          {formatMoney(order.credit, "THB")} · {provider}
        </dd>
        {order.bonus && (
          <>
            <dt>{t("promotion.col.bonus")}</dt>
            <dd data-testid="deposit-bonus">{formatMoney(order.bonus, "THB")}</dd>
          </>
        )}
        <dt>{t("deposit.expiresAt")}</dt>
        <dd>{formatDateTime(order.expiresAt)}</dd>
      </dl>
      {order.payload && (
        // the text bank apps do not accept: kept for support, never offered as a way to pay
        <details className="qr-text">
          <summary>{t("depositQr.qrText")}</summary>
          <p className="field-hint">{t("depositQr.qrTextHint")}</p>
          <textarea aria-label={t("depositQr.qrText")} readOnly rows={3} value={order.payload} data-testid="qr-payload" {...hookProps(SELECT_ON_FOCUS)} />
          <CopyButton text={order.payload} />
        </details>
      )}
    </div>
  );
}

/** How to pay from the saved picture, per bank app, in the player's language (a <details> each: no JavaScript needed). */
function BankSteps({ amount }: { amount: string }) {
  const { t } = useTranslation();
  return (
    <section className="bank-steps" aria-labelledby="bank-steps-title" data-testid="bank-steps">
      <h3 id="bank-steps-title">{t("depositQr.howTo")}</h3>
      <p className="field-hint">{t("depositQr.saveHint")}</p>
      {[...BANK_APPS, t("depositQr.otherBank")].map((app) => (
        <details key={app}>
          <summary>{app}</summary>
          <ol>
            <li>{t("depositQr.steps.save")}</li>
            <li>{t("depositQr.steps.open", { app })}</li>
            <li>{t("depositQr.steps.scan")}</li>
            <li>{t("depositQr.steps.gallery")}</li>
            <li>{t("depositQr.steps.confirm", { amount })}</li>
          </ol>
        </details>
      ))}
    </section>
  );
}

/**
 * Round amounts from the agency's limits (workers/core/quick-amounts.ts). Without JavaScript a
 * tap submits the form by GET and the page returns with the amount filled in (the loader's
 * `prefill`); with it, lib/lite/deposit.ts fills the field in place.
 */
function QuickAmounts({ amounts }: { amounts: string[] }) {
  const { t } = useTranslation();
  if (amounts.length === 0) return null;
  return (
    <fieldset className="quick-amounts" data-testid="quick-amounts">
      <legend className="sr-only">{t("depositQr.quickAmounts")}</legend>
      {amounts.map((amount) => (
        <button
          key={amount}
          type="submit"
          name="quick"
          value={amount}
          formMethod="get"
          formNoValidate
          className="button button-ghost button-small"
          {...hookProps(QUICK_AMOUNT, amount)}
        >
          {formatMoney(amount, "LAK")}
        </button>
      ))}
    </fieldset>
  );
}

/** Minutes and seconds left, ticked by the lite script (lib/lite/deposit.ts); the expiry time beside it works without it. */
function Countdown({ until }: { until: string }) {
  return <span className="countdown" data-testid="countdown" {...hookProps(COUNTDOWN, until)} hidden />;
}

/** Copies the payload with JavaScript (the lite `copy` part, lib/lite/copy.ts); without it the read-only field can be selected. */
function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <button type="button" className="button button-ghost button-small js-only" {...hookProps(COPY, text)} {...hookProps(COPIED, t("deposit.copied"))}>
      {t("deposit.copy")}
    </button>
  );
}
