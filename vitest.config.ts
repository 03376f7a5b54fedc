import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vitest/config";
import { bundleSandbox } from "./tests/setup/sandbox-workers";
import { liteParts } from "./vite-plugins/lite-parts";
import { jsqrWithoutKanji } from "./vite-plugins/jsqr-without-kanji";

// Integration tests (`npm run test:integration`) run inside workerd (the Workers runtime), with
// the same wrangler.toml bindings; each test file starts from an empty D1 and empty sandboxes.
// The pure rules' unit tests run in Node (vitest.unit.config.ts).
export default defineConfig(async ({ mode }) => {
  const migrations = await readD1Migrations("./workers/db/migrations");
  const [providerScript, bankScript, telegramScript] = await Promise.all([bundleSandbox("provider"), bundleSandbox("bank"), bundleSandbox("telegram")]);
  const sandbox = { compatibilityDate: "2026-08-01", compatibilityFlags: ["nodejs_compat"], modules: true };
  return {
    plugins: [
      liteParts(),
      jsqrWithoutKanji(),
      cloudflareTest({
        main: "./workers/app.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // The test pool's workerd supports compatibility dates up to 2026-08-22.
          compatibilityDate: "2026-08-01",
          compatibilityFlags: ["nodejs_compat"],
          // The brand images bucket (wrangler.toml BRAND_ASSETS): in memory, emptied before each test file.
          r2Buckets: ["BRAND_ASSETS"],
          bindings: {
            TEST_MIGRATIONS: migrations,
            SESSION_SECRET: "test-secret-0123456789abcdef0123456789abcdef",
            // base64 of 32 bytes; a public test value (workers/config.ts refuses it in production).
            CREDENTIALS_KEY: "dGVzdC1jcmVkZW50aWFscy1rZXktMDEyMzQ1Njc4OWE=",
            // tests/integration/one-payment-model.test.ts: seeds to run instead of CI's ("25": 25 seeds from 1000; "7,42": those)
            MODEL_SEEDS: process.env.MODEL_SEEDS ?? "",
            // tests/integration/debit-payouts-model.test.ts: seeds to run instead of CI's ("7,42")
            DEBIT_SEEDS: process.env.DEBIT_SEEDS ?? "",
          },
          workers: [
            {
              ...sandbox,
              name: "sandbox-provider",
              scriptPath: providerScript,
              durableObjects: { PROVIDER: { className: "SandboxProvider", useSQLite: true } },
              bindings: { AGENT_USERNAME: "demo-agent", AGENT_SECRET: "sandbox-provider-secret-demo-0001" },
            },
            {
              ...sandbox,
              name: "sandbox-bank",
              scriptPath: bankScript,
              durableObjects: { BANK: { className: "SandboxBank", useSQLite: true } },
              // The pool's portal has a per-file name, so the bank cannot bind to it: tests pull
              // webhook deliveries from the bank and hand them to the portal themselves.
              bindings: {
                MERCHANT_ID: "DEMO0001",
                MERCHANT_SECRET: "sandbox-bank-secret-demo-0001",
                WEBHOOK_SECRET: "sandbox-webhook-secret-demo-0001",
                DELIVERY_MODE: "pull",
              },
            },
            {
              ...sandbox,
              name: "sandbox-telegram",
              scriptPath: telegramScript,
              durableObjects: { TELEGRAM: { className: "SandboxTelegram", useSQLite: true } },
            },
          ],
        },
      }),
      reactRouter(),
    ],
    resolve: { tsconfigPaths: true },
    // Passwords inside the tests hash at N=2^10, not 2^14 (workers/services/login/password.ts, decision
    // 064); the benchmarks (`vitest bench`, mode "benchmark") measure the production cost.
    define: mode === "benchmark" ? {} : { __TEST_SCRYPT_N__: String(2 ** 10) },
    test: {
      include: ["tests/integration/**/*.test.ts"],
      benchmark: { include: ["tests/bench/**/*.bench.ts"] },
      setupFiles: ["./tests/setup/apply-migrations.ts"],
      // The files of one vitest worker share one runtime: isolated, each file started its own
      // workerd and loaded the app anew (about 5 s a file, 62 files). The setup file empties
      // every Durable Object (the D1, the bucket, the wallets, the sandboxes) and the provider
      // setups kept in memory before each file (decision 067). The step: 323 s -> 136 s.
      // The benchmarks keep a runtime per file, as their earlier figures were measured.
      isolate: mode === "benchmark",
      // The pool sends every module through vite one by one, dependencies included;
      // pre-bundled, the libraries come as one module each (a file's first page: 4.2 -> 3.5 s).
      deps: {
        optimizer: {
          ssr: {
            enabled: true,
            include: [
              "react",
              "react/jsx-runtime",
              "react/jsx-dev-runtime",
              "react-dom",
              "react-dom/server",
              "react-router",
              "zod",
              "@conform-to/zod/v4",
              "@conform-to/react",
              "i18next",
              "react-i18next",
              "remix-i18next",
              "remix-toast",
              "remix-toast/middleware",
              "qrcode",
              "isbot",
            ],
          },
        },
      },
      reporters: ["default", "./tests/setup/summary-reporter.ts"],
      testTimeout: 30_000,
      // Two files at once: vitest's default on this 2-core machine is one, and much of a file's
      // time is waiting (throttle windows, provider deadlines, retries). Measured on six of the
      // slowest files: 1 -> 200 s, 2 -> 116 s, 3 -> 119 s, 4 -> 129 s.
      maxWorkers: 2,
    },
  };
});
