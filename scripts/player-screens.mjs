// Screenshots of the player's screens at 360 x 740, the first screen as a phone shows it, so
// the next person sees what players see (docs/screens/README.md). Needs a running portal with
// the demo agency and player, e.g. `npm start` (port 5173):
//   node scripts/player-screens.mjs [base URL]
// Each screen is taken with JavaScript on; the deposit's QR step in lo, cn and vn. The other
// screens of docs/screens/README.md were taken by the e2e tests' own runs when they changed.
import { chromium } from "@playwright/test";
import { mkdirSync } from "node:fs";

const base = (process.argv[2] ?? "http://localhost:5173").replace(/\/$/, "");
const out = "docs/screens";
const DEMO = { username: "demo", password: "demo-pass-123" };

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
const page = await context.newPage();
mkdirSync(out, { recursive: true });

/** Every picture loaded (lazy ones too), then the first screen. */
async function shot(name) {
  await page.evaluate(() =>
    Promise.all(
      [...document.images].map((img) => {
        img.loading = "eager";
        return img.decode().catch(() => {});
      }),
    ),
  );
  await page.screenshot({ path: `${out}/${name}.png` });
  console.log(`wrote ${out}/${name}.png`);
}

async function language(lang) {
  await page.goto(`${base}/`);
  await page.evaluate(async (lang) => {
    const body = new URLSearchParams({ lng: lang, redirectTo: "/" });
    await fetch("/set-language", { method: "POST", body, redirect: "manual" });
  }, lang);
}

await page.goto(`${base}/`);
await shot("landing");

await page.goto(`${base}/login`);
await page.fill("input[name=username]", DEMO.username);
await page.fill("input[name=password]", DEMO.password);
await Promise.all([page.waitForURL((url) => url.pathname !== "/login"), page.locator("form button[type=submit]").last().click()]);
await page.goto(`${base}/`);
await shot("landing-player");
for (const provider of ["askmebet", "gclub"]) {
  await page.goto(`${base}/player/game/${provider}`);
  await shot(`lobby-${provider}`);
}

// the deposit form, then its QR step (an open order stays open: the same step in each language)
await page.goto(`${base}/player/deposit`);
const cancel = page.locator("button[name=intent][value=cancel-request]");
if (await cancel.count()) {
  await cancel.click();
  await page.locator("button[name=intent][value=cancel]").click();
  await page.goto(`${base}/player/deposit`);
}
await shot("deposit-form-quick-amounts-phone");
await page.selectOption("select[name=provider]", { index: 1 });
await page.fill("input[name=amount]", "100000");
await Promise.all([page.waitForSelector("[data-testid=qr-step]"), page.locator("[data-testid=deposit-form] button[type=submit]").click()]);
await shot("deposit-qr-step-lo-phone");
for (const lang of ["cn", "vn"]) {
  await language(lang);
  await page.goto(`${base}/player/deposit`);
  await shot(`deposit-qr-step-${lang}-phone`);
}
await language("lo");
await browser.close();
