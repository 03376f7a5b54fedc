import type { Page } from "@playwright/test";
import { expect, waitForHydration } from "./fixtures";

/**
 * Decisions 022 and 034: zod and conform's zod adapter are not part of a money page's first
 * load (the page is lite: no React, its one inline script carries no zod either); the lite
 * script imports the validator module when the player first touches the form, then validates
 * with the same schema as the action, without a request. Returns the POSTs seen (kept up to
 * date) for the caller's later checks. JavaScript on only.
 */
export async function expectLazyClientValidation(page: Page, path: string, touch: () => Promise<void>, expectError: () => Promise<void>) {
  const scripts: string[] = [];
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
    // the page's own form posts (the first page of a visit also posts its fingerprint)
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith(path)) posts.push(request.url());
  });
  await page.goto(path);
  // A lite page is ready when its inline script ran; it loads no script of its own.
  await waitForHydration(page);
  await expect(page.locator("html")).toHaveAttribute("data-scripts", "lite");
  expect(await page.content(), "zod in the page's inline script").not.toContain("$ZodType");
  const firstLoad = [...scripts];
  for (const url of firstLoad) expect((await (await page.request.get(url)).text()).includes("$ZodType"), `zod in first-load script ${url}`).toBe(false);
  await touch();
  await expectError();
  const later = scripts.slice(firstLoad.length);
  const bodies = await Promise.all(later.map(async (url) => (await page.request.get(url)).text()));
  expect(
    bodies.some((body) => body.includes("$ZodType")),
    "zod fetched on the first touch",
  ).toBe(true);
  expect(posts, "validated in the browser, no request").toEqual([]);
  return posts;
}
