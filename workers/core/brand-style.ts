import { brandText, NEUTRAL_BRAND, type Brand, type BrandColors, type BrandImage } from "./brand";
import type { Language } from "./languages";

/**
 * How a brand reaches the page (decision 020): its colours as CSS custom
 * properties written into the server-rendered HTML, its images sized so nothing shifts,
 * its link-preview image as an absolute URL. Pure: no I/O.
 *
 * Nothing from a brand is written into CSS unless it is exactly `#rrggbb`: a colour that is
 * anything else (a stored value that escaped validation, a `;}</style>` attempt) is replaced
 * by the neutral brand's colour for that slot, never passed through.
 */

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

export function isHexColour(value: unknown): value is string {
  return typeof value === "string" && HEX_COLOUR.test(value);
}

/** The brand's colours with every invalid one replaced by the neutral colour of that slot; lower case. */
export function safeBrandColors(colors: Partial<BrandColors> | null | undefined): BrandColors {
  const pick = (key: keyof BrandColors) => {
    const value = colors?.[key];
    return (isHexColour(value) ? value : NEUTRAL_BRAND.colors[key]).toLowerCase();
  };
  return { primary: pick("primary"), primaryText: pick("primaryText"), accent: pick("accent"), accentText: pick("accentText") };
}

/** The custom properties app.css reads (`--brand`, `--brand-text`, `--accent`, `--accent-text`). */
const PROPERTIES: Record<keyof BrandColors, string> = {
  primary: "--brand",
  primaryText: "--brand-text",
  accent: "--accent",
  accentText: "--accent-text",
};

/** `:root{--brand:#..;--brand-text:#..;--accent:#..;--accent-text:#..}`: only validated colours. */
export function brandCss(colors: Partial<BrandColors> | null | undefined): string {
  const safe = safeBrandColors(colors);
  const body = (Object.keys(PROPERTIES) as (keyof BrandColors)[]).map((key) => `${PROPERTIES[key]}:${safe[key]}`).join(";");
  return `:root{${body}}`;
}

/** A path on this origin (`/brand/logo-ab12.webp`); not `//host`, not a scheme, no backslash or control characters. */
export function isSameOriginPath(url: unknown): url is string {
  return typeof url === "string" && /^\/(?![/\\])[^\s\\"'<>]*$/.test(url);
}

/** The brand image as an absolute URL on the request's origin (link previews need one), or null. */
export function absoluteImageUrl(origin: string, image: Pick<BrandImage, "url"> | null | undefined): string | null {
  if (!image || !isSameOriginPath(image.url)) return null;
  return new URL(image.url, origin).href;
}

/**
 * Display size of an image drawn into a box: the image keeps its aspect ratio, fits within
 * maxWidth x maxHeight and is never drawn larger than it is. Whole pixels, at least 1.
 */
export function fitImage(width: number, height: number, maxWidth: number, maxHeight: number): { width: number; height: number } {
  if (!(width > 0) || !(height > 0)) return { width: maxWidth, height: maxHeight };
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The brand image when its url is a path on this origin (what brand uploads are), else null. */
export function sameOriginImage(image: BrandImage | null | undefined): BrandImage | null {
  return image && isSameOriginPath(image.url) && image.width > 0 && image.height > 0 ? image : null;
}

/** What every page of an agency shows of its brand: public data only (it goes to the browser). */
export type PageBrand = {
  siteName: string;
  colors: BrandColors;
  logo: BrandImage | null;
  icon: BrandImage | null;
  /** link previews (Telegram, Facebook): og:title, og:description, og:image, twitter:card */
  preview: { title: string; description: string; image: string | null; card: "summary" | "summary_large_image" };
};

/**
 * The brand as the root layout uses it, in the page's language: the site name (the brand's
 * in this language, else lo, else the agency's name), validated colours, the images, and
 * the link preview (the hero, else the logo, as an absolute URL on the request's origin).
 */
export function pageBrand(brand: Brand, input: { agencyName: string; lang: Language; origin: string; defaultDescription: string }): PageBrand {
  const siteName = brandText(brand.siteName, input.lang) ?? input.agencyName;
  const hero = sameOriginImage(brand.hero);
  const logo = sameOriginImage(brand.logo);
  const image = absoluteImageUrl(input.origin, hero ?? logo);
  return {
    siteName,
    colors: safeBrandColors(brand.colors),
    logo,
    icon: sameOriginImage(brand.icon),
    preview: {
      title: siteName,
      description: brandText(brand.heroSubtitle, input.lang) ?? input.defaultDescription,
      image,
      card: hero ? "summary_large_image" : "summary",
    },
  };
}
