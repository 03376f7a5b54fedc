// `node scripts/workerd-portal.mjs <port>`: serves the production build in buildDir() with its
// three sandboxes from workerd itself, on `port`, with the local state in stateDir(). It is what
// `vite preview` runs (the same Miniflare options, from the same built wrangler.json files),
// without `vite preview`'s Node server in front: there, every request crossed a Node HTTP
// server and Miniflare's dispatchFetch on its way to workerd, 152 s of Node CPU in one e2e run
// on this 2-core machine (decision 065). Here Node starts workerd and then carries no request.
//
// The e2e server uses it (scripts/e2e-server.mjs); `npm start`, the benches and Lighthouse keep
// `vite preview`, what an operator runs locally.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Log, LogLevel, Miniflare, convertV4MiniflareOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";
import { at, buildDir, stateDir } from "./local-dirs.mjs";

const port = Number(process.argv[2]);
if (!Number.isInteger(port)) throw new Error("usage: node scripts/workerd-portal.mjs <port>");

/** The wrangler.json files of the build: the portal first, then its sandboxes (as `vite preview` reads them). */
function builtConfigs() {
  const deploy = JSON.parse(readFileSync(at(join(buildDir(), "deploy-config.json")), "utf8"));
  // the paths in it are relative to .wrangler/deploy/, where `vite preview` reads it
  const from = at(join(".wrangler", "deploy"));
  return [deploy.configPath, ...deploy.auxiliaryWorkers.map((worker) => worker.configPath)].map((path) => resolve(from, path));
}

/** Every module of a built worker: its entry first, then each chunk beside it (getPreviewModules in @cloudflare/vite-plugin). */
function builtModules(main) {
  const rootPath = dirname(main);
  const chunks = readdirSync(rootPath, { recursive: true })
    .map(String)
    .filter((path) => /\.m?js$/.test(path) && resolve(rootPath, path) !== main);
  return { rootPath, modules: [relative(rootPath, main), ...chunks].map((path) => ({ type: "ESModule", path })) };
}

function workerOptions(configPath) {
  const config = unstable_readConfig({ config: configPath });
  const { workerOptions, main, externalWorkers } = unstable_getMiniflareWorkerOptions(config);
  const { modulesRules, ...options } = workerOptions;
  return [{ ...options, name: options.name ?? config.name, ...builtModules(resolve(main)) }, ...externalWorkers];
}

const miniflare = new Miniflare(
  convertV4MiniflareOptions({
    host: "127.0.0.1",
    port,
    workers: builtConfigs().flatMap(workerOptions),
    // `vite preview`'s persistState: the same folders local-seed.mjs wrote through wrangler
    resourcePersistencePath: at(join(stateDir(), "v3")),
    resourceTmpPath: at(join(".wrangler", "tmp")),
    unsafeTriggerHandlers: true,
    unsafeLocalExplorer: process.env.X_LOCAL_EXPLORER === "true",
    telemetry: { enabled: false },
    // no request for the `cf` object of a real edge (`vite preview`: CLOUDFLARE_CF_FETCH_ENABLED=false)
    cf: false,
    log: new Log(LogLevel.WARN),
  }),
);
await miniflare.ready;
console.log(`workerd serves ${buildDir()} on http://127.0.0.1:${port}`);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    miniflare.dispose().finally(() => process.exit(0));
  });
}
