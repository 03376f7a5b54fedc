import { getFormProps, getInputProps } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { useTranslation } from "react-i18next";
import { BANKS } from "@workers/core/banks";
import { addBankAccount, bankPage, RECEIVE_QR_MAX_BYTES, replaceOwnBankAccount } from "@workers/services/players";
import { ErrorList, Field, SelectField } from "~/components/fields";
import { useLiteForm, useLiteValidation } from "~/components/lite-form";
import type { I18nHandle } from "~/lib/i18n";
import { loadAsDocument, type ScriptsHandle } from "~/lib/page-scripts";
import { translate } from "~/lib/i18n.server";
import { getAgency, getBindings, requirePlayer } from "~/lib/context.server";
import { errorMessageKey } from "~/lib/errors";
import { isReceiveQrCode, receiveQrMessageKey } from "~/lib/receive-qr-errors";
import { BankAccountSchema, BankReplaceSchema } from "~/lib/schemas/bank";
import { BANK_CURRENCIES, BANK_OWNERS } from "~/lib/schemas/bank-options";
import { clientOf } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/bank";
import { BankMark } from "../../components/bank-mark";

/**
 * A lite page (decisions 021, 034): no React in the browser. Its React version did one thing
 * with JavaScript, client validation of the add and replace forms with their schemas fetched on
 * the first touch: the lite script does it with the same schemas (lib/lite/validate.ts). The
 * translation key groups it renders (decision 032).
 */
export const handle = {
  scripts: "lite",
  lite: ["validate"],
  i18n: ["bank", "bankNames", "blocklist", "errors.code", "forcedPassword.accountLocked", "limits.errors", "offers.errors", "receiveQr", "reward.errors"],
} satisfies ScriptsHandle & I18nHandle;
export const clientLoader = loadAsDocument;

export async function loader({ context }: Route.LoaderArgs) {
  const player = requirePlayer(context);
  const page = await bankPage(getBindings(context), getAgency(context).id, player.id);
  return { ...page, constraints: { add: getZodConstraint(BankAccountSchema), replace: getZodConstraint(BankReplaceSchema) } };
}

/**
 * The most a form with its picture may weigh: a phone's camera photo (3-8 MB) is read, so the
 * player hears "over 2 MB" beside the picture with the other fields kept; beyond this the
 * body is not read at all.
 */
const MAX_BODY_BYTES = 4 * RECEIVE_QR_MAX_BYTES + 64 * 1024;

/** The receive QR's picture of a multipart post (decision 086): bytes, or undefined when no file was chosen. */
async function receiveQrOf(formData: FormData): Promise<Uint8Array | undefined> {
  const file = formData.get(RECEIVE_QR_FIELD);
  return typeof file === "object" && file !== null && file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : undefined;
}

const RECEIVE_QR_FIELD = "receiveQr";

/** The field a refusal is shown on: the QR's codes on the picture, the name's on the name, the rest on the number. */
function fieldOf(code: string): string | undefined {
  if (code.startsWith("RECEIVE_QR_")) return RECEIVE_QR_FIELD;
  if (code === "NAME_CHARACTERS") return "accountName";
  if (code === "ACCOUNT_IN_USED" || code === "ACCOUNT_ALREADY_ADDED") return "accountNumber";
  return undefined;
}

const messageOf = (code: Parameters<typeof errorMessageKey>[0] | Parameters<typeof receiveQrMessageKey>[0]) =>
  isReceiveQrCode(code) ? receiveQrMessageKey(code) : errorMessageKey(code);

export async function action({ request, context }: Route.ActionArgs) {
  const player = requirePlayer(context);
  if (Number(request.headers.get("Content-Length") ?? "0") > MAX_BODY_BYTES) {
    const tooLarge = { status: "error" as const, error: { [RECEIVE_QR_FIELD]: [receiveQrMessageKey("RECEIVE_QR_TOO_LARGE")] } };
    return data({ result: tooLarge, replace: null }, { status: 413 });
  }
  const formData = await request.formData();
  if (formData.get("intent") === "replace") return replaceAction(request, context, player, formData);
  const submission = parseWithZod(formData, { schema: BankAccountSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), replace: null }, { status: 400 });
  const receiveQr = await receiveQrOf(formData);
  const outcome = await addBankAccount(getBindings(context).DB, getAgency(context).id, player.id, { ...submission.value, receiveQr });
  if (!outcome.ok) {
    const field = fieldOf(outcome.code);
    const message = messageOf(outcome.code);
    return data(
      { result: submission.reply(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }), replace: null },
      { status: outcome.code === "NAME_CHARACTERS" || outcome.code.startsWith("RECEIVE_QR_") ? 400 : 409 },
    );
  }
  return redirectWithSuccess({ request, context }, "/player/bank", translate(context, "bank.added"));
}

async function replaceAction(request: Request, context: Route.ActionArgs["context"], player: ReturnType<typeof requirePlayer>, formData: FormData) {
  const submission = parseWithZod(formData, { schema: BankReplaceSchema });
  const hide = ["currentPassword"];
  if (submission.status !== "success") return data({ result: null, replace: submission.reply({ hideFields: hide }) }, { status: 400 });
  const receiveQr = await receiveQrOf(formData);
  const outcome = await replaceOwnBankAccount(getBindings(context), getAgency(context).id, player, { ...submission.value, receiveQr }, clientOf(request));
  if (!outcome.ok) {
    const message = messageOf(outcome.code);
    const field = outcome.code === "PASSWORD_INCORRECT" ? "currentPassword" : fieldOf(outcome.code);
    const badInput = outcome.code === "PASSWORD_INCORRECT" || outcome.code === "NAME_CHARACTERS" || outcome.code.startsWith("RECEIVE_QR_");
    const status = outcome.code === "TOO_MANY_ATTEMPTS" ? 429 : badInput ? 400 : 409;
    return data(
      { result: null, replace: submission.reply({ ...(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }), hideFields: hide }) },
      { status },
    );
  }
  return redirectWithSuccess({ request, context }, "/player/bank", translate(context, "bank.replace.done"));
}

export default function BankPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useLiteForm<typeof BankAccountSchema>("bank-account", loaderData.constraints.add, actionData?.result, {
    currency: "LAK",
    owner: "SELF",
  });
  const [replaceForm, replaceFields] = useLiteForm<typeof BankReplaceSchema>("bank-replace", loaderData.constraints.replace, actionData?.replace, {
    intent: "replace",
    currency: "LAK",
    owner: "SELF",
  });
  const addValidation = useLiteValidation("bank-account");
  const replaceValidation = useLiteValidation("bank-replace");
  const account = loaderData.account;
  return (
    <section className="page narrow">
      <title>{t("menu.bankAccount")}</title>
      <h1>{t("menu.bankAccount")}</h1>
      <p className="notice" role="note" data-testid="wallet-warning">
        {t("bank.walletWarning")}
      </p>
      {account ? (
        <>
          <div className="card bank-card" data-testid="bank-account">
            <BankMark code={account.bankCode} size={48} />
            <div>
              <p className="card-title">{t(`bankNames.${account.bankCode}`)}</p>
              <p>{account.accountName}</p>
              <p className="muted">
                {account.maskedNumber} · {account.currency}
              </p>
              <p className="muted" data-testid="receive-qr-state" data-kept={account.receiveQr ? "yes" : "no"}>
                {t(account.receiveQr ? "receiveQr.kept" : "receiveQr.none")}
              </p>
            </div>
          </div>
          <h2>{t("bank.replace.title")}</h2>
          {loaderData.replace === "allowed" ? (
            <Form
              method="post"
              encType="multipart/form-data"
              {...getFormProps(replaceForm)}
              {...replaceValidation}
              noValidate
              className="stack"
              data-testid="bank-replace-form"
            >
              <p className="muted">{t("bank.replace.intro")}</p>
              <input type="hidden" name="intent" value="replace" />
              <AccountFields fields={replaceFields} />
              <ReceiveQrField id="bank-replace-receive-qr" errors={actionData?.replace?.error?.[RECEIVE_QR_FIELD]} />
              <Field
                label={t("bank.replace.currentPassword")}
                inputProps={{ ...getInputProps(replaceFields.currentPassword, { type: "password" }), autoComplete: "current-password" }}
                errors={replaceFields.currentPassword.errors}
              />
              <div role="alert" className="form-alert" data-testid="replace-error">
                <ErrorList id={replaceForm.errorId} errors={replaceForm.errors} />
              </div>
              <button type="submit" className="button button-primary button-block" data-testid="bank-replace-submit">
                {t("bank.replace.submit")}
              </button>
            </Form>
          ) : (
            <p className="notice" role="note" data-testid="bank-replace-unavailable" data-reason={loaderData.replace}>
              {t(loaderData.replace === "staff-only" ? "bank.replace.staffOnly" : "bank.replace.withdrawalOpen")}
            </p>
          )}
        </>
      ) : (
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} {...addValidation} noValidate className="stack" data-testid="bank-form">
          <AccountFields fields={fields} />
          <ReceiveQrField id="bank-receive-qr" errors={actionData?.result?.error?.[RECEIVE_QR_FIELD]} />
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

/**
 * The "receive money" QR of the player's bank app, optional (decision 086): a picture from the
 * camera or a screenshot, a plain file input posted with the form (multipart), so it works
 * without JavaScript. Read and checked on the server; a refusal keeps nothing.
 */
function ReceiveQrField({ id, errors }: { id: string; errors?: string[] | null }) {
  const { t } = useTranslation();
  const errorId = errors?.length ? `${id}-error` : undefined;
  return (
    <div className="field receive-qr-field" data-testid="receive-qr-field">
      <label htmlFor={id}>{t("receiveQr.label")}</label>
      <input
        id={id}
        name={RECEIVE_QR_FIELD}
        type="file"
        accept="image/*"
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[`${id}-hint`, errorId].filter(Boolean).join(" ")}
      />
      <p id={`${id}-hint`} className="field-hint">
        {t("receiveQr.hint", { mb: RECEIVE_QR_MAX_BYTES / 1024 / 1024 })}
      </p>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

type AccountFieldSet = ReturnType<typeof useLiteForm<typeof BankAccountSchema>>[1];

/** Bank, number, name, currency, owner: the add form and the replace form show the same fields. */
function AccountFields({ fields }: { fields: Pick<AccountFieldSet, "bankCode" | "accountNumber" | "accountName" | "currency" | "owner"> }) {
  const { t } = useTranslation();
  return (
    <>
      <fieldset className="bank-choices" aria-describedby={fields.bankCode.errors ? `${fields.bankCode.id}-error` : undefined}>
        <legend>{t("bank.bank")}</legend>
        <div className="bank-grid">
          {BANKS.map((bank) => (
            <label key={bank.code} className="bank-choice">
              <input type="radio" name={fields.bankCode.name} value={bank.code} defaultChecked={fields.bankCode.initialValue === bank.code} />
              <BankMark code={bank.code} size={32} />
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
    </>
  );
}
