import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The import rules (.dependency-cruiser.cjs, decisions 015 and 070) catch what they claim to:
 * each case plants a file that breaks one rule, `depcruise` runs with the repository's
 * configuration as `npm run lint:arch` does, and the report must name that rule for that import.
 *
 * The source tree is never written: app/, workers/, the configuration and the tsconfigs (the
 * `~/*` and `@workers/*` aliases) are copied to a temporary folder, node_modules is linked into
 * it, the files are planted and depcruise runs there. The folder is removed afterwards, whatever
 * happens.
 */

const REPO = resolve(".");
/** What depcruise reads besides the cruised files: its configuration, the tsconfigs, package.json. */
const COPIED = ["app", "workers", ".dependency-cruiser.cjs", "package.json", ...readdirSync(REPO).filter((name) => /^tsconfig.*\.json$/.test(name))];

type Violation = { from: string; to: string; rule: { name: string; severity: string }; cycle?: unknown[] };

/** A file of a layer that exists whatever its modules are called after a refactor. */
function firstModule(dir: string, keep: (file: string) => boolean = () => true): string {
  const name = readdirSync(dir)
    .filter((file) => file.endsWith(".ts") && keep(file))
    .sort()[0];
  if (!name) throw new Error(`no module in ${dir}`);
  return `${dir}/${name.replace(/\.ts$/, "")}`;
}

/** A domain of workers/services (its folder: imported through its index.ts), whatever the domains are called. */
function firstDomain(dir: string): string {
  const name = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()[0];
  if (!name) throw new Error(`no domain folder in ${dir}`);
  return `${dir}/${name}`;
}

const service = firstDomain("workers/services");
/** A file inside that domain, not its index. */
const insideService = firstModule(service, (file) => file !== "index.ts");
const dbModule = firstModule("workers/db");
const walletModule = firstModule("workers/wallet");

/**
 * Path of each planted file -> its source. Imports are written as the code base writes them:
 * relative inside a folder tree, `@workers/*` from app/ to workers/.
 */
const planted: Record<string, string> = {
  // core-is-pure: core reaches into app/ and into npm packages: qrcode (its entry is a .js file)
  // and zod, whose `exports` name its types first (it resolved to a .d.cts, which is not cruised,
  // until the configuration stopped resolving the "types" condition).
  "workers/core/__planted_core__.ts": [
    `import { formatMoney } from "../../app/lib/format";`,
    `import QRCode from "qrcode";`,
    `import { z } from "zod";`,
    `export const planted = [formatMoney, QRCode, z];`,
  ].join("\n"),
  // no-circular: two core modules importing each other.
  "workers/core/__planted_cycle_a__.ts": `import { b } from "./__planted_cycle_b__";\nexport const a = () => b;`,
  "workers/core/__planted_cycle_b__.ts": `import { a } from "./__planted_cycle_a__";\nexport const b = () => a;`,
  // services-import-only-lower-layers: a service imports app/.
  [`${service}/__planted_service__.ts`]: `import { formatMoney } from "../../../app/lib/format";\nexport const planted = formatMoney;`,
  // workers-not-to-app: a top-level workers module imports app/.
  "workers/__planted_top__.ts": `import { formatMoney } from "../app/lib/format";\nexport const planted = formatMoney;`,
  // app-reaches-workers-through-services and app-sees-no-db-wallet-port-types: a route runs a
  // D1 module itself and types its data with the wallet's shape.
  "app/routes/__planted_route__.tsx": [
    `import * as db from "@${dbModule}";`,
    `import type * as wallet from "@${walletModule}";`,
    `export const planted: [typeof db, typeof wallet | null] = [db, null];`,
  ].join("\n"),
  // client-not-to-server-modules and client-not-to-services: a component pulls a .server
  // module and a service's code into the browser; its type-only import of a service is legal.
  "app/components/__planted_component__.tsx": [
    `import { toastMiddleware } from "~/lib/toast.server";`,
    `import * as service from "@${service}";`,
    `import type * as types from "@${service}";`,
    `export const planted: [unknown, typeof service, typeof types | null] = [toastMiddleware, service, null];`,
  ].join("\n"),
  // lib-not-to-middleware: client lib takes a type from middleware.
  "app/lib/__planted_lib__.ts": `import type * as guards from "../middleware/request-guards.server";\nexport const planted: typeof guards | null = null;`,
  // production-not-to-sandbox: a server module of the app imports the sandbox bank.
  "app/lib/__planted_sandbox__.server.ts": `import * as faults from "@workers/sandbox/bank/faults";\nexport const planted = faults;`,
  // no-orphans: a module that imports nothing and that nothing imports.
  "workers/core/__planted_orphan__.ts": `export const lonely = 1;`,
  // Legal: a route calls a service and a pure core rule, takes a service's type, formats with app/lib.
  "app/routes/__planted_legal__.tsx": [
    `import * as service from "@${service}";`,
    `import type * as types from "@${service}";`,
    `import { parseAmount } from "@workers/core/money";`,
    `import { formatMoney } from "~/lib/format";`,
    `export const planted: [typeof service, typeof types | null, unknown, unknown] = [service, null, parseAmount, formatMoney];`,
  ].join("\n"),
};

/**
 * The domains' order (decision 070): .dependency-cruiser.cjs makes one rule per domain that has
 * domains above it. Each case plants a file in that domain importing the next one up.
 */
type Rule = { name: string; to: { path?: string } };
const orderRules = (createRequire(import.meta.url)(join(REPO, ".dependency-cruiser.cjs")) as { forbidden: Rule[] }).forbidden
  .filter((rule) => rule.name.startsWith("domain-order-"))
  .map((rule) => ({ name: rule.name, domain: rule.name.slice("domain-order-".length), above: rule.to.path!.match(/\(([^|)]+)/)![1]! }));
const domains = readdirSync("workers/services", { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** The one domain with none above it: it may import every other. */
const topDomain = domains.find((domain) => !orderRules.some((rule) => rule.domain === domain))!;
for (const rule of orderRules) {
  planted[`workers/services/${rule.domain}/__planted_upward__.ts`] = `import * as above from "../${rule.above}";\nexport const planted = above;`;
}
Object.assign(planted, {
  // domain-entered-through-its-index: a route, and the top domain (which may import any other),
  // reach a file inside a domain instead of its index.
  "app/routes/__planted_inside__.tsx": `import * as inside from "@${insideService}";\nexport const planted = inside;`,
  [`workers/services/${topDomain}/__planted_inside__.ts`]: `import * as inside from "../../../${insideService}";\nexport const planted = inside;`,
  // Legal: a file of a domain imports its sibling directly.
  [`${service}/__planted_sibling__.ts`]: `import * as sibling from "./${insideService.split("/").pop()}";\nexport const planted = sibling;`,
  // services-in-a-known-domain: a service loose in workers/services, and a "shared" folder.
  "workers/services/__planted_loose__.ts": `import * as domain from "../../${service}";\nexport const planted = domain;`,
  "workers/services/shared/__planted_shared__.ts": `import * as domain from "../../../${service}";\nexport const planted = domain;`,
});

let violations: Violation[] = [];
/** The temporary copy the files are planted in. */
let work = "";

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "architecture-"));
  for (const entry of COPIED) cpSync(join(REPO, entry), join(work, entry), { recursive: true });
  symlinkSync(join(REPO, "node_modules"), join(work, "node_modules"), "dir");
  for (const [path, source] of Object.entries(planted)) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), `// planted by tests/scripts/architecture.test.ts in a temporary copy\n${source}\n`);
  }
  const run = spawnSync(
    process.execPath,
    [
      join(REPO, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs"),
      "--config",
      ".dependency-cruiser.cjs",
      "--output-type",
      "json",
      ...Object.keys(planted),
    ],
    { cwd: work, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (!run.stdout) throw new Error(`depcruise printed nothing (status ${run.status}): ${run.stderr}`);
  violations = (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function rulesBetween(from: string, to: string): string[] {
  return violations.filter((v) => v.from === from && v.to === to).map((v) => v.rule.name);
}

describe("the import rules catch a planted violation", () => {
  it("core-is-pure: workers/core imports nothing outside workers/core, not app/, not a package", () => {
    expect(rulesBetween("workers/core/__planted_core__.ts", "app/lib/format.ts")).toEqual(["core-is-pure"]);
    const corePackages = violations.filter((v) => v.from === "workers/core/__planted_core__.ts" && v.rule.name === "core-is-pure").map((v) => v.to);
    expect(corePackages.some((to) => to.includes("node_modules/qrcode/"))).toBe(true);
    expect(corePackages.some((to) => to.includes("node_modules/zod/"))).toBe(true);
  });

  it("services-import-only-lower-layers: a service never imports app/", () => {
    expect(rulesBetween(`${service}/__planted_service__.ts`, "app/lib/format.ts")).toEqual(["services-import-only-lower-layers"]);
  });

  it("workers-not-to-app: nothing else in workers/ imports app/", () => {
    expect(rulesBetween("workers/__planted_top__.ts", "app/lib/format.ts")).toEqual(["workers-not-to-app"]);
  });

  it("app-reaches-workers-through-services: a route never runs a D1 module", () => {
    expect(rulesBetween("app/routes/__planted_route__.tsx", `${dbModule}.ts`)).toEqual(["app-reaches-workers-through-services"]);
  });

  it("app-sees-no-db-wallet-port-types: not even a type from the wallet", () => {
    expect(rulesBetween("app/routes/__planted_route__.tsx", `${walletModule}.ts`)).toEqual(["app-sees-no-db-wallet-port-types"]);
  });

  it("client-not-to-server-modules and client-not-to-services: browser code stays client-safe", () => {
    expect(rulesBetween("app/components/__planted_component__.tsx", "app/lib/toast.server.ts")).toEqual(["client-not-to-server-modules"]);
    // The value import is refused; the type-only import of the same module is not reported.
    expect(rulesBetween("app/components/__planted_component__.tsx", `${service}/index.ts`)).toEqual(["client-not-to-services"]);
  });

  it("lib-not-to-middleware: client lib takes nothing from middleware, not even a type", () => {
    expect(rulesBetween("app/lib/__planted_lib__.ts", "app/middleware/request-guards.server.ts")).toEqual(["lib-not-to-middleware"]);
  });

  it("production-not-to-sandbox: app/ never imports workers/sandbox", () => {
    expect(rulesBetween("app/lib/__planted_sandbox__.server.ts", "workers/sandbox/bank/faults.ts")).toEqual(["production-not-to-sandbox"]);
  });

  it("no-circular: an import cycle is refused", () => {
    expect(rulesBetween("workers/core/__planted_cycle_a__.ts", "workers/core/__planted_cycle_b__.ts")).toContain("no-circular");
  });

  it("no-orphans: a module nothing imports and that imports nothing is reported", () => {
    expect(violations.filter((v) => v.from === "workers/core/__planted_orphan__.ts").map((v) => v.rule.name)).toEqual(["no-orphans"]);
  });

  it("services-in-a-known-domain: no service outside the folders of DOMAINS, no 'shared' folder", () => {
    expect(rulesBetween("workers/services/__planted_loose__.ts", `${service}/index.ts`)).toEqual(["services-in-a-known-domain"]);
    expect(rulesBetween("workers/services/shared/__planted_shared__.ts", `${service}/index.ts`)).toEqual(["services-in-a-known-domain"]);
  });

  it("domain-entered-through-its-index: app/ and other domains import a domain's index, never a file inside it", () => {
    expect(rulesBetween("app/routes/__planted_inside__.tsx", `${insideService}.ts`)).toEqual(["domain-entered-through-its-index"]);
    expect(rulesBetween(`workers/services/${topDomain}/__planted_inside__.ts`, `${insideService}.ts`)).toEqual(["domain-entered-through-its-index"]);
    // a sibling in the same folder is imported directly
    expect(violations.filter((v) => v.from === `${service}/__planted_sibling__.ts` && v.rule.name !== "no-orphans")).toEqual([]);
  });

  it("domain-order-*: each domain but the top one has its rule, and importing the domain above it breaks that rule", () => {
    expect(orderRules.map((rule) => rule.domain).sort()).toEqual(domains.filter((domain) => domain !== topDomain).sort());
    for (const rule of orderRules) {
      expect(rulesBetween(`workers/services/${rule.domain}/__planted_upward__.ts`, `workers/services/${rule.above}/index.ts`)).toEqual([rule.name]);
    }
  });

  it("a legal route (service and core values, a service's types, app/lib) passes every rule", () => {
    expect(violations.filter((v) => v.from === "app/routes/__planted_legal__.tsx")).toEqual([]);
  });

  it("the source tree is untouched: nothing was planted in app/ or workers/", () => {
    const plantedHere = (dir: string): string[] =>
      readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((path) => path.split("/").pop()?.startsWith("__planted"));
    expect(plantedHere("app")).toEqual([]);
    expect(plantedHere("workers")).toEqual([]);
    // The copy is where they were, and depcruise read them there.
    expect(Object.keys(planted).every((path) => existsSync(join(work, path)))).toBe(true);
    expect(violations.length).toBeGreaterThan(0);
  });
});
