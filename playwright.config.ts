import { defineConfig, devices } from "@playwright/test";
import { testLaunchOptions } from "./scripts/chromium.mjs";
import { E2E_WORKER_SLOTS } from "./scripts/demo-staff.mjs";

const port = Number(process.env.E2E_PORT ?? 4173);

// A phone's screen is as wide as its viewport. Without `screen` the phones kept "Desktop
// Chrome"'s 1920 x 1080 one, and Chromium sometimes chose the landing's <picture> source by
// that width before it knew the viewport's: the 20 KB desktop hero as well as the phone's
// (budgets.spec "/": 66.9 KB instead of 46.6, one CI run in ten).
const phone = { viewport: { width: 360, height: 740 }, screen: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const desktop = { viewport: { width: 1280, height: 800 } };

/**
 * Which projects run which spec (decision docs/decisions/026-e2e-matrix.md). Every SCREEN is
 * tested in all four projects (screens.spec.ts visits every public and player page; the
 * layout, landing, account, toast, accessibility and back-office specs run in all four); a
 * long FLOW runs in two: one with JavaScript and one without, on opposite viewports, the pair
 * alternating between specs so each viewport sees both. A spec missing from both lists runs
 * in all four (the safe default for a new spec).
 */
const PAIR_A = ["phone-js", "desktop-nojs"];
const PAIR_B = ["desktop-js", "phone-nojs"];
const FLOWS: Record<string, string[]> = {
  "deposit.spec.ts": PAIR_A,
  "withdraw.spec.ts": PAIR_B,
  "promotion.spec.ts": PAIR_A,
  "game.spec.ts": PAIR_B,
  "bank.spec.ts": PAIR_A,
  "bank-replace.spec.ts": PAIR_B,
  "lobby.spec.ts": PAIR_A,
  "own-account.spec.ts": PAIR_B,
  "own-account-channel.spec.ts": PAIR_A,
  "forwarder.spec.ts": PAIR_B,
  "statements.spec.ts": PAIR_A,
  "provider-setup.spec.ts": PAIR_B,
  "brand-admin.spec.ts": PAIR_A,
  "admin-ops.spec.ts": PAIR_B,
  "reports.spec.ts": PAIR_A,
  "alerts.spec.ts": PAIR_A,
  // the staff player page's linked accounts (decision 093): a section of a screen, its flow in one pair
  "linked-accounts.spec.ts": PAIR_A,
  // one payment, one credit (decision 069): mark paid outside an order's life, a hand credit of an order's pay amount
  // (reconciliation.spec's settlement of a transfer credited twice runs in pair B, tagged, so these flows see both pairs)
  "one-payment.spec.ts": PAIR_A,
  // the player's slip (decision 087): the player adds it on a phone, JavaScript on and off; the cashier sees it on a desktop with it
  "deposit-slip.spec.ts": ["phone-js", "phone-nojs", "desktop-js"],
  // Byte budgets are measured once: a phone with JavaScript on (decision 023).
  "budgets.spec.ts": ["phone-js"],
  // Offline support needs JavaScript (service worker, polling): both viewports with it (decision 028).
  "offline.spec.ts": ["phone-js", "desktop-js"],
  // The staff pages' lite parts (decision 089): JavaScript's own behaviour, on both viewports with it.
  "admin-lite.spec.ts": ["phone-js", "desktop-js"],
};
/** The specs a project leaves out. */
const skippedBy = (project: string) => Object.keys(FLOWS).filter((spec) => !FLOWS[spec].includes(project));
/**
 * A flow inside a spec that runs in all four (accounts, back office, limits, rewards) is
 * tagged with its pair: `test("...", { tag: "@pair-a" }, ...)` (decision 039). The
 * projects outside that pair leave it out.
 */
const PAIR_TAGS: Record<string, string[]> = { "@pair-a": PAIR_A, "@pair-b": PAIR_B };
const tagsLeftOutBy = (project: string) =>
  new RegExp(
    Object.keys(PAIR_TAGS)
      .filter((tag) => !PAIR_TAGS[tag].includes(project))
      .join("|"),
  );

/** Every screen is tested on a phone and a desktop, with JavaScript on and off. */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // each worker slot logs staff in with copies of its own (scripts/demo-staff.mjs)
  workers: E2E_WORKER_SLOTS,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"], ["./tests/e2e/summary-reporter.ts"]],
  timeout: 30_000,
  use: {
    baseURL: `http://localhost:${port}`,
    ...devices["Desktop Chrome"],
    launchOptions: testLaunchOptions,
    // A trace of the retry of a failed test (CI retries once): recording every test's trace
    // and throwing most away cost about a tenth of the suite's time on this 2-core machine
    // (accounts + admin specs, phone-js: 153 s -> 138 s). Locally (no retries): `--trace on`.
    trace: "on-first-retry",
  },
  projects: [
    { name: "phone-js", testIgnore: skippedBy("phone-js"), grepInvert: tagsLeftOutBy("phone-js"), use: { ...phone, javaScriptEnabled: true } },
    { name: "phone-nojs", testIgnore: skippedBy("phone-nojs"), grepInvert: tagsLeftOutBy("phone-nojs"), use: { ...phone, javaScriptEnabled: false } },
    { name: "desktop-js", testIgnore: skippedBy("desktop-js"), grepInvert: tagsLeftOutBy("desktop-js"), use: { ...desktop, javaScriptEnabled: true } },
    { name: "desktop-nojs", testIgnore: skippedBy("desktop-nojs"), grepInvert: tagsLeftOutBy("desktop-nojs"), use: { ...desktop, javaScriptEnabled: false } },
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
