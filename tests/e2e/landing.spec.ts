import type { Page } from "@playwright/test";
import { accountTest, expect, hasJs, isPhone, PAGE_READY, test, seriousAxeViolations } from "./fixtures";
import { loggedInPlayerByApi } from "./player";

/**
 * The landing page of the demo agency (decision 020): hero with its call to action,
 * active promotions with their banners, categories leading to lobbies, featured games with
 * pictures from the sandbox provider's lists, the accepted banks; the brand's colours in the
 * HTML; every image sized (nothing shifts) and only the first screen's loaded eagerly.
 */

/** Brings every image of the page into view once (lazy ones start loading), then waits until all have arrived. */
async function loadAllImages(page: Page) {
  const imgs = page.locator("main img");
  const count = await imgs.count();
  for (let i = 0; i < count; i++) await imgs.nth(i).scrollIntoViewIfNeeded();
  await expect
    .poll(() => imgs.evaluateAll((list) => (list as HTMLImageElement[]).filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.src)))
    .toEqual([]);
}

test.describe("landing page", () => {
  test("the demo agency's landing page sells: hero, promotions with banners, categories, featured games with pictures, banks", async ({ page }, info) => {
    await page.goto("/");
    const hero = page.getByTestId("hero");
    await expect(hero.getByRole("heading", { level: 1 })).not.toBeEmpty();
    await expect(page.getByTestId("hero-register")).toHaveAttribute("href", "/register");
    // the seeded brand's hero picture: first in line, never lazy, really there
    const heroImage = page.getByTestId("hero-image");
    await expect(heroImage).toHaveAttribute("fetchpriority", "high");
    await expect(heroImage).not.toHaveAttribute("loading", /./);
    await expect(heroImage).toHaveAttribute("src", /^\/brand\/hero-[0-9a-f]+\.(jpg|png|webp|avif)$/);
    await expect.poll(() => heroImage.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    // a phone downloads the brand's phone hero (a sixth of the bytes, decision 038), a desktop the hero
    const shown = await heroImage.evaluate((img) => new URL((img as HTMLImageElement).currentSrc).pathname);
    expect(shown).toMatch(isPhone(info) ? /^\/brand\/heroPhone-[0-9a-f]+\.webp$/ : /^\/brand\/hero-[0-9a-f]+\.jpg$/);

    const promotions = page.getByTestId("landing-promotions");
    await expect(promotions.getByRole("heading", { level: 2 })).toHaveText("ໂປຣໂມຊັນ");
    const cards = promotions.locator(".promo-card");
    await expect(cards).toHaveCount(3); // the demo's ACTIVE promotions; "songkran" is INACTIVE
    await expect(promotions).not.toContainText("ໂປຣປີໃໝ່ລາວ");
    await expect(cards.first().locator("img")).toHaveAttribute("src", "/promotions/welcome-100.webp");
    await expect(cards.first().getByRole("link")).toHaveAttribute("href", "/login?redirectTo=%2Fplayer%2Fpromotion%2Fwelcome-100");
    await expect(cards.first()).toContainText("ໂບນັດຕ້ອນຮັບ 100%");

    await expect(page.getByTestId("categories").getByRole("listitem")).toHaveCount(6);
    await expect(page.getByTestId("categories").getByRole("link", { name: "ສະລັອດ" })).toHaveAttribute(
      "href",
      "/login?redirectTo=%2Fplayer%2Fgame%2Faskmebet%3Ftab%3DSlot",
    );
    // a mark per provider, each a link to its lobby, named by the provider
    const marks = page.getByTestId("provider-marks").getByRole("link");
    await expect(marks).toHaveText(["AskMeBet", "Betflix", "GClub", "GClub Live", "Alphabet"].map((name) => new RegExp(name, "i")));
    await expect(marks.first()).toHaveAttribute("href", "/login?redirectTo=%2Fplayer%2Fgame%2Faskmebet%3Ftab%3DSlot");

    const featured = page.getByTestId("featured-games");
    await expect(featured.getByRole("heading", { level: 2 })).toHaveText("ເກມແນະນຳ");
    await expect(featured.locator(".featured-game")).toHaveCount(8);
    // one of each provider first, in the agency's order
    expect(await featured.locator(".featured-game").evaluateAll((links) => links.slice(0, 5).map((a) => a.getAttribute("data-provider")))).toEqual([
      "askmebet",
      "betflix",
      "gclub",
      "gclub_live",
      "alphabet",
    ]);
    await expect(featured.locator(".featured-game").first()).toContainText("Lucky Reels");
    await expect(featured.locator("img").first()).toHaveAttribute("src", "/sandbox/provider/img/amb-lucky-reels.webp");

    const banks = page.getByTestId("landing-banks");
    await expect(banks.locator(".bank-mark")).toHaveCount(10);
    await expect(banks.getByRole("img", { name: "ທະນາຄານການຄ້າຕ່າງປະເທດລາວ (BCEL)" })).toBeVisible();

    // the banner carousel: the hero, then each active promotion's banner, lazily; dots are links to the slides
    const carousel = page.getByTestId("carousel");
    await expect(carousel.locator(".carousel-slide")).toHaveCount(4);
    await expect(carousel.locator(".carousel-slide").first().getByTestId("hero")).toHaveCount(1);
    const banners = carousel.getByTestId("carousel-banner");
    for (const img of await banners.locator("img").all()) await expect(img).toHaveAttribute("loading", "lazy");
    await expect(banners.first()).toHaveAttribute("href", "/login?redirectTo=%2Fplayer%2Fpromotion%2Fwelcome-100");
    await expect(banners.first()).toContainText("ໂບນັດຕ້ອນຮັບ 100%");
    const dots = carousel.locator(".carousel-dot");
    await expect(dots).toHaveCount(4);
    await expect(dots.nth(1)).toHaveAttribute("href", "#slide-2");
    // a dot scrolls the row to its slide (a plain link: no JavaScript needed), the page stays where it was
    await dots.nth(2).click();
    const slides = carousel.locator(".carousel-slides");
    await expect.poll(() => slides.evaluate((row) => Math.round(row.scrollLeft / row.clientWidth))).toBe(2);
    await expect(banners.nth(1)).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // with JavaScript the dot of the slide in view says so
    if (hasJs(info)) await expect(dots.nth(2)).toHaveAttribute("aria-current", "true");

    // every picture of the page really arrives (banners, games, banks)
    await loadAllImages(page);
    await expect(page.getByTestId("landing-language").locator("summary")).toBeVisible();
  });

  test("a featured game leads through login to its lobby, searched for it", { tag: "@pair-a" }, async ({ page }) => {
    await page.goto("/");
    const game = page.getByTestId("featured-games").locator(".featured-game").first();
    await game.click();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fplayer%2Fgame%2Faskmebet%3Ftab%3DSlot%26q%3DLucky%2BReels$/);
  });

  test("the brand's colours are CSS custom properties in the server-rendered HTML", async ({ page, request }) => {
    const html = await (await request.get("/")).text();
    expect(html).toMatch(
      /<style nonce="[^"]+" data-testid="brand-colors">:root\{--brand:#[0-9a-f]{6};--brand-text:#[0-9a-f]{6};--accent:#[0-9a-f]{6};--accent-text:#[0-9a-f]{6}\}<\/style>/,
    );
    const brand = /data-testid="brand-colors">:root\{--brand:(#[0-9a-f]{6})/.exec(html)![1];
    expect(html).toContain(`<meta name="theme-color" content="${brand}"/>`);
    expect(html).toContain('<link rel="manifest" href="/app.webmanifest"/>');
    expect(html).toMatch(/<meta property="og:title" content="[^"]+"\/>/);
    expect(html).toMatch(/<meta name="twitter:card" content="summary(_large_image)?"\/>/);
    // ... and the page uses them: the navbar is the brand colour, the call to action the accent
    await page.goto("/");
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;
    await expect(page.locator("header.navbar")).toHaveCSS("background-color", rgb(brand));
    const accent = /--accent:(#[0-9a-f]{6})/.exec(html)![1];
    await expect(page.getByTestId("hero-register")).toHaveCSS("background-color", rgb(accent));
  });

  test("each agency its own brand: title, colours, logo and hero differ between two agencies; both axe clean", async ({ page, baseURL }, info) => {
    test.setTimeout(90_000);
    const other = `http://${info.project.name}.e2e.localhost:${new URL(baseURL!).port}/`;
    const look = async (url: string) => {
      await page.goto(url);
      return {
        title: await page.title(),
        brand: await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--brand").trim()),
        logo: await page.locator("header.navbar .navbar-logo img.logo").getAttribute("src"),
        hero: await page.getByTestId("hero-image").getAttribute("src"),
        ogImage: await page.locator('meta[property="og:image"]').getAttribute("content"),
      };
    };
    const demo = await look("/");
    const mine = await look(other);
    for (const [key, value] of Object.entries(demo)) expect(mine[key as keyof typeof mine], key).not.toBe(value);
    expect(mine.logo).toMatch(/^\/brand\/logo-/);
    expect(mine.ogImage).toBe(new URL(mine.hero!, other).href); // absolute, on the agency's own origin
    if (!hasJs(info)) return; // axe runs as a script in the page
    for (const url of ["/", other]) {
      await page.goto(url);
      await page.locator(PAGE_READY).waitFor({ state: "attached" });
      expect(await seriousAxeViolations(page, url)).toEqual([]);
    }
  });

  test("nothing shifts: every image has its size; only the first screen loads eagerly", async ({ page }) => {
    await page.goto("/");
    const imgs = await page.locator("img").evaluateAll((list) =>
      (list as HTMLImageElement[]).map((img) => ({
        src: img.getAttribute("src"),
        width: img.getAttribute("width"),
        height: img.getAttribute("height"),
        loading: img.getAttribute("loading"),
        fetchpriority: img.getAttribute("fetchpriority"),
        inMain: Boolean(img.closest("main")),
        hero: Boolean(img.closest('[data-testid="hero"]')),
      })),
    );
    expect(imgs.length).toBeGreaterThan(12); // logos, hero, 3 banners, 8 games (bank marks are HTML, decision 037)
    for (const img of imgs) {
      expect(img.width, `${img.src} width`).toMatch(/^\d+$/);
      expect(img.height, `${img.src} height`).toMatch(/^\d+$/);
      // the hero picture (when the brand has one) is fetched first; everything else in the page waits for the scroll
      if (img.hero) expect(img).toMatchObject({ loading: null, fetchpriority: "high" });
      else if (img.inMain) expect(img.loading, `${img.src} loading`).toBe("lazy");
    }
  });

  test("a phone fetches the phone hero only; a wider screen the wide one (decision 038)", async ({ page }, info) => {
    const heroes: string[] = [];
    page.on("request", (request) => {
      if (/\/brand\/hero(Phone)?-/.test(request.url())) heroes.push(new URL(request.url()).pathname.replace(/-[0-9a-f]{12}\./, "."));
    });
    await page.goto("/");
    const hero = page.getByTestId("hero-image");
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const shown = await hero.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname.replace(/-[0-9a-f]{12}\./, "."));
    const expected = isPhone(info) ? "/brand/heroPhone.webp" : "/brand/hero.jpg";
    expect(shown).toBe(expected);
    expect(heroes).toEqual([expected]);
  });

  test("a phone's first layout is its first screen: the sections below are drawn as they come near (decision 041)", async ({ page }, info) => {
    test.skip(!isPhone(info), "a desktop's first screen reaches further down; the phone is the case");
    await page.goto("/");
    // a section's content is "skipped" (not laid out, not painted) while it is far from the
    // viewport (the last one: the browser draws ahead of the viewport by some margin)
    const drawn = (testId: string) => page.locator(`[data-testid="${testId}"] h2`).evaluate((h2) => h2.checkVisibility({ contentVisibilityAuto: true }));
    expect(await drawn("landing-banks")).toBe(false);
    await page.getByTestId("landing-banks").scrollIntoViewIfNeeded();
    await expect.poll(() => drawn("landing-banks")).toBe(true);
    // the text was there all along for assistive technology and find-in-page
    await expect(page.getByTestId("landing-banks").getByRole("heading", { level: 2 })).toBeVisible();
  });

  test("no layout shift while the page loads and scrolls", async ({ page }, info) => {
    test.skip(!hasJs(info), "measured by a script in the page");
    // The web font included: `font-display: optional` never swaps it in late (decision 021).
    await page.goto("/");
    await loadAllImages(page);
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
              if (!entry.hadRecentInput) total += entry.value;
          }).observe({ type: "layout-shift", buffered: true });
          setTimeout(() => resolve(total), 200);
        }),
    );
    expect(shift).toBe(0);
  });

  test("landing page has no serious or critical axe violations (images loaded)", async ({ page }, info) => {
    test.skip(!hasJs(info), "axe runs as a script in the page; the markup is the same with JavaScript off");
    test.setTimeout(90_000); // axe over a long page on a shared 2-core machine
    await page.goto("/");
    await page.locator(PAGE_READY).waitFor({ state: "attached" });
    await loadAllImages(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

test.describe("what the public pages ship (decision 021)", () => {
  test("the landing page, login and registration ship no module script, no modulepreload and no stylesheet request", async ({ request }) => {
    for (const path of ["/", "/login", "/register"]) {
      const html = await (await request.get(path)).text();
      expect(html, path).toContain('data-scripts="lite"');
      expect(html, path).not.toMatch(/<script[^>]+type="module"/);
      expect(html, path).not.toContain('rel="modulepreload"');
      expect(html, path).not.toContain("__reactRouterContext");
      expect(html, path).not.toMatch(/<link[^>]+rel="stylesheet"/);
      // two inline scripts, with the CSP nonce: the head's html.js marker (decision 045) and the lite script;
      // registration also carries its checks' messages as data (JSON, never run: decision 083)
      expect(
        [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]),
        path,
      ).toEqual([
        expect.stringMatching(/^<script nonce="[^"]+">$/),
        ...(path === "/register" ? ['<script type="application/json" id="i18n-resources">'] : []),
        expect.stringMatching(/^<script nonce="[^"]+">$/),
      ]);
    }
    // the fingerprint collector only where it is used: registration (and a logged-in player's pages);
    // found by what it asks the browser for, as the Worker is minified (function names change)
    const collector = "WEBGL_debug_renderer_info";
    expect(await (await request.get("/register")).text()).toContain(collector);
    expect(await (await request.get("/login")).text()).not.toContain(collector);
    expect(await (await request.get("/")).text()).not.toContain(collector);
  });

  test("a page that hydrates still ships the app", async ({ request }) => {
    const html = await (await request.get("/nowhere")).text();
    expect(html).toContain('data-scripts="app"');
    expect(html).toMatch(/<script[^>]+type="module"/);
    expect(html).toContain('rel="modulepreload"');
  });

  test("with JavaScript the landing page is enhanced without React", async ({ page }, info) => {
    test.skip(!hasJs(info), "the JavaScript case");
    const requests: string[] = [];
    page.on("request", (req) => requests.push(new URL(req.url()).pathname));
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("data-enhanced", "true");
    await expect(page.locator("html")).toHaveClass(/\bjs\b/);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    expect(requests.filter((path) => path.endsWith(".js") || path.endsWith(".css"))).toEqual([]);
  });

  test("one Lao weight on the landing page: its bold is drawn from the regular file; the next page preloads both", async ({ page, request }, info) => {
    const fonts = (html: string) => [...html.matchAll(/<link[^>]+rel="preload"[^>]+href="(\/fonts\/[^"]+)"/g)].map((m) => m[1]);
    expect(fonts(await (await request.get("/")).text())).toEqual(["/fonts/noto-sans-lao-400.woff2"]);
    expect(fonts(await (await request.get("/login")).text())).toEqual(["/fonts/noto-sans-lao-400.woff2", "/fonts/noto-sans-lao-700.woff2"]);

    const requested: string[] = [];
    page.on("request", (req) => requested.push(new URL(req.url()).pathname));
    await page.goto("/");
    await loadAllImages(page);
    // bold Lao on the first screen (the title, the call to action) in the regular-only family
    await expect(page.getByTestId("hero").locator("h1")).toHaveCSS("font-family", /^"Noto Sans Lao Regular"/);
    await expect(page.getByTestId("hero").locator("h1")).toHaveCSS("font-weight", "700");
    if (hasJs(info)) await page.locator(PAGE_READY).waitFor({ state: "attached" });
    expect(requested.filter((path) => path.startsWith("/fonts/"))).toEqual(["/fonts/noto-sans-lao-400.woff2"]);
  });
});

accountTest.describe("landing page for a logged-in player", () => {
  accountTest("the call to action is the deposit; promotions and games link straight to the player pages", async ({ page, baseURL }) => {
    await loggedInPlayerByApi(page, baseURL!);
    await page.goto("/");
    await expect(page.getByTestId("hero-deposit")).toHaveAttribute("href", "/player/deposit");
    await expect(page.getByTestId("hero-register")).toHaveCount(0);
    await expect(page.getByTestId("landing-promotions").getByRole("link").first()).toHaveAttribute("href", "/player/promotion/welcome-100");
    // each category opens the lobby whose current tab holds it (decision 082)
    const held: Record<string, { tab: string; game: string }> = {
      slot: { tab: "ສະລັອດ", game: "Lucky Reels" },
      sport: { tab: "ກິລາ", game: "Football Live" },
      casino: { tab: "ຄາສິໂນ", game: "Baccarat" },
      fish: { tab: "ຍິງປາ", game: "Fish Hunter" },
      card: { tab: "ເກມໄພ່", game: "Pok Deng" },
      chicken: { tab: "ຕີໄກ່", game: "Chicken Fight" },
    };
    const links = await page
      .getByTestId("categories")
      .locator("a.category")
      .evaluateAll((list) => list.map((a) => ({ key: /category-(\w+)/.exec(a.className)![1]!, href: a.getAttribute("href")! })));
    expect(links.map((l) => l.key)).toEqual(Object.keys(held));
    for (const { key, href } of links) {
      await page.goto(href);
      await expect(page.locator('.tabs [aria-current="page"]'), key).toHaveText(held[key]!.tab);
      await expect(page.getByTestId("games"), key).toContainText(held[key]!.game);
    }
    await page.goto("/");
    const game = page.getByTestId("featured-games").locator(".featured-game").first();
    await expect(game).toHaveAttribute("href", "/player/game/askmebet?tab=Slot&q=Lucky+Reels");
    await game.click();
    await expect(page).toHaveURL(/\/player\/game\/askmebet\?tab=Slot&q=Lucky\+Reels$/);
    await expect(page.getByTestId("games").locator(".game")).toHaveCount(1);
    await expect(page.getByTestId("games")).toContainText("Lucky Reels");
  });
});
