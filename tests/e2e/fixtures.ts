import { test as base, expect, type Page, type TestInfo } from "@playwright/test";

/** A console error or an uncaught exception in the page fails the test. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() === "error" && !/status of 40[134]/.test(msg.text())) errors.push(msg.text());
      });
      page.on("pageerror", (err) => errors.push(err.message));
      await use(errors);
      expect(errors, "console errors").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export const isPhone = (info: TestInfo) => info.project.name.startsWith("phone");
export const hasJs = (info: TestInfo) => info.project.use.javaScriptEnabled !== false;

/** After a click that navigates or posts, wait until the new document (no JS) or route (JS) settled. */
export async function settle(page: Page) {
  await page.waitForLoadState("load");
}

export const DEMO_SOCIAL = {
  telegram: "https://t.me/demo_agency",
  whatsapp: "https://wa.me/8562055555555",
  facebook: "https://www.facebook.com/demo.agency",
  twitter: "https://x.com/demo_agency",
  line: "https://line.me/R/ti/p/@demo_agency",
};
