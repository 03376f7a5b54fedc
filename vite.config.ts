import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { liteParts } from "./vite-plugins/lite-parts";
import { jsqrWithoutKanji } from "./vite-plugins/jsqr-without-kanji";

/**
 * In the browser build only, `i18next` and `react-i18next` are our ~1 KB versions of what the
 * portal uses of them (app/lib/i18n-browser.ts, i18n-react.ts): the packages cost ~18 KB
 * compressed on every page that hydrates (decision 021). The server keeps the
 * packages (remix-i18next needs them); tests/unit/i18n-browser.test.ts holds the two to the
 * same strings for every key of every locale file.
 */
const BROWSER_I18N: Record<string, string> = {
  i18next: fileURLToPath(new URL("./app/lib/i18n-browser.ts", import.meta.url)),
  "react-i18next": fileURLToPath(new URL("./app/lib/i18n-react.ts", import.meta.url)),
};
const browserI18n: Plugin = {
  name: "portal:browser-i18n",
  enforce: "pre",
  applyToEnvironment: (environment) => environment.name === "client",
  resolveId: (source) => BROWSER_I18N[source],
};

/**
 * `vite preview` (`npm start`, the e2e server, the benches) forwards every request to workerd
 * through Miniflare's undici Pool, which keeps a connection for 1 s after an answer and sends
 * the next request on it. workerd (kj's HTTP server) closes a connection 5 s after its last
 * answer, timed on its one thread: when that thread was held longer (a crowd, the hourly job),
 * a request undici had just sent on such a connection met the expired timer, the connection
 * was closed with the request unread (ECONNRESET) and vite preview answered 500 "fetch
 * failed" (decision 051: 4 to 50 of 2,000 requests while the job ran). Here each forwarded
 * request gets a connection of its own (`reset`: closed after its answer; a loopback connect,
 * well under a millisecond): a new connection's clock starts when workerd accepts it, so a
 * held thread makes requests wait, never fail. Miniflare's own copy of undici is patched, in
 * the preview process only (`vite dev` and the deployed Worker are untouched).
 */
const previewConnectionPerRequest: Plugin = {
  name: "portal:preview-connection-per-request",
  configurePreviewServer() {
    const miniflare = createRequire(import.meta.resolve("@cloudflare/vite-plugin")).resolve("miniflare");
    const { Pool } = createRequire(miniflare)("undici") as { Pool: { prototype: { dispatch(options: object, handler: unknown): boolean } } };
    const dispatch = Pool.prototype.dispatch;
    Pool.prototype.dispatch = function (options, handler) {
      return dispatch.call(this, { ...options, reset: true }, handler);
    };
  },
};

/**
 * `vite preview`'s own server keeps an idle kept-alive connection for 65 s instead of Node's
 * 5 s. A client that reuses a connection (Playwright's API client, a browser) and sends on it
 * just as the server closes it gets `read ECONNRESET`: one e2e run in three had one
 * (withdraw.spec's operator API POST, docs/measurements.md run G). Idle gaps of exactly 65 s
 * do not occur in the tests, and the deployed Worker is untouched.
 */
const previewKeepAlive: Plugin = {
  name: "portal:preview-keep-alive",
  configurePreviewServer(server) {
    Object.assign(server.httpServer, { keepAliveTimeout: 65_000, headersTimeout: 66_000 });
  },
};

export default defineConfig({
  plugins: [
    liteParts(),
    jsqrWithoutKanji(),
    browserI18n,
    previewConnectionPerRequest,
    previewKeepAlive,
    cloudflare({
      viteEnvironment: { name: "ssr" },
      // Local state (D1, R2, Durable Objects): .wrangler/state for `npm start`, a folder of its
      // own for a test, bench or rehearsal (scripts/local-dirs.mjs, decision 055).
      persistState: process.env.PORTAL_STATE_DIR ? { path: process.env.PORTAL_STATE_DIR } : true,
      // The sandbox provider, bank and Telegram run beside the portal locally (dev and preview).
      auxiliaryWorkers: [
        { configPath: "./workers/sandbox/provider/wrangler.toml" },
        { configPath: "./workers/sandbox/bank/wrangler.toml" },
        { configPath: "./workers/sandbox/telegram/wrangler.toml" },
      ],
    }),
    reactRouter(),
  ],
  resolve: { tsconfigPaths: true },
  optimizeDeps: {
    // (i18next and react-i18next are no longer browser dependencies: see browserI18n)
    include: ["@conform-to/react", "@conform-to/zod/v4", "zod"],
  },
  // The Worker is minified like the browser code: it is uploaded and parsed on every cold
  // start (decision 031: 777 -> 510 KiB gzip). (The lite pages' script is minified apart, by
  // vite-plugins/lite-parts.ts.)
  // (PROFILE_UNMINIFIED=1: kept readable for a CPU profile's function names, scripts/worker-profile.mjs)
  environments: {
    ssr: { build: { minify: !process.env.PROFILE_UNMINIFIED } },
    // The sandboxes' builds go to dist/ for `npm start`, beside the portal's own build for a test,
    // bench or rehearsal (scripts/local-dirs.mjs, decision 055).
    ...(process.env.PORTAL_BUILD_DIR && {
      sandbox_provider: { build: { outDir: `${process.env.PORTAL_BUILD_DIR}/sandbox_provider` } },
      sandbox_bank: { build: { outDir: `${process.env.PORTAL_BUILD_DIR}/sandbox_bank` } },
      sandbox_telegram: { build: { outDir: `${process.env.PORTAL_BUILD_DIR}/sandbox_telegram` } },
    }),
  },
  server: { port: 5173, strictPort: true, host: "127.0.0.1" },
  preview: { port: 5173, strictPort: true, host: "127.0.0.1" },
});
