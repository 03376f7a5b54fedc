import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { encode as encodePng } from "fast-png";
import { accountTest as test, expect, hasJs, isPhone, PAGE_READY, seriousAxeViolations } from "./fixtures";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * The owner's brand page (decision 018), phone and desktop, JavaScript on and off.
 * Each Playwright project works on its own agency (`<project>.e2e.localhost`, seeded with
 * its own brand by scripts/seed-e2e.mjs): the owner uploads a logo made for this project
 * (its own bytes, so its own content-hashed name) and picks a primary colour; the player
 * side of THAT agency shows both at once, the demo agency (localhost) shows neither and
 * answers 404 for the logo's URL. An oversized and a mislabelled upload, and a colour pair
 * below 4.5:1, are refused with their messages and change nothing.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
test.describe.configure({ timeout: 150_000 });

const PRIMARY: Record<string, string> = { "phone-js": "#1e3a8a", "phone-nojs": "#065f46", "desktop-js": "#7c2d12", "desktop-nojs": "#581c87" };

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

/** A 300x80 PNG logo whose pixels depend on the project and the run: bytes (and name) of its own. */
function projectLogo(project: string): Buffer {
  const seed = [...`${project}-${Date.now()}`].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  const width = 300;
  const height = 80;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const band = Math.floor(x / 20) % 2 === 0;
      data.set(band ? [255, 255, 255, 255] : [(seed >> 16) & 0xff, (seed >> 8) & 0xff, seed & 0xff, 255], i);
    }
  return Buffer.from(encodePng({ width, height, data, channels: 4, depth: 8 }));
}

test("the owner uploads a logo and a phone hero and picks a colour; this agency's players see them at once, another agency does not", async ({
  page,
  browser,
  expectHttpError,
}) => {
  const project = test.info().project.name;
  const js = hasJs(test.info());
  expectHttpError(422, /\/admin\/settings\/brand/);
  expectHttpError(409, /\/admin\/settings\/brand/);
  await staffLogin(page, DEMO_STAFF.boss, "/admin/settings/brand");
  await expect(page).toHaveURL(/\/admin\/settings\/brand/);
  if (js) await page.locator(PAGE_READY).waitFor();

  // No serious or critical axe violations on the page (labels on every input, contrast);
  // axe runs as a script in the page, so with JavaScript on (the same markup either way).
  const serious = () => seriousAxeViolations(page);
  if (js) expect(await serious()).toEqual([]);

  // The limits are stated next to each input.
  await expect(page.getByTestId("brand-limit-logo")).toContainText("8 KB");
  await expect(page.getByTestId("brand-limit-logo")).toContainText("480 × 160");
  await expect(page.getByTestId("brand-limit-icon")).toContainText("192");
  await expect(page.getByTestId("brand-limit-hero")).toContainText("30 KB");
  await expect(page.getByTestId("brand-limit-heroPhone")).toContainText("12 KB");

  // Upload the logo.
  // Its content-hashed name is known in advance: logo-<first 12 hex of its SHA-256>.png.
  const bytes = projectLogo(project);
  const logoUrl = `/brand/logo-${createHash("sha256").update(bytes).digest("hex").slice(0, 12)}.png`;
  const logo = page.getByTestId("brand-slot-logo");
  await logo.getByLabel("ໄຟລ໌ໂລໂກ້ໃໝ່").setInputFiles({ name: `${project}.png`, mimeType: "image/png", buffer: bytes });
  await logo.getByRole("button", { name: "ອັບໂຫຼດ" }).click();
  await expect(page.getByTestId("brand-current-logo").locator("img")).toHaveAttribute("src", logoUrl, { timeout: 15_000 });
  await expect(page.getByTestId("brand-current-logo")).toContainText("300 × 80 px");

  // Refused: too big (a 20 KB hero as a logo), and a file whose bytes are not its type.
  await page.getByTestId("brand-slot-logo").getByLabel("ໄຟລ໌ໂລໂກ້ໃໝ່").setInputFiles("scripts/brand/demo-hero.jpg");
  await page.getByTestId("brand-slot-logo").getByRole("button", { name: "ອັບໂຫຼດ" }).click();
  await expect(page.getByTestId("brand-error-logo")).toContainText("ໄຟລ໌ໃຫຍ່ເກີນຂີດຈຳກັດຂອງຊ່ອງນີ້", { timeout: 15_000 });
  await page
    .getByTestId("brand-slot-logo")
    .getByLabel("ໄຟລ໌ໂລໂກ້ໃໝ່")
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: readFileSync("scripts/brand/demo-hero.jpg").subarray(0, 4000) });
  await page.getByTestId("brand-slot-logo").getByRole("button", { name: "ອັບໂຫຼດ" }).click();
  await expect(page.getByTestId("brand-error-logo")).toContainText("ເນື້ອໃນຂອງໄຟລ໌ບໍ່ກົງກັບປະເພດຂອງມັນ", { timeout: 15_000 });
  if (js) expect(await serious()).toEqual([]);
  await expect(page.getByTestId("brand-current-logo").locator("img")).toHaveAttribute("src", logoUrl);

  // The phone hero (decision 038): held to its own limit (the 20 KB hero is refused), then replaced.
  const phoneHero = page.getByTestId("brand-slot-heroPhone");
  const phoneFile = phoneHero.getByLabel("ໄຟລ໌ຮູບໜ້າຫຼັກສຳລັບໂທລະສັບໃໝ່");
  await phoneFile.setInputFiles("scripts/brand/demo-hero.jpg");
  await phoneHero.getByRole("button", { name: "ອັບໂຫຼດ" }).click();
  await expect(page.getByTestId("brand-error-heroPhone")).toContainText("ໄຟລ໌ໃຫຍ່ເກີນຂີດຈຳກັດຂອງຊ່ອງນີ້", { timeout: 15_000 });
  const phoneBytes = readFileSync("scripts/brand/demo-hero-phone.webp");
  const phoneUrl = `/brand/heroPhone-${createHash("sha256").update(phoneBytes).digest("hex").slice(0, 12)}.webp`;
  await phoneFile.setInputFiles("scripts/brand/demo-hero-phone.webp");
  await phoneHero.getByRole("button", { name: "ອັບໂຫຼດ" }).click();
  await expect(page.getByTestId("brand-current-heroPhone").locator("img")).toHaveAttribute("src", phoneUrl, { timeout: 15_000 });
  await expect(page.getByTestId("brand-current-heroPhone")).toContainText("720 × 240 px");

  // A colour pair below 4.5:1 is refused, naming the pair; then a good colour is saved.
  const form = page.getByTestId("brand-settings-form");
  await form.getByLabel("ສີຫຼັກ (ລະຫັດ hex)", { exact: true }).fill("#ffff00");
  await form.getByRole("button", { name: "ບັນທຶກ" }).click();
  await expect(page.getByTestId("brand-settings-error")).toContainText("ຕົວໜັງສືເທິງສີຫຼັກ", { timeout: 15_000 });
  await expect(page.getByTestId("brand-settings-error")).toContainText("4.5:1");
  await form.getByLabel("ສີຫຼັກ (ລະຫັດ hex)", { exact: true }).fill(PRIMARY[project]!);
  if (js) await expect(form.getByLabel("ສີຫຼັກ (ເລືອກສີ)", { exact: true })).toHaveValue(PRIMARY[project]!);
  await form.getByRole("button", { name: "ບັນທຶກ" }).click();
  await expect(page.getByTestId("brand-settings-error")).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByTestId("brand-settings-form").getByLabel("ສີຫຼັກ (ລະຫັດ hex)", { exact: true })).toHaveValue(PRIMARY[project]!);

  // The player side of this agency, in a fresh context (no staff session): the logo and the colour at once.
  const { viewport, isMobile, hasTouch, deviceScaleFactor, javaScriptEnabled, userAgent } = test.info().project.use;
  const player = await browser.newContext({
    viewport,
    isMobile,
    hasTouch,
    deviceScaleFactor,
    javaScriptEnabled,
    userAgent,
    baseURL: `http://${project}.e2e.localhost:${port}`,
  });
  const home = await player.newPage();
  const answer = await home.goto("/");
  // The colour is in the server-rendered HTML (no flash, no JavaScript needed) and paints the navbar.
  expect(await answer!.text()).toContain(`--brand:${PRIMARY[project]}`);
  await expect(home.locator(".navbar-logo img")).toHaveAttribute("src", logoUrl);
  await expect(home.locator(".navbar")).toHaveCSS("background-color", rgb(PRIMARY[project]!));
  // A phone is shown the new phone hero, a desktop the hero.
  await expect(home.getByTestId("hero").locator("source")).toHaveAttribute("srcset", phoneUrl);
  const heroSrc = await home.getByTestId("hero-image").getAttribute("src");
  await expect
    .poll(() => home.getByTestId("hero-image").evaluate((img) => new URL((img as HTMLImageElement).currentSrc).pathname))
    .toBe(isPhone(test.info()) ? phoneUrl : heroSrc);
  // (*.e2e.localhost resolves in Chromium only: Node's requests name the agency by Host header.)
  const asThisAgency = { headers: { Host: `${project}.e2e.localhost:${port}` } };
  const served = await home.request.get(`http://127.0.0.1:${port}${logoUrl}`, asThisAgency);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/png");
  expect(served.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(Buffer.compare(await served.body(), bytes)).toBe(0);
  const manifest = await (await home.request.get(`http://127.0.0.1:${port}/app.webmanifest`, asThisAgency)).json();
  expect(manifest.theme_color).toBe(PRIMARY[project]);

  // Another agency (the demo agency on localhost): neither the logo nor the colour, and the URL is 404 there.
  const other = await player.newPage();
  const otherAnswer = await other.goto(`http://localhost:${port}/`);
  expect(await otherAnswer!.text()).not.toContain(`--brand:${PRIMARY[project]}`);
  await expect(other.locator(".navbar-logo img")).not.toHaveAttribute("src", logoUrl);
  await expect(other.locator(".navbar")).not.toHaveCSS("background-color", rgb(PRIMARY[project]!));
  expect((await other.request.get(`http://localhost:${port}${logoUrl}`)).status()).toBe(404);
  await player.close();
});
