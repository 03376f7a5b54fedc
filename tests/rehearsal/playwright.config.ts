import { defineConfig, devices } from "@playwright/test";
import { fullBrowserLaunchOptions } from "../../scripts/chromium.mjs";

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
    // The full browser, as an operator's: behind the headless shell the walk's game launch (a
    // redirect to the AMB fake's https launch host, answered by page.route) ended on
    // chrome-error://chromewebdata/ (decision 065).
    launchOptions: fullBrowserLaunchOptions,
    trace: "retain-on-failure",
  },
  projects: [{ name: "rehearsal" }],
});
