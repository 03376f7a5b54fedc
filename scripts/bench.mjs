// `npm run bench`: what a phone downloads for the landing page on first load.
// Starts the production build (like `npm start`) on its own port, fetches the landing page
// and every asset the page pulls in on first paint and after hydration, and prints bytes
// per kind, uncompressed and compressed (gzip and brotli, as a CDN would serve them).
// Then the first load of each public and player page in Chromium (as the byte budgets of
// tests/e2e/budgets.spec.ts count it), and the Worker's upload size and startup (decision 023).
import { execFileSync } from "node:child_process";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { chromium } from "playwright-core";
import { edgeSize } from "./edge-proxy.mjs";
import { startLocalPortal } from "./local-dirs.mjs";
import { WORKER_GZIP_BUDGET_KIB, workerSize, workerStartup } from "./worker-size.mjs";

const port = process.env.BENCH_PORT ?? "4180";
const base = `http://localhost:${port}`;

// its own build and state (.local/bench, decision 055): a running `npm start` is left alone
const server = await startLocalPortal({ name: "bench", port, stdio: "ignore", detached: true });

try {
  const rows = [];
  const html = await (await fetch(`${base}/`)).text();
  rows.push(measure("html", "/", Buffer.from(html)));

  const urls = new Map();
  for (const [, href] of html.matchAll(/<link[^>]+rel="stylesheet"[^>]*href="([^"]+)"/g)) urls.set(href, "css");
  for (const [, href] of html.matchAll(/<link[^>]+href="([^"]+)"[^>]*rel="stylesheet"/g)) urls.set(href, "css");
  for (const [, href] of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.set(href, "js");
  for (const [, href] of html.matchAll(/<link[^>]+href="([^"]+)"[^>]*rel="modulepreload"/g)) urls.set(href, "js");
  for (const [, src] of html.matchAll(/import\("([^"]+\.js)"\)|import "([^"]+\.js)"/g)) if (src) urls.set(src, "js");
  for (const [, href] of html.matchAll(/<link[^>]+rel="preload"[^>]*href="([^"]+\.woff2)"/g)) urls.set(href, "font");
  for (const [, src] of html.matchAll(/<img[^>]+src="([^"]+)"/g)) urls.set(src, "image");
  for (const [, href] of html.matchAll(/<link[^>]+rel="icon"[^>]*href="([^"]+)"/g)) urls.set(href, "image");

  for (const [url, kind] of [...urls]) {
    if (kind !== "css") continue;
    const css = await (await fetch(base + url)).text();
    // Only the Lao subset is fetched by a browser (unicode-range) and only for Lao text.
    for (const [, font] of css.matchAll(/url\(([^)]+\.woff2)\)/g)) if (font.includes("400")) urls.set(font, "font");
  }
  for (const [url, kind] of urls) {
    const body = Buffer.from(await (await fetch(base + url)).arrayBuffer());
    rows.push(measure(kind, url, body));
  }

  const sum = (kinds, key) => rows.filter((r) => kinds.includes(r.kind)).reduce((n, r) => n + r[key], 0);
  const kb = (n) => (n / 1024).toFixed(1).padStart(7) + " KB";
  console.log("Landing page, first load (gzip / brotli are what a phone downloads):\n");
  console.log("kind   file".padEnd(62) + "raw".padStart(10) + "gzip".padStart(11) + "brotli".padStart(11));
  for (const r of rows) console.log(`${r.kind.padEnd(6)} ${r.url.slice(0, 54).padEnd(55)}${kb(r.raw)}${kb(r.gzip)}${kb(r.brotli)}`);
  console.log("");
  for (const kind of ["html", "css", "js", "font", "image"]) {
    console.log(`${("total " + kind).padEnd(62)}${kb(sum([kind], "raw"))}${kb(sum([kind], "gzip"))}${kb(sum([kind], "brotli"))}`);
  }
  const all = ["html", "css", "js", "font", "image"];
  console.log(`${"TOTAL".padEnd(62)}${kb(sum(all, "raw"))}${kb(sum(all, "gzip"))}${kb(sum(all, "brotli"))}`);
  console.log(
    `${"first paint (HTML + CSS)".padEnd(62)}${kb(sum(["html", "css"], "raw"))}${kb(sum(["html", "css"], "gzip"))}${kb(sum(["html", "css"], "brotli"))}`,
  );
  console.log(`\nbudgets: total <= 150 KB compressed, first paint <= 14 KB compressed (gzip)`);
  const okTotal = sum(all, "gzip") <= 150 * 1024;
  const okPaint = sum(["html", "css"], "gzip") <= 14 * 1024;
  console.log(`total ${okTotal ? "within" : "OVER"} budget; first paint ${okPaint ? "within" : "OVER"} budget`);

  // Login round trip on the local server (demo player, JSON API, each from its own address
  // so throttling stays out of the way): scrypt verify + D1 + session write.
  const times = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    const res = await fetch(`${base}/api/v2/players/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base, "CF-Connecting-IP": `10.200.0.${i}` },
      body: JSON.stringify({ username: "demo", password: "demo-pass-123" }),
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`login failed: ${res.status}`);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = (times[9] + times[10]) / 2;
  console.log(
    `\nlogin round trip (POST /api/v2/players/login, 20 runs): median ${median.toFixed(0)} ms, min ${times[0].toFixed(0)} ms, max ${times[19].toFixed(0)} ms`,
  );

  await pageBytes();
} finally {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {}
}

// The Worker itself (the build above): upload size as wrangler counts it, and startup.
const size = workerSize();
console.log(
  `\nWorker upload (wrangler deploy --dry-run): ${size.uploadKiB} KiB, gzip ${size.gzipKiB} KiB (budget ${WORKER_GZIP_BUDGET_KIB} KiB gzip, checked by npm run test:production)`,
);
const startup = workerStartup();
console.log(`Worker startup (wrangler check startup, local workerd, CPU of the global scope): ${startup.activeMs ?? "?"} ms`);

// `npm run bench -- --pages-only` stops here (no workerd benchmarks).
if (!process.argv.includes("--pages-only")) {
  console.log("\nInside workerd (vitest bench, Cloudflare pool): password hashing, deposit settlement, withdrawals");
  execFileSync("npx", ["vitest", "bench", "--run"], { stdio: "inherit" });
  // Deposit settlement over HTTP through the real alarms, 1/50/200 players, with its floor
  // (scripts/bench-settlement.mjs, decision 024): its own preview on port 4314.
  console.log("\nSettlement over HTTP (scripts/bench-settlement.mjs)");
  execFileSync("node", ["scripts/bench-settlement.mjs"], { stdio: "inherit" });
}

/**
 * First load of each public and player page in Chromium (phone 360x740, JavaScript on, empty
 * cache, demo player logged in for /player): every response until the network is quiet,
 * compressed as the edge serves it. The budgets themselves are checked by budgets.spec.ts.
 */
async function pageBytes() {
  const PAGES = [
    "/",
    "/login",
    "/register",
    "/player/deposit",
    "/player/deposit/history",
    "/player/withdraw",
    "/player/withdraw/history",
    "/player/bank",
    "/player/promotion",
    "/player/promotion/history",
    "/player/promotion/deposit-60k-bonus-50",
    "/player/game/askmebet",
    "/player/password",
    "/player/sessions",
  ];
  const login = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, "CF-Connecting-IP": "10.201.0.1" },
    body: new URLSearchParams({ username: "demo", password: "demo-pass-123", redirectTo: "/player/deposit" }),
  });
  const session = login.headers.getSetCookie().find((c) => c.startsWith("session="));
  if (!session) throw new Error(`demo login failed: ${login.status}`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  console.log("\nFirst load per page (Chromium, phone 360x740, JavaScript on, brotli as the edge; budgets: / 50 KB, others 120 KB):\n");
  console.log("page".padEnd(42) + "requests".padStart(9) + "js".padStart(11) + "total".padStart(11));
  try {
    for (const path of PAGES) {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      if (path.startsWith("/player")) await context.addCookies([{ name: "session", value: session.split(";")[0].slice("session=".length), url: base }]);
      const sizes = [];
      let waiting = 0;
      let last = Date.now();
      context.on("request", () => {
        waiting += 1;
        last = Date.now();
      });
      context.on("requestfailed", () => {
        waiting -= 1;
        last = Date.now();
      });
      context.on("response", (response) => {
        waiting -= 1;
        last = Date.now();
        const kind = response.request().resourceType();
        const redirect = response.status() >= 300 && response.status() < 400;
        sizes.push(
          redirect
            ? Promise.resolve({ kind, bytes: 0 })
            : Promise.race([response.body(), new Promise((r) => setTimeout(() => r(null), 5000))]).then((body) => ({
                kind,
                bytes: body
                  ? edgeSize(body, response.headers()["content-type"], new URL(response.url()).pathname)
                  : Number(response.headers()["content-length"] ?? 0),
              })),
        );
      });
      const page = await context.newPage();
      await page.goto(base + path, { waitUntil: "load" });
      const deadline = Date.now() + 20_000;
      while ((waiting > 0 || Date.now() - last < 1000) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const all = await Promise.all(sizes);
      const total = all.reduce((n, x) => n + x.bytes, 0);
      const js = all.filter((x) => x.kind === "script").reduce((n, x) => n + x.bytes, 0);
      const landed = new URL(page.url()).pathname === path ? "" : `  (ended at ${new URL(page.url()).pathname})`;
      console.log(`${path.padEnd(42)}${String(all.length).padStart(9)}${kb(js)}${kb(total)}${landed}`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  function kb(n) {
    return ((n / 1024).toFixed(1) + " KB").padStart(11);
  }
}

function measure(kind, url, body) {
  return {
    kind,
    url,
    raw: body.length,
    gzip: gzipSync(body, { level: 9 }).length,
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}
