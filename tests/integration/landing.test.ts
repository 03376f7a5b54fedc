import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { fetchApp, seedDemo } from "../setup/seed";
import { sandboxProvider } from "../setup/money";
import { addAgency } from "../setup/players";
import { findAgencyByHost } from "../../workers/services/agency";
import { FEATURED_GAMES, FEATURED_WAIT_MS, landingPage } from "../../workers/services/providers";
import { NEUTRAL_BRAND, type Brand } from "../../workers/core/brand";

beforeAll(seedDemo);

afterEach(async () => {
  await sandboxProvider("/sandbox/faults", { method: "DELETE" });
});

/** An agency of its own (its own lobby cache entries), with the given providers. */
async function freshAgency(id: string, providers?: string[]) {
  await addAgency(id, `${id}.localhost`);
  if (providers) await env.DB.prepare(`UPDATE agency_settings SET enabled_providers = ?1 WHERE agency_id = ?2`).bind(JSON.stringify(providers), id).run();
  return (await findAgencyByHost(env.DB, `${id}.localhost`))!;
}

function fault(body: Record<string, unknown>) {
  return sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify({ op: "games", ...body }) });
}

const promotion = (id: string, agencyId: string, status: "ACTIVE" | "INACTIVE", image: string | null, sort: number) =>
  env.DB.prepare(
    `INSERT INTO promotions (id, agency_id, status, title, description, image_url, bonus_kind, bonus_value, credit_threshold, turnover_multiple, providers, sort_order)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'FIXED', '10', '10', '1', '["askmebet"]', ?7)`,
  ).bind(
    id,
    agencyId,
    status,
    JSON.stringify({ lo: `ໂປຣ ${id}`, cn: `优惠 ${id}` }),
    JSON.stringify({ lo: `ລາຍລະອຽດ ${id}` }),
    image && JSON.stringify({ lo: image }),
    sort,
  );

describe("landing page service", () => {
  it("promotions: the agency's ACTIVE ones only, in the staff's order, with their banners, in the visitor's language", async () => {
    const agency = await freshAgency("land-promo", ["askmebet"]);
    await env.DB.batch([
      promotion("lp-b", "land-promo", "ACTIVE", "/promotions/daily-10.svg", 2),
      promotion("lp-a", "land-promo", "ACTIVE", null, 1),
      promotion("lp-off", "land-promo", "INACTIVE", "/promotions/welcome-100.svg", 0),
    ]);
    const page = await landingPage(env, agency, "cn");
    expect(page.promotions).toEqual([
      { id: "lp-a", title: "优惠 lp-a", description: "ລາຍລະອຽດ lp-a", imageUrl: null },
      { id: "lp-b", title: "优惠 lp-b", description: "ລາຍລະອຽດ lp-b", imageUrl: "/promotions/daily-10.svg" },
    ]);
    // the demo agency's catalogue (3 ACTIVE, 1 INACTIVE) is not this agency's, and the other way round
    const demo = await landingPage(env, (await findAgencyByHost(env.DB, "localhost"))!, "lo");
    expect(demo.promotions.map((p) => p.id)).toEqual(["welcome-100", "deposit-60k-bonus-50", "daily-10"]);
    expect(demo.promotions.every((p) => p.imageUrl?.startsWith("/promotions/"))).toBe(true);
  });

  it("categories: each opens the provider and tab that hold it, checked against the lists the providers answered", async () => {
    const all = await landingPage(env, await freshAgency("land-cat"), "lo");
    expect(all.categories.map((c) => `${c.category} ${c.provider} ${c.tab}`)).toEqual([
      "slot askmebet Slot",
      "sport betflix sport.txt",
      "casino gclub Casino",
      "fish askmebet Fishing",
      "card askmebet Card",
      "chicken alphabet Chicken",
    ]);
    // no sport book and no rooster among this agency's providers: those categories are not offered
    const some = await landingPage(env, await freshAgency("land-cat-some", ["gclub_live", "alphabet"]), "lo");
    expect(some.categories.map((c) => `${c.category} ${c.provider} ${c.tab}`)).toEqual([
      "casino gclub_live Live",
      "card alphabet Card",
      "chicken alphabet Chicken",
    ]);
    const amb = await landingPage(env, await freshAgency("land-cat-amb", ["askmebet"]), "lo");
    expect(amb.categories.map((c) => c.category)).toEqual(["slot", "fish", "card"]);
  });

  it("featured games: pictures from the providers' lists, taken in turn from each provider, at most 8", async () => {
    const agency = await freshAgency("land-feat");
    const page = await landingPage(env, agency, "lo");
    expect(page.featured).toHaveLength(FEATURED_GAMES);
    // the first round has one game of each enabled provider, in the agency's order
    expect(page.featured.slice(0, 5).map((g) => g.provider)).toEqual(["askmebet", "betflix", "gclub", "gclub_live", "alphabet"]);
    expect(page.featured[0]).toEqual({
      provider: "askmebet",
      code: "amb-lucky-reels",
      name: "Lucky Reels",
      tab: "Slot",
      img: "/sandbox/provider/img/amb-lucky-reels.webp",
    });
    expect(page.featured.every((g) => g.img.startsWith("/sandbox/provider/img/"))).toBe(true);
    // betflix's list is the lobby's default tab (pp.txt): its sport game is not featured
    expect(page.featured.map((g) => g.code)).not.toContain("bf-football-live");
  });

  it("featured games come from the cache: with every provider down the page still has them", async () => {
    const agency = await freshAgency("land-cache", ["askmebet", "gclub"]);
    const first = await landingPage(env, agency, "lo");
    expect(first.featured.length).toBeGreaterThan(0);
    await fault({ provider: "*", mode: "error-before" });
    const second = await landingPage(env, agency, "lo", { now: Date.now() + 24 * 3600_000 });
    expect(second.featured).toEqual(first.featured);
  });

  it("a provider that fails is left out; the others still show", async () => {
    const agency = await freshAgency("land-fail", ["askmebet", "gclub", "alphabet"]);
    await fault({ provider: "gclub", mode: "error-before" });
    const page = await landingPage(env, agency, "lo");
    const providers = new Set(page.featured.map((g) => g.provider));
    expect(providers).toEqual(new Set(["askmebet", "alphabet"]));
  });

  it("a slow provider is not waited for past the deadline, and is left out", async () => {
    const agency = await freshAgency("land-slow", ["askmebet", "betflix"]);
    await fault({ provider: "betflix", mode: "slow", delayMs: 4000 });
    const started = Date.now();
    const page = await landingPage(env, agency, "lo", { waitMs: 300 });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(page.featured.map((g) => g.provider)).not.toContain("betflix");
    expect(page.featured.some((g) => g.provider === "askmebet")).toBe(true);
    expect(FEATURED_WAIT_MS).toBeLessThanOrEqual(1000);
  });

  it("every provider down and nothing cached: no featured games, the page still answers", async () => {
    const agency = await freshAgency("land-down", ["askmebet", "betflix"]);
    await fault({ provider: "*", mode: "error-before" });
    const page = await landingPage(env, agency, "lo");
    expect(page.featured).toEqual([]);
    const res = await fetchApp("http://land-down.localhost/");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="hero"');
    expect(html).not.toContain('data-testid="featured-games"');
  });

  it("featured games and categories are the agency's own: another agency's providers and cache do not leak", async () => {
    const gclubOnly = await freshAgency("land-scope", ["gclub"]);
    await landingPage(env, await freshAgency("land-scope-other", ["askmebet"]), "lo");
    const page = await landingPage(env, gclubOnly, "lo");
    expect(new Set(page.featured.map((g) => g.provider))).toEqual(new Set(["gclub"]));
    expect(page.providers).toEqual(["gclub"]);
    const html = await (await fetchApp("http://land-scope.localhost/")).text();
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    expect(main).toContain("%2Fplayer%2Fgame%2Fgclub");
    expect(main).not.toContain("askmebet");
  });

  it("the hero takes the brand's title, subtitle and image; a neutral brand leaves the page's own text", async () => {
    const agency = await freshAgency("land-brand", ["askmebet"]);
    const brand: Brand = {
      ...NEUTRAL_BRAND,
      heroTitle: { lo: "ຍິນດີຕ້ອນຮັບສູ່ Red", cn: null, vn: "Chào Red" },
      heroSubtitle: { lo: "ຝາກໄວ", cn: "快速存款", vn: null },
      hero: { url: "/brand/hero-abc.webp", width: 1200, height: 600, type: "image/webp" },
    };
    const branded = await landingPage(env, { ...agency, brand }, "cn");
    expect(branded.hero).toEqual({ title: "ຍິນດີຕ້ອນຮັບສູ່ Red", subtitle: "快速存款", image: brand.hero, phoneImage: null });
    const odd = await landingPage(env, { ...agency, brand: { ...brand, hero: { ...brand.hero!, url: "https://elsewhere.example/h.webp" } } }, "vn");
    expect(odd.hero).toEqual({ title: "Chào Red", subtitle: "ຝາກໄວ", image: null, phoneImage: null });
    expect((await landingPage(env, agency, "lo")).hero).toEqual({ title: null, subtitle: null, image: null, phoneImage: null });
  });

  it("the phone hero (decision 038): offered to phones beside the hero; alone, it is the only picture", async () => {
    const agency = await freshAgency("land-phone", ["askmebet"]);
    const hero = { url: "/brand/hero-abc.webp", width: 1200, height: 400, type: "image/webp" };
    const heroPhone = { url: "/brand/heroPhone-def.webp", width: 720, height: 240, type: "image/webp" };
    const both = await landingPage(env, { ...agency, brand: { ...NEUTRAL_BRAND, hero, heroPhone } }, "lo");
    expect(both.hero).toMatchObject({ image: hero, phoneImage: heroPhone });
    const phoneOnly = await landingPage(env, { ...agency, brand: { ...NEUTRAL_BRAND, heroPhone } }, "lo");
    expect(phoneOnly.hero).toMatchObject({ image: heroPhone, phoneImage: null });
    const elsewhere = await landingPage(
      env,
      { ...agency, brand: { ...NEUTRAL_BRAND, hero, heroPhone: { ...heroPhone, url: "//elsewhere.example/p.webp" } } },
      "lo",
    );
    expect(elsewhere.hero).toMatchObject({ image: hero, phoneImage: null });
  });

  it("the accepted banks are the banks players may use, each with its mark in public/banks", async () => {
    const page = await landingPage(env, await freshAgency("land-banks", []), "lo");
    expect(page.banks).toEqual(["BCEL", "LDB", "APB", "JDB", "LVB", "IB", "STB", "ACLEDA", "BIC", "MJBL"]);
    expect(page.featured).toEqual([]);
  });
});

describe("the landing page as served (demo agency, neutral brand)", () => {
  let html = "";
  beforeAll(async () => {
    const res = await fetchApp("http://localhost/");
    expect(res.status).toBe(200);
    html = await res.text();
  });

  it("brand colours are CSS custom properties in the HTML, and theme-color is the primary", () => {
    expect(html).toMatch(
      /<style nonce="[^"]+" data-testid="brand-colors">:root\{--brand:#0b1f3a;--brand-text:#ffffff;--accent:#f5b301;--accent-text:#111827\}<\/style>/,
    );
    expect(html).toContain('<meta name="theme-color" content="#0b1f3a"/>');
    // after the app stylesheet (inlined on this page, decision 021), so the agency's colours
    // win over app.css's defaults
    const style = html.indexOf('data-testid="brand-colors"');
    // (its text is empty under vitest, which does not process CSS)
    const appCss = html.search(/<style nonce="[^"]+">/);
    // (the dev server's critical-CSS link aside, which production builds do not have)
    expect(html).not.toMatch(/<link(?![^>]*data-react-router-critical-css)[^>]*rel="stylesheet"/);
    expect(appCss).toBeGreaterThan(0);
    expect(style).toBeGreaterThan(appCss);
    expect(style).toBeLessThan(html.indexOf("</head>"));
  });

  it("title, link previews, icon and manifest", () => {
    expect(html).toContain("<title>Demo Agency</title>");
    expect(html).toContain('<meta property="og:title" content="Demo Agency"/>');
    expect(html).toContain('<meta property="og:description" content="ຝາກ-ຖອນໄວ ດ້ວຍ LAO QR, ເກມຄົບທຸກຄ່າຍ"/>');
    expect(html).toContain('<meta name="twitter:card" content="summary"/>');
    expect(html).not.toContain("og:image"); // the neutral brand has no image to preview
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>');
    expect(html).toContain('<link rel="manifest" href="/app.webmanifest"/>');
  });

  it("hero, promotions with banners, categories, featured games with pictures, banks", () => {
    expect(html).toContain('data-testid="hero"');
    expect(html).toContain('data-testid="hero-register"');
    for (const banner of ["welcome-100", "deposit-60k-bonus-50", "daily-10"]) expect(html).toContain(`src="/promotions/${banner}.webp"`);
    expect(html).toContain('href="/login?redirectTo=%2Fplayer%2Fpromotion%2Fwelcome-100"');
    expect(html).toContain('data-testid="categories"');
    expect(html.match(/class="featured-img"/g)).toHaveLength(FEATURED_GAMES);
    expect(html).toContain('src="/sandbox/provider/img/amb-lucky-reels.webp"');
    // banks are marks drawn in HTML, not SVG pictures (decision 037)
    for (const bank of ["BCEL", "LDB", "APB", "JDB", "LVB", "IB", "STB", "ACLEDA", "BIC", "MJBL"]) expect(html).toContain(`data-bank="${bank}"`);
    // no SVG picture but the default logo of an agency without its own (this test's neutral brand)
    expect((html.match(/<img [^>]*\.svg"/g) ?? []).filter((img) => !img.includes('src="/logo.svg"'))).toEqual([]);
  });

  it("every image has its size; all but the navbar logo load lazily", () => {
    const imgs = html.match(/<img [^>]*>/g) ?? [];
    expect(imgs.length).toBeGreaterThan(10);
    for (const img of imgs) {
      expect(img, img).toMatch(/ width="\d+"/);
      expect(img, img).toMatch(/ height="\d+"/);
    }
    const eager = imgs.filter((img) => !img.includes('loading="lazy"'));
    expect(eager).toEqual([expect.stringContaining('src="/logo.svg"')]);
  });

  it("a player's language: the page and its previews in Chinese", async () => {
    const cn = await (await fetchApp("http://localhost/", { headers: { Cookie: `lng=${encodeURIComponent(btoa('"cn"'))}` } })).text();
    expect(cn).toContain('<meta property="og:description" content="LAO QR 快速存取款，各大游戏平台一站畅玩"/>');
    expect(cn).toContain("优惠活动");
    expect(cn).toContain("精选游戏");
  });
});

describe("a branded agency's pages as served (brand rows as the owner's page stores them)", () => {
  let html = "";
  beforeAll(async () => {
    await addAgency("land-red", "red.localhost");
    const asset = (name: string, slot: string, type: string, width: number, height: number) =>
      env.DB.prepare(
        `INSERT INTO brand_assets (agency_id, name, slot, content_type, byte_size, width, height, sha256) VALUES ('land-red', ?1, ?2, ?3, 1000, ?4, ?5, 'x')`,
      ).bind(name, slot, type, width, height);
    await env.DB.batch([
      asset("logo-aaaaaaaaaaaa.png", "logo", "image/png", 240, 64),
      asset("icon-bbbbbbbbbbbb.png", "icon", "image/png", 192, 192),
      asset("hero-cccccccccccc.webp", "hero", "image/webp", 1200, 400),
      asset("heroPhone-dddddddddddd.webp", "heroPhone", "image/webp", 720, 300),
      env.DB.prepare(
        `INSERT INTO agency_brand (agency_id, site_name_lo, site_name_cn, hero_title_lo, hero_subtitle_lo, color_primary, color_primary_text, color_accent, color_accent_text, logo_name, icon_name, hero_name, hero_phone_name)
         VALUES ('land-red', 'ເຮືອນແດງ', '红屋', 'ຫົວຂໍ້ແດງ', 'ຄຳອະທິບາຍແດງ', '#7f1d1d', '#ffffff', '#fde047', '#111827', 'logo-aaaaaaaaaaaa.png', 'icon-bbbbbbbbbbbb.png', 'hero-cccccccccccc.webp', 'heroPhone-dddddddddddd.webp')`,
      ),
    ]);
    html = await (await fetchApp("http://red.localhost/")).text();
  });

  it("its colours, title, previews (absolute, on its own origin), icon and theme colour", () => {
    expect(html).toContain(">:root{--brand:#7f1d1d;--brand-text:#ffffff;--accent:#fde047;--accent-text:#111827}</style>");
    expect(html).toContain('<meta name="theme-color" content="#7f1d1d"/>');
    expect(html).toContain("<title>ເຮືອນແດງ</title>");
    expect(html).toContain('<meta property="og:title" content="ເຮືອນແດງ"/>');
    expect(html).toContain('<meta property="og:description" content="ຄຳອະທິບາຍແດງ"/>');
    expect(html).toContain('<meta property="og:image" content="http://red.localhost/brand/hero-cccccccccccc.webp"/>');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(html).toContain('<link rel="icon" href="/brand/icon-bbbbbbbbbbbb.png" type="image/png"/>');
  });

  it("the logo at the navbar's height with its aspect ratio, alt = the site name; the hero first in line", () => {
    expect(html).toContain('<img src="/brand/logo-aaaaaaaaaaaa.png" alt="ເຮືອນແດງ" width="150" height="40" class="logo"/>');
    expect(html).toContain("© 2026 ເຮືອນແດງ".replace("2026", String(new Date().getUTCFullYear())));
    // a phone takes the phone hero, with its own size (decision 038); the link preview stays the hero
    expect(html).toMatch(
      /<picture><source media="\(max-width: 576px\)" srcSet="\/brand\/heroPhone-dddddddddddd\.webp" type="image\/webp" width="720" height="300"\/><img class="hero-img" src="\/brand\/hero-cccccccccccc\.webp" alt="" width="1200" height="400" fetchPriority="high"/,
    );
    expect(html).toContain("<h1>ຫົວຂໍ້ແດງ</h1>");
    expect(html).not.toContain("Demo Agency");
  });

  it("another agency keeps its own (neutral) brand", async () => {
    const demo = await (await fetchApp("http://localhost/")).text();
    expect(demo).toContain(">:root{--brand:#0b1f3a;");
    expect(demo).not.toContain("ເຮືອນແດງ");
    expect(demo).not.toContain("/brand/");
  });

  it("in Chinese the site name is the brand's Chinese one; the hero title falls back to Lao", async () => {
    const cn = await (await fetchApp("http://red.localhost/", { headers: { Cookie: `lng=${encodeURIComponent(btoa('"cn"'))}` } })).text();
    expect(cn).toContain("<title>红屋</title>");
    expect(cn).toContain("<h1>ຫົວຂໍ້ແດງ</h1>");
  });
});
