import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vitest/config";

// Unit and integration tests run inside workerd (the Workers runtime), with the same
// wrangler.toml bindings and a fresh D1 per test file.
export default defineConfig(async () => {
  const migrations = await readD1Migrations("./workers/db/migrations");
  return {
    plugins: [
      cloudflareTest({
        main: "./workers/app.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // The test pool's workerd supports compatibility dates up to 2026-08-22.
          compatibilityDate: "2026-08-01",
          compatibilityFlags: ["nodejs_compat"],
          bindings: {
            TEST_MIGRATIONS: migrations,
            SESSION_SECRET: "test-secret-0123456789abcdef0123456789abcdef",
          },
        },
      }),
      reactRouter(),
    ],
    resolve: { tsconfigPaths: true },
    test: {
      include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
      benchmark: { include: ["tests/bench/**/*.bench.ts"] },
      setupFiles: ["./tests/setup/apply-migrations.ts"],
      reporters: ["default", "./tests/setup/summary-reporter.ts"],
      testTimeout: 30_000,
    },
  };
});
