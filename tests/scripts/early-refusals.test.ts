import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_STAFF, staffSql } from "../../scripts/demo-staff.mjs";
import { ensureDevVars } from "../../scripts/dev-vars.mjs";
import { ensureBuild, localDirs, useLocalDirs, withOwnDeployConfig } from "../../scripts/local-dirs.mjs";
import { applyLocalMigrations } from "../../scripts/local-migrations.mjs";

// Decision 051: requests refused before their body is read, against the
// REAL local server of `npm start` (the production build under `vite preview`, workerd
// inside). workerd (kj's HTTP server) closes a connection whose request body was left unread
// beyond 64 KiB; vite preview's forwarder (miniflare's dispatchFetch, undici) was still
// writing that body and failed with ECONNRESET: the browser got vite's 500 "fetch failed"
// instead of the Worker's refusal. Every early refusal now reads the rest of the body first
// (workers/request-body.ts). 200 bodies: 64 KB cross-site forms (403), 64 KB of text/plain
// (415), 64 KB of JSON to the player API without a session (401), and forms above the
// channel page's limit (413, an owner's session): not one 500.
//
// The tests' build and a local state of its own, emptied first (.local/early-refusals, decision
// 055; a running `npm start` is left alone): the demo agency and owner of scripts/seed.sql and
// scripts/demo-staff.mjs.
// Port: REFUSALS_PORT (4231).

const root = join(import.meta.dirname, "../..");
const port = Number(process.env.REFUSALS_PORT ?? 4231);
const portal = `http://localhost:${port}`;
const logs = mkdtempSync(join(tmpdir(), "refusals-logs-"));
const node = join(root, "node_modules/.bin/node");
const dirs = localDirs("early-refusals", "test");
const childEnv = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true", WRANGLER_SEND_METRICS: "false" };
let server: ChildProcess | null = null;

afterAll(() => {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
});

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await probe()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (logs in ${logs})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** RFC 6238 (SHA-1, 6 digits, 30 s steps), as tests/e2e/staff.ts. */
function totpAt(secret: string, step: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of secret.replace(/=+$/, "").toUpperCase()) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", Buffer.from(bytes)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const code = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(code % 1_000_000).padStart(6, "0");
}
const currentStep = () => Math.floor(Date.now() / 30_000);

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]!);

/** The demo owner, logged in with password and a TOTP code (a step already used is refused: the next one is tried). */
async function ownerCookie(): Promise<string> {
  const boss = DEMO_STAFF.boss;
  const form = (cookie: string, fields: Record<string, string>) => ({
    method: "POST",
    redirect: "manual" as const,
    headers: { Origin: portal, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams(fields).toString(),
  });
  const first = await fetch(`${portal}/admin/login`, form("", { username: boss.username, password: boss.password, redirectTo: "/admin" }));
  expect(first.status).toBe(302);
  const pending = cookiesOf(first).join("; ");
  for (let attempt = 0; attempt < 6; attempt++) {
    const step = currentStep() + (attempt % 2);
    const res = await fetch(`${portal}/admin/login/totp`, form(pending, { code: totpAt(boss.totpSecret, step), redirectTo: "/admin" }));
    if (res.status === 302) {
      const names = new Set(cookiesOf(res).map((c) => c.split("=")[0]));
      return [...pending.split("; ").filter((c) => !names.has(c.split("=")[0])), ...cookiesOf(res)].join("; ");
    }
    if (attempt % 2 === 1) await new Promise((r) => setTimeout(r, (currentStep() + 1) * 30_000 - Date.now() + 100));
  }
  throw new Error("owner login: every TOTP code was refused");
}

describe("early refusals over the local server (vite preview + workerd)", () => {
  it("200 bodies refused before they are read: each gets its refusal, none a 500", async () => {
    const t0 = Date.now();
    ensureDevVars(join(root, ".dev.vars"));
    // the demo agency and its owner (what scripts/seed.mjs seeds, without the player and the brand)
    const wrangler = (...args: string[]) =>
      execFileSync(node, [join(root, "node_modules/.bin/wrangler"), ...args], { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: childEnv });
    useLocalDirs(dirs);
    rmSync(join(root, dirs.state), { recursive: true, force: true });
    applyLocalMigrations(["--local", "--persist-to", dirs.state]);
    const staffFile = join(logs, "staff.sql");
    writeFileSync(staffFile, `${readFileSync(join(root, "scripts/seed.sql"), "utf8")}\n${staffSql("demo", [DEMO_STAFF.boss])}`);
    wrangler("d1", "execute", "DB", "--local", "--persist-to", dirs.state, "--file", staffFile);
    ensureBuild({ stdio: "ignore" });
    const prepared = Date.now();
    const out = openSync(join(logs, "preview.log"), "a");
    await withOwnDeployConfig(async () => {
      server = spawn(node, [join(root, "node_modules/.bin/vite"), "preview", "--port", String(port), "--strictPort"], {
        cwd: root,
        env: { ...childEnv, PORTAL_BUILD_DIR: dirs.build, PORTAL_STATE_DIR: dirs.state },
        detached: true,
        stdio: ["ignore", out, out],
      });
      await until(portal, async () => (await fetch(`${portal}/login`)).status === 200);
    });
    const started = Date.now();

    const owner = await ownerCookie();
    const KB64 = "a".repeat(64 * 1024);
    // app/routes/admin/channels.tsx: MAX_BODY_BYTES = the 2 MiB image + 64 KiB of envelope
    const oversized = "qrText=" + "a".repeat(2 * 1024 * 1024 + 64 * 1024);
    const kinds = {
      "cross-site form 403": {
        status: 403,
        send: () =>
          fetch(`${portal}/player/cashback`, {
            method: "POST",
            redirect: "manual",
            headers: { Origin: "https://elsewhere.example", "Content-Type": "application/x-www-form-urlencoded" },
            body: `note=${KB64}`,
          }),
      },
      "text/plain 415": {
        status: 415,
        send: () =>
          fetch(`${portal}/player/cashback`, { method: "POST", redirect: "manual", headers: { Origin: portal, "Content-Type": "text/plain" }, body: KB64 }),
      },
      "API without a session 401": {
        status: 401,
        send: () =>
          fetch(`${portal}/api/v2/players/security/password/change`, {
            method: "POST",
            redirect: "manual",
            headers: { Origin: portal, "Content-Type": "application/json" },
            body: JSON.stringify({ pad: KB64 }),
          }),
      },
      "oversized channel form 413": {
        status: 413,
        send: () =>
          fetch(`${portal}/admin/settings/channels`, {
            method: "POST",
            redirect: "manual",
            headers: { Origin: portal, "Content-Type": "application/x-www-form-urlencoded", Cookie: owner },
            body: oversized,
          }),
      },
    };
    const plan: (keyof typeof kinds)[] = [];
    for (let i = 0; i < 200; i++)
      plan.push(i % 10 < 7 ? "cross-site form 403" : (["text/plain 415", "API without a session 401", "oversized channel form 413"] as const)[(i % 10) - 7]!);
    const seen = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < plan.length) {
          const kind = plan[next++]!;
          let outcome: string;
          try {
            const res = await kinds[kind].send();
            await res.arrayBuffer();
            outcome = `${kind}: ${res.status}`;
          } catch (error) {
            outcome = `${kind}: ${String((error as Error).cause ?? error)}`;
          }
          seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
        }
      }),
    );
    const done = Date.now();
    const counts = Object.fromEntries([...seen].sort());
    console.log(
      `early refusals: ${JSON.stringify(counts)}; prepare (seed + build) ${prepared - t0} ms, start ${started - prepared} ms, 200 bodies ${done - started} ms`,
    );
    const errors = [...seen].filter(([outcome]) => / 500$/.test(outcome)).reduce((n, [, c]) => n + c, 0);
    if (errors > 0)
      console.log(
        readFileSync(join(logs, "preview.log"), "utf8")
          .split("\n")
          .filter((l) => /fetch failed|ECONNRESET|other side closed/.test(l))
          .slice(0, 5)
          .join("\n"),
      );
    expect(errors, "answers 500").toBe(0);
    const expected = Object.fromEntries(Object.entries(kinds).map(([kind, k]) => [`${kind}: ${k.status}`, plan.filter((p) => p === kind).length]));
    expect(counts).toEqual(Object.fromEntries(Object.entries(expected).sort()));
  }, 180_000);
});
