import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import {
  getUnmatched,
  previewManualCredit,
  resolveAsRefunded,
  resolveWithCredit,
  unmatchedPaymentsPage,
  UNMATCHED_STATUSES,
  type ResolveError,
} from "@workers/services/bank-in";
import { AdminListCount, AdminListPager, ProviderName } from "~/components/admin";
import { BankWitnesses } from "~/components/bank-witnesses";
import { AdminTable } from "~/components/data-table";
import { translate } from "~/lib/i18n.server";
import { getAgency, getBindings } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { listAskOf } from "@workers/core/keyset";
import { ManualCreditSchema, RefundSchema } from "~/lib/schemas/admin-ops";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/payments";

/**
 * Payments with no matching order (unknown reference, wrong amount, late). One is chosen
 * with ?id=...; staff credit it to a player (review, then confirm) or mark it refunded
 * outside the system (note, then confirm). Plain forms: works without JavaScript.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const url = new URL(request.url);
  const status = url.searchParams.get("status") ?? "";
  const ask = listAskOf(url.searchParams, PAGE_SIZE);
  const list = await unmatchedPaymentsPage(getBindings(context).DB, staff.agencyId, { status, ask, id: url.searchParams.get("id") });
  if (!list) throw new Response("Not found", { status: 404 });
  return { ...list, providers: getAgency(context).enabledProviders, role: staff.role, statuses: UNMATCHED_STATUSES };
}

const PAGE_SIZE = 25;

type ActionData =
  | {
      step: "credit-review";
      id: string;
      username: string;
      provider: string;
      amount: string;
      credit: string;
      rateSell: string;
      displayName: string;
      manualCode: string;
      reason: string | null;
      toOrder: boolean;
    }
  | { step: "refund-review"; id: string; note: string }
  | { step: "error"; id: string | null; message: string; username?: string; provider?: string; note?: string; reason?: string };

const ERROR_KEY: Record<ResolveError, string> = {
  NOT_FOUND: "admin:payments.errors.NOT_FOUND",
  ALREADY_RESOLVED: "admin:payments.errors.ALREADY_RESOLVED",
  PLAYER_NOT_FOUND: "admin:payments.errors.PLAYER_NOT_FOUND",
  PROVIDER_REQUIRED: "admin:payments.errors.PROVIDER_REQUIRED",
  NO_RATE: "admin:payments.errors.NO_RATE",
  AMOUNT_UNKNOWN: "admin:payments.errors.AMOUNT_UNKNOWN",
  NOTE_REQUIRED: "admin:payments.validation.note",
  PROBABLE_DUPLICATE: "admin:payments.errors.PROBABLE_DUPLICATE",
  OVERRIDE_REASON_REQUIRED: "admin:payments.errors.OVERRIDE_REASON_REQUIRED",
};

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const env = getBindings(context);
  const agency = getAgency(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const back = (id: string) => `/admin/payments?id=${encodeURIComponent(id)}`;

  if (intent === "credit-review" || intent === "credit") {
    const submission = parseWithZod(form, { schema: ManualCreditSchema });
    const id = String(form.get("id") ?? "");
    if (submission.status !== "success") {
      const first = Object.values(submission.error ?? {}).flat()[0] ?? "admin:payments.validation.username";
      return data<ActionData>(
        { step: "error", id, message: translate(context, first), username: String(form.get("username") ?? ""), provider: String(form.get("provider") ?? "") },
        { status: 400 },
      );
    }
    // the staff member's role decides who may credit money that may already be credited (decision 046)
    const input = { username: submission.value.username, provider: submission.value.provider, role: staff.role, reason: submission.value.reason ?? null };
    if (submission.value.intent === "credit-review") {
      const preview = await previewManualCredit(env, agency, id, input);
      if (!preview.ok) {
        if (preview.error === "NOT_FOUND") throw new Response("Not found", { status: 404 });
        return data<ActionData>(
          {
            step: "error",
            id,
            message: translate(context, ERROR_KEY[preview.error]),
            username: input.username,
            provider: input.provider,
            reason: input.reason ?? "",
          },
          { status: 409 },
        );
      }
      const p = preview.preview;
      return data<ActionData>({
        step: "credit-review",
        id,
        username: p.player.username,
        displayName: p.player.displayName,
        provider: p.provider,
        amount: p.amount,
        credit: p.credit,
        rateSell: p.rateSell,
        manualCode: p.manualCode,
        reason: p.overrideReason,
        toOrder: p.toOrder,
      });
    }
    const done = await resolveWithCredit(env, agency, auditContext(request, staff), id, input);
    if (!done.ok) {
      if (done.error === "NOT_FOUND") throw new Response("Not found", { status: 404 });
      if (done.error === "PROBABLE_DUPLICATE" || done.error === "OVERRIDE_REASON_REQUIRED") {
        return data<ActionData>(
          {
            step: "error",
            id,
            message: translate(context, ERROR_KEY[done.error]),
            username: input.username,
            provider: input.provider,
            reason: input.reason ?? "",
          },
          { status: 409 },
        );
      }
      return redirectWithToast({ request, context }, back(id), {
        type: done.error === "ALREADY_RESOLVED" ? "info" : "error",
        message: translate(context, ERROR_KEY[done.error]),
      });
    }
    return redirectWithToast({ request, context }, back(id), {
      type: "success",
      message: translate(context, "admin:payments.credited", {
        credit: formatMoney(done.order.credit, "THB"),
        username: input.username,
        code: done.order.code,
        status: done.order.status,
      }),
    });
  }

  if (intent === "refund-review" || intent === "refund") {
    const submission = parseWithZod(form, { schema: RefundSchema });
    const id = String(form.get("id") ?? "");
    if (submission.status !== "success") {
      const first = Object.values(submission.error ?? {}).flat()[0] ?? "admin:payments.validation.note";
      return data<ActionData>({ step: "error", id, message: translate(context, first), note: String(form.get("note") ?? "") }, { status: 400 });
    }
    if (submission.value.intent === "refund-review") {
      const payment = await getUnmatched(env.DB, staff.agencyId, id);
      if (!payment) throw new Response("Not found", { status: 404 });
      return data<ActionData>({ step: "refund-review", id, note: submission.value.note });
    }
    const done = await resolveAsRefunded(env, auditContext(request, staff), id, submission.value.note);
    if (!done.ok) {
      if (done.error === "NOT_FOUND") throw new Response("Not found", { status: 404 });
      return redirectWithToast({ request, context }, back(id), { type: "info", message: translate(context, ERROR_KEY[done.error]) });
    }
    return redirectWithToast({ request, context }, back(id), { type: "success", message: translate(context, "admin:payments.refunded") });
  }
  return data<ActionData>({ step: "error", id: null, message: translate(context, "admin:payments.errors.NOT_FOUND") }, { status: 400 });
}

/** The own-account kinds (decision 016) are labelled in the openDeposits section; the others as before. */
function kindLabel(t: (key: string) => string, kind: string): string {
  return kind === "NO_ORDER" || kind === "AMBIGUOUS" || kind === "UNREADABLE" ? t(`openDeposits.kinds.${kind}`) : t(`payments.kinds.${kind}`);
}

export default function AdminPayments({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, total, next, previous, status, selected, providers, twins, witnesses, role, statuses } = loaderData;
  const answer = actionData as ActionData | undefined;
  return (
    <section>
      <title>{t("payments.title")}</title>
      <h1>{t("payments.title")}</h1>
      <p>{t("payments.intro")}</p>
      {/* the payment a link opens (a staff alert's, decision 056) comes first, before the filter */}
      {selected && (
        <div className="admin-card" data-testid="payment-panel" data-status={selected.status}>
          <h2>
            {kindLabel(t, selected.kind)} · {selected.reference}
          </h2>
          <dl className="admin-facts">
            <dt>{t("payments.amount")}</dt>
            <dd>{selected.amount ? formatMoney(selected.amount, "LAK") : t("payments.amountUnknown")}</dd>
            <dt>{t("payments.transaction")}</dt>
            <dd>{selected.transactionId ?? t("common.none")}</dd>
            <dt>{t("payments.orderPlayer")}</dt>
            <dd>{selected.orderPlayerId ? <Link to={`/admin/players/${selected.orderPlayerId}`}>{selected.orderUsername}</Link> : t("common.none")}</dd>
            <dt>{t("payments.receivedAt")}</dt>
            <dd>{formatDateTime(selected.receivedAt)}</dd>
            {selected.channelCode && (
              <>
                <dt>{t("openDeposits.channel")}</dt>
                <dd>
                  {selected.channelCode}
                  {selected.source ? ` · ${t(`openDeposits.sources.${selected.source}`)}` : ""}
                </dd>
                <dt>{t("openDeposits.bankTimeShort")}</dt>
                <dd>{selected.bankTime ? formatDateTime(new Date(selected.bankTime)) : t("common.none")}</dd>
              </>
            )}
            {selected.raw && (
              <>
                <dt>{t("openDeposits.raw")}</dt>
                <dd>
                  <pre className="raw-text" data-testid="payment-raw">
                    {selected.raw}
                  </pre>
                </dd>
              </>
            )}
            <dt>{t("payments.status")}</dt>
            <dd data-testid="payment-status">{t(`payments.statuses.${selected.status}`)}</dd>
            {selected.resolvedBy && (
              <>
                <dt>{t("payments.resolvedBy")}</dt>
                <dd>
                  {selected.resolvedBy} {selected.resolvedAt ? `· ${formatDateTime(selected.resolvedAt)}` : ""}
                </dd>
              </>
            )}
            {selected.manualCode && (
              <>
                <dt>{t("payments.manualOrder")}</dt>
                <dd>
                  <Link to={`/admin/deposits/${selected.manualCode}`}>{selected.manualCode}</Link> → {selected.resolvedUsername} ·{" "}
                  <ProviderName provider={selected.resolvedProvider} /> · {formatMoney(selected.credit, "THB")}
                </dd>
              </>
            )}
            {selected.note && (
              <>
                <dt>{t("payments.note")}</dt>
                <dd>{selected.note}</dd>
              </>
            )}
          </dl>
          {witnesses.length > 1 && <BankWitnesses witnesses={witnesses} />}
          {selected.status === "OPEN" && twins.length > 0 && <TwinWarning twins={twins} raw={selected.raw} role={role} />}
          {selected.status === "OPEN" && (
            <ResolveForms
              id={selected.id}
              providers={providers}
              suggested={selected.orderUsername ?? ""}
              answer={answer?.id === selected.id ? answer : undefined}
              askReason={twins.length > 0 && role === "owner"}
            />
          )}
          {selected.status === "RESOLVING" && selected.resolvedUsername && selected.resolvedProvider && (
            // A credit whose request died half way: finishing it is idempotent (same MANUAL order), allowed after a minute.
            <Form method="post" className="stack" data-testid="credit-resume">
              <input type="hidden" name="id" value={selected.id} />
              <input type="hidden" name="username" value={selected.resolvedUsername} />
              <input type="hidden" name="provider" value={selected.resolvedProvider} />
              <p>{t("payments.resumeExplain")}</p>
              <button type="submit" name="intent" value="credit" className="button">
                {t("payments.resume")}
              </button>
            </Form>
          )}
        </div>
      )}

      <Form method="get" className="admin-filter">
        <div className="field">
          <label htmlFor="p-status">{t("payments.status")}</label>
          <select id="p-status" name="status" defaultValue={status}>
            <option value="">{t("payments.statusOpen")}</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {t(`payments.statuses.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-primary">
          {t("deposits.search")}
        </button>
      </Form>

      <AdminListCount total={total} exact={t("payments.count", { count: total.count })} />
      <AdminTable
        label={t("payments.title")}
        testId="payments-table"
        empty={<p data-testid="payments-empty">{t("payments.empty")}</p>}
        rows={items}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ "data-reference": p.reference })}
        columns={[
          {
            header: t("payments.bankTime"),
            cell: (p) => (
              <>
                {/* the bank's time first (a statement row of 16:31 imported at 19:31 shows 16:31); when it was recorded beneath */}
                {p.bankTime ? formatDateTime(new Date(p.bankTime)) : formatDateTime(p.receivedAt)}
                {p.bankTime ? (
                  <small className="muted" data-testid="payment-recorded">
                    <br />
                    {t("payments.recordedAt")} {formatDateTime(p.receivedAt)}
                  </small>
                ) : null}
              </>
            ),
          },
          { header: t("payments.kind"), cell: (p) => kindLabel(t, p.kind) },
          { header: t("payments.reference"), cell: (p) => p.reference },
          { header: t("payments.amount"), lead: true, cell: (p) => (p.amount ? formatMoney(p.amount, "LAK") : t("payments.amountUnknown")) },
          { header: t("payments.orderPlayer"), cell: (p) => p.orderUsername ?? t("common.none") },
          { header: t("payments.status"), lead: true, cell: (p) => t(`payments.statuses.${p.status}`) },
          {
            header: t("common.actions"),
            cell: (p) => <a href={`/admin/payments?id=${encodeURIComponent(p.id)}${status ? `&status=${status}` : ""}`}>{t("payments.open")}</a>,
          },
        ]}
      />
      <AdminListPager next={next} previous={previous} basePath="/admin/payments" query={status ? { status } : {}} />
    </section>
  );
}

type Twin = {
  kind: "applied" | "hand-credited";
  orderCode: string | null;
  source: string;
  witnessId: string;
  bankTime: number;
  raw: string | null;
  sameSource: boolean;
};

/**
 * This money may already be credited (decision 046): what it may duplicate, with both raw
 * texts side by side; only the owner may credit it, with a written reason.
 */
function TwinWarning({ twins, raw, role }: { twins: Twin[]; raw: string | null; role: string }) {
  const { t } = useTranslation("admin");
  return (
    <div className="notice notice-warning stack" role="alert" data-testid="payment-twins">
      <h3>{t("payments.twins.title")}</h3>
      {twins.map((twin) => (
        <div key={`${twin.source}:${twin.witnessId}`} className="stack">
          <p data-testid="payment-twin">
            {t(twin.kind === "hand-credited" ? "payments.twins.handCredited" : twin.sameSource ? "payments.twins.paidTwice" : "payments.twins.same", {
              order: twin.orderCode ?? "?",
              source: t(`openDeposits.sources.${twin.source}`),
              id: twin.witnessId,
              time: formatDateTime(new Date(twin.bankTime)),
            })}
          </p>
          <div className="side-by-side">
            <figure>
              <figcaption>{t("payments.twins.thisPayment")}</figcaption>
              <pre className="raw-text">{raw ?? t("common.none")}</pre>
            </figure>
            <figure>
              <figcaption>{t("payments.twins.other")}</figcaption>
              <pre className="raw-text">{twin.raw ?? t("common.none")}</pre>
            </figure>
          </div>
        </div>
      ))}
      <p>{t("payments.twins.ownerOnly")}</p>
      {role !== "owner" && <p data-testid="payment-owner-only">{t("payments.errors.PROBABLE_DUPLICATE")}</p>}
    </div>
  );
}

function ResolveForms({
  id,
  providers,
  suggested,
  answer,
  askReason,
}: {
  id: string;
  providers: string[];
  suggested: string;
  answer?: ActionData;
  askReason: boolean;
}) {
  const { t } = useTranslation("admin");
  if (answer?.step === "credit-review") {
    return (
      <Form method="post" className="stack" data-testid="credit-confirm">
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="username" value={answer.username} />
        <input type="hidden" name="provider" value={answer.provider} />
        {answer.reason && <input type="hidden" name="reason" value={answer.reason} />}
        {answer.toOrder && (
          <p className="notice notice-warning" data-testid="credit-to-order">
            {t("payments.toOrder", { code: answer.manualCode, username: answer.username })}
          </p>
        )}
        <p className="notice" role="status">
          {t("payments.creditConfirm", {
            amount: formatMoney(answer.amount, "LAK"),
            credit: formatMoney(answer.credit, "THB"),
            rate: answer.rateSell,
            username: answer.username,
            name: answer.displayName,
            provider: answer.provider,
            code: answer.manualCode,
          })}
        </p>
        <div className="form-actions">
          <a href={`/admin/payments?id=${encodeURIComponent(id)}`} className="button button-ghost">
            {t("common.cancel")}
          </a>
          <button type="submit" name="intent" value="credit" className="button button-primary" data-testid="credit-submit">
            {t("payments.creditSubmit")}
          </button>
        </div>
      </Form>
    );
  }
  if (answer?.step === "refund-review") {
    return (
      <Form method="post" className="stack" data-testid="refund-confirm">
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="note" value={answer.note} />
        <p className="notice" role="status">
          {t("payments.refundConfirm", { note: answer.note })}
        </p>
        <div className="form-actions">
          <a href={`/admin/payments?id=${encodeURIComponent(id)}`} className="button button-ghost">
            {t("common.cancel")}
          </a>
          <button type="submit" name="intent" value="refund" className="button button-danger" data-testid="refund-submit">
            {t("payments.refundSubmit")}
          </button>
        </div>
      </Form>
    );
  }
  const error = answer?.step === "error" ? answer : undefined;
  return (
    <div className="admin-actions">
      <Form method="post" className="stack" data-testid="credit-form">
        <h3>{t("payments.creditTitle")}</h3>
        <input type="hidden" name="id" value={id} />
        <div className="field">
          <label htmlFor="credit-username">{t("payments.username")}</label>
          <input id="credit-username" name="username" required autoCapitalize="none" spellCheck={false} defaultValue={error?.username ?? suggested} />
        </div>
        <div className="field">
          <label htmlFor="credit-provider">{t("payments.provider")}</label>
          <select id="credit-provider" name="provider" required defaultValue={error?.provider ?? ""}>
            <option value="">{t("payments.chooseProvider")}</option>
            {providers.map((p) => (
              <option key={p} value={p}>
                {t(`common:providers.${p}`, { defaultValue: p })}
              </option>
            ))}
          </select>
        </div>
        {askReason && (
          <div className="field">
            <label htmlFor="credit-reason">{t("payments.twins.reason")}</label>
            <textarea id="credit-reason" name="reason" required minLength={3} maxLength={500} rows={3} defaultValue={error?.reason ?? ""} />
          </div>
        )}
        <button type="submit" name="intent" value="credit-review" className="button button-primary">
          {t("payments.creditReview")}
        </button>
      </Form>
      <Form method="post" className="stack" data-testid="refund-form">
        <h3>{t("payments.refundTitle")}</h3>
        <input type="hidden" name="id" value={id} />
        <div className="field">
          <label htmlFor="refund-note">{t("payments.note")}</label>
          <textarea id="refund-note" name="note" required minLength={3} maxLength={500} rows={3} defaultValue={error?.note ?? ""} />
        </div>
        <button type="submit" name="intent" value="refund-review" className="button">
          {t("payments.refundReview")}
        </button>
      </Form>
      {error && (
        <p role="alert" className="form-alert field-errors" data-testid="payment-error">
          {error.message}
        </p>
      )}
    </div>
  );
}
