import { z } from "zod";
import { BRAND_SLOTS, parseHexColor } from "@workers/core/brand";
import { LANGUAGES } from "@workers/core/languages";
import type { BrandSettingsInput } from "@workers/services/agency";

/**
 * The owner's brand page (admin/settings/brand): the texts-and-colours form, the upload form
 * of a slot, the remove button of a slot (`intent`). Messages are keys of the admin
 * namespace. The colour pairs' contrast is the service's rule (workers/core/brand.ts).
 */
export const BRAND_TEXT_LIMITS = { siteName: 60, heroTitle: 120, heroSubtitle: 240 } as const;
export const COLOR_FIELDS = ["primary", "primaryText", "accent", "accentText"] as const;
type ColorField = (typeof COLOR_FIELDS)[number];
type TextField = keyof typeof BRAND_TEXT_LIMITS;
export const TEXT_FIELDS = Object.keys(BRAND_TEXT_LIMITS) as TextField[];

const suffix = { lo: "Lo", cn: "Cn", vn: "Vn" } as const;
/** The form field of a text in a language: siteNameLo, heroTitleCn, ... */
export const textFieldName = (field: TextField, lng: (typeof LANGUAGES)[number]) => `${field}${suffix[lng]}`;

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: "admin:brand.errors.tooLong" })
    .optional()
    .transform((v) => (v ? v : null));

const hex = z.string().trim().optional();

/**
 * Each colour is a text field (`primary`), a colour picker (`primaryPicker`) and the value the
 * page was rendered with (`primaryWas`). Without JavaScript the two inputs do not follow each
 * other, so the one the owner changed wins: the text when it differs from before, else the
 * picker; with JavaScript they are kept equal as the owner types or picks.
 */
const colorFields = Object.fromEntries(
  COLOR_FIELDS.flatMap((f) => [
    [f, hex],
    [`${f}Picker`, hex],
    [`${f}Was`, hex],
  ]),
) as Record<`${ColorField}${"" | "Picker" | "Was"}`, typeof hex>;
const textFields = Object.fromEntries(TEXT_FIELDS.flatMap((f) => LANGUAGES.map((l) => [textFieldName(f, l), text(BRAND_TEXT_LIMITS[f])]))) as Record<
  string,
  ReturnType<typeof text>
>;

function chosenColor(textValue: string | undefined, picker: string | undefined, was: string | undefined): string {
  const t = textValue ?? "";
  if (t !== (was ?? "") || !picker) return t;
  return picker;
}

export const BrandSettingsSchema = z
  .object({ intent: z.literal("settings"), ...textFields, ...colorFields })
  .superRefine((v, ctx) => {
    for (const f of COLOR_FIELDS) {
      if (!parseHexColor(chosenColor(v[f], v[`${f}Picker`], v[`${f}Was`])))
        ctx.addIssue({ code: "custom", path: [f], message: "admin:brand.errors.BRAND_COLOR_INVALID" });
    }
  })
  .transform((v): BrandSettingsInput => {
    const texts = (f: TextField) =>
      Object.fromEntries(LANGUAGES.map((l) => [l, (v as Record<string, string | null>)[textFieldName(f, l)] ?? null])) as BrandSettingsInput["siteName"];
    const colors = Object.fromEntries(COLOR_FIELDS.map((f) => [f, chosenColor(v[f], v[`${f}Picker`], v[`${f}Was`])])) as BrandSettingsInput["colors"];
    return { siteName: texts("siteName"), heroTitle: texts("heroTitle"), heroSubtitle: texts("heroSubtitle"), colors };
  });

const BrandSlotSchema = z.enum(BRAND_SLOTS as [(typeof BRAND_SLOTS)[number], ...(typeof BRAND_SLOTS)[number][]], { error: "admin:brand.errors.slot" });

/** An upload: the file itself is judged by the service (bytes, type, size); here only that one came. */
export const BrandUploadSchema = z.object({
  intent: z.literal("upload"),
  slot: BrandSlotSchema,
  file: z.instanceof(File, { error: "admin:brand.errors.BRAND_IMAGE_EMPTY" }),
});

export const BrandRemoveSchema = z.object({ intent: z.literal("remove"), slot: BrandSlotSchema });
