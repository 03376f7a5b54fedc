import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import {
  changeOwnAccountChannels,
  loadOwnAccountChannels,
  MAX_QR_IMAGE_BYTES,
  readOwnAccountQr,
  type OwnAccountQrProblem,
  type OwnAccountQrRead,
} from "@workers/services/agency";
import { ErrorList, Field, getFormProps, useSchemaForm } from "~/components/forms";
import { translate } from "~/lib/i18n.server";
import { getBindings } from "~/lib/context.server";
import { BANKS } from "@workers/core/banks";
import {
  OWN_ACCOUNT_QR_TEXT_MAX,
  OwnAccountActiveSchema,
  OwnAccountCreateSchema,
  OwnAccountModeSchema,
  OwnAccountPayoutQrSchema,
  OwnAccountSlipReferenceSchema,
} from "~/lib/schemas/own-account-channel";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/channels";
import type { ScriptsHandle } from "~/lib/page-scripts";
import type { I18nHandle } from "~/lib/i18n";

/** Lite (decision 089): its forms validate in the browser, with the messages of these groups. */
export const handle = { lite: ["validate"], i18n: ["ownAccount.problems", "settings.validation"] } satisfies ScriptsHandle & I18nHandle;

/**
 * Own-account payment channels (owner only): the agency's own bank account, set up from the
 * static LAO QR its bank app shows. Step 1 posts the pasted QR text or an uploaded image
 * (decoded on the server); step 2 shows what was read and saves it. Each channel's QR mode
 * ('derived' per order, or the static QR as is) is switched here. Plain POST forms: all of
 * it works without JavaScript. There is no account-number field: the receiver is the
 * bank's token in the QR, never built by us (../shared/OUTSIDE.md).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  return { channels: await loadOwnAccountChannels(getBindings(context).DB, staff.agencyId), maxImageMb: MAX_QR_IMAGE_BYTES / 1024 / 1024 };
}

type ActionData =
  | { step: "read"; problem: OwnAccountQrProblem; text: string }
  | { step: "confirm"; qr: OwnAccountQrRead; result?: SubmissionResult<string[]> }
  | { step: "confirm-failed"; problem: OwnAccountQrProblem };

const PAGE = "/admin/settings/channels";
/** The multipart envelope around an image of the maximum size, with the text box. */
const MAX_BODY_BYTES = MAX_QR_IMAGE_BYTES + 64 * 1024;

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const db = getBindings(context).DB;
  if (Number(request.headers.get("Content-Length") ?? "0") > MAX_BODY_BYTES) {
    return data<ActionData>({ step: "read", problem: "IMAGE_TOO_LARGE", text: "" }, { status: 413 });
  }
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "read") {
    const text = String(formData.get("qrText") ?? "").slice(0, OWN_ACCOUNT_QR_TEXT_MAX * 2);
    const file = formData.get("qrImage");
    const image = typeof file === "object" && file !== null && file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : undefined;
    const read = await readOwnAccountQr(db, staff.agencyId, { text, image });
    if (!read.ok) return data<ActionData>({ step: "read", problem: read.problem, text: image ? "" : text.trim() }, { status: 400 });
    return data<ActionData>({ step: "confirm", qr: read.qr });
  }

  if (intent === "create") {
    const submission = parseWithZod(formData, { schema: OwnAccountCreateSchema });
    if (submission.status !== "success") {
      // Shown again with what the QR says (read again: the hidden copy is not trusted).
      const read = await readOwnAccountQr(db, staff.agencyId, { text: String(formData.get("qrText") ?? "") });
      if (!read.ok) return data<ActionData>({ step: "confirm-failed", problem: read.problem }, { status: 400 });
      return data<ActionData>({ step: "confirm", qr: read.qr, result: submission.reply() as SubmissionResult<string[]> }, { status: 400 });
    }
    const outcome = await changeOwnAccountChannels(db, auditContext(request, staff), submission.value);
    if (outcome.ok) return redirectWithSuccess({ request, context }, `${PAGE}#channel-${submission.value.code}`, translate(context, "admin:ownAccount.saved"));
    if (outcome.code === "QR") return data<ActionData>({ step: "confirm-failed", problem: outcome.problem }, { status: 409 });
    if (outcome.code === "CHANNEL_EXISTS") {
      const reply = submission.reply({ fieldErrors: { code: ["admin:settings.errors.channelExists"] } }) as SubmissionResult<string[]>;
      return data<ActionData>({ step: "confirm", qr: outcome.qr, result: reply }, { status: 409 });
    }
    return redirectWithError({ request, context }, PAGE, translate(context, "admin:settings.errors.channelNotFound"));
  }

  const schema =
    intent === "mode"
      ? OwnAccountModeSchema
      : intent === "active"
        ? OwnAccountActiveSchema
        : intent === "payoutQr"
          ? OwnAccountPayoutQrSchema
          : intent === "slip-reference"
            ? OwnAccountSlipReferenceSchema
            : null;
  if (!schema) throw new Response("Unknown form", { status: 400 });
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    // a window or a fee out of range is said in the staff member's language; anything else no form of ours sends
    const windowError = submission.error?.witnessWindowMinutes?.[0] ?? submission.error?.debitFee?.[0];
    if (!windowError) throw new Response("Bad form", { status: 400 });
    return redirectWithError({ request, context }, PAGE, translate(context, windowError));
  }
  const outcome = await changeOwnAccountChannels(db, auditContext(request, staff), submission.value);
  if (!outcome.ok) return redirectWithError({ request, context }, PAGE, translate(context, "admin:settings.errors.channelNotFound"));
  return redirectWithSuccess({ request, context }, `${PAGE}#channel-${submission.value.code}`, translate(context, "admin:ownAccount.saved"));
}

export default function OwnAccountChannels({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const confirm = actionData?.step === "confirm" ? actionData : null;
  return (
    <section data-testid="own-account-channels" className="stack">
      <title>{t("ownAccount.title")}</title>
      <p>
        <Link to="/admin/settings#channels">{t("ownAccount.back")}</Link>
      </p>
      <h1>{t("ownAccount.title")}</h1>
      <p className="muted">{t("ownAccount.intro")}</p>
      {confirm ? (
        <ConfirmStep key={confirm.qr.text} qr={confirm.qr} result={confirm.result} />
      ) : (
        <ReadStep actionData={actionData} maxImageMb={loaderData.maxImageMb} />
      )}
      <ChannelList channels={loaderData.channels} />
    </section>
  );
}

function ReadStep({ actionData, maxImageMb }: { actionData: ActionData | undefined; maxImageMb: number }) {
  const { t } = useTranslation("admin");
  const problem = actionData?.step === "read" || actionData?.step === "confirm-failed" ? actionData.problem : null;
  const text = actionData?.step === "read" ? actionData.text : "";
  return (
    <section className="admin-card stack" aria-labelledby="own-account-read-title" data-testid="own-account-read">
      <h2 id="own-account-read-title">{t("ownAccount.read.title")}</h2>
      <p className="muted">{t("ownAccount.read.intro")}</p>
      <Form
        method="post"
        encType="multipart/form-data"
        className="stack"
        data-testid="own-account-read-form"
        aria-describedby={problem ? "own-account-problem" : undefined}
      >
        <input type="hidden" name="intent" value="read" />
        <div className="field">
          <label htmlFor="own-account-qr-text">{t("ownAccount.read.text")}</label>
          <textarea
            id="own-account-qr-text"
            name="qrText"
            rows={4}
            maxLength={OWN_ACCOUNT_QR_TEXT_MAX}
            defaultValue={text}
            key={text}
            spellCheck={false}
            autoComplete="off"
            aria-describedby="own-account-qr-text-hint"
            aria-invalid={problem ? true : undefined}
          />
          <p id="own-account-qr-text-hint" className="field-hint">
            {t("ownAccount.read.textHint")}
          </p>
        </div>
        <div className="field">
          <label htmlFor="own-account-qr-image">{t("ownAccount.read.image")}</label>
          <input id="own-account-qr-image" name="qrImage" type="file" accept="image/png,image/jpeg" aria-describedby="own-account-qr-image-hint" />
          <p id="own-account-qr-image-hint" className="field-hint">
            {t("ownAccount.read.imageHint", { mb: maxImageMb })}
          </p>
        </div>
        <div role="alert" className="form-alert">
          {problem && <ErrorList id="own-account-problem" errors={[`admin:ownAccount.problems.${problem}`]} />}
        </div>
        <button type="submit" className="button button-primary">
          {t("ownAccount.read.submit")}
        </button>
      </Form>
    </section>
  );
}

function ConfirmStep({ qr, result }: { qr: OwnAccountQrRead; result?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("admin");
  const [form, fields] = useSchemaForm("own-account-create", OwnAccountCreateSchema, result, {
    intent: "create",
    qrText: qr.text,
    code: qr.suggestedCode,
    displayName: "",
  });
  return (
    <section className="admin-card stack" aria-labelledby="own-account-confirm-title" data-testid="own-account-confirm">
      <h2 id="own-account-confirm-title">{t("ownAccount.confirm.title")}</h2>
      <p>{t("ownAccount.confirm.intro")}</p>
      <dl className="admin-facts" data-testid="own-account-read-result">
        <dt>{t("ownAccount.bank")}</dt>
        <dd data-testid="read-bank">
          {qr.bankCode} · {qr.bankName}
        </dd>
        <dt>{t("ownAccount.receiverId")}</dt>
        <dd data-testid="read-receiver">{qr.receiverId}</dd>
        <dt>{t("ownAccount.receiverName")}</dt>
        <dd data-testid="read-name">{qr.receiverName || t("common.none")}</dd>
        <dt>{t("ownAccount.receiverCity")}</dt>
        <dd data-testid="read-city">{qr.receiverCity || t("common.none")}</dd>
      </dl>
      <p className="muted">{t("ownAccount.confirm.receiverNote")}</p>
      <Form method="post" {...getFormProps(form)} noValidate className="stack" data-testid="own-account-confirm-form">
        <input type="hidden" name="intent" value="create" />
        <input type="hidden" name="qrText" value={qr.text} />
        <Field
          label={t("settings.channels.displayName")}
          hint={t("ownAccount.confirm.displayNameHint")}
          inputProps={getInputProps(fields.displayName, { type: "text" })}
          errors={fields.displayName.errors}
        />
        <Field
          label={t("settings.channels.code")}
          hint={t("settings.channels.codeHint")}
          inputProps={{ ...getInputProps(fields.code, { type: "text" }), autoComplete: "off", autoCapitalize: "characters" }}
          errors={fields.code.errors}
        />
        <div role="alert" className="form-alert">
          <ErrorList id={form.errorId} errors={form.errors} />
        </div>
        <div className="form-actions">
          <button type="submit" className="button button-primary">
            {t("ownAccount.confirm.save")}
          </button>
          <Link to="/admin/settings/channels" className="button">
            {t("ownAccount.confirm.again")}
          </Link>
        </div>
      </Form>
    </section>
  );
}

type Channels = Route.ComponentProps["loaderData"]["channels"];

function ChannelList({ channels }: { channels: Channels }) {
  const { t } = useTranslation("admin");
  return (
    <section className="admin-card stack" aria-labelledby="own-account-list-title" data-testid="own-account-list">
      <h2 id="own-account-list-title">{t("ownAccount.list.title")}</h2>
      {channels.length === 0 ? (
        <p className="muted">{t("ownAccount.list.none")}</p>
      ) : (
        <ul className="card-list" role="list">
          {channels.map((c) => (
            <li key={c.code} id={`channel-${c.code}`} className="card stack" data-testid={`own-account-${c.code}`}>
              <p className="card-title">
                {c.displayName} <span className="muted">({c.code})</span>{" "}
                <span className={`status ${c.active ? "status-green" : "status-grey"}`}>
                  {c.active ? t("settings.channels.isActive") : t("settings.channels.isInactive")}
                </span>
              </p>
              <p className="muted">
                {c.bankCode} · {t("ownAccount.receiverId")} {c.mid} · {c.merchantName}, {c.merchantCity}
              </p>
              <Form method="post" className="stack" data-testid={`own-account-mode-${c.code}`}>
                <input type="hidden" name="intent" value="mode" />
                <input type="hidden" name="code" value={c.code} />
                <fieldset className="stack">
                  <legend>{t("ownAccount.mode.legend")}</legend>
                  {(["derived", "static"] as const).map((mode) => (
                    <div key={mode} className="field field-check">
                      <input
                        type="radio"
                        id={`mode-${c.code}-${mode}`}
                        name="mode"
                        value={mode}
                        defaultChecked={c.qrMode === mode}
                        aria-describedby={`mode-${c.code}-${mode}-hint`}
                      />
                      <div>
                        <label htmlFor={`mode-${c.code}-${mode}`}>{t(`ownAccount.mode.${mode}`)}</label>
                        <p id={`mode-${c.code}-${mode}-hint`} className="field-hint">
                          {t(`ownAccount.mode.${mode}Hint`)}
                        </p>
                      </div>
                    </div>
                  ))}
                </fieldset>
                <div className="field">
                  <label htmlFor={`window-${c.code}`}>{t("ownAccount.window.label")}</label>
                  <input
                    id={`window-${c.code}`}
                    name="witnessWindowMinutes"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={1440}
                    required
                    defaultValue={c.witnessWindowMinutes}
                    aria-describedby={`window-${c.code}-hint`}
                  />
                  <p id={`window-${c.code}-hint`} className="field-hint">
                    {t("ownAccount.window.hint")}
                  </p>
                </div>
                <div className="field">
                  <label htmlFor={`debit-fee-${c.code}`}>{t("debitPayout.feeLabel")}</label>
                  <input
                    id={`debit-fee-${c.code}`}
                    name="debitFee"
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={100000}
                    required
                    defaultValue={c.debitFee}
                    aria-describedby={`debit-fee-${c.code}-hint`}
                  />
                  <p id={`debit-fee-${c.code}-hint`} className="field-hint">
                    {t("debitPayout.feeHint")}
                  </p>
                </div>
                <button type="submit" className="button button-small">
                  {t("ownAccount.mode.save")}
                </button>
              </Form>
              <PayoutQrForm channel={c} />
              {/* decision 087: a slip's reference links by id to this channel's reports only once the owner saw the bank use it */}
              <Form method="post" className="stack" data-testid={`own-account-slip-${c.code}`}>
                <input type="hidden" name="intent" value="slip-reference" />
                <input type="hidden" name="code" value={c.code} />
                <div className="field field-check">
                  <input
                    type="checkbox"
                    id={`slip-reference-${c.code}`}
                    name="confirmed"
                    value="1"
                    defaultChecked={c.slipReferenceConfirmed}
                    aria-describedby={`slip-reference-${c.code}-hint`}
                  />
                  <div>
                    <label htmlFor={`slip-reference-${c.code}`}>{t("slips.setting.label")}</label>
                    <p id={`slip-reference-${c.code}-hint`} className="field-hint">
                      {t("slips.setting.hint")}
                    </p>
                  </div>
                </div>
                <button type="submit" className="button button-small">
                  {t("slips.setting.save")}
                </button>
              </Form>
              <Form method="post" className="admin-inline-form">
                <input type="hidden" name="intent" value="active" />
                <input type="hidden" name="code" value={c.code} />
                <input type="hidden" name="active" value={c.active ? "0" : "1"} />
                <button type="submit" className="button button-small">
                  {c.active ? t("settings.channels.deactivate") : t("settings.channels.activate")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Which player banks get the derived payout QR (the amount inserted) on the cashier's
 * withdrawal page when this channel's bank app pays (decision 086). Off for every bank until
 * the owner has tried it: a bank app that reads the amount wrong, or refuses the code, costs a
 * payout.
 */
function PayoutQrForm({ channel }: { channel: Channels[number] }) {
  const { t } = useTranslation("admin");
  const id = `payout-qr-${channel.code}`;
  return (
    <Form method="post" className="stack" data-testid={id}>
      <input type="hidden" name="intent" value="payoutQr" />
      <input type="hidden" name="code" value={channel.code} />
      <fieldset className="stack" aria-describedby={`${id}-hint`}>
        <legend>{t("payoutQr.setting.legend")}</legend>
        <p id={`${id}-hint`} className="field-hint">
          {t("payoutQr.setting.hint")}
        </p>
        <div className="payout-qr-banks">
          {BANKS.map((bank) => (
            <div key={bank.code} className="field field-check">
              <input type="checkbox" id={`${id}-${bank.code}`} name="banks" value={bank.code} defaultChecked={channel.payoutQrBanks.includes(bank.code)} />
              <label htmlFor={`${id}-${bank.code}`}>{t(`common:bankNames.${bank.code}`, { defaultValue: bank.code })}</label>
            </div>
          ))}
        </div>
      </fieldset>
      <button type="submit" className="button button-small">
        {t("payoutQr.setting.save")}
      </button>
    </Form>
  );
}
