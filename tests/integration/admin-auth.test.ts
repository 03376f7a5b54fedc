import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { seedDemo, fetchApp } from "../setup/seed";
import { postForm } from "../setup/players";
import { createStaff, staffLogin, staffCookieFrom, totpAt, currentTotpStep } from "../setup/staff";

const OWNER = { username: "owner1", password: "owner-pass-1234", role: "owner" as const };

describe("staff login", () => {
  let owner: { id: string; totpSecret: string };
  beforeAll(async () => {
    await seedDemo();
    owner = await createStaff(env, { agencyId: "demo", ...OWNER });
  });

  it("password then TOTP gives a session that opens /admin", async () => {
    const cookie = await staffLogin(env, { ...OWNER, totpSecret: owner.totpSecret });
    const res = await fetchApp("http://localhost/admin", { headers: { Cookie: cookie }, redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Robots-Tag")).toContain("noindex");
    const html = await res.text();
    expect(html).toContain("owner1");
  });

  it("no session -> redirect to the login page", async () => {
    const res = await fetchApp("http://localhost/admin", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/login");
  });
});
