import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * No e2e spec or helper opens the e2e server's D1 from another process while the server runs.
 * `wrangler d1 execute --local` (or any other process on the SQLite file under .wrangler/state)
 * holds the file's lock for its statement; the server's D1 does not wait for it and answers
 * SQLITE_BUSY, a 500 in whatever spec the other Playwright worker runs at that moment (forwarder
 * and layout specs flaked so in CI, note-s24). Static rows go into scripts/seed-e2e.mjs (before
 * the server starts); rows a spec must write while it runs go through the server's own workerd
 * (tests/e2e/d1.ts, Miniflare's local explorer, which scripts/e2e-server.mjs turns on).
 */

/** What starts a second process or opens the database file itself. */
const EXTERNAL_ACCESS: Array<[string, RegExp]> = [
  ["a child process (wrangler, sqlite3, ...)", /\bchild_process\b|\bexeca\b|\bBun\.spawn\b/],
  ["wrangler's own workerd on the same state", /\bgetPlatformProxy\b|\bunstable_dev\b|new\s+Miniflare\b/],
  ["wrangler d1 execute as arguments", /["'`]d1["'`]\s*,\s*["'`]execute["'`]/],
  ["the SQLite file opened directly", /\bnode:sqlite\b|\bbetter-sqlite3\b|\.sqlite["'`]/],
];

function violations(source: string): string[] {
  return EXTERNAL_ACCESS.filter(([, pattern]) => pattern.test(source)).map(([what]) => what);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return /\.(ts|mts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

describe("e2e specs write the server's D1 only through the server", () => {
  it("catches what the specs did before (the check can fail)", () => {
    // statements.spec and d1.ts before this check, forwarder.spec's beforeAll
    expect(violations(`import { execFileSync } from "node:child_process";`)).toHaveLength(1);
    expect(violations(`execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--json", "--command", sql])`)).toEqual([
      "wrangler d1 execute as arguments",
    ]);
    expect(violations(`const { getPlatformProxy } = await import("wrangler");`)).toHaveLength(1);
    expect(violations(`new DatabaseSync(".wrangler/state/v3/d1/miniflare-D1DatabaseObject/x.sqlite")`)).toHaveLength(1);
    // the way that stays: a fetch to the running server, and a comment that names the old way
    expect(violations(`// never \`wrangler d1 execute --local\` while the server runs\nawait fetch(url, { method: "POST" });`)).toEqual([]);
  });

  it("no file under tests/e2e reaches the database from another process", () => {
    const files = filesUnder("tests/e2e");
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) => violations(readFileSync(file, "utf8")).map((what) => `${file}: ${what}`));
    expect(found).toEqual([]);
  });

  it("the e2e server runs with the path tests/e2e/d1.ts writes through", () => {
    expect(readFileSync("scripts/e2e-server.mjs", "utf8")).toMatch(/X_LOCAL_EXPLORER: "true"/);
    expect(readFileSync("tests/e2e/d1.ts", "utf8")).toContain("/cdn-cgi/local/explorer/api/d1/database");
  });
});
