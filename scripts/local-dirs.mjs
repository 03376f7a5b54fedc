// Where a local portal keeps its production build and its local state (D1, R2, Durable
// Objects). `npm start` keeps build/ and .wrangler/state. Every test, bench and rehearsal that
// builds or seeds takes a pair of its own under .local/<name>/ (decision 055), so running one
// never replaces the files under a running `npm start` (its /sw.js, fonts and assets answered
// 500 until a restart) nor reseeds its D1.
//
// The pair travels in two environment variables, inherited by child processes:
// PORTAL_BUILD_DIR (react-router.config.ts's buildDirectory) and PORTAL_STATE_DIR (vite.config.ts's
// persistState for `vite preview`, and `--persist-to` of every local wrangler call: stateArgs()).
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureDevVars } from "./dev-vars.mjs";

export const START_DIRS = { build: "build", state: ".wrangler/state" };

/** A path of the project (these scripts also run from tests whose working folder may differ). */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const at = (path) => resolve(ROOT, path);

/**
 * The build and state folders of a test, bench or rehearsal named `name`. The tests that serve
 * the portal (the e2e server, the script tests) share one build, `buildName` "test": made once
 * per change of the sources (ensureBuild), each on its own state.
 */
export function localDirs(name, buildName = name) {
  return { build: join(".local", buildName, "build"), state: join(".local", name, "state") };
}

/** This process and its children use `dirs` (what localDirs returns). */
export function useLocalDirs(dirs) {
  process.env.PORTAL_BUILD_DIR = dirs.build;
  process.env.PORTAL_STATE_DIR = dirs.state;
  return dirs;
}

export const buildDir = () => process.env.PORTAL_BUILD_DIR || START_DIRS.build;
export const stateDir = () => process.env.PORTAL_STATE_DIR || START_DIRS.state;

/** `--local --persist-to <state>`: a wrangler d1/r2 command on this process's local state. */
export const stateArgs = () => ["--local", "--persist-to", stateDir()];

/**
 * `vite preview` finds the build to serve through `.wrangler/deploy/config.json`, which every
 * `react-router build` rewrites to point at its own output (@cloudflare/vite-plugin). A build
 * into another folder keeps its copy beside itself and puts back the one it found, so `npm
 * start`, `wrangler deploy` and `vite preview` keep meaning build/.
 */
const DEPLOY_CONFIG = at(join(".wrangler", "deploy", "config.json"));
const deployCopy = (dir) => at(join(dir, "deploy-config.json"));

function readIfThere(path) {
  return existsSync(path) ? readFileSync(path) : null;
}

function putBack(path, content) {
  if (content === null) rmSync(path, { force: true });
  else writeFileSync(path, content);
}

/** The sources a build is made of: their paths, sizes and times, hashed. */
function sourcesStamp(extra) {
  const hash = createHash("sha256").update(JSON.stringify(extra));
  const walk = (path) => {
    if (!existsSync(at(path))) return;
    const stat = statSync(at(path));
    if (stat.isDirectory()) for (const entry of readdirSync(at(path)).sort()) walk(join(path, entry));
    else hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
  };
  for (const path of [
    "app",
    "workers",
    "public",
    "locales",
    "package-lock.json",
    "vite.config.ts",
    "react-router.config.ts",
    "wrangler.toml",
    "tsconfig.json",
    ".dev.vars",
  ])
    walk(path);
  return hash.digest("hex");
}

/**
 * A production build in buildDir() (not build/), made unless one of the same sources is
 * already there: the e2e server and the script tests that serve the portal share one build
 * per change. `env` adds to the build's environment (CLOUDFLARE_ENV for the rehearsal).
 */
export function ensureBuild({ env = {}, stdio = "inherit" } = {}) {
  const dir = buildDir();
  if (dir === START_DIRS.build) throw new Error("ensureBuild builds beside npm start, not into build/: call useLocalDirs first");
  const stampFile = at(join(dir, ".sources"));
  // an unminified build for a profile (PROFILE_UNMINIFIED, vite.config.ts) is another build
  const stamp = sourcesStamp({ ...env, PROFILE_UNMINIFIED: process.env.PROFILE_UNMINIFIED ?? "" });
  return underLock(at(`${dir}.lock`), () => {
    if (readIfThere(stampFile)?.toString() === stamp && existsSync(deployCopy(dir))) return { built: false, dir };
    const before = readIfThere(DEPLOY_CONFIG);
    try {
      rmSync(stampFile, { force: true });
      execFileSync("npx", ["react-router", "build"], { cwd: ROOT, stdio, env: { ...buildEnv(), ...env, PORTAL_BUILD_DIR: dir } });
      copyFileSync(DEPLOY_CONFIG, deployCopy(dir));
    } finally {
      putBack(DEPLOY_CONFIG, before);
    }
    writeFileSync(stampFile, stamp);
    return { built: true, dir };
  });
}

/**
 * The environment of a build as `npm start` makes it: a test runner's own variables left out.
 * A build made from inside vitest inherited NODE_ENV=test, and the e2e server then served it:
 * React hydrated the admin pages against a different stylesheet link (`nonce=""`) and every
 * admin test failed with console errors (a clean clone, 2026-11-27).
 */
const TEST_RUNNER_ENV = ["NODE_ENV", "TEST", "MODE", "DEV", "PROD", "SSR", "BASE_URL"]; // what vitest sets, besides VITEST*
export function buildEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("VITEST") || TEST_RUNNER_ENV.includes(key)) delete env[key];
  return env;
}

/** `fn` while holding a lock folder (two test processes asking for the same build at once). */
function underLock(lock, fn) {
  mkdirSync(join(lock, ".."), { recursive: true });
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      // a lock older than ten minutes was left by a killed process
      if (waited > 600_000 || Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Runs `fn` while `.wrangler/deploy/config.json` points at buildDir() (wrangler deploy --dry-run,
 * check startup, dev and `vite preview` find the build through it), then puts the file back:
 * for a server, `fn` resolves once it answers (it read the file long before). Only a server
 * starting in the same seconds could read the other's build.
 */
export function withOwnDeployConfig(fn) {
  if (buildDir() === START_DIRS.build) return fn();
  const before = readIfThere(DEPLOY_CONFIG);
  mkdirSync(at(join(".wrangler", "deploy")), { recursive: true });
  copyFileSync(deployCopy(buildDir()), DEPLOY_CONFIG);
  let result;
  try {
    result = fn();
  } catch (error) {
    putBack(DEPLOY_CONFIG, before);
    throw error;
  }
  if (!(result instanceof Promise)) {
    putBack(DEPLOY_CONFIG, before);
    return result;
  }
  return result.finally(() => putBack(DEPLOY_CONFIG, before));
}

/** Until `url` answers, or `child` (the server) exits. */
export async function waitForAnswer(url, child, timeoutMs = 180_000) {
  for (let waited = 0; waited < timeoutMs; waited += 250) {
    if (child && child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before ${url} answered`);
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer in ${timeoutMs / 1000} s`);
}

/**
 * The local portal of a test or bench: the demo agency seeded into its own state, the build
 * (ensureBuild), `vite preview` on `port`, resolved once it answers. `name`/`buildName` as in
 * localDirs; `seed` the seeds of its state (scripts/local-seed.mjs); `prepare` runs before the server starts;
 * `env` adds to the server's environment; `detached` puts it in its own process group.
 * `server: "workerd"` serves the build from workerd alone, without `vite preview`'s Node server
 * in front (scripts/workerd-portal.mjs; the e2e server).
 */
export async function startLocalPortal({
  name,
  buildName = name,
  port,
  stdio = "inherit",
  env = {},
  detached = false,
  seed = ["demo"],
  prepare = () => {},
  server: kind = "vite-preview",
}) {
  ensureDevVars();
  useLocalDirs(localDirs(name, buildName));
  // a process of its own: the seed's runtime for the brand images (getPlatformProxy) then
  // shares nothing with the server's
  execFileSync("node", [at("scripts/local-seed.mjs"), ...seed], { stdio });
  ensureBuild({ stdio });
  prepare();
  return withOwnDeployConfig(async () => {
    const [command, args] =
      kind === "workerd" ? ["node", [at("scripts/workerd-portal.mjs"), String(port)]] : ["npx", ["vite", "preview", "--port", String(port), "--strictPort"]];
    const server = spawn(command, args, {
      stdio,
      detached,
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", ...env },
    });
    await waitForAnswer(`http://localhost:${port}/api/v2/agency/info`, server);
    return server;
  });
}
