// `npm run lighthouse`: Lighthouse (mobile defaults, performance only) on the public and player
// pages, through a local proxy that compresses like the edge (scripts/edge-proxy.mjs), driving
// Debian's Chromium. Not part of CI: its scores move with the machine (decision 023).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import { startEdgeProxy } from "./edge-proxy.mjs";
import { startLocalPortal, waitForAnswer } from "./local-dirs.mjs";
import { CHROMIUM, fullBrowserLaunchOptions } from "./chromium.mjs";

const PAGES = ["/", "/login", "/register", "/player/deposit", "/player/withdraw", "/player/promotion", "/player/game/askmebet"];
/**
 * The floor: what this machine's Chromium gives a page with nothing on it, in the same run
 * (as the settlement bench states its floor; decision 040). Its TBT is the browser's own work
 * (committing the document, creating the page's JavaScript context, the first layout and
 * paint) at Lighthouse's 4x slowdown, plus whatever else the machine is doing meanwhile.
 */
const FLOOR = "(floor)";
const FLOOR_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
  "<title>Floor</title></head><body><h1>Floor</h1><p>A page with nothing on it.</p></body></html>";

const USAGE = `Usage: npm run lighthouse -- [options]

Builds and starts the portal with the demo agency (seed, react-router build, vite preview),
logs in the demo player (demo / demo-pass-123) for the /player pages (its session
cookie goes into Chromium's cookie jar), and runs Lighthouse
(mobile defaults: simulated 4x CPU slowdown, 150 ms RTT, 1.6 Mbps; performance category only)
N times per page through a local proxy that compresses like the edge (brotli, gzip fallback).
The runs go round by round (run 1 of every page, then run 2, ...), so a slow minute of the
machine lands on every page instead of on all runs of one. Each round also measures the
floor: a page with nothing on it, served by a small server of this script, so the figures can
be read against what this machine gives an empty page in the same run. Prints the median of each
figure per page.

Options:
  --base URL     measure a portal that is already running (e.g. http://localhost:4302);
                 nothing is built or started; its demo player must exist (npm run db:seed)
  --pages LIST   comma-separated paths (default: ${PAGES.join(",")})
  --runs N       runs per page (default 3)
  --port N       port of the preview this script starts (default 4181, or LIGHTHOUSE_PORT)
  --json FILE    also write every run's figures as JSON
  --trace DIR    also write every run's Chromium trace (open in DevTools' Performance panel)
  --lang LANG    measure the pages in lo (default: the agency's language), cn or vn
                 (the switcher's cookie goes into Chromium's jar)
  --against URL  a second portal already running (main's build, e.g. from a worktree of
                 main: npm start there); every page is measured on both in the same rounds,
                 one after the other, and the table gives both scores and the difference,
                 each read against the floor. A page more than 2 points below main's is named.
  --help         this text

Chromium: CHROMIUM_PATH or /usr/bin/chromium (Debian's chromium package; npm test installs it).
Run it alone on the machine (flock /tmp/bench.lock npm run lighthouse): the scores move with load.`;

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    pages: { type: "string" },
    runs: { type: "string", default: "3" },
    trace: { type: "string" },
    lang: { type: "string" },
    port: { type: "string", default: process.env.LIGHTHOUSE_PORT ?? "4181" },
    json: { type: "string" },
    against: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const pages = values.pages
  ? values.pages
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean)
  : PAGES;
/** What each round measures: the floor first, then the pages. */
const measured = [FLOOR, ...pages];
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, not ${values.runs}`);
if (values.lang && !["lo", "cn", "vn"].includes(values.lang)) throw new Error(`--lang must be lo, cn or vn, not ${values.lang}`);
const chromiumPath = CHROMIUM;

/** @type {import("node:child_process").ChildProcess | null} */
let server = null;
/** @type {import("node:child_process").ChildProcess | null} */
let chrome = null;
/** @type {Awaited<ReturnType<typeof startEdgeProxy>> | null} */
let proxy = null;
/** @type {Awaited<ReturnType<typeof startFloor>> | null} */
let floor = null;
/** @type {Awaited<ReturnType<typeof startEdgeProxy>> | null} */
let againstProxy = null;
const profile = mkdtempSync(join(tmpdir(), "lighthouse-chromium-"));

try {
  let target = values.base?.replace(/\/$/, "");
  if (!target) {
    target = `http://localhost:${values.port}`;
    console.error(`seeding, building and starting the portal at ${target} ...`);
    // its own build and state (.local/lighthouse, decision 055): a running `npm start` is left alone
    server = await startLocalPortal({ name: "lighthouse", port: values.port, stdio: "ignore", detached: true });
  }
  await waitForAnswer(`${target}/api/v2/agency/info`);
  proxy = await startEdgeProxy({ target });
  floor = await startFloor();
  const wantsLogin = pages.some((p) => p.startsWith("/player"));
  const against = values.against?.replace(/\/$/, "");
  if (against) {
    await waitForAnswer(`${against}/api/v2/agency/info`);
    againstProxy = await startEdgeProxy({ target: against });
  }
  /** Where each measured portal answers, and its demo player's session (cookies of localhost are shared by every port: the jar holds one portal's at a time). */
  const portals = [{ name: "this", url: proxy.url, cookie: wantsLogin ? await loginDemo(target) : null }];
  if (against && againstProxy) portals.push({ name: "main", url: againstProxy.url, cookie: wantsLogin ? await loginDemo(against) : null });
  const launched = await launchChromium(chromiumPath, profile);
  chrome = launched.process;
  if (values.trace) mkdirSync(values.trace, { recursive: true });
  // The session goes into Chromium's cookie jar, not Lighthouse's `extraHeaders`: once the page
  // sets its own cookie (the `js` marker) Chromium sends its jar's Cookie header instead of the
  // extra one, and the player's next request lands on /login. Lighthouse's storage reset
  // leaves cookies alone, so one login serves every run.
  // Public pages are measured logged out (a player is sent from /login to /): the jar holds
  // the session only while a /player page is measured.
  /** @type {string | null} */
  let inJar = null;
  /** @param {string} page @param {{ name: string, url: string, cookie: string | null }} portal */
  const fillJar = async (page, portal) => {
    const cookie = portal.cookie && page.startsWith("/player") ? portal.cookie : null;
    const key = `${portal.name}:${Boolean(cookie)}`;
    if (key === inJar) return;
    await browserCommand(launched.ws, "Storage.clearCookies", {});
    /** @type {string[]} */
    const jar = [];
    if (values.lang) jar.push(languageCookie(values.lang));
    if (cookie) jar.push(cookie);
    if (jar.length) await browserCommand(launched.ws, "Storage.setCookies", { cookies: jar.map((c) => jarCookie(c, portal.url)) });
    inJar = key;
  };

  /** What each round measures: the floor, then each page on this portal and (with --against) on main's, one after the other. */
  const runsOf = measured.flatMap((page) => (page === FLOOR ? [{ page, portal: null }] : portals.map((portal) => ({ page, portal }))));
  const keyOf = (page, portal) => (page === FLOOR || !portal || portal.name === "this" ? page : `${page} (main)`);
  /** @type {Record<string, Array<Record<string, number>>>} */
  const results = Object.fromEntries(runsOf.map(({ page, portal }) => [keyOf(page, portal), []]));
  let version = "";
  for (let i = 0; i < runs; i++) {
    for (const { page, portal } of runsOf) {
      const url = portal ? portal.url + page : `${floor.url}/`;
      if (portal) await fillJar(page, portal);
      const result = await lighthouse(url, {
        port: launched.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance"],
      });
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`Lighthouse returned nothing for ${page}`);
      if (lhr.runtimeError) throw new Error(`${page}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const landed = new URL(lhr.finalDisplayedUrl).pathname;
      if (landed !== new URL(url).pathname) throw new Error(`${page} ended at ${landed} (session cookie refused?)`);
      version = lhr.lighthouseVersion;
      if (values.trace) {
        const name = page === FLOOR ? "floor" : page.replaceAll("/", "_");
        writeFileSync(join(values.trace, `${name}-${i + 1}.trace.json`), JSON.stringify(result.artifacts.Trace));
      }
      const figures = figuresOf(lhr);
      results[keyOf(page, portal)].push(figures);
      console.error(`${keyOf(page, portal)} run ${i + 1}/${runs}: ${JSON.stringify(figures)}`);
    }
  }

  console.log(`\nLighthouse ${version} mobile defaults, performance only, median of ${runs} run(s), through the edge proxy (brotli)\n`);
  console.log("| page | performance | LCP | TBT | CLS | all bytes | JS bytes |");
  console.log("|---|---|---|---|---|---|---|");
  for (const page of Object.keys(results)) {
    const m = (key) => median(results[page].map((r) => r[key]));
    console.log(
      `| ${page} | ${Math.round(m("score"))} | ${(m("lcp") / 1000).toFixed(1)} s | ${Math.round(m("tbt"))} ms | ${m("cls").toFixed(3)} | ${kb(m("bytes"))} | ${kb(m("jsBytes"))} |`,
    );
  }
  console.log(`\n${FLOOR}: an empty page (${FLOOR_HTML.length} bytes, no CSS, no script, no image) measured in the same rounds;`);
  const speeds = Object.values(results)
    .flat()
    .map((r) => r.benchmarkIndex);
  console.log(
    `benchmarkIndex (what Lighthouse makes of this CPU) median ${Math.round(median(speeds))}, from ${Math.round(Math.min(...speeds))} to ${Math.round(Math.max(...speeds))}`,
  );
  if (againstProxy) {
    const score = (page) => median(results[page].map((r) => r.score));
    const floorScore = score(FLOOR);
    console.log(`\n| page | this build | main | difference | this below the floor (${Math.round(floorScore)}) | main below the floor |`);
    console.log("|---|---|---|---|---|---|");
    const below = [];
    for (const page of pages) {
      const mine = score(page);
      const main = score(`${page} (main)`);
      if (mine < main - 2) below.push(`${page}: ${mine} against main's ${main}`);
      console.log(`| ${page} | ${mine} | ${main} | ${mine - main > 0 ? "+" : ""}${mine - main} | ${floorScore - mine} | ${floorScore - main} |`);
    }
    console.log(below.length ? `\nmore than 2 points below main's: ${below.join("; ")}` : "\nno page more than 2 points below main's");
  }
  if (values.json) {
    writeFileSync(values.json, JSON.stringify(results, null, 2));
  }
} finally {
  if (chrome?.pid && chrome.exitCode === null) {
    // Chromium's helper processes still write into the profile for a moment after the main
    // one dies: wait for its exit before removing the profile
    const exited = new Promise((resolve) => chrome.once("exit", resolve));
    try {
      chrome.kill("SIGKILL");
    } catch {}
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  }
  await proxy?.close();
  await againstProxy?.close();
  await floor?.close();
  if (server?.pid)
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {}
  // a leftover temporary profile is not worth failing a finished run for
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  } catch (error) {
    console.warn(`left ${profile}: ${error.message}`);
  }
}

/** Serves FLOOR_HTML on a free port. */
async function startFloor() {
  const server = createServer((req, res) => {
    res.writeHead(req.url === "/" ? 200 : 404, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(req.url === "/" ? FLOOR_HTML : "");
  });
  await new Promise((resolve) => server.listen(0, () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://localhost:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

/** @param {any} lhr */
function figuresOf(lhr) {
  const audits = lhr.audits;
  /** @type {Array<{ resourceType?: string, transferSize?: number }>} */
  const requests = audits["network-requests"]?.details?.items ?? [];
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcp: audits["largest-contentful-paint"].numericValue,
    tbt: audits["total-blocking-time"].numericValue,
    cls: audits["cumulative-layout-shift"].numericValue,
    bytes: audits["total-byte-weight"].numericValue,
    jsBytes: requests.filter((r) => r.resourceType === "Script").reduce((n, r) => n + (r.transferSize ?? 0), 0),
    // what the host's CPU is worth to Lighthouse (docs/throttling.md: it expects >= 1000 for its 4x)
    benchmarkIndex: lhr.environment?.benchmarkIndex,
    /** main-thread time by kind (ms, as observed before the 4x slowdown is applied) */
    mainThread: Object.fromEntries((audits["mainthread-work-breakdown"]?.details?.items ?? []).map((i) => [i.group, Math.round(i.duration)])),
    longTasks: (audits["long-tasks"]?.details?.items ?? []).map((t) => `${Math.round(t.startTime)}+${Math.round(t.duration)} ${String(t.url).slice(0, 60)}`),
  };
}

/** The session cookie of the demo player (form login, like a browser with JavaScript off). */
async function loginDemo(target) {
  const res = await fetch(`${target}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: target },
    body: new URLSearchParams({ username: "demo", password: "demo-pass-123", redirectTo: "/player/deposit" }),
  });
  const session = res.headers.getSetCookie().find((c) => /^(__Host-)?session=/.test(c));
  if (res.status !== 302 || !session) throw new Error(`demo login failed (${res.status}): is the demo player seeded?`);
  // Only the session: the toast (flash) cookie would show "logged in" on every measured page.
  return session.split(";")[0];
}

/** The language switcher's cookie (workers/core/languages.ts LANGUAGE_COOKIE; React Router's cookie encoding: base64 of JSON). */
function languageCookie(lang) {
  return `lng=${Buffer.from(JSON.stringify(lang)).toString("base64")}`;
}

/** A cookie (name=value) for Chromium's jar (Storage.setCookies). */
function jarCookie(cookie, url) {
  const [name, ...rest] = cookie.split("=");
  return { name, value: rest.join("="), url, path: "/", httpOnly: true, sameSite: "Lax" };
}

/** One DevTools command on the browser target (Node's WebSocket; no puppeteer needed here). */
async function browserCommand(wsUrl, method, params) {
  const socket = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error(`cannot reach Chromium at ${wsUrl}`));
  });
  const answer = new Promise((resolve, reject) => {
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data));
      if (message.id !== 1) return;
      if (message.error) reject(new Error(`${method}: ${message.error.message}`));
      else resolve(undefined);
    };
  });
  socket.send(JSON.stringify({ id: 1, method, params }));
  await answer;
  socket.close();
}

/**
 * Starts Chromium with a DevTools port for Lighthouse (which connects to it through
 * puppeteer-core): the full browser, with the tests' flags (scripts/chromium.mjs).
 */
function launchChromium(path, userDataDir) {
  const child = spawn(
    path,
    [...fullBrowserLaunchOptions.args, "--no-default-browser-check", "--remote-debugging-port=0", `--user-data-dir=${userDataDir}`, "about:blank"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`Chromium did not open a DevTools port:\n${seen}`)), 30_000);
    child.on("error", (error) => reject(new Error(`cannot start ${path}: ${error.message} (see scripts/ensure-chromium.mjs)`)));
    child.stderr?.on("data", (chunk) => {
      seen += chunk;
      const match = /DevTools listening on (ws:\/\/[^:]+:(\d+)\/\S+)\s/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve({ process: child, port: Number(match[2]), ws: match[1] });
      }
    });
  });
}

/** @param {number[]} xs */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** @param {number} n */
function kb(n) {
  return `${(n / 1024).toFixed(0)} KB`;
}
