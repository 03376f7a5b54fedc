// `npm test` begins with `node scripts/start-dirs.mjs --record` and ends with `--check`
// (decision 055): no test, bench or rehearsal writes what `npm start` serves. The check fails
// when build/, dist/ (the sandboxes' build) or .wrangler/deploy/config.json (how vite preview
// and wrangler find build/) changed while the tests ran, and, in CI, .wrangler/state: locally a
// running `npm start` may write its own state while you use it.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const RECORD = join(".local", "start-dirs.json");

/** One fingerprint per path: its files' names, sizes and times ("absent" when it is not there). */
export function fingerprints(paths = startPaths()) {
  return Object.fromEntries(paths.map((path) => [path, fingerprint(path)]));
}

function startPaths() {
  return ["build", "dist", join(".wrangler", "deploy", "config.json"), ...(process.env.CI ? [join(".wrangler", "state")] : [])];
}

function fingerprint(path) {
  if (!existsSync(path)) return "absent";
  const hash = createHash("sha256");
  const walk = (p) => {
    const stat = statSync(p);
    if (stat.isDirectory()) for (const entry of readdirSync(p).sort()) walk(join(p, entry));
    else hash.update(`${p}\0${stat.size}\0${stat.mtimeMs}\n`);
  };
  walk(path);
  return hash.digest("hex");
}

/** The paths whose fingerprint differs between two records. */
export function changed(before, after) {
  return Object.keys(before).filter((path) => before[path] !== after[path]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--record")) {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(".local", { recursive: true });
    writeFileSync(RECORD, JSON.stringify(fingerprints()));
  } else {
    const before = JSON.parse(readFileSync(RECORD, "utf8"));
    const moved = changed(before, fingerprints(Object.keys(before)));
    if (moved.length) {
      console.error(`npm start's files changed while the tests ran (decision 055): ${moved.join(", ")}`);
      process.exit(1);
    }
    console.log(
      `npm start's files untouched by the tests: ${Object.keys(before)
        .map((p) => `${p} (${before[p] === "absent" ? "absent" : "same"})`)
        .join(", ")}`,
    );
  }
}
