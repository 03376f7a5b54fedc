import { describe, expect, it } from "vitest";
import { NEUTRAL_BRAND, type Brand } from "../../workers/core/brand";
import { absoluteImageUrl, brandCss, fitImage, isHexColour, isSameOriginPath, pageBrand, safeBrandColors } from "../../workers/core/brand-style";

const RED: Brand = {
  siteName: { lo: "ເຮືອນແດງ", cn: "红屋", vn: null },
  heroTitle: { lo: "ຫົວຂໍ້", cn: null, vn: null },
  heroSubtitle: { lo: "ຄຳອະທິບາຍ", cn: "说明", vn: null },
  colors: { primary: "#7F1D1D", primaryText: "#ffffff", accent: "#fde047", accentText: "#111827" },
  logo: { url: "/brand/logo-abc123.webp", width: 240, height: 80, type: "image/webp" },
  icon: { url: "/brand/icon-def456.png", width: 192, height: 192, type: "image/png" },
  hero: { url: "/brand/hero-0a1b2c.avif", width: 1200, height: 600, type: "image/avif" },
  heroPhone: null,
};

describe("brand colours as CSS custom properties", () => {
  it("writes the four properties app.css reads, lower-cased", () => {
    expect(brandCss(RED.colors)).toBe(":root{--brand:#7f1d1d;--brand-text:#ffffff;--accent:#fde047;--accent-text:#111827}");
  });

  it("the neutral brand gives app.css's own colours", () => {
    expect(brandCss(NEUTRAL_BRAND.colors)).toBe(":root{--brand:#0b1f3a;--brand-text:#ffffff;--accent:#f5b301;--accent-text:#111827}");
  });

  it.each([
    ["a style-breaking value", "#000;}</style><script>alert(1)</script>"],
    ["a CSS expression", "red;background:url(//evil.example/x)"],
    ["short hex", "#fff"],
    ["8-digit hex", "#ffffff80"],
    ["a colour name", "red"],
    ["no hash", "7f1d1d"],
    ["trailing newline", "#7f1d1d\n"],
    ["empty", ""],
  ])("never writes %s: the slot falls back to the neutral colour", (_label, value) => {
    expect(brandCss({ ...RED.colors, primary: value })).toBe(":root{--brand:#0b1f3a;--brand-text:#ffffff;--accent:#fde047;--accent-text:#111827}");
  });

  it("a missing colours object or slot is neutral, not another value", () => {
    expect(safeBrandColors(null)).toEqual(NEUTRAL_BRAND.colors);
    expect(safeBrandColors({ primary: "#123456" })).toEqual({ ...NEUTRAL_BRAND.colors, primary: "#123456" });
    expect(isHexColour(42)).toBe(false);
  });
});

describe("brand image URLs", () => {
  it("only same-origin paths count", () => {
    expect(isSameOriginPath("/brand/logo-abc.webp")).toBe(true);
    for (const url of [
      "//evil.example/x.png",
      "/\\evil.example",
      "https://evil.example/x.png",
      "javascript:alert(1)",
      "brand/x.png",
      "/a b.png",
      '/x".png',
      null,
    ]) {
      expect(isSameOriginPath(url), String(url)).toBe(false);
    }
  });

  it("link previews get an absolute URL on the request's origin", () => {
    expect(absoluteImageUrl("https://red.example", RED.hero)).toBe("https://red.example/brand/hero-0a1b2c.avif");
    expect(absoluteImageUrl("https://red.example", { url: "//evil.example/x.png" })).toBeNull();
    expect(absoluteImageUrl("https://red.example", null)).toBeNull();
  });

  it("a logo fits the navbar box with its aspect ratio, never upscaled", () => {
    expect(fitImage(480, 160, 160, 40)).toEqual({ width: 120, height: 40 });
    expect(fitImage(800, 100, 160, 40)).toEqual({ width: 160, height: 20 });
    expect(fitImage(60, 30, 160, 40)).toEqual({ width: 60, height: 30 });
    expect(fitImage(0, 0, 160, 40)).toEqual({ width: 160, height: 40 });
  });
});

describe("the brand a page shows (root layout)", () => {
  const input = { agencyName: "Red House Ltd", origin: "https://red.example", defaultDescription: "default subtitle" };

  it("site name in the page's language, else lo, else the agency's name", () => {
    expect(pageBrand(RED, { ...input, lang: "cn" }).siteName).toBe("红屋");
    expect(pageBrand(RED, { ...input, lang: "vn" }).siteName).toBe("ເຮືອນແດງ");
    expect(pageBrand(NEUTRAL_BRAND, { ...input, lang: "vn" }).siteName).toBe("Red House Ltd");
  });

  it("preview: the hero as a large card, else the logo, else no image", () => {
    const red = pageBrand(RED, { ...input, lang: "cn" });
    expect(red.preview).toEqual({ title: "红屋", description: "说明", image: "https://red.example/brand/hero-0a1b2c.avif", card: "summary_large_image" });
    const logoOnly = pageBrand({ ...RED, hero: null }, { ...input, lang: "lo" });
    expect(logoOnly.preview.image).toBe("https://red.example/brand/logo-abc123.webp");
    expect(logoOnly.preview.card).toBe("summary");
    const neutral = pageBrand(NEUTRAL_BRAND, { ...input, lang: "lo" });
    expect(neutral.preview).toEqual({ title: "Red House Ltd", description: "default subtitle", image: null, card: "summary" });
    expect(neutral.logo).toBeNull();
    expect(neutral.colors).toEqual(NEUTRAL_BRAND.colors);
  });

  it("an image whose url is not a path on this origin is dropped", () => {
    const odd = pageBrand({ ...RED, logo: { ...RED.logo!, url: "https://tracker.example/l.png" }, hero: null }, { ...input, lang: "lo" });
    expect(odd.logo).toBeNull();
    expect(odd.preview.image).toBeNull();
  });
});
