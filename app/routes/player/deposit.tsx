import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useMemo, useRef, useState } from "react";
import { data, Form, Link, redirect, useRevalidator } from "react-router";
import { useTranslation } from "react-i18next";
import { depositCredit, formatAmount, parseWholeKip } from "../../../workers/core/money";
import { cancelDeposit, checkDeposit, depositPage, startDeposit, type DepositError } from "../../../workers/services/deposit";
import { CreditsPanel } from "~/components/credits";
import { ErrorList, SelectField } from "~/components/fields";
import { useLazySchemaForm } from "~/components/lazy-form";
import { translate } from "~/lib/i18n.server";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { nextPollDelay, QR_POLL } from "~/lib/offline";
import { DepositSchema } from "~/lib/schemas/deposit";
import { limitMessage, limitOf } from "~/lib/limits.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { currentPromotionView, promotionErrorMessage } from "~/lib/promotion.server";
import type { PromotionError } from "../../../workers/core/promotion";
import type { Agency } from "../../../workers/services/agency";
import type { CurrentPlayer } from "../../../workers/services/auth";
import type { Route } from "./+types/deposit";

/** The translation key groups this page renders (decision 032). */
export const handle = { i18n: ["deposit", "ownAccount", "credits", "offline", "promotion.rule.setAmount", "promotion.col.bonus"] };

export async function loader({ request, context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const agency = getAgency(context);
  const page = await depositPage(getBindings(context), agency, player, new URL(request.url).origin);
  return { ...page, promotion: await currentPromotionView(context, agency, player), constraint: getZodConstraint(DepositSchema) };
}

/** The browser validates with the same schema, fetched when the player first touches the form. */
const loadDepositSchema = () => import("~/lib/schemas/deposit").then((m) => m.DepositSchema);

const ERROR_FIELD: Partial<Record<DepositError, "provider" | "channelCode" | "amount">> = {
  PROMOTION_SET_AMOUNT: "amount",
  PROMOTION_OTHER_PROVIDER: "provider",
  PROVIDER_REQUIRED: "provider",
  CHANNEL_REQUIRED: "channelCode",
  AMOUNT_INVALID: "amount",
  AMOUNT_TOO_LOW: "amount",
  AMOUNT_TOO_HIGH: "amount",
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

  const submission = parseWithZod(formData, { schema: DepositSchema });
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
      <CreditsPanel credits={loaderData.credits} />
      {loaderData.promotion && !order && (
        <p className="notice" data-testid="deposit-promotion">
          {t("deposit.promotionClaimed", { title: loaderData.promotion.title, provider: t(`providers.${loaderData.promotion.provider}`) })}
          {loaderData.promotion.status === "CLAIMED" && loaderData.promotion.setAmount && <> · {t("promotion.rule.setAmount", { amount: formatMoney(loaderData.promotion.setAmount, "LAK") })}</>}
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
  const [form, fields] = useLazySchemaForm("deposit", { load: loadDepositSchema, constraint: loaderData.constraint }, lastResult, claimed ? { provider: claimed.provider as never, amount: claimed.setAmount?.replace(/\.0+$/, "") ?? undefined } : undefined);
  const [amount, setAmount] = useState(String(fields.amount.initialValue ?? ""));
  const credit = useMemo(() => {
    if (!loaderData.rate) return null;
    // the schema's rule (app/lib/schemas/deposit.ts): digit groups, whole kip
    const minor = parseWholeKip(amount);
    if (minor === null || minor <= 0n) return null;
    return formatAmount(depositCredit(minor, { currency: "THB", buy: 1n, sell: BigInt(loaderData.rate.sellScaled) }), "THB");
  }, [amount, loaderData.rate]);
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="deposit-form">
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
          onInput={(e) => setAmount(e.currentTarget.value)}
          aria-invalid={fields.amount.errors ? true : undefined}
          aria-describedby={`${fields.amount.id}-hint${fields.amount.errors ? ` ${fields.amount.id}-error` : ""}`}
        />
        <p id={`${fields.amount.id}-hint`} className="field-hint">
          {t("deposit.limits", { min: formatMoney(loaderData.limits.min, "LAK"), max: formatMoney(loaderData.limits.max, "LAK") })}
          {loaderData.rate && <> · {t("deposit.rate", { sell: formatMoney(loaderData.rate.sell, "LAK") })}</>}
        </p>
        {credit && (
          <p className="field-ok" data-testid="deposit-credit-preview" aria-live="polite">
            {t("deposit.youGet", { credit: formatMoney(credit, "THB") })}
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

function QrStep({ order, message, confirmCancel }: { order: NonNullable<LoaderData["order"]>; message: string | null; confirmCancel: boolean }) {
  const { t } = useTranslation();
  const status = useDepositStatus(order.code);
  return (
    <div className="qr-step card" data-testid="qr-step">
      <h2>{t("deposit.scanTitle")}</h2>
      {/* With JavaScript the page follows the order by itself; without, "check payment" below. */}
      {status && (
        <p className={`notice${status === "paid" ? " notice-success" : ""}`} role="status" data-testid="qr-status" data-status={status}>
          {t(status === "paid" ? "deposit.paidCrediting" : status === "offline" ? "offline.paused" : "offline.waiting")}
        </p>
      )}
      {order.payAmount ? (
        <div className="pay-exactly" data-testid="pay-exactly" data-qr-mode={order.qrMode}>
          <p className="pay-exactly-amount" data-testid="pay-amount" data-amount={order.payAmount}>
            {t("ownAccount.payExactly", { amount: formatMoney(order.payAmount, "LAK") })}
          </p>
          <p>{t("ownAccount.payExactlyHint", { asked: formatMoney(order.amount, "LAK") })}</p>
          <p>{order.qrMode === "static" ? t("ownAccount.staticHint") : t("ownAccount.derivedHint", { amount: formatMoney(order.payAmount, "LAK") })}</p>
          <p className="muted">{t("ownAccount.waiting")}</p>
        </div>
      ) : (
        <p>{t("deposit.scanHelp")}</p>
      )}
      {order.qrSvg ? (
        <div className="qr" role="img" aria-label={t("deposit.qrLabel", { amount: formatMoney(order.payAmount ?? order.amount, "LAK") })} data-testid="qr" dangerouslySetInnerHTML={{ __html: order.qrSvg }} />
      ) : (
        <p className="notice" data-testid="qr-not-ready">
          {t("deposit.qrNotReady")} <a href="/player/deposit">{t("credits.retry")}</a>
        </p>
      )}
      <dl className="facts">
        <dt>{t("deposit.code")}</dt>
        <dd data-testid="deposit-code">{order.code}</dd>
        <dt>{t("deposit.amount")}</dt>
        <dd>{formatMoney(order.amount, "LAK")}</dd>
        <dt>{t("deposit.credit")}</dt>
        <dd>
          {formatMoney(order.credit, "THB")} · {t(`providers.${order.provider}`)}
        </dd>
        {order.bonus && (
          <>
            <dt>{t("promotion.col.bonus")}</dt>
            <dd data-testid="deposit-bonus">{formatMoney(order.bonus, "THB")}</dd>
          </>
        )}
        <dt>{t("deposit.expiresAt")}</dt>
        <dd>
          {formatDateTime(order.expiresAt)} <Countdown until={order.expiresAt} />
        </dd>
      </dl>
      {order.payload && (
        <div className="field">
          <label htmlFor="qr-payload">{t("deposit.payload")}</label>
          <textarea id="qr-payload" readOnly rows={3} value={order.payload} data-testid="qr-payload" onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={order.payload} />
        </div>
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
        <Form method="post" className="form-actions">
          <input type="hidden" name="code" value={order.code} />
          <button type="submit" name="intent" value="cancel-request" className="button button-ghost">
            {t("deposit.cancel")}
          </button>
          <button type="submit" name="intent" value="check" className="button button-primary" data-testid="check-payment">
            {t("deposit.check")}
          </button>
        </Form>
      )}
    </div>
  );
}

type QrStatus = "waiting" | "paid" | "offline";

/**
 * QR status polling (DESIGN §8, decision 028): asks the JSON API for the player's latest
 * orders, first after 3 s, then less and less often (up to every 15 s); not while the page is
 * hidden or the browser offline, and at once when it comes back. Paid: says so and keeps
 * looking until the credit landed; then (or when the order expired or was cancelled elsewhere)
 * the page's loaders run again: the layout announces the deposit, the credits are fresh.
 * Null before hydration (the server renders no status: without JavaScript there is none).
 */
function useDepositStatus(code: string): QrStatus | null {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const [status, setStatus] = useState<QrStatus | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay: number | null = null;
    let paid = false;
    let done = false;
    const schedule = (now = false) => {
      clearTimeout(timer);
      if (done) return;
      if (!navigator.onLine) return setStatus("offline");
      setStatus(paid ? "paid" : "waiting");
      if (document.hidden) return;
      delay = now ? null : nextPollDelay(delay, QR_POLL.min, QR_POLL.max);
      timer = setTimeout(check, now ? 0 : delay!);
    };
    const check = async () => {
      try {
        const res = await fetch("/api/v2/players/deposits?page=1&pageSize=3", { headers: { Accept: "application/json" } });
        if (res.ok) {
          const { items } = (await res.json()) as { items: { code: string; status: string }[] };
          const state = items.find((o) => o.code === code)?.status;
          if (state === "PAID" && !paid) {
            paid = true;
            delay = null; // money on its way: look again soon
          } else if (state !== "OPEN" && state !== "PAID") {
            done = true;
            void revalidate.current();
            return;
          }
        }
      } catch {
        // the network dropped between two checks: the next one (or "online") tries again
      }
      schedule();
    };
    const resume = () => schedule(true);
    const onVisibility = () => (document.hidden ? clearTimeout(timer) : resume());
    window.addEventListener("online", resume);
    window.addEventListener("offline", resume);
    document.addEventListener("visibilitychange", onVisibility);
    schedule();
    return () => {
      done = true;
      clearTimeout(timer);
      window.removeEventListener("online", resume);
      window.removeEventListener("offline", resume);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [code]);
  return status;
}

/** Minutes and seconds left, ticking with JavaScript; the expiry time above works without it. */
function Countdown({ until }: { until: string }) {
  const { t } = useTranslation();
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  if (now === null) return null;
  const left = Math.max(0, Math.floor((Date.parse(until) - now) / 1000));
  return (
    <span className="countdown" data-testid="countdown">
      ({t("deposit.timeLeft", { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` })})
    </span>
  );
}

/** With JavaScript: copies the payload (without it the read-only field can be selected). */
function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button button-ghost button-small js-only"
      onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))}
    >
      {copied ? t("deposit.copied") : t("deposit.copy")}
    </button>
  );
}
