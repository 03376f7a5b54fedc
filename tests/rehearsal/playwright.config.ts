import { defineConfig, devices } from "@playwright/test";
import { testLaunchOptions } from "../../scripts/chromium.mjs";

/**
 * The production rehearsal's walk (scripts/rehearsal.mjs starts the Worker and passes its
 * address in REHEARSAL_URL; run it through `npm run test:production`, not directly).
 * One project (desktop Chromium, JavaScript on), one worker: the walk is one story whose
 * steps depend on each other.
 */
const baseURL = process.env.REHEARSAL_URL;
if (!baseURL) throw new Error("REHEARSAL_URL is not set: run the rehearsal with `npm run test:production`");

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  timeout: 420_000,
  expect: { timeout: 10_000 },
  outputDir: "../../test-results/rehearsal",
  use: {
    baseURL,
    ...devices["Desktop Chrome"],
    viewport: { width: 1280, height: 800 },
    launchOptions: testLaunchOptions,
    trace: "retain-on-failure",
  },
  projects: [{ name: "rehearsal" }],
});
