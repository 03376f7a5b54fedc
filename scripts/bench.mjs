// `npm run bench`: what a phone downloads for the landing page on first load.
// Starts the production build (like `npm start`) on its own port, fetches the landing page
// and every asset the page pulls in on first paint and after hydration, and prints bytes
// per kind, uncompressed and compressed (gzip and brotli, as a CDN would serve them).
import { execFileSync, spawn } from "node:child_process";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { ensureDevVars } from "./dev-vars.mjs";

const port = process.env.BENCH_PORT ?? "4180";
const base = `http://localhost:${port}`;

ensureDevVars();
execFileSync("node", ["scripts/seed.mjs"], { stdio: "ignore" });
execFileSync("npx", ["react-router", "build"], { stdio: "ignore" });
const server = spawn("npx", ["vite", "preview", "--port", port], {
  stdio: "ignore",
  detached: true,
  env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
});

try {
  await waitFor(`${base}/api/v2/agency/info`);
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
  console.log(`${"first paint (HTML + CSS)".padEnd(62)}${kb(sum(["html", "css"], "raw"))}${kb(sum(["html", "css"], "gzip"))}${kb(sum(["html", "css"], "brotli"))}`);
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
  console.log(`\nlogin round trip (POST /api/v2/players/login, 20 runs): median ${median.toFixed(0)} ms, min ${times[0].toFixed(0)} ms, max ${times[19].toFixed(0)} ms`);
} finally {
  try { process.kill(-server.pid, "SIGTERM"); } catch {}
}

// `npm run bench -- --pages-only` stops here (no workerd benchmarks).
if (!process.argv.includes("--pages-only")) {
  console.log("\nInside workerd (vitest bench, Cloudflare pool): password hashing, deposit settlement, withdrawals");
  execFileSync("npx", ["vitest", "bench", "--run"], { stdio: "inherit" });
  // Deposit settlement over HTTP through the real alarms, 1/50/200 players, with its floor
  // (scripts/bench-settlement.mjs, decision 024): its own preview on port 4314.
  console.log("\nSettlement over HTTP (scripts/bench-settlement.mjs)");
  execFileSync("node", ["scripts/bench-settlement.mjs"], { stdio: "inherit" });
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

async function waitFor(url) {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not answer at ${url}`);
}
