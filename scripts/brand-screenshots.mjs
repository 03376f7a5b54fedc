// Screenshots of two agencies' landing pages side by side (re-run after a
// brand change). Needs a running portal with the seeded brands, e.g. the e2e server:
//   E2E_PORT=4173 node scripts/e2e-server.mjs &   then   node scripts/brand-screenshots.mjs [port]
// Writes docs/screenshots/brands-phone.png (demo agency | phone-js e2e agency, 360x740 each).
import { chromium } from "@playwright/test";
import { mkdirSync } from "node:fs";

const port = process.argv[2] ?? "4173";
const hosts = ["localhost", "phone-js.e2e.localhost"];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
const shots = [];
for (const host of hosts) {
  const page = await browser.newPage({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
  await page.goto(`http://${host}:${port}/`, { waitUntil: "load" });
  await page.evaluate(() =>
    Promise.all(
      [...document.images].map((img) => {
        img.loading = "eager";
        return img.decode().catch(() => {});
      }),
    ),
  );
  shots.push(await page.screenshot({ fullPage: false }));
  await page.close();
}
// Side by side: the two shots on one plain page, screenshotted once (no image library needed).
const board = await browser.newPage({ viewport: { width: 360 * 2 + 16, height: 740 }, deviceScaleFactor: 1 });
await board.setContent(
  `<body style="margin:0;background:#888;display:flex;gap:16px">${shots.map((s) => `<img src="data:image/png;base64,${s.toString("base64")}" width="360" height="740">`).join("")}</body>`,
);
mkdirSync("docs/screenshots", { recursive: true });
await board.screenshot({ path: "docs/screenshots/brands-phone.png" });
await browser.close();
console.log("wrote docs/screenshots/brands-phone.png");
