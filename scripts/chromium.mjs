// Which Chromium the tests drive, and how they start it. Playwright cannot download browsers
// here: we use Debian's packages (scripts/ensure-chromium.mjs installs them).
//
// The tests drive `chromium-headless-shell`, the same Chromium build without the desktop
// browser around it (what Playwright itself runs for headless tests since 1.49). Driving the
// full browser in `--headless` mode cost twice the CPU: accounts.spec on phone-js took 63.7 s
// of Chromium CPU with /usr/bin/chromium and 27.4 s with the shell (decision 065). What measures
// or shows what a player's browser does keeps the full browser (CHROMIUM): Lighthouse, the
// bench, the screenshot scripts, the byte budgets (the shell fetched the landing's lazy images
// at once and never the web app manifest: 15 requests instead of 12) and the production
// rehearsal (its game launch, a redirect to an https host page.route answers, ended on
// chrome-error://chromewebdata/ in the shell).

/** The full browser (Lighthouse, bench, screenshots). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** The browser of the e2e tests. */
export const TEST_CHROMIUM = process.env.TEST_CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";

/** Playwright's launch options for the tests: the shell, without what a test never uses. */
export const testLaunchOptions = {
  executablePath: TEST_CHROMIUM,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

/** The full browser, headless, with the same flags: what a test measures as a player's browser. */
export const fullBrowserLaunchOptions = { executablePath: CHROMIUM, args: ["--headless", ...testLaunchOptions.args] };
