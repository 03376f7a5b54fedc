import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { buildSql, enrolToken, ENROL_TTL_MS, type AgencyOptions } from "../../scripts/agency-sql.mjs";
import { fetchApp } from "../setup/seed";
import { postForm } from "../setup/players";
import { currentTotpStep, staffCookieFrom, staffLogin, totpAt } from "../setup/staff";

/**
 * The rows `npm run agency:create` writes (the same SQL, run here in D1) are a working
 * agency: its domain resolves, and the printed one-time link lets the first owner choose a
 * password and enrol TOTP on the real /admin/enrol page, then log in. The command itself
 * (wrangler, refusals) is tested in Node: tests/scripts/create-agency.test.ts.
 */
/** The options parse() gives for `--env local --id acme --name "Acme Play" --domain acme.localhost --owner chief --thb-buy 580 --thb-sell 600` (node:util parseArgs is Node-only). */
async function runScriptSql(opts: AgencyOptions) {
  const { token, hash } = enrolToken();
  const sql = buildSql(opts, crypto.randomUUID(), hash, Date.now() + ENROL_TTL_MS);
  const statements = sql
    .split(/;\n/)
    .map((s) => s.trim().replace(/;$/, ""))
    .filter(Boolean);
  await env.DB.batch(statements.map((s) => env.DB.prepare(s)));
  return token;
}

describe("an agency created by agency:create", () => {
  it("answers at its domain and its owner enrols through the printed link, once", async () => {
    const token = await runScriptSql({
      env: "local",
      id: "acme",
      name: "Acme Play",
      domains: ["acme.localhost"],
      owner: "chief",
      rate: { buy: "580", sell: "600" },
      remote: false,
      persistTo: undefined,
    });
    const info = await fetchApp("http://acme.localhost/api/v2/agency/info");
    expect(((await info.json()) as { agency: { id: string } }).agency.id).toBe("acme");

    // No password works before enrolment.
    const early = await postForm("/admin/login", { username: "chief", password: "anything-at-all-1" }, { host: "acme.localhost", ip: "10.99.0.1" });
    expect(early.status).not.toBe(302);

    const page = await fetchApp(`http://acme.localhost/admin/enrol?token=${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const secret = /data-testid="totp-secret">\s*([A-Z2-7]+)\s*</.exec(html)?.[1];
    expect(secret).toBeDefined();
    const password = "chief-password-123";
    const done = await postForm(
      "/admin/enrol",
      { token, password, confirmPassword: password, code: await totpAt(secret!, currentTotpStep()) },
      { host: "acme.localhost", ip: "10.99.0.2" },
    );
    expect(done.status).toBe(200);
    expect(staffCookieFrom(done)).not.toBeNull();
    // The link works once.
    expect(await (await fetchApp(`http://acme.localhost/admin/enrol?token=${token}`)).text()).not.toContain(secret!);
    // The owner logs in with password + TOTP and reaches the owner-only settings.
    const cookie = await staffLogin(env, { host: "acme.localhost", username: "chief", password, totpSecret: secret! });
    const settings = await fetchApp("http://acme.localhost/admin/settings", { headers: { Cookie: cookie } });
    expect(settings.status).toBe(200);
    expect(await settings.text()).toContain("600");
  });
});
