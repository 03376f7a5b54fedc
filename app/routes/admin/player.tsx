import { getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Fragment } from "react";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import {
  endPlayerSessions,
  getPlayerDetail,
  lockPlayer,
  replaceBankAccount,
  resetPlayerPassword,
  unlinkPlayers,
  unlockPlayer,
} from "@workers/services/players";
import { BANKS } from "@workers/core/banks";
import { DepositFlag, OrderStatus, ProviderName } from "~/components/admin";
import { ErrorList, Field, getFormProps, useSchemaForm } from "~/components/forms";
import { AdminTable } from "~/components/data-table";
import { PlayerBlocklist } from "~/components/admin-blocklist";
import { PlayerLinks } from "~/components/admin-linked";
import { PlayerHolds } from "~/components/admin-holds";
import { CopyButton } from "~/components/copy-button";
import { translate } from "~/lib/i18n.server";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { LockSchema, PlayerActionSchema } from "~/lib/schemas/admin-ops";
import { StaffBankReplaceSchema } from "~/lib/schemas/bank";
import { UnlinkSchema } from "~/lib/schemas/linked-accounts";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/player";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { lite: ["validate"], i18n: ["bank.validation", "linked.validation", "players.validation", "validation"] } satisfies ScriptsHandle &
  I18nHandle;

/** Everything about one player of this agency (another agency's id is a 404) and the account actions. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const detail = await getPlayerDetail(getBindings(context).DB, staff.agencyId, params.playerId);
  if (!detail) throw new Response("Not found", { status: 404 });
  return {
    ...detail,
    confirmReset: new URL(request.url).searchParams.get("confirm") === "reset",
    canReplaceBank: staff.role === "owner",
    isOwner: staff.role === "owner",
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const db = getBindings(context).DB;
  const actor = auditContext(request, staff);
  const form = await request.formData();
  const here = `/admin/players/${params.playerId}`;
  if (String(form.get("intent") ?? "").startsWith("bank-replace")) {
    // Owners only (decision record 013): a cashier changing where payouts go is the insider risk.
    const owner = await requireStaff(request, context, { role: "owner" });
    const submission = parseWithZod(form, { schema: StaffBankReplaceSchema });
    if (submission.status !== "success")
      return data({ lock: null, temporaryPassword: null, bankReplace: submission.reply(), bankReview: null, unlink: null }, { status: 400 });
    const next = { bankCode: submission.value.bankCode, accountNumber: submission.value.accountNumber, accountName: submission.value.accountName };
    if (submission.value.intent === "bank-replace-review") {
      return data({ lock: null, temporaryPassword: null, bankReplace: null, bankReview: next, unlink: null });
    }
    const done = await replaceBankAccount(getBindings(context), auditContext(request, owner), params.playerId, next, { allowPaid: true });
    if (!done.ok) {
      return data(
        {
          lock: null,
          temporaryPassword: null,
          // a blocklisted account (decision 090) is said so to the owner, who keeps the list
          bankReplace: submission.reply({
            formErrors: [done.code === "BANK_ACCOUNT_REFUSED" ? "admin:blocklist.staffRefused" : `admin:players.bankReplace.errors.${done.code}`],
          }),
          bankReview: null,
          unlink: null,
        },
        { status: done.code === "NAME_CHARACTERS" ? 400 : 409 },
      );
    }
    return redirectWithToast({ request, context }, here, { type: "success", message: translate(context, "admin:players.bankReplace.done") });
  }
  if (form.get("intent") === "unlink") {
    // Owners only (decision 093): a cashier could otherwise clear the links of a friend's ring.
    const owner = await requireStaff(request, context, { role: "owner" });
    const submission = parseWithZod(form, { schema: UnlinkSchema });
    const otherId = String(form.get("otherId") ?? "");
    if (submission.status !== "success")
      return data(
        { lock: null, temporaryPassword: null, bankReplace: null, bankReview: null, unlink: { otherId, reply: submission.reply() } },
        { status: 400 },
      );
    const done = await unlinkPlayers(db, auditContext(request, owner), params.playerId, submission.value.otherId, submission.value.reason);
    if (!done.ok) {
      if (done.error === "NOT_FOUND") throw new Response("Not found", { status: 404 });
      const reply = submission.reply({ formErrors: [`admin:linked.errors.${done.error}`] });
      return data({ lock: null, temporaryPassword: null, bankReplace: null, bankReview: null, unlink: { otherId, reply } }, { status: 409 });
    }
    return redirectWithToast({ request, context }, here, {
      type: done.changed ? "success" : "info",
      message: translate(context, done.changed ? "admin:linked.unlinked" : "admin:linked.alreadyUnlinked"),
    });
  }
  if (form.get("intent") === "lock") {
    const submission = parseWithZod(form, { schema: LockSchema });
    if (submission.status !== "success")
      return data({ lock: submission.reply(), temporaryPassword: null, bankReplace: null, bankReview: null, unlink: null }, { status: 400 });
    const done = await lockPlayer(db, actor, params.playerId, submission.value.reason);
    if (!done.ok) throw new Response("Not found", { status: 404 });
    return redirectWithToast({ request, context }, here, {
      type: done.changed ? "success" : "info",
      message: translate(context, done.changed ? "admin:players.locked" : "admin:players.alreadyLocked"),
    });
  }
  const submission = parseWithZod(form, { schema: PlayerActionSchema });
  if (submission.status !== "success") return data({ lock: null, temporaryPassword: null, bankReplace: null, bankReview: null, unlink: null }, { status: 400 });
  switch (submission.value.intent) {
    case "unlock": {
      const done = await unlockPlayer(db, actor, params.playerId);
      if (!done.ok) throw new Response("Not found", { status: 404 });
      return redirectWithToast({ request, context }, here, {
        type: done.changed ? "success" : "info",
        message: translate(context, done.changed ? "admin:players.unlocked" : "admin:players.notLocked"),
      });
    }
    case "end-sessions": {
      const done = await endPlayerSessions(db, actor, params.playerId);
      if (!done.ok) throw new Response("Not found", { status: 404 });
      return redirectWithToast({ request, context }, here, {
        type: "success",
        message: translate(context, "admin:players.sessionsEnded", { count: done.ended ?? 0 }),
      });
    }
    case "reset-password": {
      const done = await resetPlayerPassword(db, actor, params.playerId);
      if (!done.ok) throw new Response("Not found", { status: 404 });
      // Shown once, on this answer only (never stored in clear, never in the audit log).
      return data(
        { lock: null, temporaryPassword: done.temporaryPassword, bankReplace: null, bankReview: null, unlink: null },
        { headers: { "Cache-Control": "no-store" } },
      );
    }
  }
}

export default function AdminPlayer({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { player, bankAccounts, deposits, withdrawals, promotions, sessions, fingerprints, confirmReset, canReplaceBank, limits } = loaderData;
  const [lockForm, lockFields] = useSchemaForm("lock", LockSchema, actionData?.lock);
  const [bankForm, bankFields] = useSchemaForm("bank-replace", StaffBankReplaceSchema, actionData?.bankReplace, { intent: "bank-replace-review" });
  const review = actionData?.bankReview ?? null;
  const here = `/admin/players/${player.id}`;
  const none = <p>{t("players.none")}</p>;
  return (
    <section>
      <title>{`${t("players.detailTitle")} ${player.username}`}</title>
      <p>
        <Link to="/admin/players">← {t("players.title")}</Link>
      </p>
      <h1>
        {player.username} <small>({player.displayName})</small>
      </h1>
      {actionData?.temporaryPassword && (
        <div className="notice notice-success" role="status" data-testid="temporary-password-panel">
          <p>{t("players.temporaryPasswordIntro")}</p>
          <p className="admin-secret" data-testid="temporary-password">
            {actionData.temporaryPassword}
          </p>
        </div>
      )}
      <dl className="admin-facts" data-testid="player-facts">
        <dt>{t("players.status")}</dt>
        <dd data-testid="player-status" data-status={player.status}>
          {t(`players.statuses.${player.status}`)}
          {player.lockedReason ? ` · ${player.lockedReason}` : ""}
        </dd>
        <dt>{t("players.mustChangePassword")}</dt>
        <dd>{player.mustChangePassword ? t("common.yes") : t("common.no")}</dd>
        <dt>{t("players.phone")}</dt>
        <dd>{player.phone}</dd>
        <dt>{t("players.createdAt")}</dt>
        <dd>{formatDateTime(player.createdAt)}</dd>
        <dt>{t("players.lastLogin")}</dt>
        <dd>{player.lastLoginAt ? formatDateTime(player.lastLoginAt) : t("common.none")}</dd>
        <dt>{t("players.passwordChangedAt")}</dt>
        <dd>{formatDateTime(player.passwordChangedAt)}</dd>
        <dt>{t("players.bankAccount")}</dt>
        <dd>
          {bankAccounts.length === 0
            ? t("common.none")
            : bankAccounts.map((b) => (
                <span key={b.id}>
                  {b.bankName} · {b.accountNumber} <CopyButton value={b.accountNumber} what={t("withdrawals.accountNumber")} /> · {b.accountName}{" "}
                  <CopyButton value={b.accountName} what={t("withdrawals.accountName")} />
                </span>
              ))}
        </dd>
      </dl>

      <PlayerBlocklist
        flags={loaderData.blocklistFlags}
        canEdit={loaderData.isOwner}
        phone={player.phone}
        bankAccounts={bankAccounts}
        fingerprints={fingerprints}
      />
      <StaffLimits limits={limits} />
      <PlayerLinks linked={loaderData.linked} canUnlink={loaderData.isOwner} here={here} lastUnlink={actionData?.unlink ?? null} />
      <PlayerHolds holds={loaderData.holds} />

      <h2>{t("players.actions")}</h2>
      <div className="admin-actions">
        {player.status === "ACTIVE" ? (
          <Form method="post" {...getFormProps(lockForm)} noValidate className="stack admin-card" data-testid="lock-form">
            <h3>{t("players.lockTitle")}</h3>
            <input type="hidden" name="intent" value="lock" />
            <div className="field">
              <label htmlFor={lockFields.reason.id}>{t("players.lockReason")}</label>
              <textarea {...getTextareaProps(lockFields.reason)} rows={2} />
              <ErrorList id={lockFields.reason.errorId} errors={lockFields.reason.errors} />
            </div>
            <button type="submit" className="button button-danger" data-testid="lock-submit">
              {t("players.lock")}
            </button>
          </Form>
        ) : (
          <Form method="post" className="stack admin-card" data-testid="unlock-form">
            <h3>{t("players.unlockTitle")}</h3>
            <input type="hidden" name="intent" value="unlock" />
            <button type="submit" className="button button-primary" data-testid="unlock-submit">
              {t("players.unlock")}
            </button>
          </Form>
        )}
        <Form method="post" className="stack admin-card" data-testid="end-sessions-form">
          <h3>{t("players.sessions")}</h3>
          <p>{t("players.sessionCount", { count: sessions.length })}</p>
          <input type="hidden" name="intent" value="end-sessions" />
          <button type="submit" className="button" data-testid="end-sessions-submit">
            {t("players.endSessions")}
          </button>
        </Form>
        {canReplaceBank && bankAccounts.length > 0 && (
          <div className="stack admin-card" data-testid="bank-replace-panel">
            <h3>{t("players.bankReplace.title")}</h3>
            <p>{t("players.bankReplace.intro")}</p>
            {review ? (
              <Form method="post" action={here} className="stack" data-testid="bank-replace-confirm">
                <h4>{t("players.bankReplace.confirmTitle")}</h4>
                <dl className="admin-facts">
                  <dt>{t("players.bankReplace.current")}</dt>
                  <dd>
                    {bankAccounts[0].bankName} · {bankAccounts[0].accountNumber} · {bankAccounts[0].accountName}
                  </dd>
                  <dt>{t("players.bankReplace.next")}</dt>
                  <dd data-testid="bank-replace-next">
                    {BANKS.find((b) => b.code === review.bankCode)?.name ?? review.bankCode} · {review.accountNumber} · {review.accountName}
                  </dd>
                </dl>
                <input type="hidden" name="intent" value="bank-replace-confirm" />
                <input type="hidden" name="bankCode" value={review.bankCode} />
                <input type="hidden" name="accountNumber" value={review.accountNumber} />
                <input type="hidden" name="accountName" value={review.accountName} />
                <div className="form-actions">
                  <a href={here} className="button button-ghost">
                    {t("common.cancel")}
                  </a>
                  <button type="submit" className="button button-danger" data-testid="bank-replace-confirm-submit">
                    {t("players.bankReplace.confirm")}
                  </button>
                </div>
              </Form>
            ) : (
              <Form method="post" action={here} {...getFormProps(bankForm)} noValidate className="stack" data-testid="bank-replace-form">
                <input type="hidden" name="intent" value="bank-replace-review" />
                <div className="field">
                  <label htmlFor={bankFields.bankCode.id}>{t("player:bank.bank")}</label>
                  <select {...getSelectProps(bankFields.bankCode)} aria-describedby={bankFields.bankCode.errors ? bankFields.bankCode.errorId : undefined}>
                    {BANKS.map((b) => (
                      <option key={b.code} value={b.code}>
                        {b.name}
                      </option>
                    ))}
                  </select>
                  <ErrorList id={bankFields.bankCode.errorId} errors={bankFields.bankCode.errors} />
                </div>
                <Field
                  label={t("player:bank.accountNumber")}
                  inputProps={{ ...getInputProps(bankFields.accountNumber, { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
                  errors={bankFields.accountNumber.errors}
                />
                <Field
                  label={t("player:bank.accountName")}
                  inputProps={{ ...getInputProps(bankFields.accountName, { type: "text" }), autoComplete: "off" }}
                  errors={bankFields.accountName.errors}
                />
                <div role="alert" className="form-alert" data-testid="bank-replace-error">
                  <ErrorList id={bankForm.errorId} errors={bankForm.errors} />
                </div>
                <button type="submit" className="button" data-testid="bank-replace-review">
                  {t("players.bankReplace.review")}
                </button>
              </Form>
            )}
          </div>
        )}
        <div className="stack admin-card" data-testid="reset-panel">
          <h3>{t("players.resetTitle")}</h3>
          <p>{t("players.resetExplain")}</p>
          {confirmReset ? (
            <Form method="post" action={here} className="stack" data-testid="reset-confirm">
              <input type="hidden" name="intent" value="reset-password" />
              <div className="form-actions">
                <a href={here} className="button button-ghost">
                  {t("common.cancel")}
                </a>
                <button type="submit" className="button button-danger" data-testid="reset-submit">
                  {t("players.resetConfirm")}
                </button>
              </div>
            </Form>
          ) : (
            <a href={`${here}?confirm=reset`} className="button" data-testid="reset-start">
              {t("players.reset")}
            </a>
          )}
        </div>
      </div>

      <h2>{t("players.deposits")}</h2>
      <AdminTable
        label={t("players.deposits")}
        empty={none}
        rows={deposits}
        rowKey={(d) => d.code}
        columns={[
          { header: t("deposits.code"), cell: (d) => <Link to={`/admin/deposits/${d.code}`}>{d.code}</Link> },
          { header: t("deposits.createdAt"), cell: (d) => formatDateTime(d.createdAt) },
          { header: t("deposits.provider"), cell: (d) => <ProviderName provider={d.provider} /> },
          { header: t("deposits.amount"), lead: true, cell: (d) => formatMoney(d.amount, "LAK") },
          { header: t("deposits.credit"), cell: (d) => formatMoney(d.credit, "THB") },
          { header: t("deposits.status"), lead: true, cell: (d) => <OrderStatus status={d.status} /> },
          { header: t("deposits.flag"), cell: (d) => <DepositFlag flag={d.flag} /> },
        ]}
      />
      <h2>{t("players.withdrawals")}</h2>
      <AdminTable
        label={t("players.withdrawals")}
        empty={none}
        rows={withdrawals}
        rowKey={(w) => w.code}
        columns={[
          { header: t("deposits.code"), cell: (w) => w.code },
          { header: t("deposits.createdAt"), cell: (w) => formatDateTime(w.createdAt) },
          { header: t("deposits.provider"), cell: (w) => <ProviderName provider={w.provider} /> },
          { header: t("deposits.credit"), lead: true, cell: (w) => formatMoney(w.credit, "THB") },
          { header: t("players.received"), cell: (w) => formatMoney(w.received, "LAK") },
          { header: t("deposits.status"), lead: true, cell: (w) => <OrderStatus status={w.status} review={w.review} /> },
          { header: t("players.reason"), cell: (w) => w.reason ?? "—" },
        ]}
      />
      <h2>{t("players.promotions")}</h2>
      <AdminTable
        label={t("players.promotions")}
        empty={none}
        rows={promotions}
        rowKey={(_, i) => i}
        columns={[
          { header: t("players.promotion"), cell: (p) => p.promotionId },
          { header: t("players.claimedAt"), cell: (p) => formatDateTime(p.claimedAt) },
          { header: t("deposits.provider"), cell: (p) => <ProviderName provider={p.provider} /> },
          { header: t("deposits.status"), lead: true, cell: (p) => t(`staffScreens.usage.${p.status}`, { defaultValue: p.status }) },
          { header: t("players.bonus"), lead: true, cell: (p) => (p.bonus ? formatMoney(p.bonus, "THB") : "—") },
          { header: t("deposits.code"), cell: (p) => p.depositCode ?? "—" },
        ]}
      />
      <h2>{t("players.sessions")}</h2>
      <AdminTable
        label={t("players.sessions")}
        empty={none}
        rows={sessions}
        rowKey={(_, i) => i}
        columns={[
          { header: t("players.signedIn"), cell: (s) => formatDateTime(new Date(s.createdAt)) },
          { header: t("players.lastSeen"), cell: (s) => formatDateTime(new Date(s.lastSeenAt)) },
          { header: t("players.ip"), cell: (s) => s.ip ?? "—" },
          { header: t("players.device"), cell: (s) => s.userAgent ?? "—" },
        ]}
      />
      <h2>{t("players.fingerprints")}</h2>
      <AdminTable
        label={t("players.fingerprints")}
        empty={none}
        rows={fingerprints}
        rowKey={(f) => f.fingerprint}
        columns={[
          { header: t("fingerprints.device"), cell: (f) => <code>{f.fingerprint.slice(0, 16)}</code> },
          { header: t("fingerprints.firstSeen"), cell: (f) => formatDateTime(f.firstSeenAt) },
          { header: t("fingerprints.lastSeen"), cell: (f) => formatDateTime(f.lastSeenAt) },
          { header: t("fingerprints.seenCount"), cell: (f) => f.seenCount },
          {
            header: t("players.sharedWith"),
            cell: (f) => (f.sharedWith > 0 ? <Link to="/admin/fingerprints">{t("players.sharedCount", { count: f.sharedWith })}</Link> : "—"),
          },
        ]}
      />
    </section>
  );
}

/** The player's own limits and break (decision 025): read only; staff cannot shorten an exclusion. */
function StaffLimits({ limits }: { limits: Route.ComponentProps["loaderData"]["limits"] }) {
  const { t } = useTranslation("admin");
  const kip = (v: string | null) => (v === null ? t("limits.none") : formatMoney(v, "LAK"));
  const min = (v: string | null) => (v === null ? t("limits.none") : t("limits.minutes", { count: Number(v) }));
  const rows: [string, { value: string | null; pending: { value: string | null; from: number } | null }, (v: string | null) => string][] = [
    [t("limits.period.day"), limits.deposit.day, kip],
    [t("limits.period.week"), limits.deposit.week, kip],
    [t("limits.period.month"), limits.deposit.month, kip],
    [t("limits.playDay"), limits.playDay, min],
  ];
  return (
    <>
      <h2>{t("limits.title")}</h2>
      <p className="muted">{t("limits.staffNote")}</p>
      <dl className="admin-facts" data-testid="player-limits">
        <dt>{t("limits.break")}</dt>
        <dd data-testid="player-break" data-kind={limits.break?.kind ?? "none"}>
          {limits.break
            ? t("limits.until", { kind: t(`limits.kinds.${limits.break.kind}`), until: formatDateTime(new Date(limits.break.endsAt)) })
            : t("limits.none")}
        </dd>
        {rows.map(([label, limit, show]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>
              {show(limit.value)}
              {limit.pending && ` · ${t("limits.pending", { value: show(limit.pending.value), from: formatDateTime(new Date(limit.pending.from)) })}`}
            </dd>
          </Fragment>
        ))}
      </dl>
    </>
  );
}
