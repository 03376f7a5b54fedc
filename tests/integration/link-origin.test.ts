import { beforeAll, describe, expect, it } from "vitest";
import { fetchApp, seedDemo } from "../setup/seed";
import { loginViaForm, registerViaForm, sessionFrom, uniqueName } from "../setup/players";

/**
 * Links are printed with the origin the browser used. `wrangler dev` with an
 * environment whose routes name the agency's host rewrites every request to that route's
 * host (its "upstream": http, no port) and keeps the address the browser used in the
 * MF-Original-Hostname header; the Worker entry puts it back before anything reads the URL.
 */

/** A request as `wrangler dev` hands it to the Worker when the browser used localhost:8787 and the route is `localhost`. */
const asWranglerDev = (headers: Record<string, string> = {}) => ({ "MF-Original-Hostname": "localhost:8787", ...headers });

let cookie: string;

beforeAll(async () => {
  await seedDemo();
  const username = uniqueName("lo");
  await registerViaForm(username);
  cookie = sessionFrom(await loginViaForm(username))!;
}, 120_000); // the first requests build the app's routes

describe("under wrangler dev", () => {
  it("a printed link carries the port the browser used (the referral link)", async () => {
    const res = await fetchApp("http://localhost/player/referral", { headers: asWranglerDev({ Cookie: cookie }) });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("http://localhost:8787/register?ref=");
    expect(html).not.toContain("http://localhost/register?ref=");
  });

  it("a form the browser posts from that page is not taken for a cross-site request", async () => {
    const res = await fetchApp("http://localhost/login", {
      method: "POST",
      redirect: "manual",
      headers: asWranglerDev({ Origin: "http://localhost:8787", "Content-Type": "application/x-www-form-urlencoded" }),
      body: new URLSearchParams({ username: "nobody-here", password: "wrong-password-1" }).toString(),
    });
    expect(res.status).not.toBe(403);
  });
});

describe("deployed", () => {
  it("the header names no other host and never changes an https request", async () => {
    const other = await fetchApp("http://localhost/player/referral", { headers: { Cookie: cookie, "MF-Original-Hostname": "evil.example:8787" } });
    expect(await other.text()).toContain("http://localhost/register?ref=");
    const https = await fetchApp("https://localhost/player/referral", {
      headers: { Cookie: cookie.replace(/^session=/, "__Host-session="), "MF-Original-Hostname": "localhost:8787" },
    });
    expect(await https.text()).not.toContain("localhost:8787");
  });
});
