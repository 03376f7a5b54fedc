// `npm test`: every check and test of the project, one step after another (decision 062):
// the typecheck, Biome's lint and format check, the import rules, unused code, the unit tests
// in Node, the integration tests in workerd, the script tests, the provider contracts,
// Playwright, the production rehearsal, and the check that `npm start`'s folders were left
// alone. Each output line carries its step's name; after a failing step no other starts, and
// `npm test` exits 1 naming it. The last lines give each step's time and the sum of every
// runner's closing line ("N passed, N failed").
//
// The steps run one at a time on purpose: run in two lanes at once on this 2-core machine
// (lints + vitest in workerd beside script tests + contracts + rehearsal), the lanes took 920 s
// where the same steps one after another take about 500 (decision 062, docs/measurements.md).
import { spawn } from "node:child_process";

const npm = (script) => ["npm", ["run", "--silent", script]];
const npx = (...args) => ["npx", args];

/** Each step: [name, command, args]. */
const TYPECHECK = [["typecheck", ...npm("typecheck")]];
const CHECKS = [
  ["lint", ...npm("lint")],
  ["format", ...npm("format:check")],
  ["imports", ...npm("lint:arch")],
  ["unused", ...npm("lint:unused")],
];
const UNIT = [
  ["unit", ...npx("vitest", "run", "--config", "vitest.unit.config.ts")],
  ["integration", ...npx("vitest", "run")],
];
const SCRIPTS_AND_CONTRACTS = [
  ["scripts", ...npx("vitest", "run", "--config", "vitest.node.config.ts")],
  ["contract", ...npx("vitest", "run", "--config", "vitest.contract.config.ts")],
];
const REHEARSAL = [["rehearsal", ...npm("test:production")]];
const E2E = [["e2e", ...npm("test:e2e")]];

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

function stopRunning() {
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
}

async function runSteps(steps) {
  for (const step of steps) if ((await runStep(step)) !== 0) return;
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopRunning();
    process.exit(130);
  });
}

await runSteps([["record", "node", ["scripts/start-dirs.mjs", "--record"]], ...TYPECHECK, ...CHECKS, ...UNIT, ...SCRIPTS_AND_CONTRACTS, ...E2E, ...REHEARSAL]);
await runSteps([["start-dirs", "node", ["scripts/start-dirs.mjs", "--check"]]]);

console.log(
  `\nsteps: ${timings.map(([name, ms, exit]) => `${name} ${seconds(ms)}${exit ? " FAILED" : ""}`).join(", ")}; total ${seconds(Date.now() - started)}`,
);
if (failedStep) console.log(`npm test failed at step "${failedStep}"`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStep ? 1 : 0);
