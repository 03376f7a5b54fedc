import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { typedDateTimeValue } from "@workers/core/vientiane";
import { checkDepositSlip, markOpenDepositPaid, openDepositsQueue, type MarkPaidError, type QueuedSlip } from "@workers/services/bank-in";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { MarkPaidSchema, SlipCheckedSchema } from "~/lib/schemas/open-deposits";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/open-deposits";
import { TypedDateInput } from "~/components/admin";
import { AdminTable } from "~/components/data-table";

/**
 * Open deposits into the agency's own bank account (cashier and owner): each order with the
 * exact amount the player must pay; when the money shows in the bank app, staff type the
 * bank's transaction id and time and press "mark paid". Plain forms: works without JavaScript.
 * Players' transfer slips come first (decision 087): what each says, its picture, and the bank's
 * report its reference links to or the candidates of its order; "checked" takes one off the list.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  return openDepositsQueue(getBindings(context), staff.agencyId);
}

type ActionData = { code: string; message: string; bankTransactionId: string; bankTime: string; outsideLife?: boolean };

const ERROR_KEY: Record<MarkPaidError, string> = {
  TRANSACTION_ID_REQUIRED: "admin:openDeposits.errors.TRANSACTION_ID_REQUIRED",
  BANK_TIME_INVALID: "admin:openDeposits.errors.BANK_TIME_INVALID",
  BANK_TIME_OUTSIDE_ORDER: "admin:openDeposits.errors.BANK_TIME_OUTSIDE_ORDER",
  NOT_OPEN: "admin:openDeposits.errors.NOT_OPEN",
  ALREADY_USED: "admin:openDeposits.errors.ALREADY_USED",
  LATE: "admin:openDeposits.errors.LATE",
};

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const form = await request.formData();
  if (form.get("intent") === "slip-checked") {
    const checked = parseWithZod(form, { schema: SlipCheckedSchema });
    if (checked.status !== "success") throw new Response("Bad form", { status: 400 });
    const done = await checkDepositSlip(getBindings(context), auditContext(request, staff), checked.value.slipId);
    return redirectWithToast({ request, context }, "/admin/deposits/open", {
      type: done ? "success" : "info",
      message: translate(context, done ? "admin:slips.checkedDone" : "admin:slips.alreadyChecked"),
    });
  }
  const echo = {
    code: String(form.get("orderCode") ?? ""),
    bankTransactionId: String(form.get("bankTransactionId") ?? ""),
    bankTime: String(form.get("bankTime") ?? ""),
  };
  const submission = parseWithZod(form, { schema: MarkPaidSchema });
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? ERROR_KEY.TRANSACTION_ID_REQUIRED;
    return data<ActionData>({ ...echo, message: translate(context, first) }, { status: 400 });
  }
  const env = getBindings(context);
  const done = await markOpenDepositPaid(env, auditContext(request, staff), submission.value);
  if (!done.ok) {
    if (done.error === "NOT_OPEN" || done.error === "LATE") {
      // "not open" while the order is still open: the report was recorded and queued, the order reopened (a bank time
      // outside its life recorded anyway): saying the order is no longer waiting would send the cashier the wrong way
      const queued = done.error === "NOT_OPEN" && (await openDepositsQueue(env, staff.agencyId)).items.some((o) => o.code === echo.code);
      return redirectWithToast({ request, context }, "/admin/deposits/open", {
        type: "info",
        message: translate(context, queued ? "admin:openDeposits.recordedQueued" : ERROR_KEY[done.error], { code: echo.code }),
      });
    }
    const life = done.life ? { from: formatDateTime(done.life.createdAt), to: formatDateTime(done.life.expiresAt) } : {};
    return data<ActionData>(
      { ...echo, message: translate(context, ERROR_KEY[done.error], life), outsideLife: done.error === "BANK_TIME_OUTSIDE_ORDER" },
      { status: 409 },
    );
  }
  return redirectWithToast({ request, context }, "/admin/deposits/open", {
    type: "success",
    message: translate(context, "admin:openDeposits.marked", { code: done.orderCode }),
  });
}

/** Now in Vientiane time, as the bank-time field shows it, DD/MM/YYYY HH:mm (the bank app shows local time). */
function vientianeNow(iso: string): string {
  return typedDateTimeValue(Date.parse(iso));
}

export default function OpenDeposits({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, slips, now } = loaderData;
  const answer = actionData as ActionData | undefined;
  return (
    <section>
      <title>{t("openDeposits.title")}</title>
      <h1>{t("openDeposits.title")}</h1>
      {slips.length > 0 && <SlipQueue slips={slips} />}
      <p className="muted">{t("openDeposits.intro", { count: items.length })}</p>
      <AdminTable
        label={t("openDeposits.title")}
        testId="open-deposits"
        empty={
          <p className="empty" data-testid="open-deposits-empty">
            {t("openDeposits.empty")}
          </p>
        }
        rows={items}
        rowKey={(o) => o.code}
        rowProps={(o) => ({ "data-code": o.code })}
        columns={[
          {
            header: t("openDeposits.code"),
            cell: (o) => (
              <>
                <Link to={`/admin/deposits/${o.code}`}>{o.code}</Link>
                <br />
                <span className="muted">{o.channelCode}</span>
              </>
            ),
          },
          {
            header: t("openDeposits.player"),
            cell: (o) => (o.username ? <Link to={`/admin/players/${o.playerId}`}>{o.username}</Link> : t("common.none")),
          },
          {
            header: t("openDeposits.payAmount"),
            lead: true,
            cell: (o) => (
              <>
                <strong data-testid="pay-amount">{formatMoney(o.payAmount, "LAK")}</strong>
                <br />
                <span className="muted">{t("openDeposits.asked", { amount: formatMoney(o.askedAmount, "LAK") })}</span>
              </>
            ),
          },
          { header: t("openDeposits.created"), cell: (o) => formatDateTime(o.createdAt) },
          {
            header: t("openDeposits.expires"),
            cell: (o) => (
              <>
                {formatDateTime(o.expiresAt)}
                {o.expired && (
                  <>
                    <br />
                    <span className="badge">{t("openDeposits.expired")}</span>
                  </>
                )}
              </>
            ),
          },
          { header: t("openDeposits.markPaid"), cell: (o) => <MarkPaidForm code={o.code} now={now} answer={answer?.code === o.code ? answer : undefined} /> },
        ]}
      />
    </section>
  );
}

/** A cashier's "mark paid" of one open order: the bank's transaction id and time, a plain POST. */
function MarkPaidForm({ code, now, answer: mine }: { code: string; now: string; answer: ActionData | undefined }) {
  const { t } = useTranslation("admin");
  const idField = `txn-${code}`;
  const timeField = `time-${code}`;
  return (
    // noValidate: the server's answer is the translated message (a browser's own bubble follows its locale)
    <Form method="post" className="inline-form" aria-label={t("openDeposits.markPaidFor", { code })} noValidate>
      <input type="hidden" name="orderCode" value={code} />
      <label htmlFor={idField}>{t("openDeposits.bankTransactionId")}</label>
      <input
        id={idField}
        name="bankTransactionId"
        required
        maxLength={80}
        autoComplete="off"
        defaultValue={mine?.bankTransactionId ?? ""}
        aria-invalid={mine ? true : undefined}
        aria-describedby={mine ? `err-${code}` : undefined}
      />
      <label htmlFor={timeField}>{t("openDeposits.bankTime")}</label>
      <TypedDateInput kind="dateTime" id={timeField} name="bankTime" required value={mine?.bankTime || vientianeNow(now)} />
      <button type="submit" className="button button-primary">
        {t("openDeposits.markPaid")}
      </button>
      {mine && (
        <p className="field-error" id={`err-${code}`} role="alert" data-testid="mark-paid-error">
          {mine.message}
        </p>
      )}
      {mine?.outsideLife && (
        <button type="submit" name="outsideLife" value="confirm" className="button" data-testid="mark-paid-outside">
          {t("openDeposits.recordOutside")}
        </button>
      )}
    </Form>
  );
}

/**
 * The players' slips waiting to be checked, newest first (decision 087): what the slip says, its
 * picture (staff-only link), the conflict with another order, and the bank's reports beside it:
 * the statement row or SMS its reference links to (the owner confirmed the bank uses that
 * reference), else the candidates of the order's pay amount. A slip is a claim: it never credits;
 * the cashier credits with "mark paid" or from the payments queue as for any order.
 */
function SlipQueue({ slips }: { slips: QueuedSlip[] }) {
  const { t } = useTranslation("admin");
  return (
    <section className="stack" aria-labelledby="slips-title" data-testid="slip-queue">
      <h2 id="slips-title">{t("slips.title", { count: slips.length })}</h2>
      <p className="muted">{t("slips.intro")}</p>
      <ul className="card-list" role="list">
        {slips.map((s) => (
          <li
            key={s.id}
            className="admin-card stack"
            data-testid="slip"
            data-slip={s.id}
            data-code={s.orderCode}
            data-conflict={s.conflict ? "true" : undefined}
          >
            <p className="card-title">
              <strong data-testid="slip-amount">{formatMoney(s.payAmount ?? s.orderAmount, "LAK")}</strong> ·{" "}
              <Link to={`/admin/deposits/${s.orderCode}`}>{s.orderCode}</Link> ·{" "}
              {s.username ? <Link to={`/admin/players/${s.playerId}`}>{s.username}</Link> : t("common.none")}
            </p>
            {s.conflict && (
              <p className="notice" role="note" data-testid="slip-conflict">
                {t("slips.conflict", { codes: s.otherOrders.join(", ") })}
              </p>
            )}
            <dl className="admin-facts">
              <dt>{t("slips.ticket")}</dt>
              <dd data-testid="slip-ticket">{s.ticket}</dd>
              <dt>{t("slips.reference")}</dt>
              <dd data-testid="slip-reference">{s.reference}</dd>
              <dt>{t("slips.received")}</dt>
              <dd>{formatDateTime(new Date(s.receivedAt).toISOString())}</dd>
              <dt>{t("slips.orderStatus")}</dt>
              <dd>{s.orderStatus ? t(`status.${s.orderStatus}`, { ns: "common" }) : t("common.none")}</dd>
            </dl>
            <p>
              <a href={`/admin/slips/${s.id}`} target="_blank" rel="noopener" data-testid="slip-picture">
                {t("slips.picture")}
              </a>
            </p>
            {s.linked.length > 0 ? (
              <div data-testid="slip-linked">
                <p>{t("slips.linked")}</p>
                <SlipReports reports={s.linked} />
              </div>
            ) : (
              <div data-testid="slip-candidates">
                <p>{s.referenceConfirmed ? t("slips.notLinkedYet") : t("slips.candidates")}</p>
                {s.candidates.length > 0 ? <SlipReports reports={s.candidates} /> : <p className="muted">{t("slips.noCandidates")}</p>}
              </div>
            )}
            <Form method="post" className="admin-inline-form">
              <input type="hidden" name="intent" value="slip-checked" />
              <input type="hidden" name="slipId" value={s.id} />
              <button type="submit" className="button" data-testid="slip-checked">
                {t("slips.check")}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Bank reports beside a slip: source, id, time and what became of their transfer (the order it paid, or the queue item). */
function SlipReports({ reports }: { reports: QueuedSlip["linked"] }) {
  const { t } = useTranslation("admin");
  return (
    <ul className="stack" role="list">
      {reports.map((r) => (
        <li key={`${r.source}:${r.witnessId}`} data-testid="slip-report" data-source={r.source} data-witness={r.witnessId}>
          <strong>{t(`slips.source.${r.source}`, { defaultValue: r.source })}</strong> {r.witnessId} · {formatMoney(r.amount, "LAK")} ·{" "}
          {formatDateTime(new Date(r.bankTime).toISOString())}
          {r.orderCode ? (
            <>
              {" "}
              · {t("slips.paidOrder")} <Link to={`/admin/deposits/${r.orderCode}`}>{r.orderCode}</Link>
            </>
          ) : r.queueId ? (
            <>
              {" "}
              · <Link to={`/admin/payments?id=${r.queueId}`}>{t("slips.queued")}</Link>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
