import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { BANK_CODES } from "@workers/core/banks";
import { PATTERN_FIELDS } from "@workers/core/notification-patterns";
import {
  createForwarder,
  decideHold,
  forwarderPage,
  removeForwarder,
  savePatterns,
  setForwarderLimits,
  tryPatterns,
  type PatternsResult,
} from "@workers/services/bank-in";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { ForwarderCreateSchema, ForwarderHoldSchema, ForwarderLimitsSchema, ForwarderPatternsSchema, ForwarderRemoveSchema } from "~/lib/schemas/forwarder";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/forwarder";
import { AdminTable } from "~/components/data-table";

/**
 * The notification forwarder (decision 016): per own-account channel a URL and a secret for the
 * SmsForwarder app (shown once), the cap one message credits alone and the silence time,
 * the reading patterns per bank (edit, try on a pasted sample, save) — all the owner's — and
 * the credits above the cap, which any staff member confirms or rejects.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const me = await requireStaff(request, context);
  const page = await forwarderPage(getBindings(context).DB, me.agencyId, new URL(request.url).searchParams.get("bank"));
  return { ...page, isOwner: me.role === "owner" };
}

type Shown = { channelCode: string; url: string; secret: string };
type ActionData = { shown: Shown | null; patterns: (PatternsResult & { input: Record<string, string> }) | null; error: string | null };
const nothing: ActionData = { shown: null, patterns: null, error: null };

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const intent = formData.get("intent");
  const me = await requireStaff(request, context, intent === "hold" ? undefined : { role: "owner" });
  const env = getBindings(context);
  const who = auditContext(request, me);
  const back = `/admin/forwarder${new URL(request.url).search}`;
  const fail = (key: string) => redirectWithError({ request, context }, back, translate(context, `admin:forwarder.errors.${key}`));
  switch (intent) {
    case "create": {
      const parsed = ForwarderCreateSchema.safeParse(Object.fromEntries(formData));
      if (!parsed.success) return fail("invalid");
      const created = await createForwarder(env, who, parsed.data.channelCode);
      if (!created.ok) return fail(created.code);
      const url = `${new URL(request.url).origin}/api/forwarder/${created.token}`;
      return data<ActionData>({ ...nothing, shown: { channelCode: parsed.data.channelCode, url, secret: created.secret } });
    }
    case "limits": {
      const parsed = ForwarderLimitsSchema.safeParse(Object.fromEntries(formData));
      if (!parsed.success) return fail("limits");
      const saved = await setForwarderLimits(env.DB, who, parsed.data);
      if (!saved.ok) return fail(saved.code);
      return redirectWithSuccess({ request, context }, back, translate(context, "admin:forwarder.limitsSaved"));
    }
    case "remove": {
      const parsed = ForwarderRemoveSchema.safeParse(Object.fromEntries(formData));
      if (!parsed.success) return fail("invalid");
      await removeForwarder(env.DB, who, parsed.data.channelCode);
      return redirectWithSuccess({ request, context }, back, translate(context, "admin:forwarder.removed"));
    }
    case "try":
    case "save-patterns": {
      const submission = parseWithZod(formData, { schema: ForwarderPatternsSchema });
      if (submission.status !== "success") return data<ActionData>({ ...nothing, error: "invalid" }, { status: 400 });
      const input = submission.value;
      const result = input.intent === "try" ? tryPatterns(input) : await savePatterns(env.DB, who, input);
      const typed = Object.fromEntries(["bankCode", "sampleFrom", "sample", ...PATTERN_FIELDS].map((k) => [k, String(formData.get(k) ?? "")]));
      return data<ActionData>({ ...nothing, patterns: { ...result, input: typed } }, { status: result.check.ok ? 200 : 400 });
    }
    case "hold": {
      const parsed = ForwarderHoldSchema.safeParse(Object.fromEntries(formData));
      if (!parsed.success) return fail("invalid");
      const decided = await decideHold(env, who, parsed.data);
      if (!decided.ok) return fail(decided.code);
      const key =
        decided.decision === "reject"
          ? "rejected"
          : decided.outcome.startsWith("applied") || decided.outcome === "duplicate"
            ? "confirmed"
            : "confirmedUnmatched";
      return redirectWithSuccess({ request, context }, back, translate(context, `admin:forwarder.${key}`));
    }
    default:
      return fail("invalid");
  }
}

export default function ForwarderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { channels, forwarders, holds, bank, isOwner } = loaderData;
  const shown = actionData?.shown ?? null;
  const tried = actionData?.patterns ?? null;
  const values = (field: string) => tried?.input[field] ?? (field in loaderData.patterns ? loaderData.patterns[field as keyof typeof loaderData.patterns] : "");
  const byChannel = new Map(forwarders.map((f) => [f.channelCode, f]));
  return (
    <section>
      <title>{t("forwarder.title")}</title>
      <h1>{t("forwarder.title")}</h1>
      <p className="muted">{t("forwarder.intro")}</p>

      {shown && (
        <div className="notice notice-success" role="status" data-testid="forwarder-shown">
          <h2>{t("forwarder.shownTitle", { channel: shown.channelCode })}</h2>
          <p>{t("forwarder.shownHint")}</p>
          <label htmlFor="forwarder-url">{t("forwarder.url")}</label>
          <input id="forwarder-url" className="admin-secret" readOnly value={shown.url} data-testid="forwarder-url" />
          <label htmlFor="forwarder-secret">{t("forwarder.secret")}</label>
          <input id="forwarder-secret" className="admin-secret" readOnly value={shown.secret} data-testid="forwarder-secret" />
          <p>{t("forwarder.appSetup")}</p>
        </div>
      )}

      <h2>{t("forwarder.holdsTitle")}</h2>
      <p className="muted">{t("forwarder.holdsIntro")}</p>
      <AdminTable
        label={t("forwarder.holdsTitle")}
        testId="forwarder-holds"
        empty={
          <p className="muted" data-testid="forwarder-no-holds">
            {t("forwarder.noHolds")}
          </p>
        }
        rows={holds}
        rowKey={(h) => h.id}
        rowProps={(h) => ({ "data-hold": h.id })}
        columns={[
          { header: t("forwarder.channel"), cell: (h) => h.channelCode },
          { header: t("forwarder.amount"), lead: true, cell: (h) => formatMoney(h.amount, "LAK") },
          { header: t("forwarder.bankTime"), cell: (h) => formatDateTime(new Date(h.bankTime)) },
          {
            header: t("forwarder.text"),
            cell: (h) => (
              <>
                <small>{h.sender}</small>
                <pre className="admin-raw">{h.raw}</pre>
              </>
            ),
          },
          {
            header: t("common.actions"),
            cell: (h) => (
              <div className="form-actions">
                {(["confirm", "reject"] as const).map((decision) => (
                  <Form method="post" key={decision} className="admin-inline-form">
                    <input type="hidden" name="intent" value="hold" />
                    <input type="hidden" name="holdId" value={h.id} />
                    <input type="hidden" name="decision" value={decision} />
                    <button
                      type="submit"
                      className={`button button-small${decision === "reject" ? " button-danger" : " button-primary"}`}
                      data-testid={`hold-${decision}`}
                    >
                      {t(`forwarder.${decision}`)}
                    </button>
                  </Form>
                ))}
              </div>
            ),
          },
        ]}
      />

      {isOwner && (
        <>
          <h2>{t("forwarder.channelsTitle")}</h2>
          {channels.length === 0 ? (
            <p className="muted" data-testid="forwarder-no-channels">
              {t("forwarder.noChannels")} <Link to="/admin/settings">{t("nav.settings")}</Link>
            </p>
          ) : (
            <ul className="stack" data-testid="forwarder-channels">
              {channels.map((c) => {
                const f = byChannel.get(c.code);
                return (
                  <li key={c.code} className="admin-card" data-channel={c.code}>
                    <h3>
                      {c.displayName} ({c.code}, {c.bankCode})
                    </h3>
                    {f ? (
                      <>
                        <p data-testid="forwarder-status">
                          {t("forwarder.active", { hint: f.tokenHint, who: f.createdBy, when: formatDateTime(new Date(f.createdAt)) })}{" "}
                          {f.lastMessageAt ? t("forwarder.lastMessage", { when: formatDateTime(new Date(f.lastMessageAt)) }) : t("forwarder.noMessageYet")}
                        </p>
                        <Form method="post" className="stack narrow" data-testid="forwarder-limits">
                          <input type="hidden" name="intent" value="limits" />
                          <input type="hidden" name="channelCode" value={c.code} />
                          <label htmlFor={`cap-${c.code}`}>{t("forwarder.autoCap")}</label>
                          <input id={`cap-${c.code}`} name="autoCap" inputMode="numeric" defaultValue={f.autoCap} required />
                          <small className="muted">{t("forwarder.autoCapHint")}</small>
                          <label htmlFor={`silence-${c.code}`}>{t("forwarder.silenceMinutes")}</label>
                          <input id={`silence-${c.code}`} name="silenceMinutes" type="number" min={5} max={10080} defaultValue={f.silenceMinutes} required />
                          <small className="muted">{t("forwarder.silenceHint")}</small>
                          <button type="submit" className="button">
                            {t("forwarder.saveLimits")}
                          </button>
                        </Form>
                      </>
                    ) : (
                      <p className="muted">{t("forwarder.none")}</p>
                    )}
                    <div className="form-actions">
                      <Form method="post" className="admin-inline-form">
                        <input type="hidden" name="intent" value="create" />
                        <input type="hidden" name="channelCode" value={c.code} />
                        <button type="submit" className="button button-primary" data-testid="forwarder-create">
                          {t(f ? "forwarder.renew" : "forwarder.create")}
                        </button>
                      </Form>
                      {f && (
                        <Form method="post" className="admin-inline-form">
                          <input type="hidden" name="intent" value="remove" />
                          <input type="hidden" name="channelCode" value={c.code} />
                          <button type="submit" className="button button-danger">
                            {t("forwarder.remove")}
                          </button>
                        </Form>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          )}

          <h2 id="patterns">{t("forwarder.patternsTitle")}</h2>
          <p className="muted">{t("forwarder.patternsIntro")}</p>
          <Form method="get" className="admin-inline-form" data-testid="forwarder-bank">
            <label htmlFor="pattern-bank">{t("forwarder.bank")}</label>{" "}
            <select id="pattern-bank" name="bank" defaultValue={bank}>
              {BANK_CODES.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>{" "}
            <button type="submit" className="button button-small">
              {t("forwarder.show")}
            </button>
          </Form>
          <p className="muted">{t(loaderData.stored ? "forwarder.stored" : "forwarder.defaults", { bank })}</p>
          <Form method="post" className="stack" data-testid="forwarder-patterns" key={bank}>
            <input type="hidden" name="bankCode" value={bank} />
            {PATTERN_FIELDS.map((field) => (
              <div key={field} className="field">
                <label htmlFor={`pattern-${field}`}>{t(`forwarder.fields.${field}`)}</label>
                <textarea
                  id={`pattern-${field}`}
                  name={field}
                  rows={field === "senders" || field === "reference" ? 2 : 3}
                  defaultValue={values(field)}
                  spellCheck={false}
                  className="admin-code"
                />
              </div>
            ))}
            <div className="field">
              <label htmlFor="pattern-sample-from">{t("forwarder.sampleFrom")}</label>
              <input id="pattern-sample-from" name="sampleFrom" defaultValue={tried?.input.sampleFrom ?? ""} />
            </div>
            <div className="field">
              <label htmlFor="pattern-sample">{t("forwarder.sample")}</label>
              <textarea id="pattern-sample" name="sample" rows={4} defaultValue={tried?.input.sample ?? ""} />
            </div>
            {tried && <PatternOutcome result={tried} />}
            {actionData?.error && (
              <p role="alert" className="form-alert">
                {t(`forwarder.errors.${actionData.error}`)}
              </p>
            )}
            <div className="form-actions">
              <button type="submit" name="intent" value="try" className="button" data-testid="patterns-try">
                {t("forwarder.try")}
              </button>
              <button type="submit" name="intent" value="save-patterns" className="button button-primary" data-testid="patterns-save">
                {t("forwarder.savePatterns")}
              </button>
            </div>
          </Form>
        </>
      )}
    </section>
  );
}

function PatternOutcome({ result }: { result: PatternsResult }) {
  const { t } = useTranslation("admin");
  if (!result.check.ok) {
    return (
      <p role="alert" className="form-alert" data-testid="patterns-problem">
        {t(`forwarder.problems.${result.check.problem}`, { field: t(`forwarder.fields.${result.check.field}`), row: result.check.index + 1 })}
      </p>
    );
  }
  const r = result.reading;
  return (
    <div className="notice" role="status" data-testid="patterns-result">
      {result.saved && <p data-testid="patterns-saved">{t("forwarder.patternsSaved")}</p>}
      {r === null ? (
        <p>{t("forwarder.noSample")}</p>
      ) : r.kind === "credit" ? (
        <dl className="admin-dl" data-testid="patterns-reading">
          <dt>{t("forwarder.amount")}</dt>
          <dd data-testid="reading-amount">{formatMoney(r.amount, "LAK")}</dd>
          <dt>{t("forwarder.bankTime")}</dt>
          <dd data-testid="reading-time">{r.bankTime ? formatDateTime(new Date(r.bankTime)) : t("forwarder.noTime")}</dd>
          <dt>{t("forwarder.reference")}</dt>
          <dd data-testid="reading-reference">{r.reference ?? t("common.none")}</dd>
          <dt>{t("forwarder.transactionId")}</dt>
          <dd data-testid="reading-transaction">{r.transactionId ?? t("forwarder.noTransactionId")}</dd>
        </dl>
      ) : (
        <p data-testid="patterns-unreadable">{r.kind === "debit" ? t("forwarder.readDebit") : t(`forwarder.unreadable.${r.problem}`)}</p>
      )}
    </div>
  );
}
