// Production rehearsal (`npm run test:production`, docs/testing.md). Builds the portal
// for the [env.rehearsal] block of wrangler.toml (ENVIRONMENT = "production", no sandbox
// bindings), starts it locally with `wrangler dev --env rehearsal` (own port, own state
// directory, secrets generated for this run), creates the agency with `agency:create`, and
// runs the walk of tests/rehearsal (one Playwright project, Chromium) against it. The AMB and
// Betflix contract fakes run inside the Playwright worker (tests/rehearsal/fakes.ts), so
// the walk can look at what reached them.
//
// Everything it starts runs in its own process group and is killed on exit (also on
// Ctrl-C or a failure); the temporary state directory is removed. A failure names the step.
//
//   npm run test:production            (REHEARSAL_PORT, default 4186)
//   REHEARSAL_KEEP=1 npm run test:production   keeps the state directory and prints it
// Its build is in .local/rehearsal/build (decision 055), made again only when the sources changed,
// so a running `npm start` is left alone.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDir, ensureBuild, localDirs, useLocalDirs, withOwnDeployConfig } from "./local-dirs.mjs";
import { WORKER_GZIP_BUDGET_KIB, workerSize } from "./worker-size.mjs";

const ENV = "rehearsal";
useLocalDirs(localDirs(ENV));
const AGENCY = { id: "rehearsal", name: "Rehearsal Play", domain: "localhost", owner: "owner" };
const port = Number(process.env.REHEARSAL_PORT ?? 4186);
const baseUrl = `http://${AGENCY.domain}:${port}`;
const started = Date.now();
const children = new Set();
let runDir = null;
// Where wrangler dev may read this environment's secrets from (written below, removed by
// cleanup()): the build's .dev.vars, and `.dev.vars.rehearsal` beside both configurations,
// which wrangler prefers to a plain .dev.vars (such as the one `npm start` or the e2e server
// wrote in the project root, without GATEWAY_WEBHOOK_SECRET).
const devVarsFiles = [join(buildDir(), "server", ".dev.vars"), join(buildDir(), "server", `.dev.vars.${ENV}`), `.dev.vars.${ENV}`];
let wroteDevVars = false;
let step = "start";

const quiet = { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", NO_COLOR: "1" };

function log(message) {
  console.log(`[rehearsal ${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${message}`);
}

function cleanup() {
  for (const child of children) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  children.clear();
  if (wroteDevVars) for (const file of devVarsFiles) rmSync(file, { force: true });
  wroteDevVars = false;
  if (runDir && !process.env.REHEARSAL_KEEP) rmSync(runDir, { recursive: true, force: true });
  else if (runDir) log(`state kept in ${runDir}`);
  runDir = null;
}

function fail(message, detail) {
  console.error(`\nrehearsal FAILED at step "${step}": ${message}`);
  if (detail) console.error(String(detail).trim().split("\n").slice(-40).join("\n"));
  cleanup();
  process.exit(1);
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    console.error(`\nrehearsal interrupted (${signal}) during step "${step}"`);
    cleanup();
    process.exit(130);
  });
}
process.on("exit", cleanup);

/** Runs a command to completion in its own process group; its output is shown only when it fails. */
function run(name, command, args, env = quiet) {
  log(name);
  return new Promise((resolve) => {
    let output = "";
    const child = startGroup(command, args, env, (chunk) => (output += chunk));
    child.on("exit", (code, signal) => {
      if (code === 0) resolve(output);
      else {
        step = name;
        fail(`${command} ${args.join(" ")} exited with ${code ?? signal}`, output);
      }
    });
  });
}

/** Starts a long-running command in its own process group (killed by cleanup()). */
function startGroup(command, args, env, onOutput) {
  const child = spawn(command, args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  child.stdout.on("data", onOutput);
  child.stderr.on("data", onOutput);
  child.on("exit", () => children.delete(child));
  return child;
}

async function waitForServer(output) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/api/v2/agency/info`, { signal: AbortSignal.timeout(5000) });
      const text = await res.text();
      // Before the agency exists the Worker answers (404/500 "no such table"); "misconfigured" means the guard refused the secrets.
      if (text === "misconfigured") fail("the production guard answered 500 misconfigured: a generated secret was refused", output());
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  fail(`wrangler dev did not answer on ${baseUrl} within 90 s`, output());
}

/**
 * A throwaway CA and a certificate for 127.0.0.1 signed by it (openssl), valid one day: the
 * provider fakes serve https with it, and `wrangler dev` trusts the CA (NODE_EXTRA_CA_CERTS).
 */
async function makeCertificate(dir) {
  mkdirSync(dir);
  const f = (name) => join(dir, name);
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  writeFileSync(f("leaf.ext"), "basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
  await run("make a TLS certificate for the provider fakes (openssl)", "openssl", [
    "req",
    "-x509",
    ...ec,
    "-keyout",
    f("ca.key"),
    "-out",
    f("ca.pem"),
    "-days",
    "1",
    "-subj",
    "/CN=portal rehearsal CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  await run("  leaf certificate request", "openssl", ["req", ...ec, "-keyout", f("leaf.key"), "-out", f("leaf.csr"), "-subj", "/CN=127.0.0.1"]);
  await run("  sign it", "openssl", [
    "x509",
    "-req",
    "-in",
    f("leaf.csr"),
    "-CA",
    f("ca.pem"),
    "-CAkey",
    f("ca.key"),
    "-CAcreateserial",
    "-out",
    f("leaf.pem"),
    "-days",
    "1",
    "-extfile",
    f("leaf.ext"),
  ]);
  return { ca: f("ca.pem"), cert: f("leaf.pem"), key: f("leaf.key") };
}

async function main() {
  step = "build";
  log(`build for env rehearsal (CLOUDFLARE_ENV=rehearsal react-router build) into ${buildDir()}`);
  try {
    if (!ensureBuild({ env: { CLOUDFLARE_ENV: ENV }, stdio: ["ignore", "pipe", "pipe"] }).built)
      log("  the sources did not change since the last rehearsal build: kept");
  } catch (error) {
    fail("react-router build failed", `${error.stdout ?? ""}${error.stderr ?? ""}`);
  }
  // wrangler (deploy --dry-run, dev, d1) finds the build through .wrangler/deploy/config.json:
  // it points at this build until the Worker answers, then at npm start's again.
  const started = await withOwnDeployConfig(() => sizeAndStart());
  await walk(started);
}

/** The Worker's size, then the agency created while the Worker starts. */
async function sizeAndStart() {
  // The production Worker's upload size stays within its budget (decision 023):
  // deterministic for a build, and this build is the one that would be deployed.
  step = "worker size";
  const size = workerSize();
  log(`worker upload ${size.uploadKiB} KiB, gzip ${size.gzipKiB} KiB (budget ${WORKER_GZIP_BUDGET_KIB} KiB gzip)`);
  if (size.gzipKiB > WORKER_GZIP_BUDGET_KIB) fail(`the Worker is ${size.gzipKiB} KiB gzip, over its budget of ${WORKER_GZIP_BUDGET_KIB} KiB (decision 023)`);

  runDir = mkdtempSync(join(tmpdir(), "rehearsal-"));
  const stateDir = join(runDir, "state");
  mkdirSync(stateDir);
  const tls = await makeCertificate(join(runDir, "tls"));
  // Production secrets for this run only: random, of the formats workers/config.ts checks.
  // `wrangler dev` reads an environment's required secrets (secrets.required) from the
  // build's .dev.vars, else from its own process environment: both are given.
  const secrets = {
    SESSION_SECRET: randomBytes(32).toString("hex"),
    GATEWAY_WEBHOOK_SECRET: randomBytes(32).toString("hex"),
    CREDENTIALS_KEY: randomBytes(32).toString("base64"),
  };

  // The Cloudflare Vite plugin copies a local .dev.vars (e.g. the one `npm start` or the e2e
  // server wrote, without GATEWAY_WEBHOOK_SECRET) into the build, and wrangler dev prefers that
  // file to its process environment: this run's secrets replace it, and it is removed at the end.
  for (const file of devVarsFiles)
    writeFileSync(
      file,
      Object.entries(secrets)
        .map(([k, v]) => `${k}="${v}"\n`)
        .join(""),
      { mode: 0o600 },
    );
  wroteDevVars = true;

  // The agency is created in the same local state directory while the Worker starts
  // (both only open it; agency:create applies the migrations first).
  step = "create the agency / start wrangler dev --env rehearsal";
  const creating = run("create the agency (npm run agency:create -- --env rehearsal, local)", "node", [
    "scripts/create-agency.mjs",
    "--env",
    ENV,
    "--id",
    AGENCY.id,
    "--name",
    AGENCY.name,
    "--domain",
    AGENCY.domain,
    "--owner",
    AGENCY.owner,
    "--persist-to",
    stateDir,
    "--port",
    String(port),
  ]);
  log(`start wrangler dev --env rehearsal on ${baseUrl}`);
  let serverLog = "";
  const server = startGroup(
    "npx",
    [
      "wrangler",
      "dev",
      "--env",
      ENV,
      "--local",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      "0",
      "--persist-to",
      stateDir,
      "--show-interactive-dev-session=false",
      "--live-reload=false",
    ],
    // The provider fakes answer over https with this run's throwaway CA (tests/rehearsal/fakes.ts).
    { ...quiet, ...secrets, NODE_EXTRA_CA_CERTS: tls.ca },
    (chunk) => {
      serverLog += chunk;
      if (serverLog.length > 400_000) serverLog = serverLog.slice(-200_000);
    },
  );
  server.on("exit", (code) => {
    if (step !== "done") fail(`wrangler dev exited with ${code} before the rehearsal ended`, serverLog);
  });
  const [created] = await Promise.all([creating, waitForServer(() => serverLog)]);
  return { created, tls, serverLog: () => serverLog };
}

/** The walk of tests/rehearsal against the started Worker. */
async function walk({ created, tls, serverLog }) {
  const enrolToken = /enrolment code \(the same token\): (\S+)/.exec(created)?.[1];
  if (!enrolToken) fail("agency:create printed no enrolment code", created);
  step = "check the agency answers";
  const info = await fetch(`${baseUrl}/api/v2/agency/info`).then(async (res) => ({ status: res.status, text: await res.text() }));
  if (info.status !== 200 || !info.text.includes(`"id":"${AGENCY.id}"`))
    fail(`GET /api/v2/agency/info answered ${info.status}, not the agency`, `${info.text}\n${serverLog()}`);

  step = "walk (playwright test --config tests/rehearsal/playwright.config.ts)";
  log(step);
  const playwright = spawn("npx", ["playwright", "test", "--config", "tests/rehearsal/playwright.config.ts"], {
    stdio: "inherit",
    detached: true,
    env: {
      ...process.env,
      REHEARSAL_URL: baseUrl,
      REHEARSAL_ENROL_TOKEN: enrolToken,
      REHEARSAL_OWNER: AGENCY.owner,
      REHEARSAL_TLS_CERT: tls.cert,
      REHEARSAL_TLS_KEY: tls.key,
    },
  });
  children.add(playwright);
  const code = await new Promise((resolve) => playwright.on("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  children.delete(playwright);
  if (code !== 0) fail(`the walk failed (exit ${code}); the Worker's last output follows`, serverLog());
  step = "done";
  log("passed");
  cleanup();
}

main().catch((error) => fail(error?.message ?? String(error), error?.stack));
