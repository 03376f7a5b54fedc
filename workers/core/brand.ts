import type { Language } from "./languages";

/**
 * An agency's brand (issue 15): what its players see of it. Pure types and the neutral
 * default; the rules that check a brand (colour contrast, image bytes) live here too.
 * A missing brand, or a missing part of one, falls back to NEUTRAL_BRAND, never to another
 * agency's.
 */

/** Text per language; null where the owner left it empty (the page then uses lo, then the default). */
export type BrandText = Record<Language, string | null>;

/** The upload slots; each has its own byte and pixel limit (BRAND_SLOT_LIMITS). */
export type BrandSlot = "logo" | "icon" | "hero";

/**
 * An uploaded image as pages use it: a same-origin path with a content-hashed name
 * (`/brand/<slot>-<hash>.<ext>`, served from the agency's own domain, cached a year) and
 * its intrinsic size, so nothing shifts on load.
 */
export type BrandImage = { url: string; width: number; height: number; type: string };

/** Colours as #rrggbb. Each pair that appears on screen is checked for 4.5:1 before saving. */
export type BrandColors = {
  /** navbar and footer background; also links and outlined buttons on the page background */
  primary: string;
  /** text and icons on the primary colour */
  primaryText: string;
  /** call-to-action buttons */
  accent: string;
  /** text on the accent colour */
  accentText: string;
};

export type Brand = {
  siteName: BrandText;
  heroTitle: BrandText;
  heroSubtitle: BrandText;
  colors: BrandColors;
  logo: BrandImage | null;
  icon: BrandImage | null;
  hero: BrandImage | null;
};

const EMPTY_TEXT: BrandText = { lo: null, cn: null, vn: null };

/** What every agency shows until its owner sets a brand (the colours of app.css). */
export const NEUTRAL_BRAND: Brand = {
  siteName: EMPTY_TEXT,
  heroTitle: EMPTY_TEXT,
  heroSubtitle: EMPTY_TEXT,
  colors: { primary: "#0b1f3a", primaryText: "#ffffff", accent: "#f5b301", accentText: "#111827" },
  logo: null,
  icon: null,
  hero: null,
};

/** The text in this language, else lo, else null (the caller falls back to its default). */
export function brandText(text: BrandText, lang: Language): string | null {
  return text[lang] ?? text.lo ?? null;
}
