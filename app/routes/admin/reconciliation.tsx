import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { LINES_PER_PAGE, parseLineFilter } from "@workers/core/reconciliation";
import { parseBankDay, reconciliationPage, saveReconciliationNote, settleDoubleCredit } from "@workers/services/bank-in";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, formatDay, formatMoney } from "~/lib/format";
import { NoteSchema, SettleSchema } from "~/lib/schemas/reconciliation";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { translate } from "~/lib/i18n.server";
import type { Route } from "./+types/reconciliation";
import { typedDayValue } from "@workers/core/vientiane";
import { TypedDateInput } from "~/components/admin";
import { AdminTable } from "~/components/data-table";
import type { ScriptsHandle } from "~/lib/page-scripts";
import { SUBMIT_ONCE, hookProps } from "~/lib/lite/hooks";

/** Lite (decision 089): a note is sent once, its button disabled while the answer comes. */
export const handle = { lite: ["submitOnce"] } satisfies ScriptsHandle;

/**
 * Reconciliation of one bank day (decision 047): the bank's credits and debits
 * of the agency's own accounts against deposits applied, withdrawals marked paid and the credit
 * per provider. Every staff member reads it; owners write a note on each difference (the note
 * action answers a cashier 403). The day is a plain GET form, each note a plain POST form.
 * A large day on a phone (decision 074): the summary first (totals, lines by kind and reason,
 * each a link to its lines), then one page of lines, differences first, paged by plain links
 * (`show`, `after`, `before`); a note or a settlement comes back to the same page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const params = new URL(request.url).searchParams;
  const asked = params.get("day");
  const day = parseBankDay(asked);
  if (!day) return { role: staff.role, error: "DAY_INVALID" as const, asked: asked?.slice(0, 19) ?? "", page: null, view: null };
  const view = { show: parseLineFilter(params.get("show")), after: params.get("after"), before: params.get("before") };
  const page = await reconciliationPage(getBindings(context).DB, staff.agencyId, day, view);
  return { role: staff.role, error: null, asked: day, page, view };
}

/** The page a form was sent from (its day, filter and cursor), where the answer goes back to. */
function pageUrl(day: string, form: FormData): string {
  const query = new URLSearchParams({ day });
  for (const name of ["show", "after", "before"]) {
    const value = form.get(name);
    if (typeof value === "string" && value !== "" && value.length <= 400) query.set(name, value);
  }
  return `/admin/reconciliation?${query}`;
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const form = await request.formData();
  if (form.get("intent") === "settle") return settle(form, request, context, staff);
  const submission = parseWithZod(form, { schema: NoteSchema });
  // every refusal shows the note form again with what the owner typed (`typed`), as typed
  const typed = String(submission.payload.note ?? "");
  if (submission.status !== "success") {
    const error = submission.error?.note?.[0] === "admin:reconciliation.errors.NOTE_CHARACTERS" ? "NOTE_CHARACTERS" : "NOTE_INVALID";
    return data({ lineKey: String(submission.payload.lineKey ?? ""), typed, error }, { status: 400 });
  }
  const { day, lineKey, note } = submission.value;
  if (!parseBankDay(day)) return data({ lineKey, typed, error: "DAY_INVALID" as const }, { status: 400 });
  const outcome = await saveReconciliationNote(getBindings(context).DB, auditContext(request, staff), { day, lineKey, note });
  if (!outcome.ok) return data({ lineKey, typed, error: outcome.error }, { status: outcome.error === "NOT_A_DIFFERENCE" ? 409 : 400 });
  return redirectWithSuccess({ request, context }, pageUrl(day, form), translate(context, "admin:reconciliation.noteSaved"));
}

/** The owner settles the surplus credit of a transfer credited twice (decision 069); a refusal shows the form again as typed. */
async function settle(form: FormData, request: Request, context: Route.ActionArgs["context"], staff: Parameters<typeof auditContext>[1]) {
  const submission = parseWithZod(form, { schema: SettleSchema });
  const lineKey = String(form.get("lineKey") ?? "");
  const typed = String(submission.payload.reason ?? "");
  if (submission.status !== "success") return data({ lineKey, typed, error: "SETTLE_INVALID" as string, settle: true }, { status: 400 });
  const { day, code, settled, reason } = submission.value;
  if (!parseBankDay(day)) return data({ lineKey, typed, error: "DAY_INVALID", settle: true }, { status: 400 });
  const outcome = await settleDoubleCredit(getBindings(context), auditContext(request, staff), { code, settled, reason });
  if (!outcome.ok) return data({ lineKey, typed, error: outcome.error, settle: true }, { status: 409 });
  return redirectWithSuccess({ request, context }, pageUrl(day, form), translate(context, "admin:reconciliation.settle.done", { code }));
}

type Page = NonNullable<Route.ComponentProps["loaderData"]["page"]>;
type Line = Page["lines"][number];
type T = TFunction<"admin">;

export default function Reconciliation({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { page, role, error, asked, view } = loaderData;
  return (
    <section className="reconciliation">
      <title>{t("reconciliation.title")}</title>
      <h1>{t("reconciliation.title")}</h1>
      <p className="muted">{t("reconciliation.intro")}</p>
      {/* noValidate: a malformed day gets the page's translated message, not the browser's own */}
      <Form method="get" className="admin-filter" data-testid="reconciliation-day-form" noValidate>
        <div className="field">
          <label htmlFor="rc-day">{t("reconciliation.day")}</label>
          <TypedDateInput
            kind="day"
            id="rc-day"
            name="day"
            value={typedDayValue(asked)}
            required
            invalid={error !== null}
            describedBy={error ? "reconciliation-error" : undefined}
          />
        </div>
        <button type="submit" className="button button-primary">
          {t("reconciliation.show")}
        </button>
      </Form>
      {error && (
        <p className="notice" role="alert" id="reconciliation-error" data-testid="reconciliation-error">
          {t(`reconciliation.errors.${error}`)}
        </p>
      )}
      {page && view && <Day t={t} page={page} view={view} owner={role === "owner"} actionData={actionData} />}
    </section>
  );
}

/** A link to a view of the day: a filter and a cursor (none: the first page of every line), landing on the lines. */
function dayLink(day: string, view: { show?: string | null; after?: string | null; before?: string | null }): string {
  const query = new URLSearchParams({ day });
  for (const [name, value] of Object.entries(view)) if (value) query.set(name, value);
  return `/admin/reconciliation?${query}#lines`;
}

/** What a filter keeps, in words: a difference's reason, or a kind of line. */
function filterName(t: T, show: NonNullable<Page["paging"]["show"]>): string {
  return LINE_KINDS.includes(show) ? t(`reconciliation.kinds.${show}`) : t(`reconciliation.reasons.${show}`);
}
const LINE_KINDS: readonly string[] = ["difference", "waiting", "timing", "matched"] satisfies Line["kind"][];

type View = { show: string | null; after: string | null; before: string | null };

/** Hidden fields that bring a form's answer back to the page it was sent from (its filter and cursor). */
function ViewFields({ view }: { view: View }) {
  return <>{Object.entries(view).map(([name, value]) => value && <input key={name} type="hidden" name={name} value={value} />)}</>;
}

function Day({ t, page, view, owner, actionData }: { t: T; page: Page; view: View; owner: boolean; actionData: Route.ComponentProps["actionData"] }) {
  const count = (kind: Line["kind"]) => page.groups.filter((g) => g.kind === kind).reduce((n, g) => n + g.n, 0);
  const twice = page.groups.find((g) => g.reason === "CREDITED_TWICE")?.n ?? 0;
  const kip = (v: string) => formatMoney(v, "LAK");
  const credit = (minor: number) => formatMoney((minor / 100).toFixed(2), "THB");
  return (
    <div data-testid="reconciliation" data-day={page.day} data-closed={page.closed ? "yes" : "no"}>
      <nav aria-label={t("reconciliation.days")}>
        <Link to={`/admin/reconciliation?day=${page.previousDay}`} prefetch="none" data-testid="previous-day">
          ← {formatDay(page.previousDay)}
        </Link>{" "}
        <strong>{formatDay(page.day)}</strong>{" "}
        {page.nextDay && (
          <Link to={`/admin/reconciliation?day=${page.nextDay}`} prefetch="none" data-testid="next-day">
            {formatDay(page.nextDay)} →
          </Link>
        )}{" "}
        <a href={`/admin/reconciliation/${page.day}.csv`} className="button button-ghost button-small" data-testid="reconciliation-csv" download>
          {t("reconciliation.csvLink")}
        </a>
      </nav>
      <p className={page.closed ? "notice notice-success" : "notice"} data-testid="reconciliation-status">
        {page.closed ? t("reconciliation.closed") : t("reconciliation.open")}
        {!page.covered && (
          <>
            {" "}
            ·{" "}
            {page.uncoveredChannels.length > 0
              ? t("reconciliation.notCoveredChannels", { channels: page.uncoveredChannels.join(", ") })
              : t("reconciliation.notCovered")}
          </>
        )}
        {page.summary.differences > page.summary.noted && <> · {t("reconciliation.withoutNote", { count: page.summary.differences - page.summary.noted })}</>}
        {page.summary.moneyOpen > 0 && (
          <>
            {" "}
            · <strong data-testid="money-open">{t("reconciliation.moneyOpen", { count: page.summary.moneyOpen })}</strong>
          </>
        )}
        {page.summary.waiting > 0 && <> · {t("reconciliation.waitingCount", { count: page.summary.waiting })}</>}
      </p>

      <AdminTable
        label={t("reconciliation.summary")}
        caption="shown"
        testId="reconciliation-summary"
        rows={
          [
            ["bankCredits", page.summary.bankCredits],
            ["depositsReported", page.summary.depositsReported],
            ["bankDebits", page.summary.bankDebits],
            ["withdrawalsReported", page.summary.withdrawalsReported],
          ] as const
        }
        rowKey={([key]) => key}
        rowProps={([key]) => ({ "data-testid": `summary-${key}` })}
        columns={[
          { header: t("reconciliation.csv.kind"), rowHeader: true, cell: ([key]) => t(`reconciliation.totals.${key}`) },
          { header: t("reconciliation.count"), cell: ([, totals]) => totals.n },
          { header: t("reconciliation.kip"), cell: ([, totals]) => kip(totals.kip) },
        ]}
      />

      <AdminTable
        label={t("reconciliation.linesByKind")}
        caption="shown"
        testId="reconciliation-groups"
        empty={<p className="muted">{t("reconciliation.noLines")}</p>}
        rows={page.groups}
        rowKey={(g) => `${g.kind}:${g.reason}:${g.direction}`}
        rowProps={(g) => ({ "data-testid": "group", "data-kind": g.kind, "data-reason": g.reason ?? "", "data-direction": g.direction, "data-n": g.n })}
        columns={[
          {
            header: t("reconciliation.csv.kind"),
            rowHeader: true,
            cell: (g) => (
              <Link to={dayLink(page.day, { show: g.reason ?? g.kind })} prefetch="none">
                {g.reason ? t(`reconciliation.reasons.${g.reason}`) : t(`reconciliation.kinds.${g.kind}`)} · {t(`reconciliation.directions.${g.direction}`)}
              </Link>
            ),
          },
          { header: t("reconciliation.count"), cell: (g) => g.n },
          { header: t("reconciliation.kip"), cell: (g) => kip(g.kip) },
          { header: t("reconciliation.unnoted"), cell: (g) => (g.kind === "difference" ? g.unnoted : "") },
        ]}
      />

      <h2>{t("reconciliation.providers")}</h2>
      <p className="muted">{t("reconciliation.providersHint")}</p>
      <AdminTable
        label={t("reconciliation.providers")}
        testId="reconciliation-providers"
        empty={<p className="muted">{t("common.none")}</p>}
        rows={page.providers}
        rowKey={(p) => p.provider}
        rowProps={(p) => ({ "data-provider": p.provider })}
        columns={[
          { header: t("reconciliation.provider"), rowHeader: true, cell: (p) => t(`common:providers.${p.provider}`, { defaultValue: p.provider }) },
          { header: t("reconciliation.inByBank"), cell: (p) => credit(p.inByBank) },
          { header: t("reconciliation.inByReports"), cell: (p) => credit(p.inByReports) },
          { header: t("reconciliation.outByBank"), cell: (p) => credit(p.outByBank) },
          { header: t("reconciliation.outByReports"), cell: (p) => credit(p.outByReports) },
        ]}
      />

      <h2 id="lines">{t("reconciliation.lines")}</h2>
      <p className="muted">{t("reconciliation.linesHint", { count: LINES_PER_PAGE })}</p>
      {page.paging.show && (
        <p data-testid="lines-filter">
          {t("reconciliation.showing", { what: filterName(t, page.paging.show) })} · <Link to={dayLink(page.day, {})}>{t("reconciliation.showAll")}</Link>
        </p>
      )}
      <p className="muted" data-testid="credited-twice" data-count={twice}>
        {twice === 0 ? t("reconciliation.twiceEmpty") : t("reconciliation.twiceNotEmpty", { count: twice })}
      </p>
      <Lines t={t} page={page} view={view} owner={owner} actionData={actionData} count={count} />
      <Pager t={t} page={page} />
    </div>
  );
}

/**
 * The page's lines under their kinds' headings, differences first. On the first page of every
 * line, a kind the day has none of says so; on other pages a kind is shown only with lines.
 */
function Lines({
  t,
  page,
  view,
  owner,
  actionData,
  count,
}: {
  t: T;
  page: Page;
  view: View;
  owner: boolean;
  actionData: Route.ComponentProps["actionData"];
  count: (kind: Line["kind"]) => number;
}) {
  const of = (kind: Line["kind"]) => page.lines.filter((l) => l.kind === kind);
  const opening = page.paging.show === null && page.paging.previous === null;
  const [differences, waiting, timing, matched] = [of("difference"), of("waiting"), of("timing"), of("matched")];
  if (page.paging.total === 0 && page.paging.show !== null) return <p className="muted">{t("reconciliation.noLines")}</p>;
  return (
    <>
      {(differences.length > 0 || (opening && count("difference") === 0)) && <h3>{t("reconciliation.differences")}</h3>}
      {differences.length > 0 ? (
        <ul className="stack reconciliation-lines" data-testid="differences">
          {differences.map((l) => (
            <li key={l.key} className="card stack" data-testid="difference" data-key={l.key} data-reason={l.reason} data-noted={l.note ? "yes" : "no"}>
              <p>
                <strong>{t(`reconciliation.reasons.${l.reason}`)}</strong> · {formatMoney(l.amount, "LAK")}
              </p>
              <LineFacts t={t} line={l} />
              {l.money && (
                <p className="notice notice-warning" data-testid="money-hint">
                  {l.reason === "CREDITED_TWICE" ? t("reconciliation.moneyHintTwice") : t("reconciliation.moneyHintNoCredit")}
                  {l.reason === "NO_CREDIT" && (
                    <>
                      {" "}
                      <Link to={l.queueId ? `/admin/payments?id=${encodeURIComponent(l.queueId)}` : "/admin/payments"} data-testid="money-payment">
                        {t("nav.payments")}
                      </Link>
                    </>
                  )}
                </p>
              )}
              {owner && l.reason === "CREDITED_TWICE" && (
                <SettleForm
                  t={t}
                  day={page.day}
                  view={view}
                  line={l}
                  refused={actionData && "settle" in actionData && actionData.lineKey === l.key ? actionData : null}
                />
              )}
              {l.note && (
                <p data-testid="note">
                  {t("reconciliation.noteBy", { username: l.note.staffUsername ?? "", when: formatDateTime(new Date(l.note.notedAt)) })}: {l.note.note}
                </p>
              )}
              {owner && (
                <NoteForm t={t} day={page.day} view={view} line={l} refused={actionData?.lineKey === l.key && !("settle" in actionData) ? actionData : null} />
              )}
            </li>
          ))}
        </ul>
      ) : (
        opening &&
        count("difference") === 0 && (
          <p className="muted" data-testid="no-differences">
            {t("reconciliation.noDifferences")}
          </p>
        )
      )}

      {waiting.length > 0 && (
        <>
          <h3>{t("reconciliation.waiting")}</h3>
          <p className="muted">{t("reconciliation.waitingHint")}</p>
          <LineTable t={t} lines={waiting} testId="waiting" />
        </>
      )}

      {(timing.length > 0 || (opening && count("timing") === 0)) && (
        <>
          <h3>{t("reconciliation.timing")}</h3>
          <p className="muted">{t("reconciliation.timingHint")}</p>
          {timing.length === 0 ? <p className="muted">{t("common.none")}</p> : <LineTable t={t} lines={timing} testId="timing" />}
        </>
      )}

      {(matched.length > 0 || (opening && count("matched") === 0)) && (
        <>
          <h3>{t("reconciliation.matched")}</h3>
          {matched.length === 0 ? <p className="muted">{t("common.none")}</p> : <LineTable t={t} lines={matched} testId="matched" />}
        </>
      )}
    </>
  );
}

/** Where the page stands among the lines, and plain links to the first, previous and next pages. */
function Pager({ t, page }: { t: T; page: Page }) {
  const { paging } = page;
  if (paging.total === 0) return null;
  const show = paging.show;
  return (
    <nav aria-label={t("reconciliation.pager")} className="pager" data-testid="pager" data-first={paging.first} data-total={paging.total}>
      <span>{t("reconciliation.pageOf", { from: paging.first, to: paging.first + page.lines.length - 1, total: paging.total })}</span>
      {paging.previous && (
        <>
          {" "}
          <Link to={dayLink(page.day, { show })} prefetch="none" data-testid="first-page">
            {t("reconciliation.firstPage")}
          </Link>{" "}
          <Link to={dayLink(page.day, { show, before: paging.previous })} prefetch="none" rel="prev" data-testid="previous-page">
            ← {t("reconciliation.previousPage", { count: LINES_PER_PAGE })}
          </Link>
        </>
      )}
      {paging.next && (
        <>
          {" "}
          <Link to={dayLink(page.day, { show, after: paging.next })} prefetch="none" rel="next" data-testid="next-page">
            {t("reconciliation.nextPage", { count: LINES_PER_PAGE })} →
          </Link>
        </>
      )}
    </nav>
  );
}

function LineFacts({ t, line }: { t: T; line: Line }) {
  return (
    <p className="muted">
      {t(`reconciliation.directions.${line.direction}`)}
      {line.channelCode && <> · {line.channelCode}</>}
      {line.transferId && (
        <>
          {" "}
          · {t("reconciliation.transfer")} {line.transferId}
        </>
      )}
      {line.twinId && (
        <>
          {" "}
          · {t("reconciliation.twin")} {line.twinId}
        </>
      )}
      {line.bankTime !== null && (
        <>
          {" "}
          · {t("reconciliation.bankTime")} {formatDateTime(new Date(line.bankTime))}
        </>
      )}
      {line.markedPaidAt !== null && (
        <>
          {" "}
          · {t("reconciliation.markedPaidAt")} {formatDateTime(new Date(line.markedPaidAt))}
        </>
      )}
      {line.sources.length > 0 && <> · {line.sources.map((s) => t(`reconciliation.sources.${s}`)).join(" + ")}</>}
      {line.orderCode && (
        <>
          {" · "}
          {line.direction === "debit" ? (
            <Link to={`/admin/withdrawals/${line.orderCode}`}>{line.orderCode}</Link>
          ) : (
            <Link to={`/admin/deposits/${line.orderCode}`}>{line.orderCode}</Link>
          )}
        </>
      )}
      {line.raw && (
        <>
          {" "}
          · <span className="raw-text">{line.raw}</span>
        </>
      )}
    </p>
  );
}

function LineTable({ t, lines, testId }: { t: T; lines: Line[]; testId: string }) {
  return (
    <AdminTable
      label={t(`reconciliation.${testId}`)}
      testId={testId}
      rows={lines}
      rowKey={(l) => l.key}
      rowProps={(l) => ({ "data-key": l.key })}
      columns={[
        { header: t("reconciliation.csv.direction"), cell: (l) => t(`reconciliation.directions.${l.direction}`) },
        { header: t("reconciliation.csv.amount"), lead: true, cell: (l) => formatMoney(l.amount, "LAK") },
        {
          header: t("reconciliation.csv.bankTime"),
          cell: (l) => (l.bankTime !== null ? formatDateTime(new Date(l.bankTime)) : l.markedPaidAt !== null ? formatDateTime(new Date(l.markedPaidAt)) : ""),
        },
        { header: t("reconciliation.csv.order"), cell: (l) => l.orderCode ?? l.transferId },
        {
          header: t("reconciliation.csv.resolution"),
          cell: (l) =>
            l.kind === "timing"
              ? t("reconciliation.timingLine", { bankDay: l.bankDay, reportsDay: l.reportsDay })
              : l.resolution
                ? t(`reconciliation.resolutions.${l.resolution}`)
                : "",
        },
        { header: t("reconciliation.csv.sources"), cell: (l) => l.sources.map((s) => t(`reconciliation.sources.${s}`)).join(" + ") },
      ]}
    />
  );
}

function NoteForm({ t, day, view, line, refused }: { t: T; day: string; view: View; line: Line; refused: { typed: string; error: string } | null }) {
  const error = refused?.error ?? null;
  const id = `note-${line.key.replace(/[^A-Za-z0-9]/g, "-")}`;
  return (
    <Form method="post" className="stack" data-testid="note-form" {...hookProps(SUBMIT_ONCE)}>
      <input type="hidden" name="day" value={day} />
      <ViewFields view={view} />
      <input type="hidden" name="lineKey" value={line.key} />
      <div className="field">
        <label htmlFor={id}>{line.note ? t("reconciliation.noteChange") : t("reconciliation.note")}</label>
        <textarea
          id={id}
          name="note"
          required
          minLength={3}
          maxLength={500}
          rows={2}
          defaultValue={refused ? refused.typed : (line.note?.note ?? "")}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {error && (
          <p id={`${id}-error`} className="field-errors" role="alert">
            {t(`reconciliation.errors.${error}`)}
          </p>
        )}
      </div>
      <button type="submit" className="button button-small">
        {t("reconciliation.saveNote")}
      </button>
    </Form>
  );
}

function SettleForm({ t, day, view, line, refused }: { t: T; day: string; view: View; line: Line; refused: { typed: string; error: string } | null }) {
  const id = `settle-${line.key.replace(/[^A-Za-z0-9]/g, "-")}`;
  return (
    <Form method="post" className="stack" data-testid="settle-form">
      <h3>{t("reconciliation.settle.title")}</h3>
      <input type="hidden" name="intent" value="settle" />
      <input type="hidden" name="day" value={day} />
      <ViewFields view={view} />
      <input type="hidden" name="lineKey" value={line.key} />
      <div className="field">
        <label htmlFor={`${id}-code`}>{t("reconciliation.settle.credit")}</label>
        <select id={`${id}-code`} name="code" required defaultValue={line.credits[line.credits.length - 1]}>
          {line.credits.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="field">
        <legend>{t("reconciliation.settle.how")}</legend>
        <label>
          <input type="radio" name="settled" value="reversed" required /> {t("reconciliation.settle.reversed")}
        </label>
        <label>
          <input type="radio" name="settled" value="loss" /> {t("reconciliation.settle.loss")}
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-reason`}>{t("reconciliation.settle.reason")}</label>
        <textarea
          id={`${id}-reason`}
          name="reason"
          required
          minLength={3}
          maxLength={500}
          rows={2}
          defaultValue={refused?.typed ?? ""}
          aria-invalid={refused ? true : undefined}
          aria-describedby={refused ? `${id}-error` : undefined}
        />
        {refused && (
          <p id={`${id}-error`} className="field-errors" role="alert">
            {t(`reconciliation.errors.${refused.error}`)}
          </p>
        )}
      </div>
      <button type="submit" className="button button-small button-danger">
        {t("reconciliation.settle.submit")}
      </button>
    </Form>
  );
}
