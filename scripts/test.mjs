// `npm test`: every check and test of the project (decision 062). On a 2-core machine the
// phases do not use both cores all the time: the script tests and the rehearsal mostly wait
// for wrangler and workerd to start, for a TOTP step or for a provider fake, and vitest in
// workerd waits for throttle windows and deadlines. So the tests run in two lanes at once,
//
//   lane "unit":     lints, format check, import rules, unused code, then vitest in workerd
//   lane "scripts":  the operator-script tests, the provider contracts, the production rehearsal
//
// after the typecheck (alone: it writes the route and binding types the others read); then
// Playwright, which keeps both cores busy by itself, runs alone. Each lane's steps run one
// after another; a step's output is printed as it comes, each line behind its
// step's name. After a failing step no new step starts (the other lane finishes the one it
// is in), and `npm test` exits 1 naming the first that failed. The closing line adds up every runner's own summary line.
//
//   npm test                     all of it
//   node scripts/test.mjs --serial   the same steps one after another (to time a step alone)
import { spawn } from "node:child_process";

const npm = (script) => ["npm", ["run", "--silent", script]];
const npx = (...args) => ["npx", args];

/** [name, command, args]; a lane is a list of steps run in order. */
const TYPECHECK = [["typecheck", ...npm("typecheck")]];
const CHECKS = [
  ["lint", ...npm("lint")],
  ["format", ...npm("format:check")],
  ["imports", ...npm("lint:arch")],
  ["unused", ...npm("lint:unused")],
];
const UNIT = [["unit", ...npx("vitest", "run")]];
const SCRIPTS = [
  ["scripts", ...npx("vitest", "run", "--config", "vitest.node.config.ts")],
  ["contract", ...npx("vitest", "run", "--config", "vitest.contract.config.ts")],
  ["rehearsal", ...npm("test:production")],
];
const E2E = [["e2e", ...npm("test:e2e")]];

const serial = process.argv.includes("--serial");
const started = Date.now();
const running = new Set();
const timings = [];
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedStep = null;

const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/** Runs one step, its output line by line behind its name; resolves to its exit code. */
function runStep([name, command, args]) {
  if (failedStep) return Promise.resolve(1);
  const stepStarted = Date.now();
  console.log(`[${name}] $ ${command} ${args.join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], detached: true, env: process.env });
    running.add(child);
    let counted = false;
    const prefix = (stream) => {
      let rest = "";
      stream.on("data", (chunk) => {
        const lines = (rest + chunk).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) {
          console.log(`[${name}] ${line}`);
          counted = count(line) || counted;
        }
      });
      stream.on("end", () => {
        if (rest) console.log(`[${name}] ${rest}`);
      });
    };
    prefix(child.stdout);
    prefix(child.stderr);
    child.on("close", (code, signal) => {
      running.delete(child);
      const exit = code ?? (signal ? 1 : 0);
      timings.push([name, Date.now() - stepStarted, exit]);
      // a step with no summary line of its own (a check, the rehearsal) counts as one
      if (!counted) totals[exit === 0 ? "passed" : "failed"]++;
      // the other lane finishes the step it is in (its results are worth reading), then stops
      if (exit !== 0 && !failedStep) failedStep = name;
      console.log(`[${name}] ${exit === 0 ? "done" : `FAILED (exit ${exit})`} in ${seconds(Date.now() - stepStarted)}`);
      resolve(exit);
    });
  });
}

/** A runner's closing line ("unit: 3 passed, 0 failed, 1 skipped"), added to the totals. */
function count(line) {
  const match = /^(?:[\w-]+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/.exec(stripColours(line).trim());
  if (!match) return false;
  totals.passed += Number(match[1]);
  totals.failed += Number(match[2]);
  totals.skipped += Number(match[3] ?? 0);
  return true;
}

/** A line without its terminal colour codes (ESC [ ... m). */
function stripColours(line) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is what a colour code starts with
  return line.replace(/\x1b\[[0-9;]*m/g, "");
}

function stopOthers() {
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
}

async function lane(steps) {
  for (const step of steps) if ((await runStep(step)) !== 0) return;
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopOthers();
    process.exit(130);
  });
}

await lane([["record", "node", ["scripts/start-dirs.mjs", "--record"]], ...TYPECHECK]);
if (serial) await lane([...CHECKS, ...UNIT, ...SCRIPTS]);
else await Promise.all([lane([...CHECKS, ...UNIT]), lane(SCRIPTS)]);
await lane(E2E);
await lane([["start-dirs", "node", ["scripts/start-dirs.mjs", "--check"]]]);

console.log(
  `\nsteps: ${timings.map(([name, ms, exit]) => `${name} ${seconds(ms)}${exit ? " FAILED" : ""}`).join(", ")}; total ${seconds(Date.now() - started)}`,
);
if (failedStep) console.log(`npm test failed at step "${failedStep}"`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStep ? 1 : 0);
