import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { HOLD_REASON_MAX, HOLD_STATUSES } from "@workers/core/holds";
import { listAskOf } from "@workers/core/keyset";
import { decideHold, holdStatusOf, holdsScreen, saveHoldRules, type HoldView } from "@workers/services/holds";
import { AdminListCount, AdminListPager } from "~/components/admin";
import { AdminTable } from "~/components/data-table";
import { HeldFor, HoldStatus } from "~/components/admin-holds";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { HoldDecisionSchema, HoldRulesSchema } from "~/lib/schemas/holds";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/holds";

const PAGE_SIZE = 25;
const HERE = "/admin/holds";

/**
 * Claims held for review (decision 094): a promotion's bonus or a reward of a player linked to an
 * account that had the same reward first. Owner and cashier see the list and release or refuse
 * with a reason (audited); the rules below it are the owner's. `?status=` filters (HELD first;
 * `all` for every status). Plain forms: no React in the back office (decision 089).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const url = new URL(request.url);
  const asked = url.searchParams.get("status");
  const status = asked === "all" ? null : (holdStatusOf(asked) ?? "HELD");
  const screen = await holdsScreen(getBindings(context), staff.agencyId, status, listAskOf(url.searchParams, PAGE_SIZE));
  return { ...screen, status: status ?? "all", owner: staff.role === "owner" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  if (formData.get("intent") === "rules") {
    const owner = await requireStaff(request, context, { role: "owner" });
    const submission = parseWithZod(formData, { schema: HoldRulesSchema });
    if (submission.status !== "success") return redirectWithError({ request, context }, HERE, translate(context, "admin:holds.validation.registrations"));
    await saveHoldRules(getBindings(context), auditContext(request, owner), submission.value);
    return redirectWithSuccess({ request, context }, HERE, translate(context, "admin:holds.rulesSaved"));
  }
  const staff = await requireStaff(request, context);
  const submission = parseWithZod(formData, { schema: HoldDecisionSchema });
  if (submission.status !== "success")
    return data({ error: translate(context, "admin:holds.validation.reason"), holdId: String(formData.get("holdId") ?? "") }, { status: 400 });
  const { intent, holdId, reason } = submission.value;
  const decided = await decideHold(getBindings(context), auditContext(request, staff), holdId, intent === "release" ? "RELEASED" : "REFUSED", reason);
  if (!decided.ok) return redirectWithError({ request, context }, HERE, translate(context, `admin:holds.errors.${decided.code}`));
  return redirectWithSuccess({ request, context }, HERE, translate(context, `admin:holds.decided.${decided.status}`));
}

function Decision({ hold, error }: { hold: HoldView; error: string | null }) {
  const { t } = useTranslation("admin");
  if (hold.status !== "HELD")
    return (
      <span>
        {hold.decidedBy} · {hold.decidedAt ? formatDateTime(hold.decidedAt) : ""}: {hold.decisionReason}
      </span>
    );
  const reasonId = `hold-reason-${hold.id}`;
  return (
    <Form method="post" action={HERE} className="admin-inline-form stack" data-testid="hold-decision">
      <input type="hidden" name="holdId" value={hold.id} />
      <label htmlFor={reasonId}>{t("holds.reason")}</label>
      <input
        id={reasonId}
        name="reason"
        type="text"
        required
        minLength={3}
        maxLength={HOLD_REASON_MAX}
        autoComplete="off"
        aria-describedby={error ? `${reasonId}-error` : undefined}
      />
      {error && (
        <p id={`${reasonId}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="button-row">
        <button type="submit" name="intent" value="release" className="button button-small button-primary" data-testid="hold-release">
          {t("holds.release")}
        </button>
        <button type="submit" name="intent" value="refuse" className="button button-small button-danger" data-testid="hold-refuse">
          {t("holds.refuse")}
        </button>
      </div>
    </Form>
  );
}

export default function AdminHolds({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, total, next, previous, status, rules, owner } = loaderData;
  const errorFor = (id: string) => (actionData && actionData.holdId === id ? actionData.error : null);
  return (
    <section>
      <title>{t("holds.title")}</title>
      <h1>{t("holds.title")}</h1>
      <p className="muted">{t("holds.intro")}</p>
      <Form method="get" action={HERE} className="admin-filter" data-testid="holds-filter">
        <div className="field">
          <label htmlFor="holds-status">{t("holds.status")}</label>
          <select id="holds-status" name="status" defaultValue={status}>
            {HOLD_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`holds.statuses.${s}`)}
              </option>
            ))}
            <option value="all">{t("holds.allStatuses")}</option>
          </select>
        </div>
        <button type="submit" className="button">
          {t("holds.filter")}
        </button>
        <a className="button" href={`${HERE}/export.csv?status=${status}`} download data-testid="holds-export">
          {t("holds.export")}
        </a>
      </Form>
      <AdminListCount total={total} exact={t("holds.count", { count: total.count })} />
      <AdminTable
        label={t("holds.title")}
        testId="holds-table"
        empty={<p data-testid="holds-empty">{t("holds.empty")}</p>}
        rows={items}
        rowKey={(h) => h.id}
        rowProps={(h) => ({ "data-player": h.username, "data-status": h.status, "data-kind": h.kind })}
        columns={[
          { header: t("holds.player"), lead: true, cell: (h) => <Link to={`/admin/players/${encodeURIComponent(h.playerId)}`}>{h.username}</Link> },
          { header: t("holds.what"), lead: true, cell: (h) => `${t(`holds.kinds.${h.kind}`)}${h.amount ? ` · ${formatMoney(h.amount, "THB")}` : ""}` },
          { header: t("holds.heldFor"), cell: (h) => <HeldFor hold={h} /> },
          { header: t("holds.at"), cell: (h) => formatDateTime(h.createdAt) },
          { header: t("holds.status"), cell: (h) => <HoldStatus status={h.status} /> },
          { header: t("holds.decision"), cell: (h) => <Decision hold={h} error={errorFor(h.id)} /> },
        ]}
      />
      <AdminListPager next={next} previous={previous} basePath={HERE} query={{ status }} />

      <h2 id="hold-rules">{t("holds.rulesTitle")}</h2>
      {owner ? (
        <Form method="post" action={HERE} className="stack narrow" data-testid="hold-rules-form">
          <input type="hidden" name="intent" value="rules" />
          <fieldset className="admin-checks">
            <legend>{t("holds.rulesHold")}</legend>
            {(["promotions", "rewards", "withdrawals"] as const).map((rule) => (
              <label key={rule} className="admin-check">
                <input type="checkbox" name={rule} defaultChecked={rules[rule]} data-testid={`hold-rule-${rule}`} />
                <span>{t(`holds.rules.${rule}`)}</span>
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="hold-registrations">{t("holds.rules.registrationsPerDevice")}</label>
            <input
              id="hold-registrations"
              name="registrationsPerDevice"
              type="number"
              min={0}
              max={100}
              step={1}
              inputMode="numeric"
              defaultValue={rules.registrationsPerDevice}
              aria-describedby="hold-registrations-hint"
            />
            <p id="hold-registrations-hint" className="field-hint">
              {t("holds.rules.registrationsHint")}
            </p>
          </div>
          <button type="submit" className="button button-primary" data-testid="hold-rules-save">
            {t("holds.saveRules")}
          </button>
        </Form>
      ) : (
        <ul data-testid="hold-rules">
          {(["promotions", "rewards", "withdrawals"] as const).map((rule) => (
            <li key={rule}>
              {t(`holds.rules.${rule}`)}: {rules[rule] ? t("holds.on") : t("holds.off")}
            </li>
          ))}
          <li>
            {t("holds.rules.registrationsPerDevice")}: {rules.registrationsPerDevice}
          </li>
        </ul>
      )}
    </section>
  );
}
