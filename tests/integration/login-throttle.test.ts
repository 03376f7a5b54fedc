import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../setup/seed";
import { addAgency, loginViaForm, PASSWORD, postForm, postJson, registerViaForm, uniqueName } from "../setup/players";
import { login, registerPlayer } from "../../workers/services/players";
import { createStaff, currentTotpStep, totpAt } from "../setup/staff";

/**
 * Decision 011: without it anyone could lock any account. OWASP's device-cookie scheme: a browser
 * that logged in to the account before is not held back by the per-account limit; strangers
 * are slowed per account and per address (IPv6 by /64), and an agency-wide budget of
 * failures slows unknown devices during a stuffing wave.
 */

beforeAll(seedDemo);

/** Every name=value cookie a response sets (what the browser keeps). */
function cookiesOf(res: Response, previous = ""): string {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((c) => [c.split("=")[0], c] as const),
  );
  for (const set of res.headers.getSetCookie()) {
    const pair = set.split(";")[0];
    const name = pair.split("=")[0];
    if (/Max-Age=0/i.test(set)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/** The agency's budget of unknown-device failures (a setting; absent before the fix). */
async function setFailureBudget(agencyId: string, budget: number) {
  try {
    await env.DB.prepare(`UPDATE agency_settings SET login_failure_budget = ?1 WHERE agency_id = ?2`).bind(budget, agencyId).run();
  } catch {
    // the column does not exist on code without the agency-wide budget
  }
}

const client = (ip: string) => ({ ip, userAgent: "test" });

describe("device cookies: the owner's own browser is never locked out by strangers", () => {
  it("100 wrong guesses from 100 addresses, then the owner's browser logs in at once", { timeout: 120_000 }, async () => {
    const name = uniqueName("own");
    await registerViaForm(name);
    // the owner logged in from this browser before (and logged out)
    const first = await loginViaForm(name, PASSWORD, { ip: "198.51.100.20" });
    expect(first.status).toBe(302);
    const browser = cookiesOf(first)
      .split("; ")
      .filter((c) => !/^(session|__Host-session)=/.test(c))
      .join("; ");
    for (let i = 0; i < 100; i++) {
      const res = await loginViaForm(name, `wrong-guess-${i}`, { ip: `203.0.113.${i}` });
      expect([401, 429]).toContain(res.status);
    }
    const owner = await postForm("/login", { username: name, password: PASSWORD }, { ip: "198.51.100.20", cookie: browser });
    expect(owner.status).toBe(302);
  });

  it("a staff owner's browser is not locked out by 89 wrong passwords from rotating addresses", { timeout: 120_000 }, async () => {
    const username = `lock${crypto.randomUUID().slice(0, 6)}`;
    const password = "owner-password-123";
    const staff = await createStaff(env, { agencyId: "demo", username, password, role: "owner" });
    // the owner logged in fully (password and second factor) from this browser before
    const first = await postForm("/admin/login", { username, password }, { ip: "198.51.100.30" });
    expect(first.status).toBe(302);
    const half = cookiesOf(first);
    const second = await postForm("/admin/login/totp", { code: await totpAt(staff.totpSecret, currentTotpStep()) }, { ip: "198.51.100.30", cookie: half });
    expect(second.status).toBe(302);
    const browser = cookiesOf(second, half)
      .split("; ")
      .filter((c) => !/^(staff|__Host-staff)=/.test(c))
      .join("; ");
    for (let i = 0; i < 89; i++) await postForm("/admin/login", { username, password: `wrong-${i}-pass` }, { ip: `192.0.2.${i}` });
    const owner = await postForm("/admin/login", { username, password }, { ip: "198.51.100.30", cookie: browser });
    expect(owner.status).toBe(302);
    expect(owner.headers.get("Location")).toMatch(/^\/admin\/login\/totp/);
  });
});

describe("strangers", () => {
  it("credential stuffing: 200 guesses over 10 addresses x 20 usernames meet 429s; owners with a device cookie still log in", {
    timeout: 180_000,
  }, async () => {
    await addAgency("stuffed", "stuffed.localhost");
    await setFailureBudget("stuffed", 20);
    const owners: { name: string; browser: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const name = uniqueName("real");
      expect((await registerViaForm(name, PASSWORD, "stuffed.localhost", `10.50.0.${i}`)).status).toBe(302);
      const res = await loginViaForm(name, PASSWORD, { host: "stuffed.localhost", ip: `10.50.1.${i}` });
      expect(res.status).toBe(302);
      owners.push({
        name,
        browser: cookiesOf(res)
          .split("; ")
          .filter((c) => !/^(session|__Host-session)=/.test(c))
          .join("; "),
      });
    }
    const usernames = [...owners.map((o) => o.name), ...Array.from({ length: 17 }, (_, i) => `victim${i}x`)];
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      for (const [u, username] of usernames.entries()) {
        const res = await loginViaForm(username, `stuffed-${round}-${u}`, { host: "stuffed.localhost", ip: `198.18.${round}.${u + 1}` });
        statuses.push(res.status);
      }
    }
    expect(statuses).toHaveLength(200);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(100);
    for (const s of statuses) expect([401, 429]).toContain(s);
    for (const owner of owners) {
      const res = await postForm("/login", { username: owner.name, password: PASSWORD }, { host: "stuffed.localhost", ip: "10.50.9.9", cookie: owner.browser });
      expect(res.status).toBe(302);
    }
  });

  it("IPv6 addresses of one /64 are one address", async () => {
    const name = uniqueName("six");
    await registerPlayer(env.DB, "demo", { username: name, password: PASSWORD, phone: "02055555555" }, client("10.1.2.3"));
    const t0 = Date.UTC(2026, 3, 1);
    const outcomes: string[] = [];
    for (let i = 1; i <= 7; i++) {
      const outcome = await login(
        env.DB,
        "demo",
        { username: name, password: `v6-guess-${i}` },
        client(`2001:db8:abcd:12::${i.toString(16)}`),
        () => t0 + i * 100,
      );
      outcomes.push(outcome.ok ? "ok" : outcome.code);
    }
    // 5 free failures for the account from that /64, then it waits
    expect(outcomes.slice(0, 5)).toEqual(Array(5).fill("INVALID_CREDENTIALS"));
    expect(outcomes[6]).toBe("TOO_MANY_ATTEMPTS");
  });

  it("the username availability check is throttled like login: 60 checks from one address meet 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++)
      statuses.push((await postJson("/api/v2/players/username/validate", { username: `probe${i}x` }, { ip: "203.0.113.200" })).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses[0]).toBe(200);
    // another address is not held back
    expect((await postJson("/api/v2/players/username/validate", { username: "probeother" }, { ip: "203.0.113.201" })).status).toBe(200);
  });
});
