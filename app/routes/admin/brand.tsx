import { data, Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { brandSettingsPage, removeBrandImage, saveBrandSettings, uploadBrandImage } from "@workers/services/agency";
import { IMAGE_TYPES, type BrandSlot, type SlotLimit } from "@workers/core/brand";
import { HTML_LANG, LANGUAGES } from "@workers/core/languages";
import { ErrorList } from "~/components/forms";
import { getBindings } from "~/lib/context.server";
import { translate } from "~/lib/i18n.server";
import { BRAND_TEXT_LIMITS, BrandRemoveSchema, BrandSettingsSchema, BrandUploadSchema, COLOR_FIELDS, TEXT_FIELDS, textFieldName } from "~/lib/schemas/brand";
import { auditContext, requireStaff } from "~/lib/staff.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { Route } from "./+types/brand";
import type { ScriptsHandle } from "~/lib/page-scripts";
import { COLOR_PICKER, COLOR_TEXT, hookProps } from "~/lib/lite/hooks";

/** Lite (decision 089): each colour's text field and picker follow each other by the lite script. */
export const handle = { lite: ["colorPair"] } satisfies ScriptsHandle;

/**
 * The agency's brand (owner only, decision 018): site name and hero texts per
 * language, the four colours (each on-screen pair checked for 4.5:1 by the service), and
 * per slot (logo, icon, hero) an upload with its limits stated, the current image and a
 * remove button. Plain POST forms (multipart for uploads), working without JavaScript; a
 * refusal is shown in the staff's language and changes nothing.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  return brandSettingsPage(getBindings(context).DB, staff.agencyId);
}

/** A refusal for one form of the page: "settings" or a slot. */
type Refusal = { form: "settings" | BrandSlot; message: string; field?: string; pair?: string; ratio?: number; values?: Record<string, string> };

const fail = (refusal: Refusal, status: number) => data(refusal, { status });

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context, { role: "owner" });
  const env = getBindings(context);
  const actor = auditContext(request, staff);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const done = (key: string) => redirectWithSuccess({ request, context }, "/admin/settings/brand", translate(context, key));
  if (intent === "settings") {
    const values = Object.fromEntries([...formData.entries()].filter((e): e is [string, string] => typeof e[1] === "string"));
    const parsed = BrandSettingsSchema.safeParse(values);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail({ form: "settings", message: issue?.message ?? "admin:common.errorTitle", field: String(issue?.path[0] ?? ""), values }, 400);
    }
    const outcome = await saveBrandSettings(env, actor, parsed.data);
    if (!outcome.ok) {
      return outcome.code === "BRAND_CONTRAST"
        ? fail({ form: "settings", message: "admin:brand.errors.BRAND_CONTRAST", pair: outcome.pair, ratio: outcome.ratio, values }, 409)
        : fail(
            { form: "settings", message: `admin:brand.errors.${outcome.code}`, field: outcome.field, values },
            outcome.code === "BRAND_TEXT_CHARACTERS" ? 400 : 409,
          );
    }
    return done("admin:brand.saved");
  }
  if (intent === "upload") {
    const parsed = BrandUploadSchema.safeParse({ intent, slot: formData.get("slot"), file: formData.get("file") });
    if (!parsed.success) {
      const slot = BrandRemoveSchema.shape.slot.safeParse(formData.get("slot"));
      if (!slot.success) throw new Response("Unknown slot", { status: 400 });
      return fail({ form: slot.data, message: parsed.error.issues[0]?.message ?? "admin:brand.errors.BRAND_IMAGE_EMPTY" }, 400);
    }
    const outcome = await uploadBrandImage(env, actor, parsed.data.slot, parsed.data.file);
    if (!outcome.ok) return fail({ form: parsed.data.slot, message: `admin:brand.errors.${outcome.code}` }, 422);
    return done("admin:brand.uploaded");
  }
  const parsed = BrandRemoveSchema.safeParse({ intent, slot: formData.get("slot") });
  if (!parsed.success) throw new Response("Unknown form", { status: 400 });
  await removeBrandImage(env, actor, parsed.data.slot);
  return done("admin:brand.removed");
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** The limit stated next to a slot's file input. */
function LimitText({ limit }: { limit: SlotLimit }) {
  const { t } = useTranslation("admin");
  const size = limit.square
    ? t("brand.limits.square", { min: limit.minWidth, max: limit.maxWidth })
    : t("brand.limits.pixels", { width: limit.maxWidth, height: limit.maxHeight });
  return <>{t("brand.limits.text", { kb: limit.maxBytes / 1024, size })}</>;
}

export default function BrandPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { brand, slots } = loaderData;
  const refusal = actionData as Refusal | undefined;
  const settingsRefusal = refusal?.form === "settings" ? refusal : undefined;
  const sent = settingsRefusal?.values;
  const textValue = (name: string, stored: string | null) => sent?.[name] ?? stored ?? "";
  const message = (r: Refusal) => t(r.message, { pair: r.pair ? t(`brand.pairs.${r.pair}`) : "", ratio: r.ratio ?? "" });
  return (
    <section data-testid="brand-settings">
      <title>{t("brand.title")}</title>
      <p>
        <Link to="/admin/settings">{t("brand.back")}</Link>
      </p>
      <h1>{t("brand.title")}</h1>
      <p className="muted">{t("brand.intro")}</p>

      <section className="admin-card stack" aria-labelledby="brand-texts-title" id="texts">
        <h2 id="brand-texts-title">{t("brand.textsTitle")}</h2>
        <Form method="post" className="stack" noValidate data-testid="brand-settings-form">
          <input type="hidden" name="intent" value="settings" />
          {TEXT_FIELDS.map((field) => (
            <fieldset key={field} className="stack">
              <legend>{t(`brand.fields.${field}`)}</legend>
              <p className="field-hint">{t("brand.textHint", { max: BRAND_TEXT_LIMITS[field] })}</p>
              {LANGUAGES.map((lng) => {
                const name = textFieldName(field, lng);
                const error = settingsRefusal?.field === name ? [settingsRefusal.message] : undefined;
                return (
                  <div className="field" key={lng}>
                    <label htmlFor={`brand-${name}`}>{t(`brand.languages.${lng}`)}</label>
                    <input
                      id={`brand-${name}`}
                      name={name}
                      type="text"
                      lang={HTML_LANG[lng]}
                      maxLength={BRAND_TEXT_LIMITS[field]}
                      defaultValue={textValue(name, brand[field][lng])}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `brand-${name}-error` : undefined}
                    />
                    <ErrorList id={`brand-${name}-error`} errors={error} />
                  </div>
                );
              })}
            </fieldset>
          ))}
          <fieldset className="stack">
            <legend>{t("brand.colorsTitle")}</legend>
            <p className="field-hint" id="brand-colors-hint">
              {t("brand.colorsHint")}
            </p>
            {COLOR_FIELDS.map((field) => (
              <ColorInput
                key={field}
                field={field}
                stored={brand.colors[field]}
                sent={sent?.[field]}
                error={settingsRefusal?.field === field ? settingsRefusal.message : undefined}
              />
            ))}
          </fieldset>
          {settingsRefusal && !settingsRefusal.field && (
            <div role="alert" className="form-alert" data-testid="brand-settings-error">
              <p>{message(settingsRefusal)}</p>
            </div>
          )}
          <button type="submit" className="button button-primary">
            {t("common.save")}
          </button>
        </Form>
      </section>

      {slots.map(({ slot, limit, current }) => {
        const slotRefusal = refusal?.form === slot ? refusal : undefined;
        return (
          <section key={slot} className="admin-card stack" aria-labelledby={`brand-${slot}-title`} id={`slot-${slot}`} data-testid={`brand-slot-${slot}`}>
            <h2 id={`brand-${slot}-title`}>{t(`brand.slots.${slot}`)}</h2>
            <p className="muted">{t(`brand.slotHints.${slot}`)}</p>
            {current ? (
              <figure className="stack" data-testid={`brand-current-${slot}`}>
                <img
                  src={current.url}
                  width={current.width}
                  height={current.height}
                  alt={t("brand.currentAlt", { slot: t(`brand.slots.${slot}`) })}
                  style={{ maxWidth: "100%", height: "auto", background: brand.colors.primary }}
                />
                <figcaption className="muted">
                  {t("brand.currentSize", {
                    width: current.width,
                    height: current.height,
                    kb: kb(current.bytes),
                    type: current.type.replace("image/", "").toUpperCase(),
                  })}
                </figcaption>
              </figure>
            ) : (
              <p className="notice" data-testid={`brand-none-${slot}`}>
                {t("brand.none")}
              </p>
            )}
            <Form method="post" encType="multipart/form-data" className="stack" noValidate data-testid={`brand-upload-${slot}`}>
              <input type="hidden" name="intent" value="upload" />
              <input type="hidden" name="slot" value={slot} />
              <div className="field">
                <label htmlFor={`brand-file-${slot}`}>{t("brand.fileLabel", { slot: t(`brand.slots.${slot}`) })}</label>
                <input
                  id={`brand-file-${slot}`}
                  name="file"
                  type="file"
                  accept={IMAGE_TYPES.join(",")}
                  aria-invalid={slotRefusal ? true : undefined}
                  aria-describedby={`brand-file-${slot}-hint${slotRefusal ? ` brand-file-${slot}-error` : ""}`}
                />
                <p id={`brand-file-${slot}-hint`} className="field-hint" data-testid={`brand-limit-${slot}`}>
                  <LimitText limit={limit} />
                </p>
                {slotRefusal && (
                  <div role="alert" className="form-alert" id={`brand-file-${slot}-error`} data-testid={`brand-error-${slot}`}>
                    <p>{message(slotRefusal)}</p>
                  </div>
                )}
              </div>
              <button type="submit" className="button button-primary">
                {t("brand.upload")}
              </button>
            </Form>
            {current && (
              <Form method="post" className="admin-inline-form">
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="slot" value={slot} />
                <button type="submit" className="button button-small button-danger" data-testid={`brand-remove-${slot}`}>
                  {t("brand.remove", { slot: t(`brand.slots.${slot}`) })}
                </button>
              </Form>
            )}
          </section>
        );
      })}
    </section>
  );
}

/** A colour as a text field and a picker; with JavaScript each follows the other (the lite script's `colorPair`). */
function ColorInput({
  field,
  stored,
  sent,
  error,
}: {
  field: (typeof COLOR_FIELDS)[number];
  stored: string;
  sent: string | undefined;
  error: string | undefined;
}) {
  const { t } = useTranslation("admin");
  const initial = sent ?? stored;
  const picker = /^#[0-9a-fA-F]{6}$/.test(initial) ? initial.toLowerCase() : stored;
  const label = t(`brand.colors.${field}`);
  return (
    <div className="field" data-testid={`brand-color-${field}`}>
      <label htmlFor={`brand-${field}`}>{t("brand.colorText", { color: label })}</label>
      <input
        id={`brand-${field}`}
        name={field}
        type="text"
        defaultValue={initial}
        {...hookProps(COLOR_TEXT)}
        pattern="#[0-9a-fA-F]{6}"
        spellCheck={false}
        autoComplete="off"
        lang="en"
        aria-invalid={error ? true : undefined}
        aria-describedby={`brand-colors-hint${error ? ` brand-${field}-error` : ""}`}
      />
      <label htmlFor={`brand-${field}-picker`}>{t("brand.colorPicker", { color: label })}</label>
      <input id={`brand-${field}-picker`} name={`${field}Picker`} type="color" defaultValue={picker} {...hookProps(COLOR_PICKER, stored)} />
      <input type="hidden" name={`${field}Was`} value={initial} />
      <ErrorList id={`brand-${field}-error`} errors={error ? [error] : undefined} />
    </div>
  );
}
