import { getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { apiTokensPage, createApiToken, revokeApiToken, rotateApiToken } from "@workers/services/staff";
import { ErrorList, Field, getFormProps, useSchemaForm } from "~/components/forms";
import { AdminTable } from "~/components/data-table";
import { translate } from "~/lib/i18n.server";
import { getBindings } from "~/lib/context.server";
import { formatDateTime } from "~/lib/format";
import { ApiTokenChangeSchema, ApiTokenCreateSchema } from "~/lib/schemas/admin";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/api-tokens";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { lite: ["validate"], i18n: ["apiTokens.validation"] } satisfies ScriptsHandle & I18nHandle;

/**
 * Owner only: the agency's operator API tokens (POST /api/staff/withdrawals/{code}/...).
 * A new or rotated token is shown once, in this response only; the database keeps its
 * SHA-256. Rotate and revoke go through a confirm step (`?rotate=<id>` / `?revoke=<id>`),
 * which works without JavaScript.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const me = await requireStaff(request, context, { role: "owner" });
  const url = new URL(request.url);
  const intent = (["rotate", "revoke"] as const).find((asked) => url.searchParams.has(asked));
  return apiTokensPage(getBindings(context).DB, me.agencyId, intent ? { intent, tokenId: url.searchParams.get(intent) } : null);
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireStaff(request, context, { role: "owner" });
  const db = getBindings(context).DB;
  const formData = await request.formData();
  const who = auditContext(request, me);
  if (formData.get("intent") === "create") {
    const submission = parseWithZod(formData, { schema: ApiTokenCreateSchema });
    if (submission.status !== "success") return data({ result: submission.reply(), shown: null }, { status: 400 });
    const created = await createApiToken(db, who, submission.value.name);
    return data({ result: submission.reply({ resetForm: true }), shown: { name: created.apiToken.name, token: created.token } });
  }
  const submission = parseWithZod(formData, { schema: ApiTokenChangeSchema });
  if (submission.status !== "success") return data({ result: null, shown: null }, { status: 400 });
  const { intent, tokenId } = submission.value;
  if (intent === "rotate") {
    const rotated = await rotateApiToken(db, who, tokenId);
    if (!rotated.ok) return redirectWithError({ request, context }, "/admin/api-tokens", translate(context, "admin:apiTokens.errors.gone"));
    return data({ result: null, shown: { name: rotated.apiToken.name, token: rotated.token } });
  }
  const revoked = await revokeApiToken(db, who, tokenId);
  if (!revoked.ok) return redirectWithError({ request, context }, "/admin/api-tokens", translate(context, "admin:apiTokens.errors.gone"));
  return redirectWithSuccess({ request, context }, "/admin/api-tokens", translate(context, "admin:apiTokens.revoked", { name: revoked.apiToken.name }));
}

export default function ApiTokens({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const [form, fields] = useSchemaForm("admin-api-token", ApiTokenCreateSchema, actionData?.result ?? undefined);
  const shown = actionData?.shown ?? null;
  const { confirm } = loaderData;
  return (
    <section>
      <title>{t("apiTokens.title")}</title>
      <h1>{t("apiTokens.title")}</h1>
      <p className="muted">{t("apiTokens.intro")}</p>
      {shown && (
        <div className="notice notice-success" role="status" data-testid="api-token-shown">
          <h2>{t("apiTokens.shownTitle", { name: shown.name })}</h2>
          <p>{t("apiTokens.shownHint")}</p>
          <label htmlFor="api-token-value">{t("apiTokens.token")}</label>
          <input id="api-token-value" className="admin-secret" readOnly value={shown.token} data-testid="api-token-value" />
        </div>
      )}
      {confirm && (
        <div className="notice" role="alertdialog" aria-labelledby="api-token-confirm-title" data-testid="api-token-confirm">
          <h2 id="api-token-confirm-title">{t(confirm.intent === "rotate" ? "apiTokens.confirmRotate" : "apiTokens.confirmRevoke", { name: confirm.name })}</h2>
          <p>{t(confirm.intent === "rotate" ? "apiTokens.rotateHint" : "apiTokens.revokeHint")}</p>
          <div className="form-actions">
            <Form method="post" action="/admin/api-tokens" className="admin-inline-form">
              <input type="hidden" name="intent" value={confirm.intent} />
              <input type="hidden" name="tokenId" value={confirm.tokenId} />
              <button type="submit" className="button button-danger">
                {t(confirm.intent === "rotate" ? "apiTokens.rotate" : "apiTokens.revoke")}
              </button>
            </Form>
            <Link to="/admin/api-tokens" className="button">
              {t("apiTokens.cancel")}
            </Link>
          </div>
        </div>
      )}
      <Form method="post" {...getFormProps(form)} noValidate className="stack narrow" data-testid="api-token-form">
        <input type="hidden" name="intent" value="create" />
        <Field
          label={t("apiTokens.name")}
          hint={t("apiTokens.nameHint")}
          inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off" }}
          errors={fields.name.errors}
        />
        <div role="alert" className="form-alert">
          <ErrorList id={form.errorId} errors={form.errors} />
        </div>
        <button type="submit" className="button button-primary">
          {t("apiTokens.create")}
        </button>
      </Form>
      <AdminTable
        label={t("apiTokens.title")}
        testId="api-token-table"
        empty={<p className="muted">{t("apiTokens.empty")}</p>}
        rows={loaderData.tokens}
        rowKey={(token) => token.id}
        rowProps={(token) => ({ "data-name": token.name })}
        columns={[
          { header: t("apiTokens.name"), cell: (token) => token.name },
          { header: t("apiTokens.hint"), cell: (token) => <code>{token.hint}…</code> },
          {
            header: t("apiTokens.createdAt"),
            cell: (token) => (
              <>
                {formatDateTime(token.createdAt)} ({token.createdBy})
              </>
            ),
          },
          { header: t("apiTokens.lastUsedAt"), cell: (token) => (token.lastUsedAt ? formatDateTime(token.lastUsedAt) : t("common.none")) },
          {
            header: t("apiTokens.status"),
            td: { "data-testid": "api-token-status" },
            cell: (token) =>
              token.revokedAt ? t("apiTokens.revokedOn", { when: formatDateTime(token.revokedAt), who: token.revokedBy }) : t("apiTokens.active"),
          },
          {
            header: t("common.actions"),
            cell: (token) =>
              !token.revokedAt && (
                <div className="form-actions">
                  <Link to={`/admin/api-tokens?rotate=${token.id}`} className="button button-small">
                    {t("apiTokens.rotate")}
                  </Link>
                  <Link to={`/admin/api-tokens?revoke=${token.id}`} className="button button-small button-danger">
                    {t("apiTokens.revoke")}
                  </Link>
                </div>
              ),
          },
        ]}
      />
    </section>
  );
}
