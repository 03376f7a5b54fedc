import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { getDepositDetail, retryDeposit } from "@workers/services/deposits";
import { formatRate } from "@workers/core/money";
import { splitWitness } from "@workers/services/bank-in";
import { DepositFlag, OrderStatus, ProviderName } from "~/components/admin";
import { BankWitnesses } from "~/components/bank-witnesses";
import { AdminTable } from "~/components/data-table";
import { translate } from "~/lib/i18n.server";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, formatMoney, formatRateNumber } from "~/lib/format";
import { DepositRetrySchema, SplitWitnessSchema } from "~/lib/schemas/admin-ops";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/deposit";

/** One deposit order of this agency (another agency's code is a 404), and the retry of a FAILED settlement. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const detail = await getDepositDetail(getBindings(context), staff.agencyId, params.code);
  if (!detail) throw new Response("Not found", { status: 404 });
  const confirm = new URL(request.url).searchParams.get("confirm") === "retry" && detail.row.status === "FAILED";
  return { ...detail, confirm, canSplit: staff.role === "owner" };
}

const OUTCOME_TOAST = {
  retried: "success",
  "already-applied": "success",
  "not-failed": "info",
  stale: "info",
  unavailable: "error",
  "not-found": "error",
} as const;

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get("intent") === "split") return splitAction(request, context, params.code, form);
  const staff = await requireStaff(request, context);
  const submission = parseWithZod(form, { schema: DepositRetrySchema });
  if (submission.status !== "success") return data({ error: true }, { status: 400 });
  const result = await retryDeposit(getBindings(context), auditContext(request, staff), params.code, submission.value.retries);
  if (result.kind === "not-found") throw new Response("Not found", { status: 404 });
  const status = result.order?.status ?? "";
  return redirectWithToast({ request, context }, `/admin/deposits/${params.code}`, {
    type: OUTCOME_TOAST[result.kind],
    message: translate(context, `admin:deposits.retry.outcome.${result.kind}`, { status }),
  });
}

/** The owner splits a witness off this order's transfer (two transfers really happened): it goes to the payments queue. */
async function splitAction(request: Request, context: Route.ActionArgs["context"], code: string, form: FormData) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const back = `/admin/deposits/${code}`;
  const submission = parseWithZod(form, { schema: SplitWitnessSchema });
  if (submission.status !== "success") {
    const key = Object.values(submission.error ?? {}).flat()[0] ?? "admin:payments.witnesses.splitErrors.REASON_REQUIRED";
    return redirectWithToast({ request, context }, back, { type: "error", message: translate(context, key) });
  }
  const done = await splitWitness(getBindings(context), auditContext(request, staff), submission.value);
  return redirectWithToast({ request, context }, back, {
    type: done.ok ? "success" : "error",
    message: translate(context, done.ok ? "admin:payments.witnesses.splitDone" : `admin:payments.witnesses.splitErrors.${done.error}`),
  });
}

export default function AdminDeposit({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { row, order, ledger, retries, player, confirm, witnesses, canSplit, slips } = loaderData;
  return (
    <section>
      <title>{`${t("deposits.detailTitle")} ${row.code}`}</title>
      <p>
        <Link to="/admin/deposits">← {t("deposits.title")}</Link>
      </p>
      <h1>
        {t("deposits.detailTitle")} {row.code}
      </h1>
      <dl className="admin-facts" data-testid="deposit-facts">
        <dt>{t("deposits.status")}</dt>
        <dd data-testid="deposit-status" data-status={row.status}>
          <OrderStatus status={row.status} />
        </dd>
        <dt>{t("deposits.flag")}</dt>
        <dd>
          <DepositFlag flag={row.flag} />
        </dd>
        <dt>{t("deposits.player")}</dt>
        <dd>
          <Link to={`/admin/players/${player.id}`}>{player.username}</Link> ({player.displayName})
        </dd>
        <dt>{t("deposits.provider")}</dt>
        <dd>
          <ProviderName provider={row.provider} />
        </dd>
        <dt>{t("deposits.amount")}</dt>
        <dd>{formatMoney(row.amount, "LAK")}</dd>
        <dt>{t("deposits.credit")}</dt>
        <dd>{formatMoney(row.credit, "THB")}</dd>
        <dt>{t("deposits.rate")}</dt>
        {/* the wallet keeps the rate as an integer of millionths (workers/core/money.ts); shown as a plain number ("600"), anything else as stored */}
        <dd data-testid="deposit-rate">
          {order ? (/^\d+$/.test(order.rateSell) ? formatRateNumber(formatRate(BigInt(order.rateSell))) : order.rateSell) : t("common.none")}
        </dd>
        <dt>{t("deposits.channel")}</dt>
        <dd>{order?.channelCode ?? t("common.none")}</dd>
        <dt>{t("deposits.createdAt")}</dt>
        <dd>{formatDateTime(row.createdAt)}</dd>
        <dt>{t("deposits.paidAt")}</dt>
        <dd>{order?.paidAt ? formatDateTime(new Date(order.paidAt)) : t("common.none")}</dd>
        <dt>{t("deposits.settledAt")}</dt>
        <dd>{order?.settledAt ? formatDateTime(new Date(order.settledAt)) : t("common.none")}</dd>
        <dt>{t("deposits.attempts")}</dt>
        <dd>{order?.attempts ?? 0}</dd>
        <dt>{t("deposits.retries")}</dt>
        <dd data-testid="deposit-retries">{retries}</dd>
      </dl>

      {row.status === "FAILED" && (
        <div className="admin-card" data-testid="retry-panel">
          <h2>{t("deposits.retry.title")}</h2>
          <p>{t("deposits.retry.explain")}</p>
          {confirm ? (
            <Form method="post" className="stack" data-testid="retry-confirm">
              <input type="hidden" name="intent" value="retry" />
              <input type="hidden" name="retries" value={retries} />
              <p className="notice" role="status">
                {t("deposits.retry.confirm", {
                  credit: formatMoney(row.credit, "THB"),
                  provider: t(`common:providers.${row.provider}`, { defaultValue: row.provider }),
                  username: player.username,
                })}
              </p>
              <div className="form-actions">
                <a href={`/admin/deposits/${row.code}`} className="button button-ghost">
                  {t("common.cancel")}
                </a>
                <button type="submit" className="button button-primary" data-testid="retry-submit">
                  {t("deposits.retry.submit")}
                </button>
              </div>
            </Form>
          ) : (
            <a href={`/admin/deposits/${row.code}?confirm=retry`} className="button button-primary" data-testid="retry-start">
              {t("deposits.retry.start")}
            </a>
          )}
        </div>
      )}

      {witnesses.length > 0 && <BankWitnesses witnesses={witnesses} splitAction={canSplit ? `/admin/deposits/${row.code}` : undefined} />}

      {/* the player's slips (decision 087): a claim beside the bank's reports; a slip on another order too is a conflict */}
      {slips.length > 0 && (
        <section className="stack" aria-labelledby="order-slips-title" data-testid="order-slips">
          <h2 id="order-slips-title">{t("slips.ofOrder")}</h2>
          <ul className="card-list" role="list">
            {slips.map((s) => (
              <li key={s.id} className="admin-card" data-slip={s.id} data-conflict={s.conflict ? "true" : undefined}>
                <p>
                  {t("slips.ticket")} {s.ticket} · {t("slips.reference")} {s.reference} · {formatDateTime(new Date(s.receivedAt).toISOString())} ·{" "}
                  <a href={`/admin/slips/${s.id}`} target="_blank" rel="noopener">
                    {t("slips.picture")}
                  </a>
                </p>
                {s.conflict && (
                  <p className="notice" role="note">
                    {t("slips.conflict", { codes: s.otherOrders.join(", ") })}
                  </p>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}

      <h2>{t("deposits.ledger")}</h2>
      <AdminTable
        label={t("deposits.ledger")}
        testId="deposit-ledger"
        empty={<p>{t("deposits.ledgerEmpty")}</p>}
        rows={ledger}
        rowKey={(_, i) => i}
        columns={[
          { header: t("deposits.entry"), cell: (l) => l.entry },
          {
            header: t("deposits.account"),
            // a provider's account by the provider's name, never its code (decision 088)
            cell: (l) =>
              l.account.startsWith("provider:") ? (
                <>
                  {t("deposits.provider")} · <ProviderName provider={l.account.slice("provider:".length)} />
                </>
              ) : (
                l.account
              ),
          },
          {
            header: t("deposits.amount"),
            lead: true,
            cell: (l) => (
              <>
                {minorToText(l.amountMinor)} {l.currency}
              </>
            ),
          },
        ]}
      />
    </section>
  );
}

/** Ledger amounts are minor units (2 digits for LAK and THB). */
function minorToText(minor: string): string {
  const negative = minor.startsWith("-");
  const digits = (negative ? minor.slice(1) : minor).padStart(3, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
