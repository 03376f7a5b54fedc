// The D1 migrations applied to a LOCAL database in two wrangler calls (decision 063).
// `wrangler d1 migrations apply --local` runs each migration in a runtime of its own: with 34
// migrations a fresh local database took 34 s (about 1 s a migration; 4 s when none is
// pending), and `npm start`, the e2e server, `agency:create`, the rehearsal and two script
// tests each start from an empty one. This writes exactly what wrangler writes, wrangler's
// bookkeeping table (`d1_migrations`) included, so `wrangler d1 migrations apply` and `list`
// afterwards find nothing to apply: one call lists what is applied, one `d1 execute --file`
// runs every pending migration followed by its bookkeeping row, as wrangler's apply does for
// each. A remote database (`agency:create --remote`, `wrangler deploy`) still goes through
// wrangler's own `migrations apply`. After the migrations, `PRAGMA optimize` (decision 075):
// a migration that adds an index leaves the query planner without its statistics.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** wrangler.toml's `migrations_dir` of every environment's DB. */
export const MIGRATIONS_DIR = join(ROOT, "workers", "db", "migrations");

// The texts wrangler 4 uses (wrangler-dist/cli.js: getCreateMigrationsTableQuery and
// buildMigrationQuery), with its default table name.
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "d1_migrations"(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`;

/** What runs after the migrations: the planner's statistics for the new indexes (D1 recommends it after creating one). */
export const OPTIMIZE = "PRAGMA optimize;";

/** One migration as wrangler applies it: its text, then its bookkeeping row. */
export function migrationQuery(name, text) {
  return `${text}\nINSERT INTO "d1_migrations" (name)\nvalues ('${name.replace(/'/g, "''")}');`;
}

/** The migration files in the order wrangler applies them. */
export function migrationFiles() {
  return readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith(".sql"))
    .sort();
}

/**
 * Applies the pending migrations to the local D1 `DB` that `target` names (`["--local",
 * "--persist-to", dir]`, with `"--env", name` for an environment's block) and returns their
 * names. `env` adds to wrangler's environment.
 */
export function applyLocalMigrations(target, { env = {} } = {}) {
  if (!target.includes("--local")) throw new Error("applyLocalMigrations is for a local database; a remote one takes `wrangler d1 migrations apply`");
  const wrangler = (args) =>
    // npx: wrangler's `env node` then finds the project's Node 24 (node_modules/.bin) first
    execFileSync("npx", ["wrangler", "d1", "execute", "DB", ...target, ...args], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", ...env },
      maxBuffer: 16 * 1024 * 1024,
    });
  const listed = wrangler(["--command", `${CREATE_TABLE}\nSELECT name FROM "d1_migrations" ORDER BY id;`, "--json"]);
  const results = JSON.parse(listed.slice(listed.indexOf("[")));
  const applied = new Set(results.at(-1).results.map((row) => row.name));
  const pending = migrationFiles().filter((name) => !applied.has(name));
  if (pending.length === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), "migrations-"));
  try {
    const file = join(dir, "pending.sql");
    const migrations = pending.map((name) => migrationQuery(name, readFileSync(join(MIGRATIONS_DIR, name), "utf8")));
    writeFileSync(file, [...migrations, OPTIMIZE].join("\n"));
    wrangler(["--file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return pending;
}
