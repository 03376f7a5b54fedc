import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureDevVars } from "../../scripts/dev-vars.mjs";
import { ensureBuild, localDirs, useLocalDirs } from "../../scripts/local-dirs.mjs";
import { applyLocalMigrations } from "../../scripts/local-migrations.mjs";

// Decision 012 (alarms armed with the writes), with a REAL restart: the portal's Worker process (workerd under
// `wrangler dev`, on the production build) is killed with SIGKILL while a deposit is PAID
// and its transfer-in keeps failing (a sandbox provider fault), then started again on the
// same persisted state. The order must settle, once, woken by its persisted alarm or by the
// cron (`/cdn-cgi/local/scheduled`, which wrangler dev and vite preview both serve).
//
// The sandbox provider and bank run as their own `wrangler dev` processes (their own ports,
// so the test can set faults; the portal reaches them by service binding through a dev
// registry of this test's own). Only the portal process is killed. The tests' build and a
// local state of its own, emptied first (.local/restart, decision 055): a running `npm start`
// is left alone. Ports: RESTART_PORT (4201), +10, +11.

const root = join(import.meta.dirname, "../..");
const port = Number(process.env.RESTART_PORT ?? 4201);
const portal = `http://localhost:${port}`;
const provider = `http://localhost:${port + 10}`;
const bank = `http://localhost:${port + 11}`;
const registry = mkdtempSync(join(tmpdir(), "restart-registry-"));
const logs = mkdtempSync(join(tmpdir(), "restart-logs-"));
const PROVIDER_AUTH = `Basic ${Buffer.from("demo-agent:sandbox-provider-secret-demo-0001").toString("base64")}`;
const running: ChildProcess[] = [];
// wrangler needs the Node of the project (devDependency "node"), not whatever is on PATH
const node = join(root, "node_modules/.bin/node");
const wranglerBin = join(root, "node_modules/.bin/wrangler");
const dirs = localDirs("restart", "test");
const childEnv = { ...process.env, WRANGLER_REGISTRY_PATH: registry, CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true", WRANGLER_SEND_METRICS: "false" };

function wrangler(...args: string[]) {
  execFileSync(node, [wranglerBin, ...args], { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: childEnv });
}

/** `wrangler dev` in its own process group, so SIGKILL takes workerd down with it. */
function start(name: string, config: string, workerPort: number, ...extra: string[]): ChildProcess {
  const out = openSync(join(logs, `${name}.log`), "a");
  const child = spawn(
    node,
    [wranglerBin, "dev", "-c", join(dirs.build, config), "--port", String(workerPort), "--inspector-port", "0", "--persist-to", dirs.state, ...extra],
    {
      cwd: root,
      env: childEnv,
      detached: true,
      stdio: ["ignore", out, out],
    },
  );
  running.push(child);
  return child;
}

function kill(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (logs in ${logs})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const ready = (url: string) => until(url, async () => (await fetch(url)).status < 500);

function startPortal() {
  return start("portal", "server/wrangler.json", port);
}

afterAll(() => {
  for (const child of running) kill(child, "SIGTERM");
});

describe("a deposit PAID when the Worker process dies settles once after a restart", () => {
  it("SIGKILL between PAID and the transfer-in; restart; the credit lands exactly once", async () => {
    const t0 = Date.now();
    ensureDevVars(join(root, ".dev.vars"));
    useLocalDirs(dirs);
    ensureBuild({ stdio: "ignore" });
    copyFileSync(join(root, ".dev.vars"), join(root, dirs.build, "server/.dev.vars")); // wrangler reads secrets beside the config
    rmSync(join(root, dirs.state), { recursive: true, force: true });
    applyLocalMigrations(["--local", "--persist-to", dirs.state]);
    wrangler("d1", "execute", "DB", "--local", "--persist-to", dirs.state, "--file", "scripts/seed.sql");
    const prepared = Date.now();
    // One after another: the three share the state folder, and workerd processes opening it at
    // the same moment can lose the race for its SQLite files (CI, 2026-11-27: the provider's
    // workerd died at start with "database is locked: SQLITE_BUSY" and /health never answered).
    start("provider", "sandbox_provider/wrangler.json", port + 10);
    await ready(`${provider}/health`);
    start("bank", "sandbox_bank/wrangler.json", port + 11);
    await ready(`${bank}/health`);
    let worker = startPortal();
    await ready(`${portal}/login`);
    const started = Date.now();

    // a player with a bank account, logged in
    const username = `rs${Date.now().toString(36)}`;
    const password = "restart-pass-123";
    const json = { "Content-Type": "application/json", Origin: portal };
    const reg = await fetch(`${portal}/api/v2/players/register`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ username, password, confirmPassword: password, phone: "02055551234", adult: true }),
    });
    expect(reg.status).toBe(201);
    const login = await fetch(`${portal}/api/v2/players/login`, { method: "POST", headers: json, body: JSON.stringify({ username, password }) });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const form = (fields: Record<string, string>) => ({
      method: "POST",
      redirect: "manual" as const,
      headers: { Cookie: cookie, Origin: portal, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    const account = await fetch(
      `${portal}/player/bank`,
      form({ bankCode: "BCEL", accountNumber: `0101${String(Date.now()).slice(-9)}`, accountName: "Restart Player", currency: "LAK", owner: "SELF" }),
    );
    expect(account.status).toBeLessThan(400);

    // the provider refuses every transfer-in for now (nothing applied: error-before)
    const providerUser = `demo_${username}`;
    const fault = await fetch(`${provider}/sandbox/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ op: "deposit", mode: "error-before", username: providerUser }),
    });
    expect(fault.status).toBe(201);

    // a deposit, paid at the bank; the bank's webhook makes it PAID
    const created = await fetch(
      `${portal}/player/deposit`,
      form({ intent: "create", provider: "askmebet", channelCode: "BCEL-QR", amount: "60000", idempotencyKey: crypto.randomUUID() }),
    );
    expect(created.status).toBe(302);
    const page = await (await fetch(`${portal}/player/deposit`, { headers: { Cookie: cookie } })).text();
    const payload = /data-testid="qr-payload"[^>]*>([^<]+)</.exec(page)?.[1]?.trim();
    expect(payload).toBeTruthy();
    const paid = await fetch(`${bank}/sandbox/pay`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ payload }) });
    expect(paid.status).toBe(200);
    const code = ((await paid.json()) as { data: { reference: string } }).data.reference;
    const deposit = async () => {
      const list = (await (await fetch(`${portal}/api/v2/players/deposits`, { headers: { Cookie: cookie } })).json()) as {
        items: { code: string; status: string }[];
      };
      return list.items.find((o) => o.code === code) ?? null;
    };
    await until("PAID", async () => (await deposit())?.status === "PAID");

    // the Worker process dies while the order is PAID and its transfer-in has not landed
    kill(worker, "SIGKILL");
    await until("the portal to be down", async () => {
      try {
        await fetch(`${portal}/login`);
        return false;
      } catch {
        return true;
      }
    });
    const balance = async () => {
      const res = await fetch(`${provider}/api/askmebet/balance?username=${providerUser}`, { headers: { Authorization: PROVIDER_AUTH } });
      return ((await res.json()) as { data: { balance: string } }).data.balance;
    };
    expect(await balance()).toBe("0.00");

    // the provider recovers; the Worker starts again on the same state; the cron runs
    await fetch(`${provider}/sandbox/faults?username=${providerUser}`, { method: "DELETE" });
    worker = startPortal();
    await ready(`${portal}/login`);
    const cron = await fetch(`${portal}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    expect(cron.status).toBe(200);
    await until("SUCCESS", async () => (await deposit())?.status === "SUCCESS", 90_000);
    const settled = Date.now();
    expect(await balance()).toBe("100.00");
    // once: a second cron and a moment later, still one credit
    await fetch(`${portal}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await balance()).toBe("100.00");
    console.log(
      `restart test: prepare (build + D1) ${prepared - t0} ms, start ${started - prepared} ms, deposit to settled across the restart ${settled - started} ms`,
    );
  }, 300_000);
});
