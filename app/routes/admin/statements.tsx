import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect } from "react-router";
import { useTranslation } from "react-i18next";
import { AMOUNT_MODES, DATE_FORMATS, NUMBER_FORMATS } from "@workers/core/statement";
import {
  applyStatement,
  saveStatementMapping,
  statementPage,
  statementUploadPage,
  tryStatementMapping,
  uploadStatement,
  type MappingFields,
  type MappingTry,
  type ReviewRow,
  type RowOutcome,
} from "@workers/services/bank-in";
import { getBindings } from "~/lib/context.server";
import { formatDateTime, formatMoney } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { HeaderRowSchema, StatementMappingSchema } from "~/lib/schemas/statements";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/statements";
import { TableWrap } from "~/components/table-wrap";
import { AdminTable } from "~/components/data-table";

/**
 * Statement import (decision 016), cashier and owner: upload the CSV statement of an
 * own-account channel -> map its columns (first import of the channel, or "change mapping")
 * with the first rows shown as they are and as read -> review what each credit row matches
 * -> confirm (applied once; rows matching nothing go to the unmatched-payments queue).
 * Plain forms (multipart upload, GET for the header row): works without JavaScript.
 */
const BASE = "/admin/deposits/import";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context);
  const env = getBindings(context);
  const url = new URL(request.url);
  const uploadId = url.searchParams.get("upload");
  if (!uploadId) return { step: "upload" as const, ...(await statementUploadPage(env.DB, staff.agencyId)) };
  const header = url.searchParams.get("header");
  const page = await statementPage(env, staff.agencyId, uploadId, {
    remap: url.searchParams.get("remap") === "1",
    headerRow: header === null ? null : HeaderRowSchema.parse(header),
  });
  if (!page) throw new Response("Not found", { status: 404 });
  return page;
}

type ActionData =
  | { intent: "upload"; error: string }
  | { intent: "try" | "save"; fields: MappingFields; headerRow: number; errors: string[]; preview: Extract<MappingTry, { ok: true }> | null };

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const env = getBindings(context);
  const actor = auditContext(request, staff);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const uploadId = String(form.get("upload") ?? "");

  if (intent === "upload") {
    const file = form.get("file");
    const channelCode = String(form.get("channel") ?? "");
    if (!(file instanceof File) || file.size === 0)
      return data<ActionData>({ intent, error: translate(context, "admin:statements.fileProblems.EMPTY") }, { status: 400 });
    const done = await uploadStatement(env.DB, actor, { channelCode, fileName: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
    if (!done.ok) return data<ActionData>({ intent, error: translate(context, `admin:statements.fileProblems.${done.problem}`) }, { status: 400 });
    return redirect(`${BASE}?upload=${done.id}`);
  }

  if (intent === "try" || intent === "save") {
    const submission = parseWithZod(form, { schema: StatementMappingSchema });
    const fields: MappingFields = submission.status === "success" ? submission.value : {};
    const headerRow = HeaderRowSchema.parse(form.get("headerRow"));
    const result =
      intent === "save"
        ? await saveStatementMapping(env.DB, actor, uploadId, fields, headerRow)
        : await tryStatementMapping(env.DB, staff.agencyId, uploadId, fields, headerRow);
    if (!result.ok && "notFound" in result) throw new Response("Not found", { status: 404 });
    if (result.ok && intent === "save") {
      return redirectWithToast({ request, context }, `${BASE}?upload=${encodeURIComponent(uploadId)}`, {
        type: "success",
        message: translate(context, "admin:statements.mappingSaved"),
      });
    }
    const errors = result.ok
      ? []
      : "mappingProblems" in result
        ? result.mappingProblems.map((p) => translate(context, `admin:statements.mappingProblems.${p}`))
        : [translate(context, `admin:statements.fileProblems.${result.fileProblem}`, { columns: result.missing.join(", ") })];
    return data<ActionData>({ intent, fields, headerRow, errors, preview: result.ok ? result : null }, { status: result.ok ? 200 : 400 });
  }

  if (intent === "apply") {
    const done = await applyStatement(env, actor, uploadId);
    if (!done.ok) {
      if (done.problem === "NOT_FOUND") throw new Response("Not found", { status: 404 });
      return redirectWithToast({ request, context }, `${BASE}?upload=${encodeURIComponent(uploadId)}&remap=1`, {
        type: "error",
        message: translate(context, "admin:statements.notMapped"),
      });
    }
    return redirectWithToast({ request, context }, `${BASE}?upload=${encodeURIComponent(uploadId)}`, {
      type: "success",
      message: translate(context, "admin:statements.appliedSummary", done.summary),
    });
  }
  throw new Response("Bad request", { status: 400 });
}

export default function AdminStatements({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const answer = actionData as ActionData | undefined;
  return (
    <section data-testid="statements" data-step={loaderData.step}>
      <title>{t("statements.title")}</title>
      <h1>{t("statements.title")}</h1>
      {loaderData.step === "upload" && <UploadStep channels={loaderData.channels} error={answer?.intent === "upload" ? answer.error : null} />}
      {loaderData.step === "map" && <MapStep page={loaderData} answer={answer?.intent === "try" || answer?.intent === "save" ? answer : undefined} />}
      {loaderData.step === "review" && <ReviewStep page={loaderData} />}
    </section>
  );
}

type LoaderPage = Route.ComponentProps["loaderData"];

function UploadStep({ channels, error }: { channels: Extract<LoaderPage, { step: "upload" }>["channels"]; error: string | null }) {
  const { t } = useTranslation("admin");
  if (channels.length === 0) return <p data-testid="statements-no-channel">{t("statements.noChannel")}</p>;
  return (
    <>
      <p>{t("statements.intro")}</p>
      <Form method="post" encType="multipart/form-data" className="stack admin-card" data-testid="statement-upload">
        <div className="field">
          <label htmlFor="st-channel">{t("statements.channel")}</label>
          <select id="st-channel" name="channel" required defaultValue={channels.find((c) => c.active)?.code ?? channels[0].code}>
            {channels.map((c) => (
              <option key={c.code} value={c.code}>
                {c.displayName} · {c.bankCode} · {c.mapped ? t("statements.mapped") : t("statements.notMappedYet")}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="st-file">{t("statements.file")}</label>
          <input id="st-file" name="file" type="file" accept=".csv,.txt,text/csv,text/plain" required aria-describedby="st-file-hint" />
          <p id="st-file-hint" className="field-hint">
            {t("statements.fileHint")}
          </p>
        </div>
        <button type="submit" name="intent" value="upload" className="button button-primary">
          {t("statements.uploadSubmit")}
        </button>
        {error && (
          <p role="alert" className="form-alert field-errors" data-testid="statement-error">
            {error}
          </p>
        )}
      </Form>
    </>
  );
}

const MAPPING_COLUMNS = ["date", "time", "description", "transactionId", "amount", "indicator", "credit", "debit"] as const;
const OPTIONAL: ReadonlySet<string> = new Set(["time", "transactionId"]);

function MapStep({ page, answer }: { page: Extract<LoaderPage, { step: "map" }>; answer?: Extract<ActionData, { intent: "try" | "save" }> }) {
  const { t } = useTranslation("admin");
  const fields = answer?.fields ?? page.fields;
  const headerRow = answer?.headerRow ?? page.headerRow;
  const header = page.header;
  const width = Math.max(0, ...page.rows.map((r) => r.length));
  return (
    <>
      <p>{t("statements.mapIntro", { file: page.upload.fileName, channel: page.upload.channelCode })}</p>
      {page.missing.length > 0 && (
        <p role="alert" className="form-alert" data-testid="statement-missing">
          {t("statements.fileProblems.COLUMNS_NOT_FOUND", { columns: page.missing.join(", ") })}
        </p>
      )}
      <h2>{t("statements.rawTitle")}</h2>
      <TableWrap label={t("statements.rawTitle")}>
        {/* on a phone each of the file's rows is a card, each cell under its column's number (decision 088) */}
        <table className="admin-table admin-table-cards admin-table-figures" data-testid="statement-raw">
          <tbody>
            {page.rows.map((row, i) => (
              <tr key={i} data-header={i === headerRow ? "true" : undefined}>
                <th scope="row" data-label={t("staffScreens.fileRow")}>
                  {i + 1}
                </th>
                {Array.from({ length: width }, (_, c) =>
                  i === headerRow ? (
                    <th key={c} data-label={t("staffScreens.fileColumn", { n: c + 1 })}>
                      {row[c] ?? ""}
                    </th>
                  ) : (
                    <td key={c} data-label={t("staffScreens.fileColumn", { n: c + 1 })}>
                      {row[c] ?? ""}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>

      <Form method="get" className="admin-filter" data-testid="statement-header-row">
        <input type="hidden" name="upload" value={page.upload.id} />
        <input type="hidden" name="remap" value="1" />
        <div className="field">
          <label htmlFor="st-header">{t("statements.headerRow")}</label>
          <select id="st-header" name="header" defaultValue={String(headerRow)}>
            {page.rows.slice(0, 30).map((row, i) => (
              <option key={i} value={i}>
                {i + 1}: {row.filter(Boolean).slice(0, 3).join(" · ").slice(0, 60)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t("statements.useHeaderRow")}
        </button>
      </Form>

      <Form method="post" className="stack admin-card" data-testid="statement-mapping">
        <h2>{t("statements.mappingTitle")}</h2>
        <input type="hidden" name="upload" value={page.upload.id} />
        <input type="hidden" name="headerRow" value={headerRow} />
        <div className="field">
          <label htmlFor="st-amountMode">{t("statements.fields.amountMode")}</label>
          <select id="st-amountMode" name="amountMode" defaultValue={fields.amountMode ?? ""}>
            {AMOUNT_MODES.map((m) => (
              <option key={m} value={m}>
                {t(`statements.amountModes.${m}`)}
              </option>
            ))}
          </select>
        </div>
        {MAPPING_COLUMNS.map((name) => (
          <div className="field" key={name}>
            <label htmlFor={`st-${name}`}>{t(`statements.fields.${name}`)}</label>
            <select id={`st-${name}`} name={name} defaultValue={fields[name] ?? ""}>
              <option value="">{OPTIONAL.has(name) ? t("statements.none") : t("statements.choose")}</option>
              {header.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </select>
          </div>
        ))}
        <div className="field">
          <label htmlFor="st-creditValue">{t("statements.fields.creditValue")}</label>
          <input id="st-creditValue" name="creditValue" maxLength={200} defaultValue={fields.creditValue ?? ""} aria-describedby="st-creditValue-hint" />
          <p id="st-creditValue-hint" className="field-hint">
            {t("statements.creditValueHint")}
          </p>
        </div>
        <div className="field">
          <label htmlFor="st-dateFormat">{t("statements.fields.dateFormat")}</label>
          <select id="st-dateFormat" name="dateFormat" defaultValue={fields.dateFormat ?? ""}>
            {DATE_FORMATS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
          <p className="field-hint">{t("statements.dateFormatHint")}</p>
        </div>
        <div className="field">
          <label htmlFor="st-numberFormat">{t("statements.fields.numberFormat")}</label>
          <select id="st-numberFormat" name="numberFormat" defaultValue={fields.numberFormat ?? ""}>
            {NUMBER_FORMATS.map((f) => (
              <option key={f} value={f}>
                {t(`statements.numberFormats.${f === "1,234.56" ? "dot" : "comma"}`)}
              </option>
            ))}
          </select>
        </div>
        {answer && answer.errors.length > 0 && (
          <ul role="alert" className="form-alert field-errors" data-testid="mapping-errors">
            {answer.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        )}
        <div className="form-actions">
          {page.saved && (
            <a href={`${BASE}?upload=${encodeURIComponent(page.upload.id)}`} className="button button-ghost">
              {t("statements.keepMapping")}
            </a>
          )}
          <button type="submit" name="intent" value="try" className="button" data-testid="mapping-try">
            {t("statements.tryMapping")}
          </button>
          <button type="submit" name="intent" value="save" className="button button-primary" data-testid="mapping-save">
            {t("statements.saveMapping")}
          </button>
        </div>
      </Form>
      {answer?.preview && <ReadPreview preview={answer.preview} />}
    </>
  );
}

function ReadPreview({ preview }: { preview: Extract<MappingTry, { ok: true }> }) {
  const { t } = useTranslation("admin");
  return (
    <div data-testid="mapping-preview">
      <h2>{t("statements.readTitle", { count: preview.total })}</h2>
      <RowsTable rows={preview.rows.map((r) => (r.kind === "credit" ? { ...r, bankTransactionId: "", outcome: null } : r))} />
    </div>
  );
}

function ReviewStep({ page }: { page: Extract<LoaderPage, { step: "review" }> }) {
  const { t } = useTranslation("admin");
  const credits = page.rows.filter((r) => r.kind === "credit").length;
  return (
    <>
      <p>
        {t(page.applied ? "statements.appliedIntro" : "statements.reviewIntro", {
          file: page.upload.fileName,
          channel: page.upload.channelCode,
          count: credits,
        })}
      </p>
      <RowsTable rows={page.rows} />
      <div className="form-actions">
        <a href={`${BASE}?upload=${encodeURIComponent(page.upload.id)}&remap=1`} className="button button-ghost" data-testid="statement-remap">
          {t("statements.changeMapping")}
        </a>
        <Link to={BASE} className="button button-ghost">
          {t("statements.another")}
        </Link>
        {!page.applied && (
          <Form method="post">
            <input type="hidden" name="upload" value={page.upload.id} />
            <button type="submit" name="intent" value="apply" className="button button-primary" data-testid="statement-apply" disabled={credits === 0}>
              {t("statements.apply", { count: credits })}
            </button>
          </Form>
        )}
      </div>
    </>
  );
}

type TableRow = ReviewRow | (Extract<ReviewRow, { kind: "credit" }> extends infer C ? Omit<C, "outcome"> & { outcome: RowOutcome | null } : never);

function RowsTable({ rows }: { rows: TableRow[] }) {
  const { t } = useTranslation("admin");
  return (
    <AdminTable
      label={t("statements.rowsTitle")}
      testId="statement-rows"
      rows={rows}
      rowKey={(r) => r.row}
      rowProps={(r) => ({ "data-row": r.row, "data-kind": r.kind, "data-outcome": r.kind === "credit" ? (r.outcome?.kind ?? "read") : r.kind })}
      columns={[
        { header: t("statements.row"), cell: (r) => r.row },
        {
          header: t("statements.fields.date"),
          // A debit or a row that could not be read: one cell across the row.
          td: (r) => (r.kind === "credit" ? {} : { colSpan: 4, className: r.kind === "debit" ? undefined : "field-errors" }),
          cell: (r) =>
            r.kind === "credit"
              ? formatDateTime(new Date(r.bankTime))
              : r.kind === "debit"
                ? t("statements.debitSkipped")
                : t(`statements.rowProblems.${r.problem}`, { value: r.value }),
        },
        { header: t("statements.fields.amount"), lead: true, cell: (r) => r.kind === "credit" && formatMoney(r.amount, "LAK") },
        { header: t("statements.fields.description"), cell: (r) => r.kind === "credit" && r.description },
        { header: t("statements.outcome"), cell: (r) => r.kind === "credit" && (r.outcome ? <Outcome outcome={r.outcome} /> : t("statements.readOk")) },
      ]}
    />
  );
}

function Outcome({ outcome }: { outcome: RowOutcome }) {
  const { t } = useTranslation("admin");
  switch (outcome.kind) {
    case "match":
      return <>{t("statements.outcomes.match", { code: outcome.orderCode, username: outcome.username })}</>;
    case "applied":
      return (
        <>
          {t("statements.outcomes.applied")} <Link to={`/admin/deposits/${outcome.orderCode}`}>{outcome.orderCode}</Link>
        </>
      );
    case "duplicate":
      return <>{t("statements.outcomes.duplicate")}</>;
    case "none":
    case "unmatched":
      return <>{t(`statements.outcomes.${outcome.kind}`, { reason: t(`statements.reasons.${outcome.reason}`) })}</>;
  }
}
