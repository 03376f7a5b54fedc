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
 * The seeds by name: each a module whose `seed()` returns `{ sql, assets, notes? }` (assets:
 * brand images for the local bucket; notes: lines printed once it is applied). Idempotent:
 * every row is INSERT OR IGNORE or keyed. The seed modules import nothing of this one.
 */
const SEEDS = {
  demo: () => import("./seed.mjs"),
  e2e: () => import("./seed-e2e.mjs"),
  "e2e-own-account": () => import("./seed-e2e-own-account.mjs"),
};

/**
 * Applies the migrations, then the seeds named (in order) to this process's local state;
 * resolves to the seeds' notes.
 */
async function seedLocal(names) {
  const unknown = names.filter((name) => !Object.hasOwn(SEEDS, name));
  if (unknown.length > 0) throw new Error(`no seed named ${unknown.join(", ")} (known: ${Object.keys(SEEDS).join(", ")})`);
  applyLocalMigrations(stateArgs());
  const seeds = [];
  for (const name of names) seeds.push(await (await SEEDS[name]()).seed());
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
  return seeds.flatMap((s) => s.notes ?? []);
}

// `node scripts/local-seed.mjs demo e2e ...`: what startLocalPortal runs; `npm start` and
// `npm run db:seed` run it with `demo`.
const USAGE = `usage: node scripts/local-seed.mjs <seed>... (seeds: ${Object.keys(SEEDS).join(", ")}); npm run db:seed seeds the demo agency`;
if (import.meta.url === `file://${process.argv[1]}`) {
  const names = process.argv.slice(2);
  if (names.length === 0 || names.includes("--help") || names.includes("-h")) {
    console.log(USAGE);
    process.exit(names.length === 0 ? 1 : 0);
  }
  for (const note of await seedLocal(names)) console.log(note);
}
