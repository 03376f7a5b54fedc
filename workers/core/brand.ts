import type { Language } from "./languages";
import { cleanName } from "./names";

/**
 * An agency's brand (decision 018): what its players see of it. Pure types and the neutral
 * default; the rules that check a brand (colour contrast, image bytes) live here too.
 * A missing brand, or a missing part of one, falls back to NEUTRAL_BRAND, never to another
 * agency's.
 */

/** Text per language; null where the owner left it empty (the page then uses lo, then the default). */
export type BrandText = Record<Language, string | null>;

/**
 * The upload slots; each has its own byte and pixel limit (SLOT_LIMITS). `heroPhone` is the
 * hero drawn for a phone (decision 038): optional; a phone shows it instead of `hero` when
 * the agency has one, so a phone downloads a third of the bytes for the same picture.
 */
export type BrandSlot = "logo" | "icon" | "hero" | "heroPhone";

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
  heroPhone: BrandImage | null;
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
  heroPhone: null,
};

/** The text in this language, else lo, else null (the caller falls back to its default). */
export function brandText(text: BrandText, lang: Language): string | null {
  return text[lang] ?? text.lo ?? null;
}

/** The owner's texts of a brand: site name, hero title and subtitle, each per language. */
export type BrandTexts = { siteName: BrandText; heroTitle: BrandText; heroSubtitle: BrandText };

/**
 * Brand texts follow the rule of every name a person types (workers/core/names.ts, decision
 * 013): a site name shows in the tab title, the back office and link previews, and a
 * direction override (U+202E) would make it read differently there from what is stored.
 * Refused: the first text and language with a refused character. Else the cleaned texts
 * (zero-width characters removed, NFC, trimmed; empty = null).
 */
export function cleanBrandTexts(texts: BrandTexts): { ok: true; texts: BrandTexts } | { ok: false; text: keyof BrandTexts; lang: Language } {
  const out = {} as BrandTexts;
  for (const text of Object.keys(texts) as (keyof BrandTexts)[]) {
    const cleaned = {} as BrandText;
    for (const lang of Object.keys(texts[text]) as Language[]) {
      const raw = texts[text][lang];
      if (raw === null) {
        cleaned[lang] = null;
        continue;
      }
      const name = cleanName(raw);
      if (!name.ok) return { ok: false, text, lang };
      cleaned[lang] = name.value || null;
    }
    out[text] = cleaned;
  }
  return { ok: true, texts: out };
}

// ---------------------------------------------------------------------------------------
// Colours: #rrggbb, WCAG 2 relative luminance and contrast, the pairs checked on save.

/** "#abc" or "#aabbcc" (any case, surrounding spaces ignored) as "#aabbcc"; null for anything else. */
export function parseHexColor(input: string): string | null {
  const value = input.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(value);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  return /^#[0-9a-f]{6}$/.test(value) ? value : null;
}

/** WCAG 2.x relative luminance of a #rrggbb colour (sRGB, 0 = black, 1 = white). */
export function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.x contrast ratio of two #rrggbb colours, 1..21 (order does not matter). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** AA for normal text. */
export const MIN_CONTRAST = 4.5;
/** The page surfaces of app.css the primary colour is drawn on (links, outlined buttons). */
export const SURFACE_COLOR = "#ffffff";
export const PAGE_BACKGROUND = "#f4f6fa";

export type ColorPair = "primaryText-on-primary" | "accentText-on-accent" | "primary-on-surface" | "primary-on-page";

/** Every pair of the brand colours that appears on screen, foreground on background. */
export const COLOR_PAIRS: readonly { pair: ColorPair; fg: (c: BrandColors) => string; bg: (c: BrandColors) => string }[] = [
  { pair: "primaryText-on-primary", fg: (c) => c.primaryText, bg: (c) => c.primary },
  { pair: "accentText-on-accent", fg: (c) => c.accentText, bg: (c) => c.accent },
  { pair: "primary-on-surface", fg: (c) => c.primary, bg: () => SURFACE_COLOR },
  { pair: "primary-on-page", fg: (c) => c.primary, bg: () => PAGE_BACKGROUND },
];

export type ColorCheck =
  | { ok: true; colors: BrandColors }
  | { ok: false; code: "BRAND_COLOR_INVALID"; field: keyof BrandColors }
  | { ok: false; code: "BRAND_CONTRAST"; pair: ColorPair; ratio: number };

/** The four colours parsed, then every pair checked for 4.5:1; the first failing pair is named. */
export function checkBrandColors(input: Record<keyof BrandColors, string>): ColorCheck {
  const colors = {} as BrandColors;
  for (const field of ["primary", "primaryText", "accent", "accentText"] as const) {
    const parsed = parseHexColor(input[field]);
    if (!parsed) return { ok: false, code: "BRAND_COLOR_INVALID", field };
    colors[field] = parsed;
  }
  for (const { pair, fg, bg } of COLOR_PAIRS) {
    const ratio = contrastRatio(fg(colors), bg(colors));
    if (ratio < MIN_CONTRAST) return { ok: false, code: "BRAND_CONTRAST", pair, ratio: Math.floor(ratio * 100) / 100 };
  }
  return { ok: true, colors };
}

// ---------------------------------------------------------------------------------------
// Images: the slots and their limits, the accepted types, reading the bytes.

/** The brand's slots plus promotion banners (one per promotion, uploaded from its form). */
export type AssetSlot = BrandSlot | "banner";
export const ASSET_SLOTS: readonly AssetSlot[] = ["logo", "icon", "hero", "heroPhone", "banner"];
export const BRAND_SLOTS: readonly BrandSlot[] = ["logo", "icon", "hero", "heroPhone"];

export type SlotLimit = { maxBytes: number; maxWidth: number; maxHeight: number; minWidth: number; minHeight: number; square: boolean };

/**
 * Byte and pixel limits per slot (decision 018): Workers cannot resize, so what is uploaded
 * is what every phone downloads; these keep the landing page inside its byte budget.
 */
export const SLOT_LIMITS: Record<AssetSlot, SlotLimit> = {
  logo: { maxBytes: 8 * 1024, maxWidth: 480, maxHeight: 160, minWidth: 1, minHeight: 1, square: false },
  icon: { maxBytes: 16 * 1024, maxWidth: 512, maxHeight: 512, minWidth: 192, minHeight: 192, square: true },
  hero: { maxBytes: 30 * 1024, maxWidth: 1200, maxHeight: 1200, minWidth: 1, minHeight: 1, square: false },
  // Up to 800 px: a 360-430 px phone at twice its pixels; 12 KB keeps the landing inside 50 KB.
  heroPhone: { maxBytes: 12 * 1024, maxWidth: 800, maxHeight: 800, minWidth: 1, minHeight: 1, square: false },
  banner: { maxBytes: 20 * 1024, maxWidth: 960, maxHeight: 960, minWidth: 1, minHeight: 1, square: false },
};

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/avif"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
export const IMAGE_EXTENSIONS: Record<ImageType, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/avif": "avif" };

export const isImageType = (value: string): value is ImageType => (IMAGE_TYPES as readonly string[]).includes(value);

/** What the bytes are, with their intrinsic size; null when they are none of the four types or cannot be decoded. */
export type SniffedImage = { type: ImageType; width: number; height: number };

const u16be = (b: Uint8Array, o: number) => (b[o]! << 8) | b[o + 1]!;
const u32be = (b: Uint8Array, o: number) => ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
const u16le = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8);
const u24le = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16);
const u32le = (b: Uint8Array, o: number) => (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;
const ascii = (b: Uint8Array, o: number, n: number) => (o + n <= b.length ? String.fromCharCode(...b.subarray(o, o + n)) : "");
const startsWith = (b: Uint8Array, magic: readonly number[]) => b.length >= magic.length && magic.every((v, i) => b[i] === v);

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_MAGIC = [0xff, 0xd8, 0xff];

let crcTable: Uint32Array | null = null;
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** PNG: IHDR first (size, a valid depth/colour type), every chunk whole with its CRC, IDAT, IEND last. */
function sniffPng(b: Uint8Array): SniffedImage | null {
  let offset = 8;
  let size: { width: number; height: number } | null = null;
  let idat = false;
  while (offset + 12 <= b.length) {
    const length = u32be(b, offset);
    const type = ascii(b, offset + 4, 4);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > b.length) return null;
    if (crc32(b.subarray(offset + 4, offset + 8 + length)) !== u32be(b, offset + 8 + length)) return null;
    if (size === null) {
      if (type !== "IHDR" || length !== 13) return null;
      const width = u32be(b, offset + 8);
      const height = u32be(b, offset + 12);
      const depth = b[offset + 16]!;
      const colour = b[offset + 17]!;
      const depths: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
      if (width === 0 || height === 0 || !depths[colour]?.includes(depth)) return null;
      size = { width, height };
    } else if (type === "IDAT") idat = true;
    else if (type === "IEND") return idat && end === b.length ? { type: "image/png", ...size } : null;
    offset = end;
  }
  return null; // truncated: no IEND
}

const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** JPEG: segments walked to a SOFn frame (size), then to the scan, whose data must end in EOI. */
function sniffJpeg(b: Uint8Array): SniffedImage | null {
  let offset = 2;
  let size: { width: number; height: number } | null = null;
  while (offset + 4 <= b.length) {
    if (b[offset] !== 0xff) return null;
    const marker = b[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) return null; // not where a segment belongs
    const length = u16be(b, offset + 2);
    if (length < 2 || offset + 2 + length > b.length) return null;
    if (isSof(marker)) {
      if (length < 8) return null;
      const height = u16be(b, offset + 5);
      const width = u16be(b, offset + 7);
      if (width === 0 || height === 0) return null;
      size = { width, height };
    }
    if (marker === 0xda) {
      if (!size) return null;
      // Entropy-coded data (and any further scans) up to the end: the file must close with EOI.
      return b.length >= offset + 2 + length + 2 && b[b.length - 2] === 0xff && b[b.length - 1] === 0xd9 ? { type: "image/jpeg", ...size } : null;
    }
    offset += 2 + length;
  }
  return null;
}

/** WebP: a whole RIFF; VP8 (key frame, start code), VP8L (signature) or VP8X (canvas, with an image chunk). */
function sniffWebp(b: Uint8Array): SniffedImage | null {
  if (b.length < 20 || ascii(b, 8, 4) !== "WEBP") return null;
  const riffEnd = 8 + u32le(b, 4);
  if (riffEnd > b.length || riffEnd < 20) return null;
  let offset = 12;
  let size: { width: number; height: number } | null = null;
  let canvas: { width: number; height: number } | null = null;
  let image = false;
  while (offset + 8 <= riffEnd) {
    const type = ascii(b, offset, 4);
    const length = u32le(b, offset + 4);
    const data = offset + 8;
    if (data + length > riffEnd) return null;
    if (type === "VP8 ") {
      if (length < 10 || (b[data]! & 1) !== 0 || b[data + 3] !== 0x9d || b[data + 4] !== 0x01 || b[data + 5] !== 0x2a) return null;
      size = { width: u16le(b, data + 6) & 0x3fff, height: u16le(b, data + 8) & 0x3fff };
      image = true;
    } else if (type === "VP8L") {
      if (length < 5 || b[data] !== 0x2f) return null;
      const bits = u32le(b, data + 1);
      if (bits >>> 29 !== 0) return null; // version must be 0
      size = { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
      image = true;
    } else if (type === "VP8X") {
      if (offset !== 12 || length < 10) return null;
      canvas = { width: u24le(b, data + 4) + 1, height: u24le(b, data + 7) + 1 };
    }
    offset = data + length + (length & 1);
  }
  if (offset !== riffEnd && offset !== riffEnd + 1) return null;
  const found = canvas ?? size;
  if (!image || !found || found.width === 0 || found.height === 0) return null;
  return { type: "image/webp", ...found };
}
type Box = { type: string; start: number; end: number; body: number };

/** ISO BMFF boxes between start and end; null when one does not fit (a truncated file). */
function boxes(b: Uint8Array, start: number, end: number): Box[] | null {
  const out: Box[] = [];
  let offset = start;
  while (offset < end) {
    if (offset + 8 > end) return null;
    let size = u32be(b, offset);
    const type = ascii(b, offset + 4, 4);
    let body = offset + 8;
    if (size === 1) {
      if (offset + 16 > end || u32be(b, offset + 8) !== 0) return null;
      size = u32be(b, offset + 12);
      body = offset + 16;
    } else if (size === 0) size = end - offset;
    if (size < body - offset || offset + size > end) return null;
    out.push({ type, start: offset, end: offset + size, body });
    offset += size;
  }
  return out;
}

/** AVIF: ftyp naming avif, every top-level box whole, meta > iprp > ipco > ispe for the size, and mdat. */
function sniffAvif(b: Uint8Array): SniffedImage | null {
  const top = boxes(b, 0, b.length);
  if (!top || top[0]?.type !== "ftyp") return null;
  const ftyp = top[0];
  const brands: string[] = [];
  for (let o = ftyp.body; o + 4 <= ftyp.end; o += 4) if (o !== ftyp.body + 4) brands.push(ascii(b, o, 4));
  if (!brands.includes("avif")) return null;
  const meta = top.find((x) => x.type === "meta");
  if (!meta || !top.some((x) => x.type === "mdat")) return null;
  const inner = boxes(b, meta.body + 4, meta.end); // meta is a full box: version and flags first
  const iprp = inner?.find((x) => x.type === "iprp");
  const ipco = iprp ? boxes(b, iprp.body, iprp.end)?.find((x) => x.type === "ipco") : undefined;
  const ispe = ipco ? boxes(b, ipco.body, ipco.end)?.find((x) => x.type === "ispe") : undefined;
  if (!ispe || ispe.end - ispe.body < 12) return null;
  const width = u32be(b, ispe.body + 4);
  const height = u32be(b, ispe.body + 8);
  return width > 0 && height > 0 ? { type: "image/avif", width, height } : null;
}

/** The type the bytes say they are, by their magic alone (null: none of the four). */
export function magicType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, PNG_MAGIC)) return "image/png";
  if (startsWith(bytes, JPEG_MAGIC)) return "image/jpeg";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return "image/webp";
  if (ascii(bytes, 4, 4) === "ftyp") return "image/avif";
  return null;
}

/** Reads what an image is and its size from its bytes; null when it is not a whole PNG, JPEG, WebP or AVIF. */
export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  switch (magicType(bytes)) {
    case "image/png":
      return sniffPng(bytes);
    case "image/jpeg":
      return sniffJpeg(bytes);
    case "image/webp":
      return sniffWebp(bytes);
    case "image/avif":
      return sniffAvif(bytes);
    default:
      return null;
  }
}

export type ImageRefusal =
  | "BRAND_IMAGE_EMPTY"
  | "BRAND_IMAGE_TOO_BIG"
  | "BRAND_IMAGE_TYPE"
  | "BRAND_IMAGE_MISMATCH"
  | "BRAND_IMAGE_UNDECODABLE"
  | "BRAND_IMAGE_DIMENSIONS";

export type ImageCheck = { ok: true; image: SniffedImage; bytes: number } | { ok: false; code: ImageRefusal };

/** The declared type of an upload: the browser's Content-Type, else the file name's extension. */
export function declaredImageType(contentType: string, fileName: string): string {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type) return type === "image/jpg" ? "image/jpeg" : type;
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  const byExt: Record<string, string> = {
    png: "image/png",
    jpg: "image/jpeg",
    jpeg: "image/jpeg",
    webp: "image/webp",
    avif: "image/avif",
    svg: "image/svg+xml",
    gif: "image/gif",
  };
  return (ext && byExt[ext]) || "application/octet-stream";
}

/**
 * An upload for a slot: not empty, within the slot's bytes, of an accepted type (SVG never,
 * decision 018), its bytes of that very type and decodable, its size within the slot's pixels.
 */
export function checkImage(slot: AssetSlot, declaredType: string, bytes: Uint8Array): ImageCheck {
  const limit = SLOT_LIMITS[slot];
  if (bytes.length === 0) return { ok: false, code: "BRAND_IMAGE_EMPTY" };
  if (bytes.length > limit.maxBytes) return { ok: false, code: "BRAND_IMAGE_TOO_BIG" };
  if (!isImageType(declaredType)) return { ok: false, code: "BRAND_IMAGE_TYPE" };
  if (magicType(bytes) !== declaredType) return { ok: false, code: "BRAND_IMAGE_MISMATCH" };
  const image = sniffImage(bytes);
  if (!image) return { ok: false, code: "BRAND_IMAGE_UNDECODABLE" };
  const { width, height } = image;
  const fits =
    width >= limit.minWidth && height >= limit.minHeight && width <= limit.maxWidth && height <= limit.maxHeight && (!limit.square || width === height);
  if (!fits) return { ok: false, code: "BRAND_IMAGE_DIMENSIONS" };
  return { ok: true, image, bytes: bytes.length };
}

/** The content-hashed file name of an asset: `<slot>-<first 12 hex of its SHA-256>.<ext>`. */
export function assetName(slot: AssetSlot, sha256Hex: string, type: ImageType): string {
  return `${slot}-${sha256Hex.slice(0, 12)}.${IMAGE_EXTENSIONS[type]}`;
}

const ASSET_NAME = /^(logo|icon|hero|heroPhone|banner)-[0-9a-f]{12}\.(png|jpg|webp|avif)$/;

/** The type an asset name serves as, or null for a name that is not one of ours. */
export function assetNameType(name: string): ImageType | null {
  const match = ASSET_NAME.exec(name);
  if (!match) return null;
  return (Object.entries(IMAGE_EXTENSIONS).find(([, ext]) => ext === match[2])?.[0] as ImageType | undefined) ?? null;
}

/** The R2 key of an agency's asset: under that agency's prefix only. */
export const assetKey = (agencyId: string, name: string) => `agencies/${agencyId}/${name}`;

/** The same-origin URL pages use. */
export const assetUrl = (name: string) => `/brand/${name}`;
