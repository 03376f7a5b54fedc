import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyLocalMigrations, MIGRATIONS_DIR, migrationFiles } from "../../scripts/local-migrations.mjs";

/**
 * The local migrations in one go (decision 063) leave what `wrangler d1 migrations apply`
 * leaves: wrangler's own `list` and `apply` find nothing pending afterwards, every table and
 * index the migrations create is there, and a second run applies nothing. (The schema itself
 * was compared with wrangler's apply, statement by statement, when this was written:
 * docs/measurements.md.)
 */
const dir = mkdtempSync(join(tmpdir(), "local-migrations-"));
const target = ["--local", "--persist-to", dir];
const wrangler = (...args: string[]) =>
  execFileSync("npx", ["wrangler", ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
  });

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("local migrations in one wrangler call", () => {
  it("a fresh database gets every migration, in order, as wrangler's bookkeeping records them; wrangler finds nothing left", () => {
    expect(applyLocalMigrations(target)).toEqual(migrationFiles());
    expect(wrangler("d1", "migrations", "list", "DB", ...target)).toContain("No migrations to apply");
    const out = wrangler(
      "d1",
      "execute",
      "DB",
      ...target,
      "--json",
      "--command",
      `SELECT name FROM d1_migrations ORDER BY id; SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index', 'trigger');`,
    );
    const [bookkept, objects] = JSON.parse(out.slice(out.indexOf("["))) as [{ results: { name: string }[] }, { results: { type: string; name: string }[] }];
    expect(bookkept.results.map((row) => row.name)).toEqual(migrationFiles());
    const present = new Set(objects.results.map((row) => `${row.type} ${row.name}`));
    const created = migrationFiles().flatMap((file) =>
      [
        ...readFileSync(join(MIGRATIONS_DIR, file), "utf8").matchAll(/CREATE\s+(TABLE|(?:UNIQUE\s+)?INDEX|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?["`]?(\w+)/gi),
      ].map(([, kind, name]) => `${/TABLE/i.test(kind) ? "table" : /TRIGGER/i.test(kind) ? "trigger" : "index"} ${name}`),
    );
    // tables a later migration drops, or rebuilds under a new name and renames back
    const migrationsText = migrationFiles()
      .map((file) => readFileSync(join(MIGRATIONS_DIR, file), "utf8"))
      .join("\n");
    const gone = [
      ...[...migrationsText.matchAll(/DROP\s+(?:TABLE|INDEX|TRIGGER)\s+(?:IF\s+EXISTS\s+)?["`]?(\w+)/gi)].map(([, name]) => name),
      ...[...migrationsText.matchAll(/ALTER\s+TABLE\s+["`]?(\w+)["`]?\s+RENAME\s+TO/gi)].map(([, name]) => name),
    ];
    const missing = created.filter((object) => !present.has(object) && !gone.includes(object.split(" ")[1]));
    expect(created.length).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });

  it("a second run applies nothing", () => {
    expect(applyLocalMigrations(target)).toEqual([]);
  });

  it("refuses a remote database (that one takes wrangler's own apply)", () => {
    expect(() => applyLocalMigrations(["--remote"])).toThrow(/local database/);
  });
});
