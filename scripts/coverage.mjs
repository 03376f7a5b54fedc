// `npm run coverage`: line and branch coverage of workers/ and app/ from the vitest runs that
// execute them (the suite may be made faster, never less tested: decision 055). The
// unit run (Node), the workerd run (integration) and the provider contract run (the adapters
// in Node) are instrumented with istanbul (the workers pool supports no V8 coverage) and
// merged. The
// browser scripts of the lite pages never run under vitest: their tests are Playwright's.
// The sandboxes (workers/sandbox) are left out: they are not the product, and they run as
// workers of their own that vitest does not instrument. Prints the figures and writes
// .local/coverage/summary.json. Slower than `npm test`'s runs.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import libCoverage from "istanbul-lib-coverage";

const OUT = join(".local", "coverage");
const RUNS = [
  { name: "unit", args: ["--config", "vitest.unit.config.ts"] },
  { name: "workerd", args: [] },
  { name: "contract", args: ["--config", "vitest.contract.config.ts"] },
];

rmSync(OUT, { recursive: true, force: true });
const map = libCoverage.createCoverageMap({});
const perRun = {};
for (const run of RUNS) {
  const dir = join(OUT, run.name);
  const flags = [
    "--coverage.enabled",
    "--coverage.provider=istanbul",
    "--coverage.include=workers/**/*.ts",
    "--coverage.include=app/**/*.{ts,tsx}",
    "--coverage.exclude=workers/sandbox/**",
    "--coverage.exclude=**/*.d.ts",
    "--coverage.reporter=json",
    "--coverage.reporter=json-summary",
    `--coverage.reportsDirectory=${dir}`,
  ];
  console.log(`vitest ${run.name} with coverage ...`);
  execFileSync("npx", ["vitest", "run", ...run.args, ...flags], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CI: "true" } });
  map.merge(JSON.parse(readFileSync(join(dir, "coverage-final.json"), "utf8")));
  perRun[run.name] = fromSummary(JSON.parse(readFileSync(join(dir, "coverage-summary.json"), "utf8")));
}

/** Lines and branches of the files under `prefix`, covered / total. */
function summary(prefix) {
  const total = libCoverage.createCoverageSummary();
  for (const file of map.files()) if (relative(process.cwd(), file).startsWith(prefix)) total.merge(map.fileCoverageFor(file).toSummary());
  const pct = (k) => ({ covered: total[k].covered, total: total[k].total, pct: Number(((100 * total[k].covered) / Math.max(1, total[k].total)).toFixed(2)) });
  return { lines: pct("lines"), branches: pct("branches") };
}

/** The same figures from one run's coverage-summary.json (how a run without `json` is compared). */
function fromSummary(files) {
  const part = (prefix) => {
    const sum = { lines: { covered: 0, total: 0 }, branches: { covered: 0, total: 0 } };
    for (const [file, f] of Object.entries(files)) {
      if (file === "total" || !relative(process.cwd(), file).startsWith(prefix)) continue;
      for (const k of ["lines", "branches"]) {
        sum[k].covered += f[k].covered;
        sum[k].total += f[k].total;
      }
    }
    for (const k of ["lines", "branches"]) sum[k].pct = Number(((100 * sum[k].covered) / Math.max(1, sum[k].total)).toFixed(2));
    return sum;
  };
  return { "workers/": part("workers/"), "app/": part("app/"), all: part("") };
}

const figures = { merged: { "workers/": summary("workers/"), "app/": summary("app/"), all: summary("") }, ...perRun };
mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, "summary.json"), `${JSON.stringify(figures, null, 2)}\n`);
for (const [run, parts] of Object.entries(figures)) {
  for (const [part, f] of Object.entries(parts)) {
    console.log(
      `${run.padEnd(9)} ${part.padEnd(9)} lines ${f.lines.pct}% (${f.lines.covered}/${f.lines.total}), branches ${f.branches.pct}% (${f.branches.covered}/${f.branches.total})`,
    );
  }
}
