import { defineConfig } from "vitest/config";

// The pure rules (workers/core, the schemas, formats and translations of app/lib) in plain
// Node: `npm run test:unit` (`vitest run --config vitest.unit.config.ts`). They need no
// Workers runtime, and in workerd each file paid for a runtime and a migrated D1 of its own:
// the 36 files took 89 s of CPU there and 26 s here (decision 065). What needs workerd (the
// bindings, D1, a rendered page) is an integration test (tests/integration, vitest.config.ts).
export default defineConfig({
  resolve: { tsconfigPaths: true },
  // the same password cost as inside workerd (vitest.config.ts, decision 064)
  define: { __TEST_SCRYPT_N__: String(2 ** 10) },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
    maxWorkers: 2,
    // as inside workerd: i18n-keys reads and renders every player page, and took over vitest's
    // default 5 s under coverage instrumentation
    testTimeout: 30_000,
    reporters: ["default", ["./tests/setup/summary-reporter.ts", { label: "unit" }]],
  },
});
