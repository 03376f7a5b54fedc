// Mends one defect of the installed test pool, after every `npm ci` / `npm install`
// (package.json "postinstall"; decision 067).
//
// @cloudflare/vitest-pool-workers 0.23.0, the newest release for vitest 4 (STACK.md), wraps the
// prototype of its entry-point and Durable Object wrapper classes in one more Proxy at every
// construction (cloudflare/workers-sdk issue #15092): after N calls through `exports.default`
// or N wallets, each property read runs N nested `get` traps. Inside one test file, 100
// requests through the app took 1.4 s, then 8.4, 16.3 and 28.6 s; the same requests handed
// to the worker's fetch directly stayed at 25 ms. Upstream mended it (workers-sdk PR #15106:
// each wrapper class installs its Proxy once, still at its first construction) in releases
// that need vitest 5, which cannot be installed here. This applies the same change.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The pool's runtime-side helpers, where the wrapper classes are made. */
export function poolHelpersFile() {
  return fileURLToPath(new URL("../node_modules/@cloudflare/vitest-pool-workers/dist/worker/lib/cloudflare/test-internal.mjs", import.meta.url));
}

/** The pool's text as installed, and as mended (exported for its test). */
export const DEFECT = "\tfunction Class(...args) {\n\t\tClass.prototype = new Proxy(Class.prototype, {";
export const MENDED =
  "\tlet proxied = false;\n\tfunction Class(...args) {\n\t\tif (!proxied && (proxied = true)) Class.prototype = new Proxy(Class.prototype, {";

/** The source with the mend applied; "mended" when it already was, "unknown" when neither text is there. */
export function mendSource(source) {
  if (source.includes(MENDED)) return { state: "mended", source };
  const at = source.indexOf(DEFECT);
  if (at < 0 || source.indexOf(DEFECT, at + 1) >= 0) return { state: "unknown", source };
  return { state: "applied", source: source.replace(DEFECT, MENDED) };
}

/** Applies the mend to the installed pool; says what it did ("absent": an install without dev dependencies). */
export function patchTestPool(file = poolHelpersFile()) {
  if (!existsSync(file)) return "absent";
  const result = mendSource(readFileSync(file, "utf8"));
  if (result.state === "applied") writeFileSync(file, result.source);
  return result.state;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const state = patchTestPool();
  // Another pool version: its text differs, so the mend is not applied blindly. The script test
  // (tests/scripts/test-pool.test.ts) then fails and says so.
  if (state === "unknown") console.warn("patch-test-pool: the test pool's wrapper classes are not the known text; nothing changed");
}
