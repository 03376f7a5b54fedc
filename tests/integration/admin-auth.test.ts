import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import routesSource from "../../app/routes.ts?raw";
import { seedDemo, fetchApp, shownOf } from "../setup/seed";
import { addAgency, cookieValueOf, postForm, uniqueName } from "../setup/players";
import { fundProvider, playerWithBank, postWithdraw } from "../setup/money";
import { createStaff, currentTotpStep, operatorToken, staffCookieFrom, staffLogin, totpAt } from "../setup/staff";
import { STAFF_IDLE_MS } from "../../workers/core/session";

const OWNER = { username: "owner1", password: "owner-pass-1234", role: "owner" as const };
const CASHIER = { username: "cashier1", password: "cashier-pass-1234", role: "cashier" as const };

let owner: { id: string; totpSecret: string };
let cashier: { id: string; totpSecret: string };
let ipCounter = 0;
const nextIp = () => `10.88.${++ipCounter % 250}.${(ipCounter * 11) % 250}`;

beforeAll(async () => {
  await seedDemo();
  owner = await createStaff(env, { agencyId: "demo", ...OWNER });
  cashier = await createStaff(env, { agencyId: "demo", ...CASHIER });
});

/** One FULL session per role for the whole file: a TOTP step is accepted once per account. */
const sessions = new Map<string, Promise<string>>();
function sessionOf(role: "owner" | "cashier"): Promise<string> {
  let pending = sessions.get(role);
  if (!pending) {
    pending = role === "owner" ? staffLogin(env, { ...OWNER, totpSecret: owner.totpSecret }) : staffLogin(env, { ...CASHIER, totpSecret: cashier.totpSecret });
    sessions.set(role, pending);
  }
  return pending;
}

/** A fresh, enrolled staff member and their session (for tests that end or age a session). */
async function freshStaff(role: "owner" | "cashier" = "cashier") {
  const username = uniqueName("st");
  const password = "fresh-pass-12345";
  const staff = await createStaff(env, { agencyId: "demo", username, password, role });
  return { ...staff, username, password, cookie: await staffLogin(env, { username, password, totpSecret: staff.totpSecret }) };
}

const get = (path: string, cookie?: string, host = "localhost") =>
  fetchApp(`http://${host}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });

async function auditRows(action: string) {
  const { results } = await env.DB.prepare(`SELECT * FROM audit_log WHERE action = ?1 ORDER BY id`).bind(action).all<Record<string, string | null>>();
  return results;
}

/**
 * Every path of the guarded /admin layout in app/routes.ts (read from the source, so a
 * section another branch adds is covered as soon as it is merged), params filled in.
 */
function guardedAdminPaths(): string[] {
  const start = routesSource.indexOf('route("admin", "routes/admin/layout.tsx", [');
  expect(start).toBeGreaterThan(0);
  // up to the bracket that closes the layout's children (nested arrays included)
  let depth = 0;
  let end = routesSource.indexOf("[", start);
  for (; end < routesSource.length; end++) {
    if (routesSource[end] === "[") depth++;
    if (routesSource[end] === "]" && --depth === 0) break;
  }
  const block = routesSource.slice(start, end);
  const children = [...block.matchAll(/route\("([^"]+)"/g)].map((m) => m[1]).filter((p) => p !== "admin");
  const fill = (p: string) => p.replace(/:[a-zA-Z]+/g, "X1").replace(/\*/g, "x");
  return ["/admin", ...children.map((c) => `/admin/${fill(c)}`)];
}

describe("staff login", () => {
  it("password then TOTP gives a session that opens /admin; admin pages are no-store and noindex", async () => {
    const cookie = await sessionOf("owner");
    const res = await get("/admin", cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(res.headers.get("X-Robots-Tag")).toContain("noindex");
    const html = await res.text();
    expect(html).toContain("owner1");
    // the admin namespace is inlined on admin pages ...
    expect(html).toContain("ລະບົບຫຼັງບ້ານ");
    const data = await get("/admin/withdrawals.data", cookie);
    expect(data.status).toBe(200);
    expect(data.headers.get("Cache-Control")).toBe("private, no-store");
    expect(data.headers.get("X-Robots-Tag")).toContain("noindex");
    const login = await get("/admin/login");
    expect(login.headers.get("Cache-Control")).toBe("no-store");
    expect(login.headers.get("X-Robots-Tag")).toContain("noindex");
  });

  it("the back office speaks the three languages (language switch is the same form post as the portal's)", async () => {
    const pick = async (lng: string) => {
      const res = await postForm("/set-language", { lng, redirectTo: "/admin/login" });
      expect(res.headers.get("Location")).toBe("/admin/login");
      return /^(lng=[^;]+)/.exec(res.headers.get("Set-Cookie")!)![1];
    };
    expect(await shownOf(await get("/admin/login", await pick("cn")))).toContain("后台登录");
    expect(await shownOf(await get("/admin/login", await pick("vn")))).toContain("Đăng nhập trang quản trị");
    expect(await shownOf(await get("/admin/login"))).toContain("ເຂົ້າສູ່ລະບົບຫຼັງບ້ານ");
  });

  it("player pages never carry the admin strings", async () => {
    const html = await (await get("/")).text();
    expect(html).not.toContain("ລະບົບຫຼັງບ້ານ");
    expect(html).not.toContain('"admin":{');
  });

  it("no session -> redirect to the login page (with the page to come back to)", async () => {
    expect((await get("/admin")).headers.get("Location")).toBe("/admin/login");
    expect((await get("/admin/withdrawals")).headers.get("Location")).toBe("/admin/login?redirectTo=%2Fadmin%2Fwithdrawals");
  });

  it("the password alone (PASSWORD stage) does not open the back office", async () => {
    const res = await postForm("/admin/login", { username: OWNER.username, password: OWNER.password }, { ip: nextIp() });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/login/totp");
    const half = staffCookieFrom(res)!;
    expect((await get("/admin", half)).headers.get("Location")).toBe("/admin/login");
  });

  it("wrong password, unknown user and disabled account look the same (401)", async () => {
    const ip = nextIp();
    for (const [username, password] of [
      [OWNER.username, "wrong-password-1"],
      ["nobody-here", "whatever-pass-1"],
    ]) {
      const res = await postForm("/admin/login", { username, password }, { ip });
      expect(res.status).toBe(401);
      expect(staffCookieFrom(res)).toBeNull();
    }
  });

  it("TOTP codes cannot be reused: the same code (and older steps) are refused, concurrent replays pass once", async () => {
    const staff = await createStaff(env, { agencyId: "demo", username: uniqueName("st"), password: "replay-pass-1234", role: "cashier" });
    const ip = nextIp();
    const half = async () => staffCookieFrom(await postForm("/admin/login", { username: staffName(), password: "replay-pass-1234" }, { ip }))!;
    const row = await env.DB.prepare(`SELECT username FROM staff WHERE id = ?1`).bind(staff.id).first<{ username: string }>();
    const staffName = () => row!.username;
    const step = currentTotpStep();
    const code = await totpAt(staff.totpSecret, step);
    // two browsers send the same code at the same moment: one gets in
    const [a, b] = await Promise.all([half(), half()]);
    const answers = await Promise.all([a, b].map((cookie) => postForm("/admin/login/totp", { code }, { ip, cookie })));
    expect(answers.map((r) => r.status).sort()).toEqual([302, 401]);
    // the same code again, later: refused
    const again = await postForm("/admin/login/totp", { code }, { ip, cookie: await half() });
    expect(again.status).toBe(401);
    // an older step of the window: refused too (its step is below the last accepted one)
    const older = await postForm("/admin/login/totp", { code: await totpAt(staff.totpSecret, step - 1) }, { ip, cookie: await half() });
    expect(older.status).toBe(401);
    // the next step (within the ±1 window) is new: accepted
    const next = await postForm("/admin/login/totp", { code: await totpAt(staff.totpSecret, step + 1) }, { ip, cookie: await half() });
    expect(next.status).toBe(302);
    // two steps ahead is outside the window
    const far = await postForm("/admin/login/totp", { code: await totpAt(staff.totpSecret, step + 3) }, { ip, cookie: await half() });
    expect(far.status).toBe(401);
  });

  it("session fixation: a cookie the browser brought is never upgraded; each stage gets a new id", async () => {
    const ip = nextIp();
    const planted = await postForm("/admin/login", { username: OWNER.username, password: OWNER.password }, { ip });
    const plantedCookie = staffCookieFrom(planted)!;
    // the victim logs in carrying the planted (PASSWORD-stage) cookie
    const res = await postForm("/admin/login", { username: OWNER.username, password: OWNER.password }, { ip, cookie: plantedCookie });
    const half = staffCookieFrom(res)!;
    expect(half).not.toBe(plantedCookie);
    const full = await staffLogin(env, { ...OWNER, totpSecret: owner.totpSecret });
    expect(full).not.toBe(half);
    // the planted id is dead: it cannot be used for the second factor
    const step = currentTotpStep();
    const attempt = await postForm("/admin/login/totp", { code: await totpAt(owner.totpSecret, step + 1) }, { ip, cookie: plantedCookie });
    expect(attempt.status).toBe(302);
    expect(attempt.headers.get("Location")).toBe("/admin/login");
  });

  it("staff login is throttled per account and address (and a lock refuses even the right password)", async () => {
    const staff = await createStaff(env, { agencyId: "demo", username: "throttled1", password: "throttle-pass-123", role: "cashier" });
    expect(staff.id).toBeTruthy();
    const ip = nextIp();
    for (let i = 0; i < 5; i++) {
      expect((await postForm("/admin/login", { username: "throttled1", password: `wrong-pass-${i}00` }, { ip })).status).toBe(401);
    }
    expect((await postForm("/admin/login", { username: "throttled1", password: "wrong-pass-600" }, { ip })).status).toBe(401);
    const locked = await postForm("/admin/login", { username: "throttled1", password: "throttle-pass-123" }, { ip });
    expect(locked.status).toBe(429);
    // another address is not locked out of this account
    expect((await postForm("/admin/login", { username: "throttled1", password: "throttle-pass-123" }, { ip: nextIp() })).status).toBe(302);
    // player and staff throttles are separate keys: the player login of the same name at this address is not locked
    const player = await postForm("/login", { username: "throttled1", password: "whatever-123" }, { ip });
    expect(player.status).toBe(401);
  });

  it("idle staff sessions end after 15 minutes", async () => {
    const { cookie } = await freshStaff();
    const id = cookieValueOf(cookie);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(id));
    const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    await env.DB.prepare(`UPDATE staff_sessions SET last_seen_at = last_seen_at - ?1 WHERE id_hash = ?2`)
      .bind(STAFF_IDLE_MS + 1000, hash)
      .run();
    expect((await get("/admin", cookie)).headers.get("Location")).toBe("/admin/login");
  });

  it("logout is a POST, ends the session and is audited", async () => {
    const { cookie, username } = await freshStaff();
    const res = await postForm("/admin/logout", {}, { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/login");
    expect((await get("/admin", cookie)).headers.get("Location")).toBe("/admin/login");
    expect((await auditRows("auth.logout")).some((r) => r.staff_username === username)).toBe(true);
  });
});

describe("players and staff are separate", () => {
  it("a player session cannot reach any /admin route (GET and POST)", async () => {
    const p = await playerWithBank();
    const paths = guardedAdminPaths();
    expect(paths).toEqual(expect.arrayContaining(["/admin", "/admin/withdrawals", "/admin/staff", "/admin/audit"]));
    // the player's cookie, and the player's session id presented as a staff cookie
    const playerId = p.cookie.split("=")[1];
    for (const cookie of [p.cookie, `staff=${playerId}`, `${p.cookie}; staff=${playerId}`]) {
      for (const path of paths) {
        const res = await get(path, cookie);
        expect(res.status, `GET ${path}`).toBe(302);
        expect(res.headers.get("Location"), `GET ${path}`).toMatch(/^\/admin\/login/);
        const data = await get(`${path}.data`, cookie);
        expect(await data.text(), `GET ${path}.data`).toContain("/admin/login");
        const post = await postForm(path, { intent: "disable", staffId: owner.id }, { cookie });
        expect([302, 405], `POST ${path}`).toContain(post.status);
        if (post.status === 302) expect(post.headers.get("Location")).toMatch(/^\/admin\/login/);
      }
    }
    const ownerRow = await env.DB.prepare(`SELECT status FROM staff WHERE id = ?1`).bind(owner.id).first<{ status: string }>();
    expect(ownerRow!.status).toBe("ACTIVE");
  });

  it("a staff session is not a player session", async () => {
    const cookie = await sessionOf("cashier");
    const id = cookie.slice(cookie.indexOf("=") + 1);
    for (const c of [cookie, `session=${id}`, `session=${cookieValueOf(cookie)}`]) {
      const res = await get("/player/deposit", c);
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toMatch(/^\/login/);
    }
  });
});

describe("roles", () => {
  it("a cashier gets 403 on staff management and the audit log (loader and action), nothing changes", async () => {
    const cookie = await sessionOf("cashier");
    for (const path of ["/admin/staff", "/admin/staff/new", "/admin/audit"]) {
      expect((await get(path, cookie)).status, `GET ${path}`).toBe(403);
      expect((await get(`${path}.data`, cookie)).status, `GET ${path}.data`).toBe(403);
    }
    const disable = await postForm("/admin/staff", { intent: "disable", staffId: owner.id }, { cookie });
    expect(disable.status).toBe(403);
    const reset = await postForm("/admin/staff", { intent: "reset", staffId: owner.id }, { cookie });
    expect(reset.status).toBe(403);
    const create = await postForm("/admin/staff/new", { username: "sneaky1", role: "owner" }, { cookie });
    expect(create.status).toBe(403);
    expect(await env.DB.prepare(`SELECT 1 FROM staff WHERE username = 'sneaky1'`).first()).toBeNull();
    const ownerRow = await env.DB.prepare(`SELECT status, totp_secret FROM staff WHERE id = ?1`)
      .bind(owner.id)
      .first<{ status: string; totp_secret: string }>();
    expect(ownerRow).toEqual({ status: "ACTIVE", totp_secret: owner.totpSecret });
    // what a cashier may do
    expect((await get("/admin/withdrawals", cookie)).status).toBe(200);
    expect((await get("/admin", cookie)).status).toBe(200);
  });
});

describe("staff management (owner)", () => {
  it("create -> one-time enrolment link -> enrol with QR secret, password and first code -> recovery codes work once", async () => {
    const ownerCookie = await sessionOf("owner");
    const created = await postForm("/admin/staff/new", { username: "NewCashier", role: "cashier" }, { cookie: ownerCookie });
    expect(created.status).toBe(200);
    const html = await created.text();
    const link = /href="(http:\/\/localhost\/admin\/enrol\?token=[^"]+)"/.exec(html)?.[1];
    expect(link).toBeTruthy();
    const token = decodeURIComponent(new URL(link!.replace(/&amp;/g, "&")).searchParams.get("token")!);
    // same name again -> refused
    expect((await postForm("/admin/staff/new", { username: "newcashier", role: "cashier" }, { cookie: ownerCookie })).status).toBe(409);
    // not enrolled yet: cannot log in
    const row = await env.DB.prepare(`SELECT id, enrol_token_hash FROM staff WHERE username = 'newcashier'`).first<{ id: string; enrol_token_hash: string }>();
    expect(row!.enrol_token_hash).not.toContain(token); // stored hashed

    const page = await get(`/admin/enrol?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageHtml).toContain("<svg"); // the QR code, server-rendered
    const secret = /data-testid="totp-secret">([A-Z2-7]+)</.exec(pageHtml)?.[1];
    expect(secret).toBeTruthy();
    // reloading shows the same secret
    expect(await (await get(`/admin/enrol?token=${encodeURIComponent(token)}`)).text()).toContain(secret!);

    const ip = nextIp();
    const bad = await postForm(
      `/admin/enrol?token=${encodeURIComponent(token)}`,
      { token, password: "cashier-new-pass-1", confirmPassword: "cashier-new-pass-1", code: "000000" },
      { ip },
    );
    expect(bad.status).toBe(400);
    const step = currentTotpStep();
    const done = await postForm(
      `/admin/enrol?token=${encodeURIComponent(token)}`,
      { token, password: "cashier-new-pass-1", confirmPassword: "cashier-new-pass-1", code: await totpAt(secret!, step) },
      { ip },
    );
    expect(done.status).toBe(200);
    const doneHtml = await done.text();
    const codes = [...doneHtml.matchAll(/<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/g)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    const sessionCookie = staffCookieFrom(done)!;
    expect((await get("/admin", sessionCookie)).status).toBe(200);
    // the link works once
    expect(
      (
        await postForm(
          `/admin/enrol?token=${encodeURIComponent(token)}`,
          { token, password: "another-pass-123", confirmPassword: "another-pass-123", code: await totpAt(secret!, step + 1) },
          { ip },
        )
      ).status,
    ).toBe(410);
    // recovery codes are stored hashed
    const stored = await env.DB.prepare(`SELECT code_hash FROM staff_recovery_codes WHERE staff_id = ?1`).bind(row!.id).all<{ code_hash: string }>();
    expect(stored.results).toHaveLength(10);
    expect(stored.results.map((r) => r.code_hash)).not.toContain(codes[0]);

    // a recovery code replaces the TOTP code, once
    const loginHalf = async () => staffCookieFrom(await postForm("/admin/login", { username: "newcashier", password: "cashier-new-pass-1" }, { ip }))!;
    const withRecovery = await postForm("/admin/login/totp", { recoveryCode: codes[0].toUpperCase() }, { ip, cookie: await loginHalf() });
    expect(withRecovery.status).toBe(302);
    expect((await get("/admin", staffCookieFrom(withRecovery)!)).status).toBe(200);
    const reused = await postForm("/admin/login/totp", { recoveryCode: codes[0] }, { ip, cookie: await loginHalf() });
    expect(reused.status).toBe(401);
    expect((await auditRows("auth.login.recovery_code")).some((r) => r.staff_username === "newcashier")).toBe(true);
    expect((await auditRows("auth.enrol")).some((r) => r.staff_username === "newcashier")).toBe(true);
  });

  it("disable ends the staff member's sessions; enable; reset second factor issues a new link; all audited with before/after", async () => {
    const ownerCookie = await sessionOf("owner");
    const target = await createStaff(env, { agencyId: "demo", username: "target1", password: "target-pass-1234", role: "cashier" });
    const targetCookie = await staffLogin(env, { username: "target1", password: "target-pass-1234", totpSecret: target.totpSecret });
    expect((await get("/admin", targetCookie)).status).toBe(200);

    const disabled = await postForm("/admin/staff", { intent: "disable", staffId: target.id }, { cookie: ownerCookie, ip: "203.0.113.9" });
    expect(disabled.status).toBe(302);
    expect((await get("/admin", targetCookie)).headers.get("Location")).toBe("/admin/login");
    expect((await postForm("/admin/login", { username: "target1", password: "target-pass-1234" }, { ip: nextIp() })).status).toBe(401);
    // an owner cannot disable themselves
    await postForm("/admin/staff", { intent: "disable", staffId: owner.id }, { cookie: ownerCookie });
    expect((await env.DB.prepare(`SELECT status FROM staff WHERE id = ?1`).bind(owner.id).first<{ status: string }>())!.status).toBe("ACTIVE");

    expect((await postForm("/admin/staff", { intent: "enable", staffId: target.id }, { cookie: ownerCookie })).status).toBe(302);
    const reset = await postForm("/admin/staff", { intent: "reset", staffId: target.id }, { cookie: ownerCookie });
    expect(reset.status).toBe(200);
    expect(await reset.text()).toContain("/admin/enrol?token=");
    // the old secret no longer works: enrolment is required
    expect((await postForm("/admin/login", { username: "target1", password: "target-pass-1234" }, { ip: nextIp() })).status).toBe(401);

    const [disable] = (await auditRows("staff.disable")).filter((r) => r.target === `staff:${target.id}`);
    expect(disable).toMatchObject({ staff_username: "owner1", staff_id: owner.id, ip: "203.0.113.9", agency_id: "demo" });
    expect(JSON.parse(disable.before_json!)).toMatchObject({ status: "ACTIVE" });
    expect(JSON.parse(disable.after_json!)).toMatchObject({ status: "DISABLED" });
    expect((await auditRows("staff.enable")).some((r) => r.target === `staff:${target.id}`)).toBe(true);
    expect((await auditRows("staff.reset_second_factor")).some((r) => r.target === `staff:${target.id}`)).toBe(true);
    expect((await auditRows("staff.create")).some((r) => JSON.parse(r.after_json!).username === "newcashier")).toBe(true);
    // the audit page lists them (owner only)
    const auditPage = await (await get("/admin/audit?action=staff.disable", ownerCookie)).text();
    expect(auditPage).toContain("staff.disable");
  });

  it("the audit log is append-only", async () => {
    await expect(env.DB.prepare(`UPDATE audit_log SET action = 'x'`).run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare(`DELETE FROM audit_log`).run()).rejects.toThrow(/append-only/);
  });

  it("CSRF: a cross-site POST to an admin action is refused before it reaches the route", async () => {
    const ownerCookie = await sessionOf("owner");
    const res = await fetchApp("http://localhost/admin/staff", {
      method: "POST",
      redirect: "manual",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded", Cookie: ownerCookie },
      body: new URLSearchParams({ intent: "disable", staffId: cashier.id }).toString(),
    });
    expect(res.status).toBe(403);
    expect((await env.DB.prepare(`SELECT status FROM staff WHERE id = ?1`).bind(cashier.id).first<{ status: string }>())!.status).toBe("ACTIVE");
  });
});

describe("agencies are separate", () => {
  it("staff of agency A see nothing of agency B (session, login, withdrawal codes)", async () => {
    await addAgency("agency-b", "b.localhost");
    const bOwner = await createStaff(env, { agencyId: "agency-b", username: "owner1", password: "b-owner-pass-123", role: "owner" });
    // a withdrawal of B (its reference row and read model)
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES ('pb1', 'agency-b', 'bplayer', 'B Player', '02055555555', 'x')`,
      ),
      env.DB.prepare(`INSERT INTO withdraw_refs (code, agency_id, player_id) VALUES ('WBAGENCY0001', 'agency-b', 'pb1')`),
      env.DB.prepare(
        `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, created_at, updated_at)
         VALUES ('WBAGENCY0001', 'agency-b', 'pb1', 'askmebet', '6000.00', '3480000.00', 'OPEN', 'MANUAL', '2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.000Z')`,
      ),
    ]);
    const aCookie = await sessionOf("owner");
    expect((await get("/admin/withdrawals/WBAGENCY0001", aCookie)).status).toBe(404);
    const paid = await postForm("/admin/withdrawals/WBAGENCY0001", { intent: "paid", bankReference: "REF-123" }, { cookie: aCookie });
    expect(paid.status).toBe(404);
    const queue = await (await get("/admin/withdrawals", aCookie)).text();
    expect(queue).not.toContain("WBAGENCY0001");
    // A's session is nothing at B's host; A's password is not B's owner1's
    expect((await get("/admin", aCookie, "b.localhost")).headers.get("Location")).toBe("/admin/login");
    expect((await postForm("/admin/login", { username: "owner1", password: OWNER.password }, { host: "b.localhost", ip: nextIp() })).status).toBe(401);
    // B's staff see their own queue
    const bCookie = await staffLogin(env, { host: "b.localhost", username: "owner1", password: "b-owner-pass-123", totpSecret: bOwner.totpSecret });
    expect(await (await get("/admin/withdrawals", bCookie, "b.localhost")).text()).toContain("WBAGENCY0001");
    expect((await get("/admin/withdrawals", bCookie)).headers.get("Location")).toMatch(/^\/admin\/login/);
  });
});

describe("withdraw queue", () => {
  async function manualWithdrawal(provider = "askmebet", amount = "6000") {
    const p = await playerWithBank();
    await fundProvider(provider, p.username, "9000.00");
    const res = await postWithdraw(p.cookie, { provider, amount });
    expect(res.status).toBe(302);
    const { items } = await p.wallet.listWithdraws(1, 1);
    const order = items[0];
    expect(order).toMatchObject({ status: "OPEN", review: "MANUAL" });
    await p.wallet.runDueWork(); // projects the order into the read model
    return { ...p, code: order.code };
  }

  it("lists OPEN manual withdrawals oldest first with the bank details; the detail shows the full account number and history", async () => {
    const first = await manualWithdrawal();
    const second = await manualWithdrawal("betflix", "5500");
    const cookie = await sessionOf("cashier");
    const html = await (await get("/admin/withdrawals", cookie)).text();
    expect(html.indexOf(first.code)).toBeGreaterThan(0);
    expect(html.indexOf(first.code)).toBeLessThan(html.indexOf(second.code));
    const detail = await get(`/admin/withdrawals/${first.code}`, cookie);
    expect(detail.status).toBe(200);
    const detailHtml = await detail.text();
    const bank = await env.DB.prepare(`SELECT account_number FROM bank_accounts WHERE player_id = ?1`).bind(first.playerId).first<{ account_number: string }>();
    expect(detailHtml).toContain(bank!.account_number);
    expect(detailHtml).toContain("Test Player");
    expect(detailHtml).toContain('data-testid="recent-withdrawals"');
    expect(detailHtml).toContain("₭3.480.000"); // 6000 x 580 to pay
    expect((await get("/admin/withdrawals/WNOSUCHCODE", cookie)).status).toBe(404);
  });

  it("mark paid: SUCCESS with the bank's reference, never an automatic payout; audited with before/after", async () => {
    const w = await manualWithdrawal();
    const cookie = await sessionOf("cashier");
    const invalid = await postForm(`/admin/withdrawals/${w.code}`, { intent: "paid", bankReference: "" }, { cookie });
    expect(invalid.status).toBe(400);
    const res = await postForm(`/admin/withdrawals/${w.code}`, { intent: "paid", bankReference: "BCEL-778899" }, { cookie, ip: "198.51.100.7" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/withdrawals");
    const order = await w.wallet.getWithdraw(w.code);
    expect(order).toMatchObject({ status: "SUCCESS", review: "MANUAL", payoutState: null });
    // gone from the queue at once (before the wallet has projected the new status)
    expect(await (await get("/admin/withdrawals", cookie)).text()).not.toContain(w.code);
    expect(await w.wallet.ledgerTotals()).toEqual({ THB: "0", LAK: "0" });
    const [row] = (await auditRows("withdrawal.paid")).filter((r) => r.target === `withdrawal:${w.code}`);
    expect(row).toMatchObject({ staff_username: "cashier1", ip: "198.51.100.7" });
    expect(JSON.parse(row.before_json!)).toMatchObject({ status: "OPEN", review: "MANUAL" });
    expect(JSON.parse(row.after_json!)).toMatchObject({ status: "SUCCESS", bankReference: "BCEL-778899" });
    // the player sees SUCCESS
    const history = await (await fetchApp("http://localhost/player/withdraw/history", { headers: { Cookie: w.cookie } })).text();
    expect(history).toMatch(new RegExp(`data-code="${w.code}"[\\s\\S]*?data-status="SUCCESS"`));
    // pressing again: already handled (409), no second audit row
    const again = await postForm(`/admin/withdrawals/${w.code}`, { intent: "paid", bankReference: "BCEL-778899" }, { cookie });
    expect(again.status).toBe(409);
    expect((await auditRows("withdrawal.paid")).filter((r) => r.target === `withdrawal:${w.code}`)).toHaveLength(1);
  });

  it("reject needs a reason; the credit goes back through the saga; audited", async () => {
    const w = await manualWithdrawal("gclub", "7000");
    const cookie = await sessionOf("owner");
    expect((await postForm(`/admin/withdrawals/${w.code}`, { intent: "reject", reason: "" }, { cookie })).status).toBe(400);
    const res = await postForm(`/admin/withdrawals/${w.code}`, { intent: "reject", reason: "Name does not match" }, { cookie });
    expect(res.status).toBe(302);
    expect(await w.wallet.getWithdraw(w.code)).toMatchObject({ status: "REJECTED", reason: "Name does not match", returnState: "PENDING" });
    await w.wallet.runDueWork(Date.now() + 60_000);
    expect(await w.wallet.getWithdraw(w.code)).toMatchObject({ returnState: "DONE" });
    const [row] = (await auditRows("withdrawal.rejected")).filter((r) => r.target === `withdrawal:${w.code}`);
    expect(JSON.parse(row.after_json!)).toMatchObject({ status: "REJECTED", reason: "Name does not match" });
  });

  it("two staff pressing at once: one outcome, the other is told it was already handled", { timeout: 90_000 }, async () => {
    const ownerCookie = await sessionOf("owner");
    const cashierCookie = await sessionOf("cashier");
    // paid vs reject
    const w1 = await manualWithdrawal();
    const [a, b] = await Promise.all([
      postForm(`/admin/withdrawals/${w1.code}`, { intent: "paid", bankReference: "BCEL-1" }, { cookie: ownerCookie }),
      postForm(`/admin/withdrawals/${w1.code}`, { intent: "reject", reason: "changed my mind" }, { cookie: cashierCookie }),
    ]);
    expect([a.status, b.status].sort()).toEqual([302, 409]);
    const order1 = await w1.wallet.getWithdraw(w1.code);
    expect(order1!.status).toBe(a.status === 302 ? "SUCCESS" : "REJECTED");
    const loser = a.status === 409 ? a : b;
    expect(await loser.text()).toContain('data-testid="already-handled"');
    // paid vs paid, reject vs reject: exactly one audit row each
    for (const [intent, field, value] of [
      ["paid", "bankReference", "BCEL-2"],
      ["reject", "reason", "same reason"],
    ] as const) {
      const w = await manualWithdrawal();
      const answers = await Promise.all(
        [ownerCookie, cashierCookie, ownerCookie].map((cookie) => postForm(`/admin/withdrawals/${w.code}`, { intent, [field]: value }, { cookie })),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([302, 409, 409]);
      const action = intent === "paid" ? "withdrawal.paid" : "withdrawal.rejected";
      expect((await auditRows(action)).filter((r) => r.target === `withdrawal:${w.code}`)).toHaveLength(1);
    }
    const both = [...(await auditRows("withdrawal.paid")), ...(await auditRows("withdrawal.rejected"))].filter((r) => r.target === `withdrawal:${w1.code}`);
    expect(both).toHaveLength(1);
  });

  it("the operator API writes the audit log (who: the API token)", async () => {
    const w = await manualWithdrawal();
    const token = await operatorToken(env, "demo", "payroll-system");
    const res = await fetchApp(`http://localhost/api/staff/withdrawals/${w.code}/reject`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.44" },
      body: JSON.stringify({ reason: "KYC" }),
    });
    expect(res.status).toBe(200);
    const [row] = (await auditRows("api.withdrawal.reject")).filter((r) => r.target === `withdrawal:${w.code}`);
    expect(row).toMatchObject({ staff_id: null, staff_username: "api-token:payroll-system", ip: "192.0.2.44" });
    expect(JSON.parse(row.before_json!)).toMatchObject({ status: "OPEN" });
    expect(JSON.parse(row.after_json!)).toMatchObject({ status: "REJECTED" });
  });
});

describe("dashboard", () => {
  it("shows today's money and what waits for staff", async () => {
    const cookie = await sessionOf("owner");
    const now = new Date().toISOString();
    await env.DB.batch([
      env.DB.prepare(
        // as the projection writes them (migration 0022: today's money counts by paid time, in integer minor units)
        `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at, channel_code, amount_minor, paid_minor, credit_minor, bonus_minor, paid_at, projection_version) VALUES
         ('DDASH1', 'demo', 'p', 'askmebet', '60000.00', '100.00', 'SUCCESS', NULL, ?1, ?1, 'BCEL-QR', 6000000, 6000000, 10000, 0, ?1, 1),
         ('DDASH2', 'demo', 'p', 'askmebet', '120000.00', '200.00', 'SUCCESS', NULL, ?1, ?1, 'BCEL-QR', 12000000, 12000000, 20000, 0, ?1, 1),
         ('DDASH3', 'demo', 'p', 'betflix', '60000.00', '100.00', 'FAILED', NULL, ?1, ?1, 'BCEL-QR', 6000000, 6000000, 10000, 0, ?1, 1),
         ('DDASH4', 'demo', 'p', 'betflix', '60000.00', '100.00', 'OPEN', 'AMOUNT_MISMATCH', ?1, ?1, 'BCEL-QR', 6000000, NULL, 10000, 0, NULL, 1),
         ('DDASH5', 'demo', 'p', 'askmebet', '999999.00', '9.00', 'SUCCESS', NULL, '2001-01-01T00:00:00.000Z', ?1, 'BCEL-QR', 99999900, 99999900, 900, 0, '2001-01-01T00:00:00.000Z', 1)`,
      ).bind(now),
      env.DB.prepare(
        `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, created_at, updated_at) VALUES
         ('WDASH1', 'demo', 'p', 'gclub', '100.00', '58000.00', 'FAILED', 'AUTO', ?1, ?1)`,
      ).bind(now),
      env.DB.prepare(
        `INSERT INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount) VALUES ('UDASH1', 'demo', 'UNKNOWN_REFERENCE', 'NOPE1', 'TXDASH1', '50000.00')`,
      ),
    ]);
    const html = await (await get("/admin", cookie)).text();
    const count = (id: string) => new RegExp(`data-testid="${id}"[^>]*>([^<]+)<`).exec(html)?.[1];
    expect(Number(count("dash-deposit-count"))).toBeGreaterThanOrEqual(2);
    expect(count("dash-deposit-lak")).toMatch(/^₭/);
    expect(Number(count("dash-failed"))).toBeGreaterThanOrEqual(1);
    expect(Number(count("dash-flagged"))).toBeGreaterThanOrEqual(1);
    expect(Number(count("dash-unmatched"))).toBeGreaterThanOrEqual(1);
    expect(html).toContain('data-provider="betflix"');
    expect(html).toContain('data-provider="gclub"');
  });
});
