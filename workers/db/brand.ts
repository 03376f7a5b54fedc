import {
  assetUrl,
  NEUTRAL_BRAND,
  parseHexColor,
  type AssetSlot,
  type Brand,
  type BrandColors,
  type BrandImage,
  type BrandSlot,
  type BrandText,
} from "../core/brand";

/**
 * Statements over `agency_brand` and `brand_assets` (migration 0021, decision 018). The
 * brand is also read with the agency by host (workers/db/agencies.ts) through BRAND_COLUMNS
 * and BRAND_JOINS here, in the same query. Every part that is missing (no row, a NULL
 * column, an image row that is not the agency's) falls back to NEUTRAL_BRAND for that part.
 */

/** The brand columns of a row joined as `b` (agency_brand) and `bl`, `bi`, `bh`, `bp` (brand_assets of logo, icon, hero, phone hero). */
export const BRAND_COLUMNS = `b.site_name_lo, b.site_name_cn, b.site_name_vn, b.hero_title_lo, b.hero_title_cn, b.hero_title_vn,
  b.hero_subtitle_lo, b.hero_subtitle_cn, b.hero_subtitle_vn, b.color_primary, b.color_primary_text, b.color_accent, b.color_accent_text,
  bl.name AS logo_name, bl.content_type AS logo_type, bl.width AS logo_width, bl.height AS logo_height,
  bi.name AS icon_name, bi.content_type AS icon_type, bi.width AS icon_width, bi.height AS icon_height,
  bh.name AS hero_name, bh.content_type AS hero_type, bh.width AS hero_width, bh.height AS hero_height,
  bp.name AS heroPhone_name, bp.content_type AS heroPhone_type, bp.width AS heroPhone_width, bp.height AS heroPhone_height`;

/** LEFT JOINs from an agency aliased `a`: an agency without a brand row still has its row. */
export const BRAND_JOINS = `LEFT JOIN agency_brand b ON b.agency_id = a.id
  LEFT JOIN brand_assets bl ON bl.agency_id = a.id AND bl.name = b.logo_name
  LEFT JOIN brand_assets bi ON bi.agency_id = a.id AND bi.name = b.icon_name
  LEFT JOIN brand_assets bh ON bh.agency_id = a.id AND bh.name = b.hero_name
  LEFT JOIN brand_assets bp ON bp.agency_id = a.id AND bp.name = b.hero_phone_name`;

type ImageColumns<S extends string> = { [K in `${S}_name` | `${S}_type`]: string | null } & { [K in `${S}_width` | `${S}_height`]: number | null };

export type BrandRow = {
  site_name_lo: string | null;
  site_name_cn: string | null;
  site_name_vn: string | null;
  hero_title_lo: string | null;
  hero_title_cn: string | null;
  hero_title_vn: string | null;
  hero_subtitle_lo: string | null;
  hero_subtitle_cn: string | null;
  hero_subtitle_vn: string | null;
  color_primary: string | null;
  color_primary_text: string | null;
  color_accent: string | null;
  color_accent_text: string | null;
} & ImageColumns<"logo"> &
  ImageColumns<"icon"> &
  ImageColumns<"hero"> &
  ImageColumns<"heroPhone">;

const textOf = (lo: string | null, cn: string | null, vn: string | null): BrandText => ({ lo: lo || null, cn: cn || null, vn: vn || null });

function imageOf(row: BrandRow, slot: BrandSlot): BrandImage | null {
  const name = row[`${slot}_name`];
  const type = row[`${slot}_type`];
  const width = row[`${slot}_width`];
  const height = row[`${slot}_height`];
  return name && type && width && height ? { url: assetUrl(name), width, height, type } : null;
}

const colorOr = (value: string | null, neutral: string) => (value ? (parseHexColor(value) ?? neutral) : neutral);

/** A joined row as the brand pages use, each missing part the neutral default's. */
export function toBrand(row: BrandRow): Brand {
  const neutral = NEUTRAL_BRAND.colors;
  const colors: BrandColors = {
    primary: colorOr(row.color_primary, neutral.primary),
    primaryText: colorOr(row.color_primary_text, neutral.primaryText),
    accent: colorOr(row.color_accent, neutral.accent),
    accentText: colorOr(row.color_accent_text, neutral.accentText),
  };
  return {
    siteName: textOf(row.site_name_lo, row.site_name_cn, row.site_name_vn),
    heroTitle: textOf(row.hero_title_lo, row.hero_title_cn, row.hero_title_vn),
    heroSubtitle: textOf(row.hero_subtitle_lo, row.hero_subtitle_cn, row.hero_subtitle_vn),
    colors,
    logo: imageOf(row, "logo"),
    icon: imageOf(row, "icon"),
    hero: imageOf(row, "hero"),
    heroPhone: imageOf(row, "heroPhone"),
  };
}

/** An agency's brand (the admin page); the neutral default for an agency that never set one. */
export async function readBrand(db: D1Database, agencyId: string): Promise<Brand> {
  const row = await db.prepare(`SELECT ${BRAND_COLUMNS} FROM agencies a ${BRAND_JOINS} WHERE a.id = ?1`).bind(agencyId).first<BrandRow>();
  return row ? toBrand(row) : NEUTRAL_BRAND;
}

/** The stored brand row's own values (no fallback), for the audit's before state. */
export type StoredBrandSettings = {
  siteName: BrandText;
  heroTitle: BrandText;
  heroSubtitle: BrandText;
  colors: Record<keyof BrandColors, string | null>;
  logo: string | null;
  icon: string | null;
  hero: string | null;
  heroPhone: string | null;
};

export async function readStoredBrand(db: D1Database, agencyId: string): Promise<StoredBrandSettings | null> {
  const row = await db.prepare(`SELECT * FROM agency_brand WHERE agency_id = ?1`).bind(agencyId).first<Record<string, string | null>>();
  if (!row) return null;
  const t = (p: string): BrandText => ({ lo: row[`${p}_lo`] ?? null, cn: row[`${p}_cn`] ?? null, vn: row[`${p}_vn`] ?? null });
  return {
    siteName: t("site_name"),
    heroTitle: t("hero_title"),
    heroSubtitle: t("hero_subtitle"),
    colors: {
      primary: row.color_primary ?? null,
      primaryText: row.color_primary_text ?? null,
      accent: row.color_accent ?? null,
      accentText: row.color_accent_text ?? null,
    },
    logo: row.logo_name ?? null,
    icon: row.icon_name ?? null,
    hero: row.hero_name ?? null,
    heroPhone: row.hero_phone_name ?? null,
  };
}

export type BrandTexts = { siteName: BrandText; heroTitle: BrandText; heroSubtitle: BrandText };

/** Sets the texts and colours (creating the row when the agency has none); the images stay. */
export function upsertBrandSettingsStatement(db: D1Database, agencyId: string, texts: BrandTexts, colors: BrandColors): D1PreparedStatement {
  const { siteName: s, heroTitle: h, heroSubtitle: u } = texts;
  return db
    .prepare(
      `INSERT INTO agency_brand (agency_id, site_name_lo, site_name_cn, site_name_vn, hero_title_lo, hero_title_cn, hero_title_vn, hero_subtitle_lo, hero_subtitle_cn, hero_subtitle_vn,
         color_primary, color_primary_text, color_accent, color_accent_text)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
       ON CONFLICT (agency_id) DO UPDATE SET site_name_lo = excluded.site_name_lo, site_name_cn = excluded.site_name_cn, site_name_vn = excluded.site_name_vn,
         hero_title_lo = excluded.hero_title_lo, hero_title_cn = excluded.hero_title_cn, hero_title_vn = excluded.hero_title_vn,
         hero_subtitle_lo = excluded.hero_subtitle_lo, hero_subtitle_cn = excluded.hero_subtitle_cn, hero_subtitle_vn = excluded.hero_subtitle_vn,
         color_primary = excluded.color_primary, color_primary_text = excluded.color_primary_text, color_accent = excluded.color_accent, color_accent_text = excluded.color_accent_text,
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(agencyId, s.lo, s.cn, s.vn, h.lo, h.cn, h.vn, u.lo, u.cn, u.vn, colors.primary, colors.primaryText, colors.accent, colors.accentText);
}

const SLOT_COLUMN: Record<BrandSlot, string> = { logo: "logo_name", icon: "icon_name", hero: "hero_name", heroPhone: "hero_phone_name" };

/** Points a slot at an asset (or at none with null), creating the row when the agency has none. */
export function setBrandSlotStatement(db: D1Database, agencyId: string, slot: BrandSlot, name: string | null): D1PreparedStatement {
  const column = SLOT_COLUMN[slot];
  return db
    .prepare(
      `INSERT INTO agency_brand (agency_id, ${column}) VALUES (?1, ?2)
       ON CONFLICT (agency_id) DO UPDATE SET ${column} = excluded.${column}, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(agencyId, name);
}

export type BrandAssetRecord = { name: string; slot: AssetSlot; contentType: string; byteSize: number; width: number; height: number; sha256: string };

/** The budget of new images (records) of an agency: at most `limit` created after `since` (decisions 053, 068). */
type UploadBudget = { limit: number; since: number; now: number };

const BUDGET_USED = `(SELECT COUNT(*) FROM brand_assets WHERE agency_id = ?1 AND created_at > ?2)`;

/** How many images the agency recorded after `since` (the early refusal, before the bytes are read). */
export async function countBrandAssetsSince(db: D1Database, agencyId: string, since: number): Promise<number> {
  const row = await db.prepare(`SELECT ${BUDGET_USED} AS n`).bind(agencyId, new Date(since).toISOString()).first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Records an uploaded asset if the agency's budget has room, counted and written in this one
 * statement (concurrent uploads cannot both take the last place); false when it had none. The
 * same bytes again (same name) keep the first record, which counts as just uploaded: its 30
 * unreferenced days (decision 053) start over; they are no new image and use no budget.
 */
export async function insertBrandAssetWithinBudget(db: D1Database, agencyId: string, asset: BrandAssetRecord, budget: UploadBudget): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT INTO brand_assets (agency_id, name, slot, content_type, byte_size, width, height, sha256, created_at)
       SELECT ?1, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11 WHERE ${BUDGET_USED} < ?3
       ON CONFLICT (agency_id, name) DO UPDATE SET unreferenced_since = NULL`,
    )
    .bind(
      agencyId,
      new Date(budget.since).toISOString(),
      budget.limit,
      asset.name,
      asset.slot,
      asset.contentType,
      asset.byteSize,
      asset.width,
      asset.height,
      asset.sha256,
      new Date(budget.now).toISOString(),
    )
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** The agency's current logo, icon, hero and phone hero records (the admin page shows their bytes and size). */
export async function listCurrentBrandAssets(db: D1Database, agencyId: string): Promise<(BrandAssetRecord & { current: BrandSlot })[]> {
  const { results } = await db
    .prepare(
      `SELECT s.current, x.name, x.slot, x.content_type, x.byte_size, x.width, x.height, x.sha256
         FROM (SELECT 'logo' AS current, logo_name AS name FROM agency_brand WHERE agency_id = ?1
               UNION ALL SELECT 'icon', icon_name FROM agency_brand WHERE agency_id = ?1
               UNION ALL SELECT 'hero', hero_name FROM agency_brand WHERE agency_id = ?1
               UNION ALL SELECT 'heroPhone', hero_phone_name FROM agency_brand WHERE agency_id = ?1) s
         JOIN brand_assets x ON x.agency_id = ?1 AND x.name = s.name`,
    )
    .bind(agencyId)
    .all<{ current: BrandSlot; name: string; slot: AssetSlot; content_type: string; byte_size: number; width: number; height: number; sha256: string }>();
  return results.map((r) => ({
    current: r.current,
    name: r.name,
    slot: r.slot,
    contentType: r.content_type,
    byteSize: r.byte_size,
    width: r.width,
    height: r.height,
    sha256: r.sha256,
  }));
}

/**
 * Whether a page refers to the asset row `brand_assets` (decision 053): one of its agency's
 * brand slots, or the image URL of any of its promotions (`/brand/<name>`, any language,
 * active or not). instr, not LIKE: a name's "_" is no wildcard.
 */
const REFERENCED = `(EXISTS (SELECT 1 FROM agency_brand b WHERE b.agency_id = brand_assets.agency_id
      AND brand_assets.name IN (b.logo_name, b.icon_name, b.hero_name, b.hero_phone_name))
  OR EXISTS (SELECT 1 FROM promotions p WHERE p.agency_id = brand_assets.agency_id AND instr(p.image_url, '/brand/' || brand_assets.name) > 0))`;

/** Clears the mark of every asset a page uses again, and marks every unused unmarked one with `now`. */
export async function markUnreferencedBrandAssets(db: D1Database, now: number): Promise<void> {
  await db.batch([
    db.prepare(`UPDATE brand_assets SET unreferenced_since = NULL WHERE unreferenced_since IS NOT NULL AND ${REFERENCED}`),
    db.prepare(`UPDATE brand_assets SET unreferenced_since = ?1 WHERE unreferenced_since IS NULL AND NOT ${REFERENCED}`).bind(now),
  ]);
}

/** Assets unused since `cutoff` or earlier, oldest first, still unused now. */
export async function listStaleBrandAssets(db: D1Database, cutoff: number, limit: number): Promise<{ agencyId: string; name: string }[]> {
  const { results } = await db
    .prepare(`SELECT agency_id, name FROM brand_assets WHERE unreferenced_since <= ?1 AND NOT ${REFERENCED} ORDER BY unreferenced_since LIMIT ?2`)
    .bind(cutoff, limit)
    .all<{ agency_id: string; name: string }>();
  return results.map((r) => ({ agencyId: r.agency_id, name: r.name }));
}

/** Deletes a stale asset's record, only if it is still unused since `cutoff` (a page may have used it meanwhile). */
export function deleteStaleBrandAssetStatement(db: D1Database, asset: { agencyId: string; name: string }, cutoff: number): D1PreparedStatement {
  return db
    .prepare(`DELETE FROM brand_assets WHERE agency_id = ?1 AND name = ?2 AND unreferenced_since <= ?3 AND NOT ${REFERENCED}`)
    .bind(asset.agencyId, asset.name, cutoff);
}
