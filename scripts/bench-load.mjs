// `npm run bench:load` (decision 051): the local server of `npm start` (production build,
// `vite preview`, workerd inside) under a crowd, counting the answers 500. Why
// (decision 051): vite preview answered 500 "fetch failed" when workerd closed a connection it was still
// being sent on (an early refusal's unread body; a request that waited behind a thread held
// by the hourly provider-figures job).
//
// Seeds LOAD_CLIENTS players with a session (SQL rows like scripts/bench-settlement.mjs) and
// LOAD_JOB_PLAYERS players with a successful deposit at one of the five providers (the
// players the hourly job asks the sandbox provider about: fixed ids, seeded once), then two
// runs of LOAD_REQUESTS requests from LOAD_CLIENTS clients, each client one request after
// another (its pages and API reads, a deposit form with a bad amount, a 64 KB cross-site
// form): the first plain, the second started together with the hourly job
// (/cdn-cgi/local/scheduled?cron=17 * * * *). Prints, per run, the answers by status, the
// count of 500s, latency p50/p95/max, and how long the job took.
//
// Env: LOAD_PORT (4344), LOAD_REQUESTS (2000), LOAD_CLIENTS (50), LOAD_JOB_PLAYERS (2400),
// LOAD_RUNS ("plain,job").
import { execFileSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalPortal, stateArgs } from "./local-dirs.mjs";

const port = process.env.LOAD_PORT ?? "4344";
const base = `http://localhost:${port}`;
const total = Number(process.env.LOAD_REQUESTS ?? "2000");
const clients = Number(process.env.LOAD_CLIENTS ?? "50");
const jobPlayers = Number(process.env.LOAD_JOB_PLAYERS ?? "2400");
const runs = (process.env.LOAD_RUNS ?? "plain,job").split(",");
const PROVIDERS = ["askmebet", "betflix", "gclub", "gclub_live", "alphabet"];
const HOURLY = "17 * * * *";
const KINDS = [
  "GET /player/deposit",
  "GET /api/v2/players/deposits/open",
  "POST /player/deposit (bad amount)",
  "GET /",
  "POST /player/cashback (64 KB, cross-site)",
];

// its own build and state (.local/bench-load, decision 055): a running `npm start` is left alone
let sessions = [];
const server = await startLocalPortal({
  name: "bench-load",
  port,
  stdio: process.env.LOAD_DEBUG ? ["ignore", "inherit", "inherit"] : "ignore",
  detached: true,
  prepare: () => (sessions = seed()),
});
try {
  // warm-up (not counted): the first request of each kind compiles the routes
  await Promise.all(sessions.slice(0, 5).map((cookie, i) => send(requestsOf(cookie)[i % 5])));
  console.log(
    `\nLocal server under load (vite preview + workerd, production build): ${total} requests from ${clients} clients, ${jobPlayers} players for the hourly job`,
  );
  for (const run of runs) {
    const job = run === "job" ? hourlyJob() : null;
    const result = await crowd();
    const jobResult = job ? await job : null;
    const statuses = [...result.statuses]
      .sort(([a], [b]) => String(a).localeCompare(String(b)))
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ");
    console.log(
      `${run.padEnd(6)} 500s: ${result.statuses.get(500) ?? 0}  (${statuses})  latency p50 ${ms(result.p50)}, p95 ${ms(result.p95)}, max ${ms(result.max)}, ${(result.count / (result.wallMs / 1000)).toFixed(0)} req/s` +
        (jobResult ? `; hourly job: HTTP ${jobResult.status} after ${ms(jobResult.ms)}` : ""),
    );
    if (result.sample500) console.log(`       500s by request: ${[...result.failures].map(([k, n]) => `${k} ${n}`).join(", ")}; first: ${result.sample500}`);
  }
} finally {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {}
}

/** The requests a client cycles through: its pages and API reads, a form the action refuses, a cross-site form. */
function requestsOf(cookie) {
  const form = (body, origin = base) => ({
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  return [
    [`${base}/player/deposit`, { headers: { Cookie: cookie } }],
    [`${base}/api/v2/players/deposits/open`, { headers: { Cookie: cookie } }],
    [
      `${base}/player/deposit`,
      form(new URLSearchParams({ intent: "create", provider: "askmebet", channelCode: "BCEL-QR", amount: "1", idempotencyKey: randomUUID() }).toString()),
    ],
    [`${base}/`, { headers: { Cookie: cookie } }],
    [`${base}/player/cashback`, form(`note=${"a".repeat(64 * 1024)}`, "https://elsewhere.example")],
  ];
}

async function send([url, init]) {
  const started = performance.now();
  let status;
  let text = "";
  try {
    const res = await fetch(url, init);
    text = await res.text();
    status = res.status;
  } catch (error) {
    status = `error ${error.cause?.code ?? error.message}`;
  }
  return { status, ms: performance.now() - started, text };
}

/** LOAD_REQUESTS requests from LOAD_CLIENTS clients, each one after another. */
async function crowd() {
  const statuses = new Map();
  const latencies = [];
  let next = 0;
  let sample500 = null;
  const failures = new Map();
  const t0 = performance.now();
  await Promise.all(
    sessions.slice(0, clients).map(async (cookie, c) => {
      const list = requestsOf(cookie);
      for (let i = c; next < total; i++) {
        next++;
        const r = await send(list[i % list.length]);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        latencies.push(r.ms);
        if (r.status === 500) {
          const kind = KINDS[i % list.length];
          failures.set(kind, (failures.get(kind) ?? 0) + 1);
          sample500 ??= `${kind}: ${r.text.replace(/\s+/g, " ").slice(0, 160)}`;
        }
      }
    }),
  );
  const wallMs = performance.now() - t0;
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { statuses, count: latencies.length, p50: at(0.5), p95: at(0.95), max: latencies.at(-1), wallMs, sample500, failures };
}

/** The hourly provider-figures job, as the cron would run it (Miniflare's scheduled trigger). */
async function hourlyJob() {
  const t0 = performance.now();
  const res = await fetch(`${base}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(HOURLY)}`);
  await res.text();
  return { status: res.status, ms: performance.now() - t0 };
}

/** Clients with a session (fresh each run) and the job's players (fixed ids: seeded once, kept). */
function seed() {
  const run = randomBytes(3).toString("hex");
  const now = Date.now();
  const rows = [];
  const list = [];
  for (let i = 0; i < clients; i++) {
    const id = randomUUID();
    const session = randomBytes(32).toString("base64url");
    const idHash = createHash("sha256").update(session).digest("hex");
    rows.push(
      `INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES ('${id}', 'demo', 'ld${run}${String(i).padStart(3, "0")}', 'Load Player', '02055555555', 'x');`,
      `INSERT INTO sessions (id_hash, agency_id, player_id, created_at, last_seen_at, expires_at, user_agent, ip) VALUES ('${idHash}', 'demo', '${id}', ${now}, ${now}, ${now + 6 * 3600_000}, 'load', '127.0.0.1');`,
    );
    list.push(`session=${session}`);
  }
  const at = new Date(now).toISOString();
  for (let i = 0; i < jobPlayers; i++) {
    const n = String(i).padStart(6, "0");
    const id = `00000000-0000-4000-8000-10${n.padStart(10, "0")}`;
    rows.push(
      `INSERT OR IGNORE INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES ('${id}', 'demo', 'ldjob${n}', 'Load Job Player', '02055555555', 'x');`,
      `INSERT OR IGNORE INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at) VALUES ('LDJOB${n}', 'demo', '${id}', '${PROVIDERS[i % PROVIDERS.length]}', '60000', '100', 'SUCCESS', NULL, '${at}', '${at}');`,
    );
  }
  const file = join(mkdtempSync(join(tmpdir(), "bench-load-")), "players.sql");
  writeFileSync(file, rows.join("\n"));
  execFileSync("npx", ["wrangler", "d1", "execute", "DB", ...stateArgs(), "--file", file], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, CI: "true" },
  });
  return list;
}

function ms(value) {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`;
}
