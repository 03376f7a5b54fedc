import { getCollectionProps, getInputProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { useId } from "react";
import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import { PROVIDERS } from "@workers/core/providers";
import { IMAGE_TYPES, SLOT_LIMITS } from "@workers/core/brand";
import { ErrorList, Field, SelectField, getFormProps, useSchemaForm } from "./forms";
import { HTML_LANG, LANGUAGES } from "@workers/core/languages";
import { PromotionSchema } from "~/lib/schemas/admin-promotion";

type Values = Partial<Record<string, string | string[] | undefined>>;

/**
 * The promotion editor (new and edit): titles and descriptions in the three languages
 * (lo required), the bonus, and every rule field of the promotions issue. A plain POST
 * form; the same zod schema validates here and on the server.
 */
export function PromotionForm({
  id,
  lastResult,
  defaultValue,
  enabledProviders,
  submitLabel,
  bannerError,
}: {
  id: string;
  lastResult: SubmissionResult<string[]> | undefined;
  defaultValue: Values;
  enabledProviders: readonly string[];
  submitLabel: string;
  /** A refused banner upload (admin:brand.errors.*). */
  bannerError?: string;
}) {
  const { t } = useTranslation("admin");
  const [form, fields] = useSchemaForm(id, PromotionSchema, lastResult, defaultValue as never);
  const providersErrorId = useId();
  const check = (field: typeof fields.firstOrderOnly) => {
    const { key: _key, ...props } = getInputProps(field, { type: "checkbox" });
    return props;
  };
  const decimal = (field: typeof fields.bonusValue) => ({ ...getInputProps(field, { type: "text" }), inputMode: "decimal" as const, autoComplete: "off" });
  const titles = { lo: fields.titleLo, cn: fields.titleCn, vn: fields.titleVn } as const;
  const descriptions = { lo: fields.descriptionLo, cn: fields.descriptionCn, vn: fields.descriptionVn } as const;
  const images = { lo: fields.imageUrlLo, cn: fields.imageUrlCn, vn: fields.imageUrlVn } as const;
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} noValidate className="stack" data-testid="promotion-form">
      <input type="hidden" name="intent" value="save" />
      {typeof defaultValue.version === "string" && <input type="hidden" name="version" value={defaultValue.version} />}
      {LANGUAGES.map((lng) => (
        <fieldset key={lng} className="stack" lang={HTML_LANG[lng]}>
          <legend>{t(`promotions.form.language.${lng}`)}</legend>
          <Field
            label={lng === "lo" ? t("promotions.form.titleRequired") : t("promotions.form.title")}
            inputProps={{ ...getInputProps(titles[lng], { type: "text" }), autoComplete: "off" }}
            errors={titles[lng].errors}
          />
          <TextArea label={t("promotions.form.description")} field={descriptions[lng]} />
          <Field
            label={t("promotions.form.imageUrl")}
            hint={lng === "lo" ? t("promotions.form.imageUrlHint") : t("promotions.form.imageUrlOtherHint")}
            inputProps={{ ...getInputProps(images[lng], { type: "text" }), autoComplete: "off", lang: "en" }}
            errors={images[lng].errors}
          />
        </fieldset>
      ))}
      <div className="field">
        <label htmlFor={`${id}-banner`}>{t("brand.bannerLabel")}</label>
        <input
          id={`${id}-banner`}
          name="banner"
          type="file"
          accept={IMAGE_TYPES.join(",")}
          aria-invalid={bannerError ? true : undefined}
          aria-describedby={`${id}-banner-hint${bannerError ? ` ${id}-banner-error` : ""}`}
          data-testid="promotion-banner"
        />
        <p id={`${id}-banner-hint`} className="field-hint">
          {t("brand.limits.text", {
            kb: SLOT_LIMITS.banner.maxBytes / 1024,
            size: t("brand.limits.pixels", { width: SLOT_LIMITS.banner.maxWidth, height: SLOT_LIMITS.banner.maxHeight }),
          })}
        </p>
        <ErrorList id={`${id}-banner-error`} errors={bannerError ? [bannerError] : undefined} />
      </div>
      <fieldset className="stack">
        <legend>{t("promotions.form.bonus")}</legend>
        <SelectField
          label={t("promotions.form.bonusKind")}
          field={fields.bonusKind}
          options={[
            { value: "FIXED", label: t("promotions.kinds.FIXED") },
            { value: "PERCENT", label: t("promotions.kinds.PERCENT") },
          ]}
        />
        <Field
          label={t("promotions.form.bonusValue")}
          hint={t("promotions.form.bonusValueHint")}
          inputProps={decimal(fields.bonusValue)}
          errors={fields.bonusValue.errors}
        />
        <Field
          label={t("promotions.form.bonusCap")}
          hint={t("promotions.form.bonusCapHint")}
          inputProps={decimal(fields.bonusCap)}
          errors={fields.bonusCap.errors}
        />
      </fieldset>
      <fieldset className="stack">
        <legend>{t("promotions.form.rules")}</legend>
        <Field
          label={t("promotions.form.setAmount")}
          hint={t("promotions.form.setAmountHint")}
          inputProps={decimal(fields.setAmount)}
          errors={fields.setAmount.errors}
        />
        <div className="field field-check">
          <input {...check(fields.firstOrderOnly)} />
          <label htmlFor={fields.firstOrderOnly.id}>{t("promotions.form.firstOrderOnly")}</label>
        </div>
        <Field
          label={t("promotions.form.creditThreshold")}
          hint={t("promotions.form.creditThresholdHint")}
          inputProps={decimal(fields.creditThreshold)}
          errors={fields.creditThreshold.errors}
        />
        <Field
          label={t("promotions.form.turnoverMultiple")}
          hint={t("promotions.form.turnoverMultipleHint")}
          inputProps={decimal(fields.turnoverMultiple)}
          errors={fields.turnoverMultiple.errors}
        />
        <Field
          label={t("promotions.form.maxWithdrawCredit")}
          hint={t("promotions.form.maxWithdrawCreditHint")}
          inputProps={decimal(fields.maxWithdrawCredit)}
          errors={fields.maxWithdrawCredit.errors}
        />
        <div className="field field-check">
          <input {...check(fields.withdrawAll)} />
          <label htmlFor={fields.withdrawAll.id}>{t("promotions.form.withdrawAll")}</label>
        </div>
      </fieldset>
      <fieldset aria-describedby={fields.providers.errors ? providersErrorId : undefined}>
        <legend>{t("promotions.form.providers")}</legend>
        {getCollectionProps(fields.providers, { type: "checkbox", options: PROVIDERS.filter((p) => enabledProviders.includes(p)) }).map(({ key, ...props }) => (
          <label key={key} className="field field-check">
            <input {...props} />
            {t(`settings.providers.names.${props.value}`)}
          </label>
        ))}
        <ErrorList id={providersErrorId} errors={fields.providers.errors} />
      </fieldset>
      <SelectField
        label={t("promotions.form.status")}
        field={fields.status}
        options={[
          { value: "ACTIVE", label: t("promotions.statuses.ACTIVE") },
          { value: "INACTIVE", label: t("promotions.statuses.INACTIVE") },
        ]}
      />
      <Field
        label={t("promotions.form.sortOrder")}
        hint={t("promotions.form.sortOrderHint")}
        inputProps={{ ...getInputProps(fields.sortOrder, { type: "text" }), inputMode: "numeric" }}
        errors={fields.sortOrder.errors}
      />
      <div role="alert" className="form-alert" data-testid="form-error">
        <ErrorList id={form.errorId} errors={form.errors} />
      </div>
      <button type="submit" className="button button-primary">
        {submitLabel}
      </button>
    </Form>
  );
}

function TextArea({ label, field }: { label: string; field: Parameters<typeof getTextareaProps>[0] }) {
  const { key: _key, ...props } = getTextareaProps(field);
  const errorId = field.errors?.length ? `${field.id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <textarea {...props} rows={3} aria-describedby={errorId} />
      <ErrorList id={errorId} errors={field.errors} />
    </div>
  );
}
