import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 4173);
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const launchOptions = {
  executablePath: chromium,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

const phone = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const desktop = { viewport: { width: 1280, height: 800 } };

/** Every screen is tested on a phone and a desktop, with JavaScript on and off. */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["./tests/e2e/summary-reporter.ts"]],
  timeout: 30_000,
  use: {
    baseURL: `http://localhost:${port}`,
    ...devices["Desktop Chrome"],
    launchOptions,
    trace: "retain-on-failure",
  },
  projects: [
    { name: "phone-js", use: { ...phone, javaScriptEnabled: true } },
    { name: "phone-nojs", use: { ...phone, javaScriptEnabled: false } },
    { name: "desktop-js", use: { ...desktop, javaScriptEnabled: true } },
    { name: "desktop-nojs", use: { ...desktop, javaScriptEnabled: false } },
  ],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `http://localhost:${port}/api/v2/agency/info`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: { E2E_PORT: String(port) },
  },
});
