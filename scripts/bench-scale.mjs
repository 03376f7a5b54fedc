// `npm run bench:scale`: the portal at the scale of a large agency. The production build is
// served by `vite preview` on a local state of its own (.local/bench-scale, decision 055; never
// `npm start`'s .wrangler/state) whose D1 holds the data of scripts/scale-seed.mjs (100,000
// players and 1,000,000 orders by default), generated once per set of parameters and kept under
// .local/bench-scale/cache. Then, logged in through the forms as the demo owner (password and
// TOTP) and as one of the generated players, it times every staff page, CSV and report, the
// player pages and the scheduled jobs, each against a trivial request through the Worker
// measured in the same run (the floor), and prints a markdown table: median of SCALE_RUNS
// (client-side time to the whole body on localhost), the floor, D1 rows read and sequential
// depth per request (the X-D1-Metrics header, "-" while the Worker does not send it), and the
// size of the answer.
//
// Timing holds /tmp/vitest.lock (what the tests' runs hold), so other runs on the machine do not
// disturb the figures; generating the data does not.
//
// Env: SCALE_PLAYERS, SCALE_ORDERS, SCALE_DAYS, SCALE_HISTORY_DAYS, SCALE_SEED (scale-seed.mjs),
// SCALE_RUNS (5), SCALE_TIMEOUT_MS (60000), SCALE_PORT (4355), SCALE_NEXT_PAGES (how many "next"
// links a list with keyset paging is followed, 20), SCALE_ONLY (a regular expression: only the
// rows whose name matches), SCALE_JOBS (0: no scheduled jobs), SCALE_TINY=1 (200 players, 2,000
// orders, 3 days, 1 run: checks the bench works), SCALE_LOCK (the lock file; "" for none),
// SCALE_DEBUG=1 (the server's output).
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHmac } from "node:crypto";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { DEMO_STAFF } from "./demo-staff.mjs";
import { ensureDevVars } from "./dev-vars.mjs";
import { at, ensureBuild, localDirs, START_DIRS, startLocalPortal, stateDir, useLocalDirs, waitForAnswer, withOwnDeployConfig } from "./local-dirs.mjs";
import { ensureScaleCopy, SCALE_PLAYER_PASSWORD, scaleCacheName, scaleParams, vientianeDay } from "./scale-seed.mjs";

const env = process.env;
const tiny = env.SCALE_TINY === "1";
const params = scaleParams(
  env,
  tiny ? { players: env.SCALE_PLAYERS ?? 200, orders: env.SCALE_ORDERS ?? 2000, days: env.SCALE_DAYS ?? 3, historyDays: env.SCALE_HISTORY_DAYS ?? 7 } : {},
);
const runs = Number(env.SCALE_RUNS ?? (tiny ? 1 : 5));
const timeoutMs = Number(env.SCALE_TIMEOUT_MS ?? 60_000);
const port = Number(env.SCALE_PORT ?? 4355);
const nextPages = Number(env.SCALE_NEXT_PAGES ?? 20);
const only = env.SCALE_ONLY ? new RegExp(env.SCALE_ONLY) : null;
const lockFile = env.SCALE_LOCK ?? "/tmp/vitest.lock";
const base = `http://localhost:${port}`;
const NAME = "bench-scale";
const JOBS = [
  ["every minute (alerts)", "* * * * *"],
  ["every 5 minutes (wallets, backfill, prune, derivations)", "*/5 * * * *"],
  ["hourly (provider figures, brand images)", "17 * * * *"],
];

// ---- the lock the test runs hold

/** util-linux's flock(1), as the test runs take the lock (a system command, like apt-get: no npm binary). */
const FLOCK = "flock";

/**
 * Holds `file` with flock(1) until the returned function is called: a child process in a
 * group of its own holds it (flock, and the sleep it runs), and the group is ended.
 */
async function holdLock(file) {
  if (!file || spawnSync(FLOCK, ["-V"]).error) return () => {};
  const child = spawn(FLOCK, [file, "-c", "echo held; exec sleep 86400"], { stdio: ["ignore", "pipe", "inherit"], detached: true });
  await new Promise((resolve, reject) => {
    child.stdout.once("data", resolve);
    child.once("exit", (code) => reject(new Error(`flock ${file} exited with ${code}`)));
  });
  const release = () => {
    cleanups.delete(release);
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  };
  cleanups.add(release);
  return release;
}

/**
 * What a run started in groups of their own (the lock's holder, the server), ended when the run
 * is interrupted too: an interrupted run must not keep the tests' lock.
 */
const cleanups = new Set();
for (const signal of ["SIGINT", "SIGTERM"])
  process.once(signal, () => {
    for (const cleanup of cleanups) cleanup();
    process.exit(130);
  });

// ---- the data in the bench's own D1

/** The sqlite file of the local D1 `DB` under this process's state (Miniflare's Durable Object storage). */
function d1File() {
  const dir = join(stateDir(), "v3", "d1", "miniflare-D1DatabaseObject");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite") : [];
  if (files.length !== 1) throw new Error(`expected one D1 database under ${dir}, found ${files.length}`);
  return join(dir, files[0]);
}

/**
 * Before the server starts: the seeded D1 file (migrations, demo agency) is the base of the
 * scale data, generated once per set of parameters into the cache; the cached file then
 * replaces the state's D1 file (a run starts from the same data whatever the last one changed).
 */
function loadScaleData() {
  const file = d1File();
  const cacheDir = at(join(".local", NAME, "cache"));
  mkdirSync(cacheDir, { recursive: true });
  const cached = join(cacheDir, scaleCacheName(params));
  // the files of the same sizes made on another day or by another generator are removed (each
  // is a gigabyte at the default size); other sizes stay (a tiny run keeps the big file)
  const sameSizes = scaleCacheName(params).split("-").slice(0, 5).join("-");
  for (const f of readdirSync(cacheDir))
    if (f.startsWith(sameSizes) && !cached.endsWith(f.replace(/\.json$|\.partial$/, ""))) rmSync(join(cacheDir, f), { force: true });
  const made = ensureScaleCopy(file, cached, params);
  console.log(made.generated ? `generated ${cached} in ${made.seconds.toFixed(0)} s` : `using ${cached}`);
  for (const suffix of ["-wal", "-shm", "-journal"]) rmSync(`${file}${suffix}`, { force: true });
  copyFileSync(cached, file);
  return JSON.parse(readFileSync(`${cached}.json`, "utf8"));
}

// ---- requests

/** Cookies as a browser keeps them for this one host. */
class Jar {
  cookies = new Map();
  take(res) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

/** One request, timed to the end of its body; `null` time when it took longer than `limitMs`. */
async function timed(path, jar, init = {}, limitMs = timeoutMs) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limitMs);
  const started = performance.now();
  try {
    const res = await fetch(`${base}${path}`, {
      redirect: "manual",
      ...init,
      headers: { Cookie: jar?.header() ?? "", ...init.headers },
      signal: controller.signal,
    });
    const body = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - started;
    jar?.take(res);
    return {
      ms,
      status: res.status,
      bytes: body.length,
      text: body.toString("utf8"),
      metrics: parseMetrics(res.headers.get("X-D1-Metrics")),
      location: res.headers.get("Location"),
    };
  } catch (error) {
    if (controller.signal.aborted) return { ms: null, status: "timeout", bytes: 0, text: "", metrics: null, location: null };
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** `depth=2; queries=3; rows_read=120; rows_written=0` -> { depth: 2, queries: 3, rows_read: 120, rows_written: 0 } */
function parseMetrics(header) {
  if (!header) return null;
  return Object.fromEntries(
    header
      .split(";")
      .map((part) => part.trim().split("="))
      .filter(([k, v]) => k && v !== undefined)
      .map(([k, v]) => [k, Number(v)]),
  );
}

const form = (fields) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
  body: new URLSearchParams(fields).toString(),
});

// ---- logging in

/** A login is the way in, not a figure of the table: it gets time whatever SCALE_TIMEOUT_MS says. */
const LOGIN_LIMIT_MS = Math.max(timeoutMs, 120_000);

function base32(secret) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const out = [];
  let bits = 0;
  let value = 0;
  for (const char of secret.replace(/=+$/, "").toUpperCase()) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 6238 (SHA-1, 6 digits, 30 s), as the staff's authenticator app computes it. */
function totp(secret, step) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", base32(secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  const value = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(value % 1_000_000).padStart(6, "0");
}

/** The owner through /admin/login and /admin/login/totp, into `jar`; returns the two POSTs' answers. */
async function staffLogin(jar) {
  const who = DEMO_STAFF.boss;
  const password = await timed("/admin/login", jar, form({ username: who.username, password: who.password, redirectTo: "" }), LOGIN_LIMIT_MS);
  if (password.status !== 302 || !password.location?.includes("/admin/login/totp"))
    throw new Error(`staff login: the password step answered ${password.status}`);
  const step = Math.floor(Date.now() / 30_000);
  for (const s of [step, step + 1]) {
    const code = await timed("/admin/login/totp", jar, form({ code: totp(who.totpSecret, s) }), LOGIN_LIMIT_MS);
    if (code.status === 302 && !code.location?.includes("/admin/login")) return { password, code };
  }
  throw new Error("staff login: the TOTP codes were refused");
}

/** The player through /login, into `jar` (just before the player pages: a player session ends after 30 idle minutes). */
async function playerLogin(jar, username) {
  const answer = await timed("/login", jar, form({ username, password: SCALE_PLAYER_PASSWORD, redirectTo: "" }), LOGIN_LIMIT_MS);
  if (answer.status !== 302) throw new Error(`player login as ${username} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  return answer;
}

// ---- the pages

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const decode = (href) => href.replace(/&amp;/g, "&");
const FLOOR = "/locales/lo/common.json";

/**
 * The deposits list `deep` pages in: `?page=N` while the list pages by offset, else the "next"
 * link (keyset paging) followed `nextPages` times. Returns the path and how it was reached.
 */
async function deepDepositsPath(jar, first) {
  if (/href="[^"]*[?&](?:amp;)?page=2\b/.test(first.text)) return { name: "/admin/deposits?page=2000", path: "/admin/deposits?page=2000" };
  let path = "/admin/deposits";
  let text = first.text;
  let followed = 0;
  for (; followed < nextPages; followed++) {
    const next = nextLink(text);
    if (!next) break;
    path = next;
    const answer = await timed(path, jar);
    if (answer.ms === null) break;
    text = answer.text;
  }
  return { name: `/admin/deposits, ${followed} "next" links in`, path };
}

/** The list's "next" link: rel="next", or a link carrying a cursor. */
function nextLink(html) {
  const rel = /<a[^>]*rel="next"[^>]*href="([^"]+)"|<a[^>]*href="([^"]+)"[^>]*rel="next"/.exec(html);
  if (rel) return decode(rel[1] ?? rel[2]);
  const cursor = /href="(\/admin\/deposits\?[^"]*(?:after|cursor|before)=[^"]+)"/.exec(html);
  return cursor ? decode(cursor[1]) : null;
}

/** A link of the page matching `pattern` (first capture), decoded. */
const linkIn = (html, pattern) => {
  const match = pattern.exec(html);
  return match ? decode(match[1]) : null;
};

function pageList(sample, staffJar, playerJar, firstDeposits) {
  const now = Date.parse(params.now);
  const day = vientianeDay(now - 2 * 86_400_000);
  const to = vientianeDay(now);
  const from = vientianeDay(now - 29 * 86_400_000);
  const reports = `/admin/reports?from=${from}&to=${to}&grouping=day`;
  const staff = (name, path = name) => ({ name, path, jar: staffJar, who: "staff" });
  const player = (name, path = name) => ({ name, path, jar: playerJar, who: "player" });
  const depositCode = linkIn(firstDeposits.text, /href="\/admin\/deposits\/([A-Z0-9]+)"/);
  return [
    staff("/admin"),
    staff("/admin/deposits"),
    { deep: true, jar: staffJar, who: "staff" },
    staff(`/admin/deposits?username=${sample.sharedUsername}`),
    staff("/admin/deposits?status=SUCCESS"),
    staff("/admin/deposits/open"),
    depositCode && staff("/admin/deposits/<code>", `/admin/deposits/${depositCode}`),
    staff("/admin/deposits/import"),
    staff("/admin/payments"),
    staff("/admin/withdrawals"),
    { find: "withdrawal", jar: staffJar, who: "staff" },
    staff(`/admin/players?q=<username>`, `/admin/players?q=${encodeURIComponent(sample.busiest)}`),
    staff(`/admin/players?q=<phone>`, `/admin/players?q=${sample.phone}`),
    staff(`/admin/players?q=<Lao name>`, `/admin/players?q=${encodeURIComponent(sample.laoName)}`),
    { find: "player", jar: staffJar, who: "staff" },
    staff("/admin/fingerprints"),
    staff(`/admin/reconciliation?day=<day>`, `/admin/reconciliation?day=${day}`),
    staff(`/admin/reconciliation/<day>.csv`, `/admin/reconciliation/${day}.csv`),
    staff("/admin/reports, 30 days by day", reports),
    { csv: reports, jar: staffJar, who: "staff" },
    staff("/admin/audit"),
    staff("/admin/promotions"),
    staff("/admin/promotions/welcome-100"),
    staff("/admin/cashback"),
    staff("/admin/referrals"),
    staff("/admin/forwarder"),
    staff("/admin/staff"),
    staff("/admin/api-tokens"),
    staff("/admin/settings"),
    staff("/admin/settings/channels"),
    staff("/admin/settings/providers"),
    staff("/admin/settings/brand"),
    staff("/admin/settings/alerts"),
    player("/"),
    player("/player/deposit"),
    player("/player/deposit/history"),
    player("/player/withdraw"),
    player("/player/withdraw/history"),
    player("/player/promotion"),
    player("/player/promotion/history"),
    player("/player/bank"),
    player("/player/sessions"),
    player("/player/limits"),
    player("/player/referral"),
    player("/player/cashback"),
  ].filter(Boolean);
}

/** The entries that name their page by what another page links to. */
async function expand(entry, firstDeposits) {
  if (entry.deep) return [{ ...(await deepDepositsPath(entry.jar, firstDeposits)), jar: entry.jar, who: entry.who }];
  if (entry.find) {
    const list = await timed(entry.find === "player" ? "/admin/players" : "/admin/withdrawals?status=SUCCESS", entry.jar);
    const pattern = entry.find === "player" ? /href="(\/admin\/players\/[0-9a-f-]{36})"/ : /href="(\/admin\/withdrawals\/W[A-Z0-9]+)"/;
    const path = linkIn(list.text, pattern);
    return path ? [{ name: entry.find === "player" ? "/admin/players/<id>" : "/admin/withdrawals/<code>", path, jar: entry.jar, who: entry.who }] : [];
  }
  if (entry.csv) {
    const page = await timed(entry.csv, entry.jar);
    const links = [...new Set([...page.text.matchAll(/href="(\/admin\/reports\/[a-z-]+\.csv\?[^"]*)"/g)].map((m) => decode(m[1])))];
    return links.map((path) => ({ name: `${path.split("?")[0]} (30 days)`, path, jar: entry.jar, who: entry.who }));
  }
  return [entry];
}

/** Logged out meanwhile (a staff session ends after 15 idle minutes, a player's after 30): the page sends to its login. */
const sentToLogin = (answer) => answer.status === 302 && /\/(admin\/)?login\b/.test(answer.location ?? "");

/**
 * One row: a warm-up (compiles the route, fills the isolate's caches; not counted), then
 * `runs` times the page, each after the floor. A request over the timeout ends the row: the
 * Worker may still be busy with it (a loader bound by CPU holds the isolate), so the caller
 * restarts the server before the next row.
 */
async function measure(entry) {
  let warm = await timed(entry.path, entry.jar);
  if (sentToLogin(warm) && entry.login) {
    await entry.login();
    warm = await timed(entry.path, entry.jar);
  }
  const floors = [];
  const times = [];
  let last = warm;
  if (warm.ms !== null) {
    for (let i = 0; i < runs; i++) {
      floors.push((await timed(FLOOR, null)).ms);
      last = await timed(entry.path, entry.jar);
      if (last.ms === null) break;
      times.push(last.ms);
    }
  }
  return {
    name: entry.name,
    who: entry.who,
    status: last.status,
    median: last.ms === null ? null : median(times),
    floor: floors.length > 0 ? median(floors.filter((f) => f !== null)) : null,
    bytes: last.bytes,
    metrics: last.metrics,
    timedOut: last.ms === null,
  };
}

// ---- the server

const serverStdio = env.SCALE_DEBUG ? "inherit" : ["ignore", "ignore", "inherit"];

/** Ends the server's process group and waits for it to exit (its port is then free). */
async function stopServer(server) {
  cleanups.delete(server.cleanup);
  const exited = server.exitCode !== null ? Promise.resolve() : new Promise((resolve) => server.once("exit", resolve));
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {}
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
}

/** The server's process group is ended if the run is interrupted. */
function watchServer(server) {
  server.cleanup = () => {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {}
  };
  cleanups.add(server.cleanup);
  return server;
}

/** The same server again on the same state, as startLocalPortal starts it (no seed, no build). */
async function restartServer(server) {
  await stopServer(server);
  return withOwnDeployConfig(async () => {
    const next = spawn("npx", ["vite", "preview", "--port", String(port), "--strictPort"], {
      stdio: serverStdio,
      detached: true,
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    });
    watchServer(next);
    await waitForAnswer(`${base}/api/v2/agency/info`, next);
    return next;
  });
}

// ---- the scheduled jobs

/**
 * A cron handler run through Miniflare's scheduled trigger. Its work runs in waitUntil; the
 * trigger's answer may come before that work is done, so the job counts as finished at the
 * last write to D1 seen (PRAGMA data_version moves with every commit of another connection)
 * once nothing has been written for `quietMs`, or at the answer when that came later.
 */
async function runJob(cron, db) {
  const version = () => Number(db.prepare("PRAGMA data_version").get().data_version);
  let seen = version();
  const started = performance.now();
  let lastWrite = null;
  const poll = setInterval(() => {
    const v = version();
    if (v !== seen) {
      seen = v;
      lastWrite = performance.now();
    }
  }, 50);
  const answer = await timed(`/cdn-cgi/local/scheduled?cron=${encodeURIComponent(cron)}`, null);
  const answered = answer.ms;
  if (answered === null) {
    clearInterval(poll);
    return { status: answer.status, answered, finished: null };
  }
  const quietMs = 3000;
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (performance.now() - (lastWrite ?? started) > quietMs && performance.now() - started > answered + quietMs) break;
  }
  clearInterval(poll);
  const finished = performance.now() - deadline > 0 ? null : Math.max(answered, (lastWrite ?? started) - started);
  return { status: answer.status, answered, finished };
}

// ---- output

const msText = (ms) =>
  ms === null || ms === undefined ? `> ${timeoutMs / 1000} s` : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms).toLocaleString("en-US")} ms`;
/** The floor of a row that timed out at its warm-up was never measured. */
const floorText = (ms) => (ms === null ? "-" : msText(ms));
const metric = (m, key) => (m && Number.isFinite(m[key]) ? m[key].toLocaleString("en-US") : "-");

function table(rows, jobs, logins) {
  const lines = [
    `Scale bench: ${params.players.toLocaleString("en-US")} players, ${params.orders.toLocaleString("en-US")} orders over ${params.historyDays} days, ${params.days} days of bank reports (seed "${params.seed}", data up to ${params.now}); median of ${runs}, client-side time to the whole body on localhost; floor = ${FLOOR} in the same run.`,
    "",
    "| page | median ms | floor | rows read | depth | HTML KB |",
    "|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const note = r.status === 200 || r.status === "timeout" ? "" : ` (HTTP ${r.status})`;
    lines.push(
      `| \`${r.name}\`${note} | ${msText(r.median)} | ${floorText(r.floor)} | ${metric(r.metrics, "rows_read")} | ${metric(r.metrics, "depth")} | ${(r.bytes / 1024).toFixed(1)} |`,
    );
  }
  lines.push("", "| login (POST) | time | rows read | depth |", "|---|---|---|---|");
  for (const [name, r] of logins) lines.push(`| ${name} | ${msText(r.ms)} | ${metric(r.metrics, "rows_read")} | ${metric(r.metrics, "depth")} |`);
  if (jobs.length > 0) {
    lines.push("", "| scheduled job | trigger answered | last D1 write |", "|---|---|---|");
    for (const j of jobs) lines.push(`| \`${j.cron}\` ${j.name} | ${msText(j.answered)} | ${msText(j.finished)} |`);
  }
  return lines.join("\n");
}

// ---- the run

ensureDevVars();
useLocalDirs(localDirs(NAME));
// a state of its own, made anew each run: its D1 is seeded afresh (the base of the scale data) and
// no wallet keeps what an earlier run did
if (stateDir() === START_DIRS.state) throw new Error("the scale bench never runs on npm start's state");
rmSync(at(stateDir()), { recursive: true, force: true });
/** `fn` holding the tests' lock: one row or job at a time, so the test runs of the machine wait only that long. */
async function locked(fn) {
  const release = await holdLock(lockFile);
  try {
    return await fn();
  } finally {
    release();
  }
}

await locked(() => ensureBuild({ stdio: serverStdio }));
let meta = null;
let server = await startLocalPortal({
  name: NAME,
  port,
  stdio: serverStdio,
  detached: true,
  prepare: () => {
    meta = loadScaleData();
  },
});
watchServer(server);
try {
  const sample = meta.sample;
  console.log(`players asked for: ${JSON.stringify(sample)}`);
  const logins = [];
  const staffJar = new Jar();
  const playerJar = new Jar();
  const staff = async () => {
    const answers = await staffLogin(staffJar);
    logins.push(["staff password (/admin/login)", answers.password], ["staff TOTP (/admin/login/totp)", answers.code]);
  };
  let playerIn = false;
  const player = async () => {
    logins.push(["player (/login)", await playerLogin(playerJar, sample.busiest)]);
    playerIn = true;
  };
  await staff();
  const firstDeposits = await timed("/admin/deposits", staffJar, {}, LOGIN_LIMIT_MS);
  const rows = [];
  const record = (row) => {
    rows.push(row);
    console.log(`${row.name}: ${msText(row.median)} (floor ${floorText(row.floor)}), HTTP ${row.status}, rows read ${metric(row.metrics, "rows_read")}`);
  };
  record(await locked(() => measure({ name: `${FLOOR} (floor)`, path: FLOOR, jar: null, who: "-" })));
  for (const entry of pageList(sample, staffJar, playerJar, firstDeposits)) {
    const pages = await locked(() => expand(entry, firstDeposits));
    for (const page of pages) {
      if (only && !only.test(page.name)) continue;
      if (page.who === "player" && !playerIn) await player();
      const row = await locked(() => measure({ ...page, login: page.who === "player" ? player : staff }));
      record(row);
      if (row.timedOut) server = await restartServer(server);
    }
  }
  const jobs = [];
  if (env.SCALE_JOBS !== "0") {
    for (const [name, cron] of JOBS) {
      const db = new DatabaseSync(d1File(), { readOnly: true });
      let job;
      try {
        job = await locked(() => runJob(cron, db));
      } finally {
        db.close();
      }
      jobs.push({ name, cron, ...job });
      console.log(`job ${cron}: answered after ${msText(job.answered)}, last D1 write ${msText(job.finished)}`);
      if (job.finished === null || job.answered === null) server = await restartServer(server);
    }
  }
  const out = table(rows, jobs, logins);
  const file = at(join(".local", NAME, `results-${new Date().toISOString().replace(/[:.]/g, "-")}.md`));
  writeFileSync(file, `${out}\n`);
  console.log(`\n${out}\n\n(also in ${file})`);
} finally {
  await stopServer(server);
}
