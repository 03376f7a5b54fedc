import { getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { decideWithdrawal, withdrawalPage } from "@workers/services/withdrawals";
import { ErrorList, Field, getFormProps, useSchemaForm } from "~/components/forms";
import { CopyButton } from "~/components/copy-button";
import { DepositFlag, OrderStatus } from "~/components/admin";
import { StatusBadge } from "~/components/money";
import { AdminTable } from "~/components/data-table";
import { translate } from "~/lib/i18n.server";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { payoutAmountText } from "@workers/core/receive-qr";
import { MarkPaidSchema, RejectSchema } from "~/lib/schemas/admin";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/withdrawal";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { lite: ["validate"], i18n: ["withdrawals.validation"] } satisfies ScriptsHandle & I18nHandle;

/**
 * One withdrawal: the player's bank details (full account number: staff pay it by hand),
 * recent history, and the two decisions. A code of another agency is a 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const page = await withdrawalPage(getBindings(context), staff.agencyId, params.code);
  if (!page) throw new Response("Not found", { status: 404 });
  return page;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const env = getBindings(context);
  const who = { ...auditContext(request, staff), via: "back-office" as const };
  if (intent === "paid") {
    const submission = parseWithZod(formData, { schema: MarkPaidSchema });
    if (submission.status !== "success") return data({ form: "paid" as const, result: submission.reply() }, { status: 400 });
    const outcome = await decideWithdrawal(env, staff.agencyId, params.code, { action: "paid", bankReference: submission.value.bankReference }, who);
    if (!outcome.ok) return refused(outcome.code, "paid", submission.reply({ formErrors: ["admin:withdrawals.alreadyHandled"] }));
    return redirectWithSuccess({ request, context }, "/admin/withdrawals", translate(context, "admin:withdrawals.paidDone", { code: params.code }));
  }
  if (intent === "reject") {
    const submission = parseWithZod(formData, { schema: RejectSchema });
    if (submission.status !== "success") return data({ form: "reject" as const, result: submission.reply() }, { status: 400 });
    const outcome = await decideWithdrawal(env, staff.agencyId, params.code, { action: "reject", reason: submission.value.reason }, who);
    if (!outcome.ok) return refused(outcome.code, "reject", submission.reply({ formErrors: ["admin:withdrawals.alreadyHandled"] }));
    return redirectWithSuccess({ request, context }, "/admin/withdrawals", translate(context, "admin:withdrawals.rejectedDone", { code: params.code }));
  }
  return data({ form: null, result: null }, { status: 400 });
}

type Candidate = Route.ComponentProps["loaderData"]["debitCandidates"][number];

/** Bank debits that may be this payout but also another's: the cashier decides (decision 084). */
function DebitCandidates({ candidates }: { candidates: Candidate[] }) {
  const { t } = useTranslation("admin");
  return (
    <section className="card stack debit-candidates" data-testid="debit-candidates">
      <h2>{t("debitPayout.candidatesTitle")}</h2>
      <p className="muted">{t("debitPayout.candidatesHint")}</p>
      <ul className="stack">
        {candidates.map((c) => (
          <li key={`${c.channelCode}:${c.source}:${c.witnessId}`} data-candidate={c.witnessId}>
            <strong>{formatMoney(c.amount, "LAK")}</strong> · {formatDateTime(c.bankTime)} · {t(`reconciliation.sources.${c.source}`)} ·{" "}
            {t(`debitPayout.evidence.${c.evidence}`)}
            {c.raw && <div className="raw-text">{c.raw}</div>}
            {c.others.length > 0 && (
              <div>
                {t("debitPayout.others")}{" "}
                {c.others.map((code, i) => (
                  <span key={code}>
                    {i > 0 && ", "}
                    <Link to={`/admin/withdrawals/${code}`}>{code}</Link>
                  </span>
                ))}
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The player's receive QR to pay by one scan (decision 086): with the amount inserted where a
 * paying channel's bank app takes that for the player's bank (the channels named), else the
 * QR as the bank issued it with the amount beside it in large type. Plain markup: a picture
 * (staff-only route) and text. A player without a QR is paid by account number, as before.
 */
function PayoutQr({ code, amount, name, qr }: { code: string; amount: string; name: string; qr: Route.ComponentProps["loaderData"]["payoutQr"] }) {
  const { t } = useTranslation("admin");
  const src = `/admin/withdrawals/${code}/payout-qr.png`;
  if (!qr) {
    return (
      <p className="muted" data-testid="payout-qr-none">
        {t("payoutQr.none")}
      </p>
    );
  }
  return (
    <section className="card payout-qr" data-testid="payout-qr" data-mode={qr.mode} aria-labelledby="payout-qr-title">
      <h2 id="payout-qr-title">{t("payoutQr.title")}</h2>
      <div className="payout-qr-body">
        <img src={src} alt={t("payoutQr.imageAlt", { name })} width={300} height={300} data-testid="payout-qr-image" />
        <div className="stack">
          <p className="payout-qr-amount" data-testid="payout-qr-amount">
            <span className="muted">{t("payoutQr.amount")}</span> <strong>{formatMoney(amount, "LAK")}</strong>
          </p>
          <p data-testid="payout-qr-how">{qr.mode === "derived" ? t("payoutQr.derived", { channels: qr.channels.join(", ") }) : t("payoutQr.static")}</p>
          {/* a cashier on a phone opens it from the bank app's "scan from gallery" */}
          <a className="button button-small" href={src} download={`payout-${code}.png`} data-testid="payout-qr-save">
            {t("payoutQr.save")}
          </a>
        </div>
      </div>
    </section>
  );
}

function refused<R>(code: "NOT_FOUND" | "CONFLICT", form: "paid" | "reject", result: R) {
  if (code === "NOT_FOUND") throw new Response("Not found", { status: 404 });
  // The other staff member's decision stands; this page shows it after revalidation.
  return data({ form, result }, { status: 409 });
}

export default function WithdrawalDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { order, player, decision } = loaderData;
  const [paidForm, paidFields] = useSchemaForm("withdraw-paid", MarkPaidSchema, actionData?.form === "paid" ? actionData.result : undefined);
  const [rejectForm, rejectFields] = useSchemaForm("withdraw-reject", RejectSchema, actionData?.form === "reject" ? actionData.result : undefined);
  const handled = actionData && actionData.form && actionData.result && !loaderData.awaitsDecision;
  return (
    <section>
      <title>{`${t("withdrawals.detailTitle")} ${order.code}`}</title>
      <p>
        <Link to="/admin/withdrawals">{t("withdrawals.back")}</Link>
      </p>
      <h1>
        {t("withdrawals.detailTitle")} {order.code}
      </h1>
      {handled && (
        <p className="notice" role="alert" data-testid="already-handled">
          {t("withdrawals.alreadyHandled")}
        </p>
      )}
      <dl className="admin-facts" data-testid="withdrawal-facts">
        <dt>{t("withdrawals.status")}</dt>
        <dd data-testid="withdrawal-status" data-status={order.status}>
          <StatusBadge status={order.displayStatus} />
          {order.review !== "AUTO" && <span className="muted"> · {t(`staffScreens.review.${order.review}`, { defaultValue: order.review })}</span>}
        </dd>
        <dt>{t("withdrawals.createdAt")}</dt>
        <dd>{formatDateTime(order.createdAt)}</dd>
        <dt>{t("withdrawals.player")}</dt>
        <dd>
          {player.displayName} ({player.username}) · {player.phone}
        </dd>
        <dt>{t("withdrawals.credit")}</dt>
        <dd>
          {formatMoney(order.credit, "THB")} · {t(`common:providers.${order.provider}`)}
        </dd>
        <dt>{t("withdrawals.toPay")}</dt>
        <dd className="copyable">
          <span data-testid="to-pay">{formatMoney(order.receivedLak, "LAK")}</span>{" "}
          <CopyButton value={payoutAmountText(order.receivedLak) ?? order.receivedLak} what={t("withdrawals.toPay")} testId="copy-amount" />
        </dd>
        <dt>{t("withdrawals.bank")}</dt>
        <dd data-testid="bank-name">{t(`common:bankNames.${order.bankCode}`, { defaultValue: order.bankCode })}</dd>
        <dt>{t("withdrawals.accountName")}</dt>
        <dd className="copyable">
          <span data-testid="account-name">{order.accountName}</span>{" "}
          <CopyButton value={order.accountName} what={t("withdrawals.accountName")} testId="copy-name" />
        </dd>
        <dt>{t("withdrawals.accountNumber")}</dt>
        <dd className="copyable">
          <span data-testid="account-number">{order.accountNumber}</span>{" "}
          <CopyButton value={order.accountNumber} what={t("withdrawals.accountNumber")} testId="copy-number" />
        </dd>
        {order.reason && (
          <>
            <dt>{t("withdrawals.reason")}</dt>
            <dd>{order.reason}</dd>
          </>
        )}
        {order.returnState && (
          <>
            <dt>{t("withdrawals.creditReturn")}</dt>
            <dd>{order.returnState === "DONE" ? t("withdrawals.returned") : t("withdrawals.returning")}</dd>
          </>
        )}
        {decision && (
          <>
            <dt>{t("withdrawals.decidedBy")}</dt>
            <dd data-testid="decision">
              {t(decision.decision === "PAID" ? "withdrawals.decisionPaid" : "withdrawals.decisionRejected", {
                username: decision.staffUsername ?? "",
                when: formatDateTime(decision.decidedAt),
              })}
              {decision.bankReference && ` · ${t("withdrawals.bankReference")}: ${decision.bankReference}`}
            </dd>
          </>
        )}
        {loaderData.paidByDebit && (
          <>
            <dt>{t("debitPayout.paidBy")}</dt>
            <dd data-testid="paid-by-debit">
              {t(`reconciliation.sources.${loaderData.paidByDebit.source}`)} · {loaderData.paidByDebit.witnessId} ·{" "}
              {t(`debitPayout.evidence.${loaderData.paidByDebit.evidence}`)}
              {loaderData.paidByDebit.fee !== "0" && ` · ${t("debitPayout.fee", { fee: formatMoney(loaderData.paidByDebit.fee, "LAK") })}`}
            </dd>
          </>
        )}
      </dl>

      {loaderData.debitCandidates.length > 0 && <DebitCandidates candidates={loaderData.debitCandidates} />}

      {loaderData.awaitsDecision && (
        // side by side on a phone (admin.css), so both decisions are on the first screen (decision 056)
        <div className="admin-actions admin-decisions">
          <Form method="post" {...getFormProps(paidForm)} noValidate className="card stack" data-testid="paid-form">
            <h2>{t("withdrawals.markPaid")}</h2>
            <p className="muted">{t("withdrawals.markPaidHint", { amount: formatMoney(order.receivedLak, "LAK") })}</p>
            <input type="hidden" name="intent" value="paid" />
            <Field
              label={t("withdrawals.bankReference")}
              inputProps={{ ...getInputProps(paidFields.bankReference, { type: "text" }), autoComplete: "off" }}
              errors={paidFields.bankReference.errors}
            />
            <div role="alert" className="form-alert">
              <ErrorList id={paidForm.errorId} errors={paidForm.errors} />
            </div>
            <button type="submit" className="button button-primary">
              {t("withdrawals.markPaid")}
            </button>
          </Form>
          <Form method="post" {...getFormProps(rejectForm)} noValidate className="card stack" data-testid="reject-form">
            <h2>{t("withdrawals.reject")}</h2>
            <p className="muted">{t("withdrawals.rejectHint")}</p>
            <input type="hidden" name="intent" value="reject" />
            <Field
              label={t("withdrawals.reason")}
              inputProps={{ ...getInputProps(rejectFields.reason, { type: "text" }), autoComplete: "off" }}
              errors={rejectFields.reason.errors}
            />
            <div role="alert" className="form-alert">
              <ErrorList id={rejectForm.errorId} errors={rejectForm.errors} />
            </div>
            <button type="submit" className="button button-danger">
              {t("withdrawals.reject")}
            </button>
          </Form>
        </div>
      )}

      {/* under the decisions: they stay on a phone's first screen (decision 056) */}
      {loaderData.awaitsDecision && <PayoutQr code={order.code} amount={order.receivedLak} name={order.accountName} qr={loaderData.payoutQr} />}

      {decision?.decision === "PAID" && (
        <>
          <h2>{t("reconciliation.debits.title")}</h2>
          <AdminTable
            label={t("reconciliation.debits.title")}
            testId="bank-debits"
            empty={
              <p className="muted" data-testid="bank-debits-none">
                {t("reconciliation.debits.none")}
              </p>
            }
            rows={loaderData.bankDebits}
            rowKey={(d) => `${d.channelCode}:${d.transferId}`}
            columns={[
              { header: t("reconciliation.debits.source"), cell: (d) => d.sources.map((s) => t(`reconciliation.sources.${s}`)).join(" + ") },
              {
                header: t("reconciliation.debits.id"),
                cell: (d) => (
                  <>
                    {d.channelCode} · {d.transferId}
                  </>
                ),
              },
              { header: t("reconciliation.bankTime"), cell: (d) => formatDateTime(d.bankTime) },
              { header: t("reconciliation.debits.raw"), td: { className: "raw-text" }, cell: (d) => d.raw },
            ]}
          />
        </>
      )}

      <h2>{t("withdrawals.recentDeposits")}</h2>
      <AdminTable
        label={t("withdrawals.recentDeposits")}
        testId="recent-deposits"
        empty={<p className="muted">{t("common.none")}</p>}
        rows={loaderData.recentDeposits}
        rowKey={(d) => d.code}
        columns={[
          { header: t("withdrawals.code"), cell: (d) => d.code },
          { header: t("withdrawals.createdAt"), cell: (d) => formatDateTime(d.createdAt) },
          { header: t("withdrawals.amount"), lead: true, cell: (d) => formatMoney(d.amount, "LAK") },
          {
            header: t("withdrawals.credit"),
            cell: (d) => (
              <>
                {formatMoney(d.credit, "THB")} <span className="muted">{t(`common:providers.${d.provider}`)}</span>
              </>
            ),
          },
          {
            header: t("withdrawals.status"),
            lead: true,
            cell: (d) => (
              <>
                <OrderStatus status={d.status} />
                {d.flag ? (
                  <>
                    {" · "}
                    <DepositFlag flag={d.flag} />
                  </>
                ) : null}
              </>
            ),
          },
        ]}
      />
      <h2>{t("withdrawals.recentWithdrawals")}</h2>
      <AdminTable
        label={t("withdrawals.recentWithdrawals")}
        testId="recent-withdrawals"
        empty={<p className="muted">{t("common.none")}</p>}
        rows={loaderData.recentWithdrawals}
        rowKey={(w) => w.code}
        columns={[
          {
            header: t("withdrawals.code"),
            cell: (w) => (w.code === order.code ? <strong>{w.code}</strong> : <Link to={`/admin/withdrawals/${w.code}`}>{w.code}</Link>),
          },
          { header: t("withdrawals.createdAt"), cell: (w) => formatDateTime(w.createdAt) },
          { header: t("withdrawals.credit"), cell: (w) => formatMoney(w.credit, "THB") },
          { header: t("withdrawals.toPay"), lead: true, cell: (w) => formatMoney(w.received, "LAK") },
          { header: t("withdrawals.status"), lead: true, cell: (w) => <OrderStatus status={w.status} /> },
        ]}
      />
    </section>
  );
}
