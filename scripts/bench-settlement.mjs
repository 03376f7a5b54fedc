// `npm run bench` (its settlement part; alone: `node scripts/bench-settlement.mjs`): deposit
// settlement under a crowd, over HTTP, through the real alarms (decision 024).
//
// Starts the production build like scripts/bench.mjs (seed, build, vite preview, with the
// sandbox provider and bank inside), seeds N bench players with a bank account and a session
// (SQL rows shaped like the seed's and like workers/db/players.ts insertPlayerSession: no
// scrypt per player, which would only measure password hashing), then for each concurrency:
// every player opens a deposit order (POST /player/deposit, the QR read from the page), all
// pay their LAO QR at once at the sandbox bank's pay page (through the portal's proxy; the
// bank then calls the portal's webhook itself, and the wallet's alarm settles at the sandbox
// provider), and each polls its deposit over the player API until it is SUCCESS.
// paid -> credit = the wallet's settledAt (the moment the provider confirmed the transfer-in,
// server clock) - the moment the bank answered "paid" (client clock, same machine).
//
// The floor, in the same run: tests/bench/floor (one Durable Object SQLite write per request,
// one object per player) under `wrangler dev`, driven at the same concurrency.
//
// Env: SETTLE_PORT (4314), FLOOR_PORT (4324), SETTLE_ROUNDS ("1,50,200"), SETTLE_SOLO_RUNS (20),
// SETTLE_STAGES=1 (where a crowd's time goes),
// SETTLE_PROFILE=1 (CPU profile of each Worker during each crowd: scripts/worker-profile.mjs),
// SETTLE_POLL_MS (a fixed poll interval instead of the deposit page's pace: see QR_POLL).
//
// CPU (Linux): the processor time the portal's process tree (vite preview + its workerd, which
// runs the portal and both sandboxes) and the floor's spent per settlement / per write, read
// from /proc. On a shared machine wall-clock figures move with the other processes' load;
// CPU per settlement does much less, so it is the figure to compare before/after.
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes, randomUUID, scryptSync } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { printProfile, startWorkerProfiles } from "./worker-profile.mjs";
import { startLocalPortal, stateArgs, waitForAnswer } from "./local-dirs.mjs";

const port = process.env.SETTLE_PORT ?? "4314";
const floorPort = process.env.FLOOR_PORT ?? "4324";
const base = `http://localhost:${port}`;
const floorBase = `http://127.0.0.1:${floorPort}`;
const rounds = (process.env.SETTLE_ROUNDS ?? "1,50,200").split(",").map(Number);
const soloRuns = Number(process.env.SETTLE_SOLO_RUNS ?? "20");
/**
 * How each player asks for its deposit: by default at the deposit page's own pace (the
 * `depositStatus` part of the lite page, app/lib/offline.ts QR_POLL and nextPollDelay): first
 * 3 s after the page loaded, then each wait 1.5 times the last up to 15 s, and 3 s again once
 * the order is seen PAID. That is the load 200 players waiting on their QR put on the portal;
 * completion only, the latency comes from the wallet's settledAt, so the pace loses no
 * precision. SETTLE_POLL_MS=<ms>: a fixed interval instead (sessions 24-25 used 2000, about
 * 1.5 to 7 times the page's pace).
 */
const FIXED_POLL_MS = process.env.SETTLE_POLL_MS ? Number(process.env.SETTLE_POLL_MS) : null;
const QR_POLL = { min: 3_000, max: 15_000 };
const GIVE_UP_MS = 180_000;

// its own build and state (.local/bench-settlement, decision 055): a running `npm start` is left alone
let players = [];
const server = await startLocalPortal({
  name: "bench-settlement",
  port,
  // SETTLE_DEBUG=1: the portal's console (timings logged while looking for where time goes)
  stdio: process.env.SETTLE_DEBUG ? ["ignore", "inherit", "inherit"] : "ignore",
  detached: true,
  prepare: () => (players = seedPlayers(Math.max(...rounds))),
});
const floorState = mkdtempSync(join(tmpdir(), "bench-floor-"));
const floor = spawn(
  "npx",
  [
    "wrangler",
    "dev",
    "--config",
    "tests/bench/floor/wrangler.toml",
    "--port",
    floorPort,
    "--ip",
    "127.0.0.1",
    "--inspector-port",
    String(Number(floorPort) + 10),
    "--persist-to",
    floorState,
    "--log-level",
    "error",
  ],
  { stdio: "ignore", detached: true, env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" } },
);

const results = [];
const pollErrors = new Map();
let qrRetries = 0;
let serverErrors = 0;
let pollErrorSample = null;
try {
  await waitForAnswer(`${floorBase}/?player=warmup`, floor);
  // Warm-up (not counted): the first request of each kind compiles and opens the objects.
  await oneDeposit(players.at(-1));

  for (const concurrency of rounds) {
    const settle = concurrency === 1 ? await solo(players[0], soloRuns) : await crowd(players.slice(0, concurrency));
    const floorRun = await driveFloor(concurrency);
    results.push({ concurrency, settle, floor: floorRun });
    if (pollErrors.size)
      console.log(`  player API errors while polling: ${[...pollErrors].map(([status, n]) => `${n} x HTTP ${status}`).join(", ")} (first: ${pollErrorSample})`);
    if (qrRetries) console.log(`  deposit page without its QR (gateway slow), loaded again: ${qrRetries} times`);
    qrRetries = 0;
    if (serverErrors) console.log(`  order or payment answered 5xx and sent again: ${serverErrors} times`);
    serverErrors = 0;
    pollErrors.clear();
    pollErrorSample = null;
    print(results.at(-1));
  }
  const withdraw = await withdrawConfirms(players[0], soloRuns);
  console.log(
    `\nwithdraw confirm -> OPEN (POST /player/withdraw intent=confirm, credit taken at the provider), one player, ${withdraw.count} one after another: p50 ${ms(withdraw.p50)}, p95 ${ms(withdraw.p95)}, max ${ms(withdraw.max)}`,
  );
  console.log("\nSettlement over HTTP (vite preview, production build, sandboxes inside; shared machine unless stated):");
  console.log("players  deposits  paid->credit p50    p95     max   settled/s   floor writes/s (p50)   ratio   CPU ms/settlement   floor CPU ms/write");
  for (const r of results) {
    const s = r.settle;
    console.log(
      `${String(r.concurrency).padStart(7)}  ${String(s.count).padStart(8)}  ${ms(s.p50).padStart(16)} ${ms(s.p95).padStart(7)} ${ms(s.max).padStart(7)}  ${s.rate.toFixed(1).padStart(10)}  ${r.floor.rate.toFixed(0).padStart(14)} (${ms(r.floor.p50)})  ${((s.rate / r.floor.rate) * 100).toFixed(1).padStart(5)} %  ${s.cpuMs.toFixed(0).padStart(17)}  ${r.floor.cpuMs.toFixed(1).padStart(18)}`,
    );
  }
} finally {
  for (const child of [server, floor]) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  }
}

/** One player, `runs` deposits one after another: each paid, then waited for. */
async function solo(player, runs) {
  const latencies = [];
  const cpuBefore = cpuSeconds(server.pid);
  const workerdBefore = cpuSeconds(server.pid, "workerd");
  for (let i = 0; i < runs; i++) latencies.push((await oneDeposit(player)).latency);
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const workerd = cpuSeconds(server.pid, "workerd") - workerdBefore;
  // One at a time, the rate is one settlement per latency. (CPU here includes opening the orders.)
  return { ...summary(latencies, latencies.reduce((a, b) => a + b, 0) / 1000), cpuMs: (cpu * 1000) / runs, workerdMs: (workerd * 1000) / runs };
}

/** Every player opens an order first; then all pay at once; the clock runs from the first payment to the last credit. */
async function crowd(list) {
  const orders = await pool(list, 8, (p) => openOrder(p));
  const stopProfiles = process.env.SETTLE_PROFILE ? await startWorkerProfiles() : null;
  const cpuBefore = cpuSeconds(server.pid);
  const workerdBefore = cpuSeconds(server.pid, "workerd");
  const threadsBefore = threadTicks(server.pid);
  const paid = await Promise.all(orders.map(({ player, payload }) => pay(player, payload)));
  const settled = await Promise.all(paid.map((p, i) => waitSettled(p.player, p.code, orders[i].loadedAt)));
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const workerd = cpuSeconds(server.pid, "workerd") - workerdBefore;
  const busiest = busiestThreads(threadsBefore, threadTicks(server.pid), 3);
  if (stopProfiles)
    for (const [title, profile] of Object.entries(await stopProfiles()))
      printProfile(`${title}, ${list.length} players`, profile, join(tmpdir(), `settle-${list.length}-${title}.cpuprofile`));
  const latencies = settled.map((s, i) => s.settledAt - paid[i].paidAt);
  const first = Math.min(...paid.map((p) => p.sentAt));
  if (process.env.SETTLE_STAGES) printStages(paid, settled, first);
  const last = Math.max(...settled.map((s) => s.settledAt));
  // One thread near 100 % of the crowd's time is a serial bound on this machine, whatever the code.
  const crowdSeconds = (last - first) / 1000;
  console.error(
    `  busiest threads (share of one core from the first payment to the last credit): ${busiest.map((t) => `${t.name} ${((t.seconds / crowdSeconds) * 100).toFixed(0)} %`).join(", ")}`,
  );
  return { ...summary(latencies, (last - first) / 1000), cpuMs: (cpu * 1000) / list.length, workerdMs: (workerd * 1000) / list.length };
}

/**
 * SETTLE_STAGES=1: where a crowd's time goes (ms from the first payment sent, and between
 * stages): the bank's answers, the wallet's PAID (webhook applied), the credit at the provider.
 */
function printStages(paid, settled, first) {
  const q = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return `p5 ${s[Math.floor(s.length * 0.05)]} p50 ${s[Math.floor(s.length / 2)]} p95 ${s[Math.floor(s.length * 0.95)]} max ${s[s.length - 1]}`;
  };
  console.error(`stages of ${paid.length} (ms):`);
  console.error(`  bank answered "paid", from the first payment sent: ${q(paid.map((p) => p.paidAt - first))}`);
  console.error(`  bank answered -> wallet PAID (webhook):            ${q(settled.map((s, i) => s.walletPaidAt - paid[i].paidAt))}`);
  console.error(`  wallet PAID -> credited (alarm + provider):        ${q(settled.map((s) => s.settledAt - s.walletPaidAt))}`);
  console.error(`  credited, from the first payment sent:             ${q(settled.map((s) => s.settledAt - first))}`);
}

async function oneDeposit(player) {
  const { payload, loadedAt } = await openOrder(player);
  const p = await pay(player, payload);
  const s = await waitSettled(player, p.code, loadedAt);
  return { latency: s.settledAt - p.paidAt };
}

/** POST /player/deposit (the form the page posts), then the page, for the QR payload. */
async function openOrder(player) {
  // The same idempotency key on a retry: a repeated post is the same order (decision 004), never a second.
  const form = new URLSearchParams({ intent: "create", provider: "askmebet", channelCode: "BCEL-QR", amount: "60000", idempotencyKey: randomUUID() });
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${base}/player/deposit`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: player.cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: form,
    });
    await res.arrayBuffer();
    if (res.status === 302 || res.status === 303 || res.status === 200) break;
    serverErrors++;
    if (attempt === 5) throw new Error(`deposit order: HTTP ${res.status}`);
    await sleep(1000);
  }
  // The page asks the gateway for the QR when the order has none yet (a busy gateway may not
  // have answered in time): asked again, like a player reloading.
  for (let attempt = 1; ; attempt++) {
    const page = await (await fetch(`${base}/player/deposit`, { headers: { Cookie: player.cookie } })).text();
    const match = /data-testid="qr-payload"[^>]*>([^<]+)</.exec(page) ?? /(000201[^<"]+6304[0-9A-F]{4})/.exec(page);
    if (match) return { player, payload: match[1].replaceAll("&amp;", "&").trim(), loadedAt: Date.now() };
    qrRetries++;
    if (attempt === 10) throw new Error("no QR payload on /player/deposit after 10 tries");
    await sleep(1000);
  }
}

/** The tester's "banking app": the sandbox bank's pay page, through the portal's proxy. */
async function pay(player, payload) {
  const form = new FormData();
  form.set("payload", payload);
  const sentAt = Date.now();
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${base}/sandbox/bank/pay`, { method: "POST", headers: { Origin: base }, body: form });
    const html = await res.text();
    const paidAt = Date.now();
    // A 5xx from an overloaded preview may hide a payment that went through: paying again
    // then says ALREADY_PAID (the reference is read from the QR), counted as paid now.
    const code = /<dt>Reference<\/dt><dd><code>([^<]+)<\/code>/.exec(html)?.[1];
    if (res.status === 200 && code) return { player, code, sentAt, paidAt };
    if (res.status === 409 && /ALREADY_PAID/.test(html)) return { player, code: referenceOf(payload), sentAt, paidAt };
    serverErrors++;
    if (attempt === 5) throw new Error(`pay: HTTP ${res.status}`);
    await sleep(1000);
  }
}

/** The order code in a LAO QR payload: EMVCo tag 62 (additional data), sub-tag 05 (reference). */
function referenceOf(payload) {
  for (let i = 0; i + 4 <= payload.length; ) {
    const tag = payload.slice(i, i + 2);
    const len = Number(payload.slice(i + 2, i + 4));
    const value = payload.slice(i + 4, i + 4 + len);
    if (tag === "62") {
      for (let j = 0; j + 4 <= value.length; ) {
        const sub = value.slice(j, j + 2);
        const subLen = Number(value.slice(j + 2, j + 4));
        if (sub === "05") return value.slice(j + 4, j + 4 + subLen);
        j += 4 + subLen;
      }
    }
    i += 4 + len;
  }
  throw new Error("no reference in the QR payload");
}

/**
 * Polls the player API as the deposit page does (same request, same pace: see QR_POLL) until
 * the order is settled. `loadedAt`: when the player's deposit page showed the QR.
 */
async function waitSettled(player, code, loadedAt) {
  const until = Date.now() + GIVE_UP_MS;
  let delay = null;
  let next = loadedAt;
  let seenPaid = false;
  const nextDelay = () => FIXED_POLL_MS ?? (delay = delay === null ? QR_POLL.min : Math.min(QR_POLL.max, Math.round(delay * 1.5)));
  // the page's timer has been running since it loaded: where it is now
  if (FIXED_POLL_MS) next = Date.now() + FIXED_POLL_MS * Math.random();
  else while ((next += nextDelay()) < Date.now());
  const wait = async () => {
    await sleep(Math.max(0, next - Date.now()));
  };
  await wait();
  while (Date.now() < until) {
    const res = await fetch(`${base}/api/v2/players/deposits?page=1&pageSize=1`, { headers: { Cookie: player.cookie } });
    if (!res.ok) {
      // counted and reported: an overloaded portal answering errors is a finding, not a crash
      const text = await res.text();
      pollErrors.set(res.status, (pollErrors.get(res.status) ?? 0) + 1);
      if (!pollErrorSample) pollErrorSample = `HTTP ${res.status}: ${text.replace(/\s+/g, " ").slice(0, 200)}`;
      next = Date.now() + nextDelay();
      await wait();
      continue;
    }
    const body = await res.json();
    const order = body.items?.find((o) => o.code === code);
    if (order?.status === "SUCCESS") return { settledAt: Date.parse(order.settledAt), walletPaidAt: Date.parse(order.paidAt) };
    if (order?.status === "FAILED") throw new Error(`${code} FAILED`);
    if (order?.status === "PAID" && !seenPaid) {
      seenPaid = true;
      delay = null; // the page: "money on its way: look again soon"
    }
    next = Date.now() + nextDelay();
    await wait();
  }
  throw new Error(`${code} not settled within ${GIVE_UP_MS} ms`);
}

/**
 * Withdraw confirm -> OPEN for one player (funded by the deposits above): the confirm POST
 * answers once the order is OPEN, the credit taken at the provider (its redirect goes to the
 * history; a refusal redirects back to the form).
 */
async function withdrawConfirms(player, runs) {
  const latencies = [];
  for (let i = 0; i < runs; i++) {
    const form = new URLSearchParams({ intent: "confirm", provider: "askmebet", amount: "100", idempotencyKey: randomUUID() });
    const t = performance.now();
    const res = await fetch(`${base}/player/withdraw`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: player.cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: form,
    });
    await res.arrayBuffer();
    latencies.push(performance.now() - t);
    if (!res.headers.get("Location")?.includes("/player/withdraw/history"))
      throw new Error(`withdraw confirm: HTTP ${res.status} -> ${res.headers.get("Location")}`);
  }
  return summary(latencies, latencies.reduce((a, b) => a + b, 0) / 1000);
}

/** The floor: `concurrency` clients, each sending one request after another, each to its own object. */
async function driveFloor(concurrency) {
  const total = Math.max(200, concurrency * 10);
  const latencies = [];
  let next = 0;
  const start = Date.now();
  const cpuBefore = cpuSeconds(floor.pid);
  await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      while (next < total) {
        next++;
        const t = performance.now();
        const res = await fetch(`${floorBase}/?player=p${client}`);
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`floor: HTTP ${res.status}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { ...summary(latencies, (Date.now() - start) / 1000), cpuMs: ((cpuSeconds(floor.pid) - cpuBefore) * 1000) / total };
}

/** One /proc/<pid>[/task/<tid>]/stat file: the name, the parent pid, CPU ticks (user + system, 1/100 s). */
function statOf(path) {
  const text = readFileSync(path, "utf8");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { name: text.slice(text.indexOf("(") + 1, text.lastIndexOf(")")), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
}

/**
 * The processes of the tree under `root` (root and all its descendants) with their stat;
 * null where /proc is not there (not Linux).
 */
function processTree(root) {
  let procs;
  try {
    procs = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const stats = new Map();
  for (const pid of procs) {
    try {
      stats.set(Number(pid), statOf(`/proc/${pid}/stat`));
    } catch {}
  }
  const tree = new Map();
  if (stats.has(root)) tree.set(root, stats.get(root));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, stat] of stats) {
      if (tree.has(pid) || !tree.has(stat.ppid)) continue;
      tree.set(pid, stat);
      grew = true;
    }
  }
  return tree;
}

/** CPU ticks of every thread of the process tree under `root` ("name pid/tid" -> ticks of 1/100 s). */
function threadTicks(root) {
  const ticks = new Map();
  for (const pid of processTree(root)?.keys() ?? []) {
    let tids = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {}
    for (const tid of tids) {
      try {
        const stat = statOf(`/proc/${pid}/task/${tid}/stat`);
        ticks.set(`${stat.name} ${pid}/${tid}`, stat.ticks);
      } catch {}
    }
  }
  return ticks;
}

/** The `n` threads that spent the most CPU between two threadTicks snapshots. */
function busiestThreads(before, after, n) {
  return [...after]
    .map(([name, ticks]) => ({ name, seconds: (ticks - (before.get(name) ?? 0)) / 100 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, n);
}

/**
 * CPU seconds (user + system) spent so far by a process and all its descendants, from
 * /proc/<pid>/stat (clock ticks of 1/100 s); NaN where /proc is not there (not Linux).
 * `only`: just the processes of that name in the tree ("workerd": the Workers themselves,
 * without vite preview's Node proxy in front of them).
 */
function cpuSeconds(root, only) {
  const tree = processTree(root);
  if (!tree) return NaN;
  let ticks = 0;
  for (const stat of tree.values()) if (!only || stat.name === only) ticks += stat.ticks;
  return ticks / 100;
}

function summary(latencies, seconds) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1), rate: sorted.length / seconds };
}

function print(r) {
  const s = r.settle;
  console.log(
    `${r.concurrency} player(s): paid -> credit p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, max ${ms(s.max)} over ${s.count}; ${s.rate.toFixed(1)} settled/s; ` +
      `floor ${r.floor.rate.toFixed(0)} writes/s (p50 ${ms(r.floor.p50)}, p95 ${ms(r.floor.p95)}); ratio ${((s.rate / r.floor.rate) * 100).toFixed(1)} %; ` +
      `CPU ${s.cpuMs.toFixed(0)} ms a settlement (portal + sandboxes; ${s.workerdMs.toFixed(0)} ms of it in workerd, the rest vite preview's Node proxy), floor ${r.floor.cpuMs.toFixed(1)} ms a write`,
  );
}

/**
 * N players of the demo agency with a LAK bank account and a live session, written as rows:
 * the seed's players row (one scrypt hash for all: nobody logs in with it), a bank_accounts
 * row, and a sessions row whose id_hash is the SHA-256 of the cookie value (as auth.ts stores it).
 */
function seedPlayers(count) {
  const run = randomBytes(3).toString("hex");
  const salt = randomBytes(16);
  const key = scryptSync("bench-pass-123", salt, 32, { N: 2 ** 14, r: 8, p: 5, maxmem: 64 * 1024 * 1024 });
  const hash = ["scrypt", 2 ** 14, 8, 5, salt.toString("base64"), key.toString("base64")].join("$");
  const now = Date.now();
  const list = [];
  const rows = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const username = `bs${run}${String(i).padStart(3, "0")}`;
    const session = randomBytes(32).toString("base64url");
    const idHash = createHash("sha256").update(session).digest("hex");
    const account = `09${run.slice(0, 4).replace(/[a-f]/g, (c) => String(c.charCodeAt(0) % 10))}${String(i).padStart(5, "0")}`;
    rows.push(
      `INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES ('${id}', 'demo', '${username}', 'Bench Player', '02055555555', '${hash}');`,
      `INSERT INTO bank_accounts (id, agency_id, player_id, bank_code, account_number, account_name, currency, owner) VALUES ('${randomUUID()}', 'demo', '${id}', 'BCEL', '${account}', 'Bench Player', 'LAK', 'SELF');`,
      `INSERT INTO sessions (id_hash, agency_id, player_id, created_at, last_seen_at, expires_at, user_agent, ip) VALUES ('${idHash}', 'demo', '${id}', ${now}, ${now}, ${now + 6 * 3600_000}, 'bench', '127.0.0.1');`,
    );
    list.push({ username, cookie: `session=${session}` });
  }
  const file = join(mkdtempSync(join(tmpdir(), "bench-players-")), "players.sql");
  writeFileSync(file, rows.join("\n"));
  execFileSync("npx", ["wrangler", "d1", "execute", "DB", ...stateArgs(), "--file", file], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, CI: "true" },
  });
  return list;
}

async function pool(items, size, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

function ms(value) {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`;
}

function sleep(msec) {
  return new Promise((resolve) => setTimeout(resolve, msec));
}
