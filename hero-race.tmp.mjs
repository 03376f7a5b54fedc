import { chromium } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless","--no-sandbox","--disable-gpu", ...(process.env.ECT?[`--force-effective-connection-type=${process.env.ECT}`]:[])] });
let both = 0, n = Number(process.env.N ?? 30);
for (let i = 0; i < n; i++) {
  const ctx = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, extraHTTPHeaders: { "CF-Connecting-IP": `10.9.${i}.7` } });
  const urls = [];
  ctx.on("request", (r) => urls.push(r.url()));
  const page = await ctx.newPage();
  await page.goto("http://localhost:5391/", { waitUntil: "load" });
  await page.waitForTimeout(300);
  if (urls.some((u) => u.includes("/brand/hero-"))) { both++; console.log("desktop hero fetched", i, urls.filter(u=>u.includes("hero")).join(" ")); }
  await ctx.close();
}
console.log(`desktop hero on phone: ${both}/${n}`);
await browser.close();
