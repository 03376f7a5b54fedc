import { describe, expect, it } from "vitest";
import {
  assetName,
  assetNameType,
  checkBrandColors,
  checkImage,
  contrastRatio,
  declaredImageType,
  NEUTRAL_BRAND,
  parseHexColor,
  relativeLuminance,
  sniffImage,
  SLOT_LIMITS,
} from "../../workers/core/brand";
import { GIF, IMAGES, SVG } from "../fixtures/brand/images";

describe("colours", () => {
  it("parses #rgb and #rrggbb in any case, and nothing else", () => {
    expect(parseHexColor("#ABC")).toBe("#aabbcc");
    expect(parseHexColor(" #0B1F3A ")).toBe("#0b1f3a");
    for (const bad of ["red", "#12345", "#ggg000", "0b1f3a", "#0b1f3a00", "", "rgb(0,0,0)"]) expect(parseHexColor(bad)).toBeNull();
  });

  it("computes WCAG 2 relative luminance and contrast", () => {
    expect(relativeLuminance("#ffffff")).toBeCloseTo(1, 6);
    expect(relativeLuminance("#000000")).toBe(0);
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 6);
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 6);
    expect(contrastRatio("#123456", "#123456")).toBe(1);
    // The classic threshold pair: #767676 passes AA on white, #777777 does not.
    expect(contrastRatio("#767676", "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio("#777777", "#ffffff")).toBeLessThan(4.5);
  });

  it("accepts the neutral brand and names the first failing pair otherwise", () => {
    expect(checkBrandColors(NEUTRAL_BRAND.colors)).toEqual({ ok: true, colors: NEUTRAL_BRAND.colors });
    const ok = { primary: "#0F4C81", primaryText: "#fff", accent: "#ffb000", accentText: "#111827" };
    expect(checkBrandColors(ok)).toEqual({ ok: true, colors: { primary: "#0f4c81", primaryText: "#ffffff", accent: "#ffb000", accentText: "#111827" } });
    const refused = (colors: Partial<typeof ok>) => checkBrandColors({ ...ok, ...colors });
    expect(refused({ primaryText: "#3a6b94" })).toMatchObject({ ok: false, code: "BRAND_CONTRAST", pair: "primaryText-on-primary" });
    expect(refused({ accentText: "#ffffff" })).toMatchObject({ ok: false, code: "BRAND_CONTRAST", pair: "accentText-on-accent" });
    // A light primary: white text on it fails first; with black text, it fails on the white surface.
    expect(refused({ primary: "#8ab4f8" })).toMatchObject({ pair: "primaryText-on-primary" });
    expect(refused({ primary: "#8ab4f8", primaryText: "#000000" })).toMatchObject({ pair: "primary-on-surface" });
    // #767676 is AA on white (4.54) but not on the page background #f4f6fa.
    const page = refused({ primary: "#767676", primaryText: "#000000" });
    expect(page).toMatchObject({ ok: false, code: "BRAND_CONTRAST", pair: "primary-on-page" });
    expect(page.ok === false && page.code === "BRAND_CONTRAST" && page.ratio).toBeLessThan(4.5);
    expect(refused({ accent: "orange" })).toEqual({ ok: false, code: "BRAND_COLOR_INVALID", field: "accent" });
  });
});

describe("image bytes", () => {
  it("reads type and size of PNG (IHDR), JPEG (SOF), WebP (VP8, VP8L, VP8X) and AVIF (ispe)", () => {
    expect(sniffImage(IMAGES.demoLogo)).toEqual({ type: "image/png", width: 240, height: 64 });
    expect(sniffImage(IMAGES.demoIcon)).toEqual({ type: "image/png", width: 192, height: 192 });
    expect(sniffImage(IMAGES.demoHero)).toEqual({ type: "image/jpeg", width: 1200, height: 400 });
    expect(sniffImage(IMAGES.lossy)).toEqual({ type: "image/webp", width: 300, height: 100 });
    expect(sniffImage(IMAGES.lossless)).toEqual({ type: "image/webp", width: 300, height: 100 });
    expect(sniffImage(IMAGES.alpha)).toEqual({ type: "image/webp", width: 300, height: 100 });
    expect(sniffImage(IMAGES.avifLogo)).toEqual({ type: "image/avif", width: 300, height: 100 });
    expect(sniffImage(IMAGES.avifIcon)).toEqual({ type: "image/avif", width: 256, height: 256 });
  });

  it("refuses truncated and corrupted files of every type as undecodable", () => {
    const cut = (b: Uint8Array, keep: number) => b.slice(0, keep);
    for (const [bytes, type] of [
      [IMAGES.demoLogo, "image/png"],
      [IMAGES.demoHero, "image/jpeg"],
      [IMAGES.lossy, "image/webp"],
      [IMAGES.alpha, "image/webp"],
      [IMAGES.avifLogo, "image/avif"],
    ] as const) {
      expect(sniffImage(bytes)).not.toBeNull();
      for (const keep of [bytes.length - 1, Math.floor(bytes.length / 2), 30, 12]) {
        expect(sniffImage(cut(bytes, keep)), `${type} cut to ${keep}`).toBeNull();
        expect(checkImage("hero", type, cut(bytes, keep))).toEqual({ ok: false, code: "BRAND_IMAGE_UNDECODABLE" });
      }
    }
    // One flipped byte inside a PNG chunk breaks its CRC.
    const flipped = IMAGES.demoLogo.slice();
    flipped[40] = flipped[40]! ^ 0xff;
    expect(sniffImage(flipped)).toBeNull();
    // The right magic followed by garbage.
    const junk = new Uint8Array(200).fill(7);
    junk.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(checkImage("logo", "image/png", junk)).toEqual({ ok: false, code: "BRAND_IMAGE_UNDECODABLE" });
    const jpegJunk = new Uint8Array(200).fill(0);
    jpegJunk.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]);
    expect(checkImage("logo", "image/jpeg", jpegJunk)).toEqual({ ok: false, code: "BRAND_IMAGE_UNDECODABLE" });
  });

  it("refuses bytes that are not what their declared type says", () => {
    expect(checkImage("logo", "image/jpeg", IMAGES.demoLogo)).toEqual({ ok: false, code: "BRAND_IMAGE_MISMATCH" });
    expect(checkImage("logo", "image/avif", IMAGES.lossy)).toEqual({ ok: false, code: "BRAND_IMAGE_MISMATCH" });
    expect(checkImage("logo", "image/webp", IMAGES.avifLogo)).toEqual({ ok: false, code: "BRAND_IMAGE_MISMATCH" });
    expect(checkImage("logo", "image/png", SVG)).toEqual({ ok: false, code: "BRAND_IMAGE_MISMATCH" });
    expect(checkImage("logo", "image/png", GIF)).toEqual({ ok: false, code: "BRAND_IMAGE_MISMATCH" });
  });

  it("refuses SVG, GIF and anything else by type, and an empty file", () => {
    expect(checkImage("logo", "image/svg+xml", SVG)).toEqual({ ok: false, code: "BRAND_IMAGE_TYPE" });
    expect(checkImage("logo", "image/gif", GIF)).toEqual({ ok: false, code: "BRAND_IMAGE_TYPE" });
    expect(checkImage("logo", "application/octet-stream", IMAGES.demoLogo)).toEqual({ ok: false, code: "BRAND_IMAGE_TYPE" });
    expect(checkImage("logo", "image/png", new Uint8Array())).toEqual({ ok: false, code: "BRAND_IMAGE_EMPTY" });
  });

  it("holds each slot to its bytes and pixels", () => {
    expect(SLOT_LIMITS.logo).toMatchObject({ maxBytes: 8192, maxWidth: 480, maxHeight: 160 });
    expect(SLOT_LIMITS.icon).toMatchObject({ maxBytes: 16384, minWidth: 192, maxWidth: 512, square: true });
    expect(SLOT_LIMITS.hero).toMatchObject({ maxBytes: 30720, maxWidth: 1200 });
    expect(SLOT_LIMITS.banner).toMatchObject({ maxBytes: 20480, maxWidth: 960 });
    expect(SLOT_LIMITS.heroPhone).toMatchObject({ maxBytes: 12288, maxWidth: 800 });

    expect(checkImage("logo", "image/png", IMAGES.demoLogo)).toEqual({
      ok: true,
      image: { type: "image/png", width: 240, height: 64 },
      bytes: IMAGES.demoLogo.length,
    });
    expect(checkImage("logo", "image/avif", IMAGES.avifLogo)).toMatchObject({ ok: true });
    expect(checkImage("hero", "image/jpeg", IMAGES.demoHero)).toMatchObject({ ok: true });
    // 20 KB: too big for a logo (8 KB), an icon (16 KB) and a banner (20 KB is 20480; the hero is a bit more)
    expect(IMAGES.demoHero.length).toBeGreaterThan(16 * 1024);
    expect(checkImage("logo", "image/jpeg", IMAGES.demoHero)).toEqual({ ok: false, code: "BRAND_IMAGE_TOO_BIG" });
    expect(checkImage("icon", "image/jpeg", IMAGES.demoHero)).toEqual({ ok: false, code: "BRAND_IMAGE_TOO_BIG" });
    // 1200 px wide: a banner may be 960 at most
    expect(checkImage("banner", "image/jpeg", IMAGES.demoHero)).toEqual({
      ok: false,
      code: IMAGES.demoHero.length > 20480 ? "BRAND_IMAGE_TOO_BIG" : "BRAND_IMAGE_DIMENSIONS",
    });
    // Pixels: 600 px is too wide for a logo; a non-square or small icon is refused; a square one of 192..512 is fine.
    expect(checkImage("logo", "image/webp", IMAGES.wideWebp)).toEqual({ ok: false, code: "BRAND_IMAGE_DIMENSIONS" });
    expect(checkImage("banner", "image/webp", IMAGES.wideWebp)).toMatchObject({ ok: true });
    expect(checkImage("icon", "image/webp", IMAGES.lossy)).toEqual({ ok: false, code: "BRAND_IMAGE_DIMENSIONS" });
    expect(checkImage("icon", "image/png", IMAGES.demoIcon)).toMatchObject({ ok: true, image: { width: 192, height: 192 } });
    expect(checkImage("icon", "image/avif", IMAGES.avifIcon)).toMatchObject({ ok: true });
    expect(checkImage("logo", "image/png", IMAGES.demoIcon)).toEqual({ ok: false, code: "BRAND_IMAGE_DIMENSIONS" });
  });

  it("the phone hero (decision 038): a phone-sized picture is taken; the 20 KB, 1200-px hero is not", () => {
    expect(checkImage("heroPhone", "image/webp", IMAGES.demoHeroPhone)).toEqual({
      ok: true,
      image: { type: "image/webp", width: 720, height: 240 },
      bytes: IMAGES.demoHeroPhone.length,
    });
    expect(checkImage("heroPhone", "image/jpeg", IMAGES.demoHero)).toEqual({ ok: false, code: "BRAND_IMAGE_TOO_BIG" });
    // a few hundred bytes but 1000 px wide: refused for its pixels
    expect(IMAGES.widePng.length).toBeLessThan(12 * 1024);
    expect(checkImage("heroPhone", "image/png", IMAGES.widePng)).toEqual({ ok: false, code: "BRAND_IMAGE_DIMENSIONS" });
    expect(checkImage("hero", "image/png", IMAGES.widePng)).toMatchObject({ ok: true });
    expect(checkImage("heroPhone", "image/webp", IMAGES.wideWebp)).toMatchObject({ ok: true });
    expect(assetNameType("heroPhone-0123456789ab.webp")).toBe("image/webp");
  });

  it("takes the declared type from the browser, else from the file name", () => {
    expect(declaredImageType("image/png", "x.jpg")).toBe("image/png");
    expect(declaredImageType("image/jpg", "x")).toBe("image/jpeg");
    expect(declaredImageType("", "LOGO.PNG")).toBe("image/png");
    expect(declaredImageType("", "a.svg")).toBe("image/svg+xml");
    expect(declaredImageType("", "noext")).toBe("application/octet-stream");
  });

  it("names assets by slot and content hash, and knows only its own names", () => {
    const hash = "0123456789abcdef".repeat(4);
    expect(assetName("logo", hash, "image/webp")).toBe("logo-0123456789ab.webp");
    expect(assetName("hero", hash, "image/jpeg")).toBe("hero-0123456789ab.jpg");
    expect(assetNameType("icon-0123456789ab.avif")).toBe("image/avif");
    expect(assetNameType("banner-0123456789ab.png")).toBe("image/png");
    for (const bad of [
      "logo-0123456789ab.svg",
      "logo-0123456789AB.png",
      "../logo-0123456789ab.png",
      "logo-0123456789a.png",
      "other-0123456789ab.png",
      "logo-0123456789ab.png.html",
    ]) {
      expect(assetNameType(bad)).toBeNull();
    }
  });
});
