import { getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { createStaffAccount } from "@workers/services/staff";
import { ErrorList, Field, SelectField, getFormProps, useSchemaForm } from "~/components/forms";
import { getBindings } from "~/lib/context.server";
import { CreateStaffSchema } from "~/lib/schemas/admin";
import { auditContext, enrolUrl, requireStaff } from "~/lib/staff.server";
import { EnrolLink } from "~/components/admin";
import type { Route } from "./+types/staff-new";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { lite: ["validate"], i18n: ["auth.validation"] } satisfies ScriptsHandle & I18nHandle;

/** Owner only: a new owner or cashier; the one-time enrolment link is shown once. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, { role: "owner" });
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const me = await requireStaff(request, context, { role: "owner" });
  const submission = parseWithZod(await request.formData(), { schema: CreateStaffSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), link: null }, { status: 400 });
  const created = await createStaffAccount(getBindings(context).DB, auditContext(request, me), submission.value);
  if (!created.ok) {
    return data({ result: submission.reply({ fieldErrors: { username: ["admin:staff.errors.usernameExists"] } }), link: null }, { status: 409 });
  }
  return data({ result: submission.reply({ resetForm: true }), link: { username: submission.value.username, url: enrolUrl(request, created.enrolToken) } });
}

export default function NewStaff({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const [form, fields] = useSchemaForm("admin-staff-new", CreateStaffSchema, actionData?.result, { role: "cashier" });
  return (
    <section className="narrow">
      <title>{t("staff.createTitle")}</title>
      <h1>{t("staff.createTitle")}</h1>
      {actionData?.link && <EnrolLink username={actionData.link.username} url={actionData.link.url} />}
      <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="staff-form">
        <Field
          label={t("staff.username")}
          hint={t("staff.usernameHint")}
          inputProps={{ ...getInputProps(fields.username, { type: "text" }), autoComplete: "off", autoCapitalize: "none", spellCheck: false }}
          errors={fields.username.errors}
        />
        <SelectField
          label={t("staff.role")}
          field={fields.role}
          fallback="cashier"
          options={[
            { value: "cashier", label: t("common.roles.cashier") },
            { value: "owner", label: t("common.roles.owner") },
          ]}
        />
        <div role="alert" className="form-alert">
          <ErrorList id={form.errorId} errors={form.errors} />
        </div>
        <button type="submit" className="button button-primary">
          {t("staff.createButton")}
        </button>
      </Form>
      <p>
        <Link to="/admin/staff">{t("staff.back")}</Link>
      </p>
    </section>
  );
}
