import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { cookieSecrets } from "../../app/lib/secrets.server";
import { readDeviceCookie } from "../../workers/services/login";
import { fetchApp, seedDemo } from "../setup/seed";
import { loginViaForm, ORIGIN, PASSWORD, registerViaForm, sessionFrom, uniqueName } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";

/**
 * One cookie module on React Router's createCookie: a cookie written before it (its raw value)
 * works once and comes back in createCookie's encoding, so a deploy logs nobody out.
 */

beforeAll(seedDemo);

const get = (path: string, cookie: string) => fetchApp(`${ORIGIN}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });

/** createCookie's encoding of a string value, undone: the raw value an older deploy wrote. */
const rawOf = (encoded: string) => JSON.parse(atob(decodeURIComponent(encoded))) as string;

/** The name=value a response sets for `name`, or null. */
function setCookie(res: Response, name: string): { value: string; line: string } | null {
  for (const line of res.headers.getSetCookie()) {
    const m = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (m) return { value: m[1]!, line };
  }
  return null;
}

describe("cookies written before the cookie module still work, once, and are rewritten", () => {
  it("a player's session: the page opens with the old cookie and the answer sets it in the new encoding", async () => {
    const name = uniqueName("ck");
    await registerViaForm(name);
    const fresh = sessionFrom(await loginViaForm(name, PASSWORD, { ip: "10.31.0.1" }))!;
    const encoded = fresh.slice("session=".length);
    const id = rawOf(encoded);
    expect(id.length).toBeGreaterThan(16);

    const old = await get("/player/sessions", `session=${id}`);
    expect(old.status).toBe(200);
    const rewritten = setCookie(old, "session");
    expect(rewritten?.value).toBe(encoded);
    expect(rewritten?.line).toMatch(/HttpOnly/);
    expect(old.headers.get("Cache-Control")).toBe("private, no-store");

    const again = await get("/player/sessions", `session=${rewritten!.value}`);
    expect(again.status).toBe(200);
    expect(setCookie(again, "session")).toBeNull();
  });

  it("a dead old session is cleared, not rewritten", async () => {
    const res = await get("/player/sessions", "session=not-a-session-of-anyone");
    expect(res.status).toBe(302);
    expect(setCookie(res, "session")?.line).toMatch(/^session=;.*Max-Age=0/);
  });

  it("a staff session: the back office opens with the old cookie, rewritten SameSite=Strict", async () => {
    const username = `ck${crypto.randomUUID().slice(0, 6)}`;
    const staff = await createStaff(env, { agencyId: "demo", username, password: "cookie-pass-12345", role: "owner" });
    const fresh = await staffLogin(env, { username, password: "cookie-pass-12345", totpSecret: staff.totpSecret });
    const encoded = fresh.slice("staff=".length);

    const old = await get("/admin", `staff=${rawOf(encoded)}`);
    expect(old.status).toBe(200);
    const rewritten = setCookie(old, "staff");
    expect(rewritten?.value).toBe(encoded);
    expect(rewritten?.line).toMatch(/SameSite=Strict/);
    expect((await get("/admin", `staff=${encoded}`)).status).toBe(200);
  });

  it("a login device: the old cookie is read at the next login (the browser's entry kept) and rewritten on any page", async () => {
    const name = uniqueName("dv");
    await registerViaForm(name);
    const first = setCookie(await loginViaForm(name, PASSWORD, { ip: "10.31.0.2" }), "device")!;
    const secrets = { secrets: cookieSecrets(env) };
    const [entry] = await readDeviceCookie(secrets, rawOf(first.value));
    expect(entry?.username).toBe(name);

    const legacy = `device=${rawOf(first.value)}`;
    const page = await get("/login", legacy);
    expect(setCookie(page, "device")?.value).toBe(first.value);

    const second = setCookie(await loginViaForm(name, PASSWORD, { ip: "10.31.0.2", cookie: legacy }), "device")!;
    const entries = await readDeviceCookie(secrets, rawOf(second.value));
    expect(entries.find((e) => e.username === name)?.nonce).toBe(entry!.nonce);
  });
});
