// The Worker's upload size as Cloudflare counts it (decision 023): wrangler's own
// dry run of the last `react-router build`, which prints "Total Upload: X KiB / gzip: Y KiB".
// Deterministic for a given build, so CI checks it (scripts/rehearsal.mjs, on the production
// build); `npm run bench` prints it with the startup profile.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withOwnDeployConfig } from "./local-dirs.mjs";

/** Budget for the gzip upload size, KiB (decision 023: today's size plus a little headroom). */
export const WORKER_GZIP_BUDGET_KIB = 580; // decisions 079, 092 (won back rather than raised); before it 560 KiB (054), 540 KiB once minified (031), 750 KiB unminified (023)

/**
 * @param {{ env?: string }} [options] the wrangler environment the build was made for
 * @returns {{ uploadKiB: number, gzipKiB: number }}
 */
export function workerSize({ env } = {}) {
  return withOwnDeployConfig(() => dryRunSize(env));
}

function dryRunSize(env) {
  const outdir = mkdtempSync(join(tmpdir(), "worker-size-"));
  try {
    const args = ["wrangler", "deploy", "--dry-run", "--outdir", outdir, ...(env ? ["--env", env] : [])];
    const output = execFileSync("npx", args, {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    });
    const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
    if (!match) throw new Error(`wrangler deploy --dry-run printed no upload size:\n${output}`);
    return { uploadKiB: Number(match[1]), gzipKiB: Number(match[2]) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * Startup of the built Worker in local workerd (`wrangler check startup`): the CPU time of its
 * global scope. Machine-dependent, so printed by the bench, never checked.
 * @returns {{ activeMs: number | null, output: string }}
 */
export function workerStartup() {
  return withOwnDeployConfig(checkStartup);
}

function checkStartup() {
  const dir = mkdtempSync(join(tmpdir(), "worker-startup-"));
  try {
    const output = execFileSync("npx", ["wrangler", "check", "startup", "--outfile", join(dir, "startup.cpuprofile")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    });
    const active = /Active: ([\d.]+) ms/.exec(output);
    return { activeMs: active ? Number(active[1]) : null, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
