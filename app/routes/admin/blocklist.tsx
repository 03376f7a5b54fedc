import { getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { useTranslation } from "react-i18next";
import { BANKS } from "@workers/core/banks";
import { BLOCKLIST_ACTIONS, BLOCKLIST_KINDS, BLOCKLIST_NOTE_MAX, isBlocklistKind } from "@workers/core/blocklist";
import { listAskOf } from "@workers/core/keyset";
import { addBlocklistEntry, blocklistPage, removeBlocklistEntry } from "@workers/services/players";
import { AdminListCount, AdminListPager } from "~/components/admin";
import { AdminTable } from "~/components/data-table";
import { ErrorList, Field, getFormProps, useSchemaForm } from "~/components/forms";
import { getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { translate } from "~/lib/i18n.server";
import { BlocklistAddSchema, BlocklistRemoveSchema } from "~/lib/schemas/blocklist";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/blocklist";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): the add form validates in the browser, with the messages of this group. */
export const handle = { lite: ["validate"], i18n: ["blocklist.validation"] } satisfies ScriptsHandle & I18nHandle;

const PAGE_SIZE = 25;
const HERE = "/admin/blocklist";

/**
 * Owner only (decision 090): the blocklist of bank accounts, holder names, phones and devices,
 * each refused or flagged at registration and bank add. A cashier's GET and POST are 403: the
 * list is who the agency will not serve, the owner's call. `?kind=&value=&bankCode=` fills the
 * add form (the staff player page and the shared-devices report link here); `?show=` filters.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const owner = await requireStaff(request, context, { role: "owner" });
  const url = new URL(request.url);
  const page = await blocklistPage(getBindings(context).DB, owner.agencyId, {
    kind: url.searchParams.get("show"),
    ask: listAskOf(url.searchParams, PAGE_SIZE),
  });
  const kind = url.searchParams.get("kind");
  const prefill = isBlocklistKind(kind)
    ? { kind, value: url.searchParams.get("value")?.slice(0, 200) ?? "", bankCode: url.searchParams.get("bankCode")?.slice(0, 16) ?? "" }
    : null;
  return { ...page, prefill };
}

export async function action({ request, context }: Route.ActionArgs) {
  const owner = await requireStaff(request, context, { role: "owner" });
  const db = getBindings(context).DB;
  const formData = await request.formData();
  const who = auditContext(request, owner);
  if (formData.get("intent") === "remove") {
    const submission = parseWithZod(formData, { schema: BlocklistRemoveSchema });
    if (submission.status !== "success") return data({ result: null }, { status: 400 });
    const removed = await removeBlocklistEntry(db, who, submission.value.entryId);
    if (!removed.ok) return redirectWithError({ request, context }, HERE, translate(context, "admin:blocklist.gone"));
    return redirectWithSuccess({ request, context }, HERE, translate(context, "admin:blocklist.removed", { value: removed.entry.shown }));
  }
  const submission = parseWithZod(formData, { schema: BlocklistAddSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const added = await addBlocklistEntry(db, who, submission.value);
  if (!added.ok) {
    const message =
      added.code === "ALREADY_LISTED"
        ? translate(context, "admin:blocklist.alreadyListed", {
            value: added.entry.shown,
            who: added.entry.addedBy,
            when: formatDateTime(added.entry.createdAt),
          })
        : "admin:blocklist.validation.value";
    return data({ result: submission.reply({ fieldErrors: { value: [message] } }) }, { status: 409 });
  }
  return redirectWithSuccess({ request, context }, HERE, translate(context, "admin:blocklist.added", { value: added.entry.shown }));
}

export default function AdminBlocklist({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { items, total, next, previous, kind: shown, prefill } = loaderData;
  const [form, fields] = useSchemaForm("blocklist-entry", BlocklistAddSchema, actionData?.result, {
    intent: "add",
    action: "refuse",
    ...(prefill ? { kind: prefill.kind, value: prefill.value, ...(prefill.bankCode ? { bankCode: prefill.bankCode } : {}) } : {}),
  });
  const chosenAction = String(fields.action.initialValue ?? "refuse");
  return (
    <section>
      <title>{t("blocklist.title")}</title>
      <h1>{t("blocklist.title")}</h1>
      <p className="muted">{t("blocklist.intro")}</p>

      <h2 id="blocklist-add">{t("blocklist.addTitle")}</h2>
      <Form method="post" action={HERE} {...getFormProps(form)} noValidate className="stack narrow" data-testid="blocklist-add-form">
        <input type="hidden" name="intent" value="add" />
        <div className="field">
          <label htmlFor={fields.kind.id}>{t("blocklist.kind")}</label>
          <select {...getSelectProps(fields.kind)} key={fields.kind.key} data-testid="blocklist-kind">
            {BLOCKLIST_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`blocklist.kinds.${k}`)}
              </option>
            ))}
          </select>
          <ErrorList id={fields.kind.errorId} errors={fields.kind.errors} />
        </div>
        <div className="field">
          <label htmlFor={fields.bankCode.id}>{t("blocklist.bank")}</label>
          <select {...getSelectProps(fields.bankCode)} key={fields.bankCode.key} aria-describedby={`${fields.bankCode.id}-hint`}>
            <option value="">{t("blocklist.bankNone")}</option>
            {BANKS.map((b) => (
              <option key={b.code} value={b.code}>
                {b.code} · {b.name}
              </option>
            ))}
          </select>
          <p id={`${fields.bankCode.id}-hint`} className="field-hint">
            {t("blocklist.bankHint")}
          </p>
          <ErrorList id={fields.bankCode.errorId} errors={fields.bankCode.errors} />
        </div>
        <Field
          label={t("blocklist.value")}
          hint={t("blocklist.valueHint")}
          inputProps={{ ...getInputProps(fields.value, { type: "text" }), autoComplete: "off", spellCheck: false }}
          errors={fields.value.errors}
        />
        <fieldset className="admin-checks">
          <legend>{t("blocklist.action")}</legend>
          {BLOCKLIST_ACTIONS.map((a) => (
            <label key={a} className="admin-check">
              <input type="radio" name={fields.action.name} value={a} defaultChecked={chosenAction === a} data-testid={`blocklist-action-${a}`} />
              <span>{t(`blocklist.actions.${a}`)}</span>
            </label>
          ))}
          <ErrorList id={fields.action.errorId} errors={fields.action.errors} />
        </fieldset>
        <div className="field">
          <label htmlFor={fields.note.id}>{t("blocklist.note")}</label>
          <textarea {...getTextareaProps(fields.note)} key={fields.note.key} rows={2} maxLength={BLOCKLIST_NOTE_MAX} />
          <ErrorList id={fields.note.errorId} errors={fields.note.errors} />
        </div>
        <div role="alert" className="form-alert">
          <ErrorList id={form.errorId} errors={form.errors} />
        </div>
        <button type="submit" className="button button-primary" data-testid="blocklist-add">
          {t("blocklist.add")}
        </button>
      </Form>

      <h2>{t("blocklist.listTitle")}</h2>
      <Form method="get" action={HERE} className="admin-filter" data-testid="blocklist-filter">
        <div className="field">
          <label htmlFor="blocklist-show">{t("blocklist.kind")}</label>
          <select id="blocklist-show" name="show" defaultValue={shown ?? ""}>
            <option value="">{t("blocklist.allKinds")}</option>
            {BLOCKLIST_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`blocklist.kinds.${k}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t("blocklist.filter")}
        </button>
        <a className="button" href={`${HERE}/export.csv`} download data-testid="blocklist-export">
          {t("blocklist.export")}
        </a>
      </Form>
      <AdminListCount total={total} exact={t("blocklist.count", { count: total.count })} />
      <AdminTable
        label={t("blocklist.listTitle")}
        testId="blocklist-table"
        empty={<p data-testid="blocklist-empty">{t("blocklist.empty")}</p>}
        rows={items}
        rowKey={(e) => e.id}
        rowProps={(e) => ({ "data-kind": e.kind, "data-shown": e.shown })}
        columns={[
          { header: t("blocklist.kind"), cell: (e) => t(`blocklist.kinds.${e.kind}`) },
          { header: t("blocklist.value"), lead: true, cell: (e) => <code>{e.shown}</code> },
          {
            header: t("blocklist.action"),
            lead: true,
            cell: (e) => <span className={`status ${e.action === "refuse" ? "status-red" : "status-yellow"}`}>{t(`blocklist.actionShort.${e.action}`)}</span>,
          },
          { header: t("blocklist.note"), cell: (e) => e.note || "—" },
          { header: t("blocklist.addedBy"), cell: (e) => `${e.addedBy} · ${formatDateTime(e.createdAt)}` },
          {
            header: t("common.actions"),
            cell: (e) => (
              <Form method="post" action={HERE} className="admin-inline-form">
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="entryId" value={e.id} />
                <button type="submit" className="button button-small button-danger" aria-label={t("blocklist.removeLabel", { value: e.shown })}>
                  {t("blocklist.remove")}
                </button>
              </Form>
            ),
          },
        ]}
      />
      <AdminListPager next={next} previous={previous} basePath={HERE} query={shown ? { show: shown } : {}} />
    </section>
  );
}
