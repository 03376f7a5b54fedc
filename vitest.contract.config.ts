import { defineConfig } from "vitest/config";

// Contract tests of the real provider adapters (workers/ports/providers) against local fakes
// of the providers (tests/contract/*-fake.ts: node:http servers on 127.0.0.1). Plain Node:
// `npm run test:contract`.
export default defineConfig({
  // the tsconfig paths (`~/*`, `@workers/*`), as in the other configs
  resolve: { tsconfigPaths: true },
  test: {
    include: ["tests/contract/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ["default", ["./tests/setup/summary-reporter.ts", { label: "contract" }]],
  },
});
