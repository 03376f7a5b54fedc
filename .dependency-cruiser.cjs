// The import rules of the portal's layers (docs/decisions/015-layers-and-import-rules.md).
// `npm run lint:arch` checks them on app/ and workers/; `npm test` runs it after the typecheck.
// Change a rule only together with a decision record: the rules ARE the architecture.
//
//   workers/core       pure product rules: no I/O, no packages; runs on server, browser, tests
//   workers/db         every D1 statement, one module per table group; core only
//   workers/ports      adapters to the outside (game provider, payment gateway, staff alerts); core only
//   workers/wallet     the PlayerWallet Durable Object; core, db, ports
//   workers/services   use cases; core, db, ports, wallet (never app/); one folder per domain,
//                      entered through its index.ts, the domains in one order (decision 070)
//   workers/app.ts     the Worker entry: wires the React Router server build and the context
//   workers/sandbox    stand-ins for the outside bank, provider and Telegram; never used by production
//   app/               React Router: routes, components, lib; reaches workers through services
//
// Type-only imports (`import type`) are erased before anything runs, so some rules allow them
// where a value import would be wrong (a page may show a service's result type). The parser is
// swc (@swc/core): TypeScript 7 is the native compiler and has no JavaScript compiler API for
// dependency-cruiser's "tsc" parser; swc still tells a type-only import from a value import.

/**
 * Files under app/ that run in the browser: components, the non-server lib (schemas too), the
 * client entry. React Router's server-only markers are a `.server` file name or directory.
 */
const CLIENT_CODE = "^app/(components/(?!.*\\.server(\\.tsx?$|/))|lib/(?!.*\\.server(\\.tsx?$|/))|entry\\.client\\.tsx$)";
/** Modules that must never reach a browser bundle (React Router refuses them there too). */
const SERVER_ONLY = "(\\.server\\.tsx?$|/\\.server/|^app/middleware/)";
/** A package or a runtime built-in (node:*, cloudflare:*) rather than a file of ours. */
const PACKAGE_OR_BUILTIN = ["npm", "npm-dev", "npm-optional", "npm-peer", "npm-bundled", "npm-no-pkg", "core"];

/**
 * The domains of workers/services (decision 070), one folder each, lowest first: a domain may
 * import the domains before it in this list and none after it, so no two import each other.
 * The order is the one the code has (a break cancels the open deposit: players after deposits;
 * a summary reads the reports: alerts after reports). A new domain or a new direction changes
 * this list, with a decision record.
 */
const DOMAINS = [
  "agency",
  "login",
  "wallets",
  "staff",
  "holds",
  "promotions",
  "providers",
  "reports",
  "alerts",
  "bank-in",
  "deposits",
  "players",
  "withdrawals",
];

/** One rule per domain that has domains above it: it imports none of them. */
const DOMAIN_ORDER = DOMAINS.slice(0, -1).map((domain, i) => ({
  name: `domain-order-${domain}`,
  comment: `workers/services/${domain}/ imports only the domains before it in DOMAINS (${DOMAINS.slice(0, i).join(", ") || "none"}), never ${DOMAINS.slice(i + 1).join(", ")}: the domains point one way, so none imports another that imports it back (decision 070). Type-only imports count: through the indexes they would close a cycle too.`,
  severity: "error",
  from: { path: `^workers/services/${domain}/` },
  to: { path: `^workers/services/(${DOMAINS.slice(i + 1).join("|")})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // ---- workers: the layers point one way, core <- db/ports <- wallet <- services
    {
      name: "core-is-pure",
      comment:
        "workers/core holds the product's rules as pure functions (money, orders, promotion, QR, throttle...). It imports nothing outside workers/core, not even a package or a runtime built-in, so the browser, the Worker and unit tests can all use it and it never reaches D1, a binding or the network.",
      severity: "error",
      from: { path: "^workers/core/" },
      to: { pathNot: "^workers/core/" },
    },
    {
      name: "db-imports-only-core",
      comment:
        "workers/db is the only place a D1 statement lives: each module takes the D1Database and maps its rows to core's domain types. It needs nothing but other db modules and core (no packages: D1 is a global binding type).",
      severity: "error",
      from: { path: "^workers/db/" },
      to: { pathNot: "^workers/(db|core)/" },
    },
    {
      name: "ports-import-only-core",
      comment:
        "workers/ports speak to the outside (game provider, payment gateway) in core's types. Their bindings and credentials come from the Worker's Env (or from the service calling them), so they never read D1, the wallet or a service; today they need nothing but core.",
      severity: "error",
      from: { path: "^workers/ports/" },
      to: { pathNot: "^workers/(ports|core)/" },
    },
    {
      name: "wallet-imports-only-lower-layers",
      comment:
        "The PlayerWallet Durable Object keeps a player's money; it writes the read models through workers/db and calls providers through workers/ports. It never calls a service (services call it) or app/. cloudflare:workers gives it the DurableObject base class.",
      severity: "error",
      from: { path: "^workers/wallet/" },
      to: { pathNot: "^(workers/(wallet|db|ports|core)/|cloudflare:workers$)" },
    },
    {
      name: "services-import-only-lower-layers",
      comment:
        "Services are the use cases: they combine core rules, db reads and writes, ports and the wallet. Anything of ours above them (app/, the Worker entry, the sandboxes, other top-level modules) is out of bounds, zod form schemas from app/lib/schemas included: a service's input is a plain TypeScript type. Packages and runtime built-ins are fine.",
      severity: "error",
      from: { path: "^workers/services/" },
      to: { pathNot: "^workers/(services|wallet|ports|db|core)/", dependencyTypesNot: PACKAGE_OR_BUILTIN },
    },

    // ---- workers/services: one folder per domain, one door each, one direction between them
    {
      name: "services-in-a-known-domain",
      comment:
        "Every service lives in the folder of its domain, one of DOMAINS (decision 070): no file loose in workers/services, no folder outside the list (a 'shared' or 'common' folder would become everyone's dumping ground and escape the domains' order). A new domain is added to DOMAINS, at its place in the order.",
      severity: "error",
      from: { path: "^workers/services/", pathNot: `^workers/services/(${DOMAINS.join("|")})/[^/]+$` },
      to: {},
    },
    {
      name: "domain-entered-through-its-index",
      comment:
        "A domain's index.ts is its only door (decision 070): code outside the folder (app/, workers/app.ts, another domain) imports the folder, never a file inside it, so a domain's files can be split, merged or renamed behind its index. Files of one domain import each other directly. ($1 is the importer's own domain folder, or nothing outside workers/services.)",
      severity: "error",
      from: { path: "^(workers/services/[^/]+/|)" },
      to: { path: "^workers/services/[^/]+/", pathNot: ["^workers/services/[^/]+/index\\.ts$", "^$1[^/]+$"] },
    },
    ...DOMAIN_ORDER,
    {
      name: "workers-not-to-app",
      comment:
        "Nothing in workers/ imports app/: the UI depends on the workers, never the other way round. The layers' own rules above already forbid app/; this one covers the rest of workers/ (top-level modules, sandboxes). workers/app.ts is the one exception, see app-entry-wires-only-the-context.",
      severity: "error",
      from: { path: "^workers/", pathNot: "^workers/(app\\.ts$|core/|db/|ports/|wallet/|services/)" },
      to: { path: "^app/" },
    },
    {
      name: "app-entry-wires-only-the-context",
      comment:
        "workers/app.ts builds the React Router request handler: from app/ it needs only the load-context key (app/lib/context.server.ts); the server build itself comes from the virtual module.",
      severity: "error",
      from: { path: "^workers/app\\.ts$" },
      to: { path: "^app/", pathNot: "^app/lib/context\\.server\\.ts$" },
    },
    {
      name: "sandbox-stands-alone",
      comment:
        "The sandbox bank, provider and Telegram play outside parties: they may share core's pure rules (QR, money) and cloudflare:workers, never our D1 modules, wallet or services, or they would stop testing the real boundary.",
      severity: "error",
      from: { path: "^workers/sandbox/" },
      to: { pathNot: "^(workers/(sandbox|core)/|cloudflare:workers$)" },
    },
    {
      name: "production-not-to-sandbox",
      comment:
        "Production code never imports workers/sandbox: the sandboxes are separate Workers reached over service bindings (local and test only). The layers' allow-lists already forbid it in workers/core..services; this covers app/ and the rest of workers/.",
      severity: "error",
      from: { path: "^(app/|workers/)", pathNot: "^workers/(sandbox|core|db|ports|wallet|services)/" },
      to: { path: "^workers/sandbox/" },
    },

    // ---- app: routes, loaders, actions and *.server modules reach the workers through services
    {
      name: "app-reaches-workers-through-services",
      comment:
        "A route (loader, action), middleware or *.server module calls a use case in workers/services, or a pure rule in workers/core; it never runs D1, the wallet stub or a port itself. Type-only imports are allowed here (see the next rule for db, wallet and ports; sandbox imports are production-not-to-sandbox's).",
      severity: "error",
      from: { path: "^app/" },
      to: { path: "^workers/", pathNot: "^workers/(services|core|sandbox)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "app-sees-no-db-wallet-port-types",
      comment:
        "Not even a type from workers/db, workers/wallet or workers/ports in app/: a page shows what its service returns (the service declares or re-exports that type), so the storage and wallet shapes can change behind the services.",
      severity: "error",
      from: { path: "^app/" },
      to: { path: "^workers/(db|wallet|ports)/", dependencyTypes: ["type-only"] },
    },
    {
      name: "client-not-to-services",
      comment:
        "Browser code (app/components, app/lib without .server, app/entry.client.tsx) may use workers/core's pure rules and types from anywhere, never a service's code: services are server-only and would drag D1 and secrets into the bundle. (Its value imports of other workers/ layers are already app-reaches-workers-through-services'.)",
      severity: "error",
      from: { path: CLIENT_CODE },
      to: { path: "^workers/services/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "client-not-to-server-modules",
      comment:
        "Browser code never imports a *.server module or app/middleware (all server-only); React Router would refuse the client build. Type-only imports are erased and allowed.",
      severity: "error",
      from: { path: CLIENT_CODE },
      to: { path: SERVER_ONLY, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "lib-not-to-middleware",
      comment:
        "app/lib (non-server) is shared by components and routes; middleware sits above it (it uses lib), so lib importing middleware, even a type, would turn the layers around. (A value import is already client-not-to-server-modules': middleware is server-only.)",
      severity: "error",
      from: { path: "^app/lib/", pathNot: "\\.server(\\.tsx?$|/)" },
      to: { path: "^app/middleware/", dependencyTypes: ["type-only"] },
    },

    // ---- the whole graph
    {
      name: "no-circular",
      comment:
        "No import cycles (type-only ones included): a cycle means two modules are one concern split badly, and runtime cycles give undefined values at module load.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-orphans",
      comment:
        "A module nothing imports is dead code, unless it is an entry point: the Worker entry (wrangler.toml main), the sandboxes' index.ts, React Router's root, entries and route modules (named by string in app/routes.ts; knip checks those), declaration files and configs.",
      severity: "error",
      from: {
        orphan: true,
        pathNot: [
          "(^|/)\\.[^/]+\\.(js|cjs|mjs|ts|json)$", // dot files: this config and the like
          "\\.d\\.[cm]?ts$", // declaration files are ambient or describe a .mjs
          "^workers/app\\.ts$", // wrangler.toml main
          "^workers/sandbox/[^/]+/index\\.ts$", // the sandboxes' wrangler.toml main
          "^app/(root\\.tsx|routes\\.ts|entry\\.(client|server)\\.tsx)$", // React Router's own entries
          "^app/routes/", // route modules: entries listed in app/routes.ts
          "^workers/sandbox/provider/game-art\\.ts$", // the sandbox games' drawings: scripts/render-demo-images.mjs renders them
        ],
      },
      to: {},
    },
    {
      name: "not-to-unresolvable",
      comment:
        "Every import must resolve to a file or package, or the rules above could not see it. Three generated targets are the exceptions: './+types/<route>' (React Router's typegen writes them to .react-router/types, found through tsconfig rootDirs, which the resolver does not follow; type-only), 'virtual:react-router/server-build' (the Vite plugin's virtual module, imported by workers/app.ts) and 'virtual:lite-parts' (the lite pages' parts bundled by vite-plugins/lite-parts.ts, imported by app/lib/lite-page.server.ts; decision 066).",
      severity: "error",
      from: {},
      to: { couldNotResolve: true, pathNot: ["^\\./\\+types/[^/]+$", "^virtual:react-router/server-build$", "^virtual:lite-parts$"] },
    },
  ],
  options: {
    // What `depcruise` cruises when given no arguments is set in package.json (lint:arch).
    doNotFollow: { path: ["node_modules"] },
    // Generated files: worker-configuration.d.ts (wrangler types) and .react-router/ (typegen)
    // are ambient/generated and not ours to lay out; declaration files are also the one kind
    // swc cannot parse without its `dts` flag (scripts/agency-sql.d.mts).
    exclude: { path: ["\\.d\\.[cm]?ts$", "^\\.react-router/", "^worker-configuration\\.d\\.ts$"] },
    // TypeScript 7 has no JavaScript API for dependency-cruiser's tsc parser; swc parses TS/TSX
    // and reports `import type` as type-only (decision 015).
    // (tsPreCompilationDeps stays unset: it asks for the tsc parser; swc reports type-only
    // imports anyway.)
    parser: "swc",
    // The path aliases `~/*` (app/) and `@workers/*` (workers/), tsconfig.json's paths inherited by
    // this project, are read by tsconfig-paths-webpack-plugin, which needs no TypeScript compiler.
    tsConfig: { fileName: "tsconfig.cloudflare.json" },
    // Modules the Workers runtime provides.
    builtInModules: { add: ["cloudflare:workers", "cloudflare:test"] },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      // No "types" condition: a package whose `exports` list "types" first (zod) resolved to its
      // .d.cts, which `exclude` leaves out, so `import { z } from "zod"` in workers/core passed
      // core-is-pure (decision 015; tests/scripts/architecture.test.ts plants it).
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
      mainFields: ["module", "main", "types", "typings"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
