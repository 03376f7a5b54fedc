import { defineConfig } from "vitest/config";

// Tests of the operator scripts (scripts/*.mjs). They spawn processes (wrangler), which the
// workerd pool cannot, so they run in plain Node: `npm run test:scripts`
// (`vitest run --config vitest.node.config.ts`).
export default defineConfig({
  // the tsconfig paths (`~/*`, `@workers/*`), as in the other configs
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/scripts/**/*.test.ts"],
    environment: "node",
    // Two files at once: each test that serves the portal has its own local state and ports,
    // and they share the tests' build, made once under a lock (scripts/local-dirs.mjs, decision
    // 055). Most of a file's time is waiting for wrangler and workerd to start.
    maxWorkers: 2,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    reporters: ["default", ["./tests/setup/summary-reporter.ts", { label: "scripts" }]],
  },
});
