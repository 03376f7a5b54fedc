import { defineConfig } from "vitest/config";

// Tests of the operator scripts (scripts/*.mjs). They spawn processes (wrangler), which the
// workerd pool cannot, so they run in plain Node: `vitest run --config vitest.node.config.ts`,
// part of `npm run test:unit`.
export default defineConfig({
  test: {
    include: ["tests/scripts/**/*.test.ts"],
    environment: "node",
    // One file at a time: restart-settlement.test.ts and early-refusals.test.ts both build the
    // portal into build/ and start workerd on .wrangler/state (decision 051).
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    reporters: ["default"],
  },
});
