import {
  assetKey,
  assetName,
  assetNameType,
  assetUrl,
  BRAND_SLOTS,
  brandText,
  checkBrandColors,
  checkImage,
  cleanBrandTexts,
  declaredImageType,
  PAGE_BACKGROUND,
  SLOT_LIMITS,
  type AssetSlot,
  type Brand,
  type BrandColors,
  type BrandSlot,
  type BrandText,
  type ColorPair,
  type ImageRefusal,
  type SlotLimit,
} from "../../core/brand";
import type { Language } from "../../core/languages";
import { auditStatement, type AuditActor } from "../../db/audit";
import {
  countBrandAssetsSince,
  deleteStaleBrandAssetStatement,
  insertBrandAssetWithinBudget,
  listCurrentBrandAssets,
  listStaleBrandAssets,
  markUnreferencedBrandAssets,
  readBrand,
  readStoredBrand,
  setBrandSlotStatement,
  upsertBrandSettingsStatement,
} from "../../db/brand";
import type { Agency } from "../../db/agencies";
import { forgetAgency } from "./agency";

/**
 * An agency's brand (decision 018): the owner's texts and colours (each on-screen
 * colour pair checked for 4.5:1 before saving), images per slot stored in the BRAND_ASSETS
 * R2 bucket under `agencies/<agencyId>/<content-hashed name>` and recorded in D1, promotion
 * banners the same way, and the reading side: an asset of the request's agency for
 * /brand/<name>, the web manifest of an agency. Every change writes its audit row in the
 * same D1 batch. Role checks are the route's (owner only). Decision 053: stored uploads are
 * limited per agency and hour, texts follow the name rule, and the hourly job deletes images
 * no page has referred to for 30 days.
 */

export type BrandSettingsInput = { siteName: BrandText; heroTitle: BrandText; heroSubtitle: BrandText; colors: Record<keyof BrandColors, string> };

export type BrandSaveResult =
  | { ok: true }
  | { ok: false; code: "BRAND_COLOR_INVALID"; field: keyof BrandColors }
  | { ok: false; code: "BRAND_CONTRAST"; pair: ColorPair; ratio: number }
  /** `field`: the form field of that text and language (siteNameLo, heroTitleCn, ...). */
  | { ok: false; code: "BRAND_TEXT_CHARACTERS"; field: string };

/**
 * Texts and colours: refused, nothing written, when a text has a character names refuse
 * (workers/core/names.ts), a colour is not #rrggbb or a pair is below 4.5:1.
 */
export async function saveBrandSettings(env: Env, actor: AuditActor, input: BrandSettingsInput): Promise<BrandSaveResult> {
  const cleaned = cleanBrandTexts({ siteName: input.siteName, heroTitle: input.heroTitle, heroSubtitle: input.heroSubtitle });
  if (!cleaned.ok) return { ok: false, code: "BRAND_TEXT_CHARACTERS", field: `${cleaned.text}${cleaned.lang[0].toUpperCase()}${cleaned.lang.slice(1)}` };
  const checked = checkBrandColors(input.colors);
  if (!checked.ok) return checked;
  const texts = cleaned.texts;
  const before = await readStoredBrand(env.DB, actor.agencyId);
  await env.DB.batch([
    upsertBrandSettingsStatement(env.DB, actor.agencyId, texts, checked.colors),
    auditStatement(env.DB, actor, {
      action: "brand.settings",
      target: actor.agencyId,
      before: before ? { siteName: before.siteName, heroTitle: before.heroTitle, heroSubtitle: before.heroSubtitle, colors: before.colors } : null,
      after: { ...texts, colors: checked.colors },
    }),
  ]);
  forgetAgency(actor.agencyId);
  return { ok: true };
}

/** An uploaded file as the route has it (a File of the multipart form). */
export type ImageUpload = { type: string; name: string; size: number; arrayBuffer(): Promise<ArrayBuffer> };

/** BRAND_UPLOAD_LIMIT: the agency stored its budget of images this hour (decision 053). */
export type UploadResult = { ok: true; url: string; name: string; width: number; height: number } | { ok: false; code: ImageRefusal | "BRAND_UPLOAD_LIMIT" };

/**
 * Every new image of an agency (brand slots and banners, whoever uploads it) counts against one
 * budget: at most UPLOADS_PER_HOUR records created in the last hour (decisions 053, 068).
 */
const UPLOADS_PER_HOUR = 20;
const HOUR_MS = 3600_000;

const IMMUTABLE = "public, max-age=31536000, immutable";

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Checks a file for a slot and stores it (decision 068). The record first, counted against the budget in the
 * same statement (25 uploads at once store 20); then the object; then what uses it (the slot, or
 * the banner URL the caller gets) and the audit. Whatever stops between them leaves nothing a
 * page uses without its object: a record no page uses, with or without its object, which the
 * hourly job deletes after 30 days like any unused image (sweepBrandAssets). An object without
 * a record would never be found, and an upload past the budget never writes one.
 */
async function storeAsset(
  env: Env,
  actor: AuditActor,
  slot: AssetSlot,
  file: ImageUpload,
  extra: (name: string) => D1PreparedStatement[],
  action: string,
): Promise<UploadResult> {
  // Past the hour's budget, and too big, are refused before the bytes are read.
  const now = Date.now();
  const budget = { limit: UPLOADS_PER_HOUR, since: now - HOUR_MS, now };
  if ((await countBrandAssetsSince(env.DB, actor.agencyId, budget.since)) >= budget.limit) return { ok: false, code: "BRAND_UPLOAD_LIMIT" };
  if (file.size > SLOT_LIMITS[slot].maxBytes) return { ok: false, code: "BRAND_IMAGE_TOO_BIG" };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const checked = checkImage(slot, declaredImageType(file.type, file.name), bytes);
  if (!checked.ok) return checked;
  const sha256 = await sha256Hex(bytes);
  const name = assetName(slot, sha256, checked.image.type);
  const { type: contentType, width, height } = checked.image;
  const record = { name, slot, contentType, byteSize: bytes.length, width, height, sha256 };
  // A refused file wrote nothing and used no budget; an upload that finds the budget spent writes nothing either.
  if (!(await insertBrandAssetWithinBudget(env.DB, actor.agencyId, record, budget))) return { ok: false, code: "BRAND_UPLOAD_LIMIT" };
  await env.BRAND_ASSETS.put(assetKey(actor.agencyId, name), bytes, { httpMetadata: { contentType, cacheControl: IMMUTABLE }, sha256 });
  await env.DB.batch([
    ...extra(name),
    auditStatement(env.DB, actor, { action, target: slot, after: { name, contentType, bytes: bytes.length, width, height } }),
  ]);
  // a brand slot now shows this image (a banner changes no brand: forgetting it costs one read)
  forgetAgency(actor.agencyId);
  return { ok: true, url: assetUrl(name), name, width, height };
}

/** A new logo, icon or hero: checked against the slot's rules, stored, and made the current one. */
export async function uploadBrandImage(env: Env, actor: AuditActor, slot: BrandSlot, file: ImageUpload): Promise<UploadResult> {
  return storeAsset(env, actor, slot, file, (name) => [setBrandSlotStatement(env.DB, actor.agencyId, slot, name)], "brand.upload");
}

/** A promotion banner (slot "banner"): stored; its /brand/ URL becomes the promotion's image. */
export async function uploadPromotionBanner(env: Env, actor: AuditActor, file: ImageUpload): Promise<UploadResult> {
  return storeAsset(env, actor, "banner", file, () => [], "promotion.banner-upload");
}

/**
 * The slot goes back to the neutral default. The object stays for now (a link someone copied
 * keeps working); the hourly job deletes it once no page has used it for 30 days (sweepBrandAssets).
 */
export async function removeBrandImage(env: Env, actor: AuditActor, slot: BrandSlot): Promise<void> {
  const before = await readStoredBrand(env.DB, actor.agencyId);
  await env.DB.batch([
    setBrandSlotStatement(env.DB, actor.agencyId, slot, null),
    auditStatement(env.DB, actor, { action: "brand.remove", target: slot, before: { name: before?.[slot] ?? null }, after: { name: null } }),
  ]);
  forgetAgency(actor.agencyId);
}

type SlotView = { slot: BrandSlot; limit: SlotLimit; current: { url: string; width: number; height: number; type: string; bytes: number } | null };

/** What the owner's brand page shows: the brand as players see it, and per slot its limit and current image. */
export async function brandSettingsPage(db: D1Database, agencyId: string): Promise<{ brand: Brand; slots: SlotView[] }> {
  const [brand, assets] = await Promise.all([readBrand(db, agencyId), listCurrentBrandAssets(db, agencyId)]);
  return {
    brand,
    slots: BRAND_SLOTS.map((slot) => {
      const a = assets.find((x) => x.current === slot);
      return {
        slot,
        limit: SLOT_LIMITS[slot],
        current: a ? { url: assetUrl(a.name), width: a.width, height: a.height, type: a.contentType, bytes: a.byteSize } : null,
      };
    }),
  };
}

export type BrandAsset = { body: ReadableStream; contentType: string; size: number; etag: string };

/** An asset of THIS agency by its name (under its own key prefix only); null for anything else. */
export async function readBrandAsset(env: Env, agencyId: string, name: string): Promise<BrandAsset | null> {
  const type = assetNameType(name);
  if (!type) return null;
  const object = await env.BRAND_ASSETS.get(assetKey(agencyId, name));
  if (!object) return null;
  return { body: object.body, contentType: type, size: object.size, etag: object.httpEtag };
}

/** The web manifest of an agency (GET /app.webmanifest): its name, its icon with its real size, its primary colour. */
export function webManifest(agency: Agency, lang: Language) {
  const name = brandText(agency.brand.siteName, lang) ?? agency.name;
  const icon = agency.brand.icon;
  return {
    name,
    short_name: name,
    lang,
    start_url: "/",
    display: "standalone",
    background_color: PAGE_BACKGROUND,
    theme_color: agency.brand.colors.primary,
    icons: icon
      ? [{ src: icon.url, sizes: `${icon.width}x${icon.height}`, type: icon.type, purpose: "any" }]
      : [{ src: "/favicon.svg", sizes: "any", type: "image/svg+xml" }],
  };
}

/** How long an image may go unused before it is deleted (decision 053). */
const UNREFERENCED_DAYS = 30;
/** Deletions per run: a backlog (e.g. right after the migration) drains over several hours. */
const SWEEP_BATCH = 200;

/**
 * The hourly job's part (workers/app.ts): marks images no page uses (and unmarks used ones),
 * then deletes those unused for UNREFERENCED_DAYS: the R2 object first, then the record, each
 * record only if still unused, so a failed run is simply repeated by the next one.
 */
export async function sweepBrandAssets(env: Env, now: number): Promise<{ deleted: number }> {
  await markUnreferencedBrandAssets(env.DB, now);
  const cutoff = now - UNREFERENCED_DAYS * 24 * 3600_000;
  const stale = await listStaleBrandAssets(env.DB, cutoff, SWEEP_BATCH);
  if (stale.length === 0) return { deleted: 0 };
  await env.BRAND_ASSETS.delete(stale.map((a) => assetKey(a.agencyId, a.name)));
  const results = await env.DB.batch(stale.map((a) => deleteStaleBrandAssetStatement(env.DB, a, cutoff)));
  return { deleted: results.reduce((n, r) => n + (r.meta.changes ?? 0), 0) };
}
