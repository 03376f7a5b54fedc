// Seeds a local D1 (stateDir(): .wrangler/state for `npm start`, a test's own folder for it) in
// one wrangler call. Each `wrangler d1 execute` starts a runtime of its own (about 3 s of CPU
// here): the e2e server's seed made nine of them in a row (migrations two, then seed.sql, the
// player, the staff, the brand, the alerts, the e2e agencies, the own-account agencies). The
// migrations keep their two calls (scripts/local-migrations.mjs); every seed's SQL then goes in
// one file, in the order given, and the brand images into the local bucket through one runtime.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { putLocalBrandObjects } from "./brand-seed.mjs";
import { stateArgs } from "./local-dirs.mjs";
import { applyLocalMigrations } from "./local-migrations.mjs";

/**
 * The seeds by name: each a module whose `seed()` returns `{ sql, assets }` (assets: brand
 * images for the local bucket). Idempotent: every row is INSERT OR IGNORE or keyed.
 */
const SEEDS = {
  demo: () => import("./seed.mjs"),
  e2e: () => import("./seed-e2e.mjs"),
  "e2e-own-account": () => import("./seed-e2e-own-account.mjs"),
};

/**
 * Applies the migrations, then the seeds (in order) to this process's local state. A seed is a
 * name of SEEDS or a function returning `{ sql, assets }` (seed.mjs run as a script passes its
 * own: a module importing itself while its top level awaits would wait for itself).
 */
export async function seedLocal(seedsToApply) {
  applyLocalMigrations(stateArgs());
  const seeds = [];
  for (const entry of seedsToApply) {
    if (typeof entry === "function") seeds.push(await entry());
    else if (SEEDS[entry]) seeds.push(await (await SEEDS[entry]()).seed());
    else throw new Error(`no seed named ${entry} (known: ${Object.keys(SEEDS).join(", ")})`);
  }
  const assets = seeds.flatMap((s) => s.assets);
  if (assets.length > 0) await putLocalBrandObjects(assets);
  const dir = mkdtempSync(join(tmpdir(), "seed-"));
  try {
    const file = join(dir, "seed.sql");
    writeFileSync(file, seeds.map((s) => s.sql).join("\n"));
    execFileSync("npx", ["wrangler", "d1", "execute", "DB", ...stateArgs(), "--file", file], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// `node scripts/local-seed.mjs demo e2e ...`: what startLocalPortal runs
if (import.meta.url === `file://${process.argv[1]}`) await seedLocal(process.argv.slice(2));
