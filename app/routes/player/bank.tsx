import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { useTranslation } from "react-i18next";
import { BANKS } from "../../../workers/core/banks";
import { addBankAccount, listBankAccounts } from "../../../workers/services/bank";
import { ErrorList, Field, SelectField, useSchemaForm } from "~/components/forms";
import { translate } from "~/lib/auth.server";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { errorMessageKey } from "~/lib/errors";
import { BANK_CURRENCIES, BANK_OWNERS, BankAccountSchema } from "~/lib/schemas/bank";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/bank";

export async function loader({ context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const accounts = await listBankAccounts(getBindings(context).DB, getAgency(context).id, player.id);
  return {
    account: accounts[0] ? { bankCode: accounts[0].bankCode, maskedNumber: accounts[0].maskedNumber, accountName: accounts[0].accountName, currency: accounts[0].currency } : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  const submission = parseWithZod(await request.formData(), { schema: BankAccountSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const outcome = await addBankAccount(getBindings(context).DB, getAgency(context).id, player.id, submission.value);
  if (!outcome.ok) {
    const field = outcome.code === "ONE_ACCOUNT_ONLY" ? undefined : "accountNumber";
    const message = errorMessageKey(outcome.code);
    return data(
      { result: submission.reply(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }) },
      { status: 409 },
    );
  }
  return redirectWithSuccess({ request, context }, "/player/bank", translate(context, "bank.added"));
}

export default function BankPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm("bank-account", BankAccountSchema, actionData?.result, { currency: "LAK", owner: "SELF" });
  const account = loaderData.account;
  return (
    <section className="page narrow">
      <title>{t("menu.bankAccount")}</title>
      <h1>{t("menu.bankAccount")}</h1>
      <p className="notice" role="note" data-testid="wallet-warning">
        {t("bank.walletWarning")}
      </p>
      {account ? (
        <div className="card bank-card" data-testid="bank-account">
          <img src={`/banks/${account.bankCode.toLowerCase()}.svg`} alt="" width={48} height={48} />
          <div>
            <p className="card-title">{t(`bankNames.${account.bankCode}`)}</p>
            <p>{account.accountName}</p>
            <p className="muted">
              {account.maskedNumber} · {account.currency}
            </p>
          </div>
        </div>
      ) : (
        <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="bank-form">
          <fieldset className="bank-choices" aria-describedby={fields.bankCode.errors ? `${fields.bankCode.id}-error` : undefined}>
            <legend>{t("bank.bank")}</legend>
            <div className="bank-grid">
              {BANKS.map((bank) => (
                <label key={bank.code} className="bank-choice">
                  <input type="radio" name={fields.bankCode.name} value={bank.code} defaultChecked={fields.bankCode.initialValue === bank.code} />
                  <img src={`/banks/${bank.code.toLowerCase()}.svg`} alt="" width={32} height={32} />
                  <span>{t(`bankNames.${bank.code}`)}</span>
                </label>
              ))}
            </div>
            <ErrorList id={`${fields.bankCode.id}-error`} errors={fields.bankCode.errors} />
          </fieldset>
          <Field
            label={t("bank.accountNumber")}
            hint={t("bank.accountNumberHint")}
            inputProps={{ ...getInputProps(fields.accountNumber, { type: "text" }), inputMode: "numeric", autoComplete: "off" }}
            errors={fields.accountNumber.errors}
          />
          <Field
            label={t("bank.accountName")}
            hint={t("bank.accountNameHint")}
            inputProps={{ ...getInputProps(fields.accountName, { type: "text" }), autoComplete: "name" }}
            errors={fields.accountName.errors}
          />
          <SelectField
            label={t("bank.currency")}
            field={fields.currency}
            fallback="LAK"
            options={BANK_CURRENCIES.map((c) => ({ value: c, label: t(`bank.currencies.${c}`) }))}
          />
          <SelectField
            label={t("bank.owner")}
            field={fields.owner}
            fallback="SELF"
            options={BANK_OWNERS.map((o) => ({ value: o, label: t(`bank.owners.${o}`) }))}
          />
          <div role="alert" className="form-alert" data-testid="form-error">
            <ErrorList id={form.errorId} errors={form.errors} />
          </div>
          <button type="submit" className="button button-primary button-block">
            {t("bank.save")}
          </button>
        </Form>
      )}
    </section>
  );
}
