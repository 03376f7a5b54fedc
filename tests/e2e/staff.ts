import { createHash, createHmac, randomBytes } from "node:crypto";
import { test, type Page } from "@playwright/test";
import { DEMO_STAFF, E2E_COPIES_PER_SLOT, E2E_WORKER_SLOTS, e2eStaffUsername } from "../../scripts/demo-staff.mjs";
import { d1 } from "./d1";
import { currentBaseURL, expect, PAGE_READY } from "./fixtures";

/**
 * Demo back-office staff of scripts/demo-staff.mjs (DEMO DATA ONLY: these TOTP secrets are
 * public). A TOTP code is accepted once per account (replay protection) and Playwright runs
 * tests in parallel, so a test logs in as one of the e2e copies of the account (same password
 * and secret): its project's, its worker slot's, the next one in turn (`boss-phone-js-4`).
 */
export { DEMO_STAFF };
export type DemoStaff = (typeof DEMO_STAFF)[keyof typeof DEMO_STAFF];

const PERIOD = 30;

function base32Decode(input: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of input.replace(/=+$/, "").toUpperCase()) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 6238 code (SHA-1, 6 digits) of a 30 s time step. */
export function totpAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  const value = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(value % 1_000_000).padStart(6, "0");
}

export const currentStep = () => Math.floor(Date.now() / 1000 / PERIOD);

/** Logins of this worker process per demo staff member. */
const logins = new Map<string, number>();
/** The copy this login uses: this worker slot's copies in turn, so no copy logs in twice in a row. */
function loginUsername(who: DemoStaff): string {
  const { project, parallelIndex } = test.info();
  const turn = logins.get(who.username) ?? 0;
  logins.set(who.username, turn + 1);
  const copy = (parallelIndex % E2E_WORKER_SLOTS) * E2E_COPIES_PER_SLOT + (turn % E2E_COPIES_PER_SLOT);
  return e2eStaffUsername(who.username, project.name, copy);
}

/** workers/core/session.ts STAFF_ABSOLUTE_MS: a FULL staff session lasts 8 hours. */
const STAFF_ABSOLUTE_MS = 8 * 60 * 60 * 1000;
const sql = (value: string | null) => (value === null ? "NULL" : `'${value.replace(/'/g, "''")}'`);

/**
 * A FULL staff session opened directly, for the flows that are not about logging in: what
 * /admin/login/totp leaves behind after the right password and code
 * (workers/services/staff/staff-sessions.ts newStaffSession): a random id (32 bytes, base64url) in
 * the `staff` cookie of the test's host (plain HTTP: not `__Host-staff`), its SHA-256 in
 * staff_sessions with the staff member's agency, stage FULL and the service's times, and the
 * account's last_login_at. The row goes in through the e2e server's own D1 (./d1.ts). The
 * agency is the one of the test's baseURL (localhost: the demo agency; `<project>.e2e.localhost`,
 * `<project>.own.localhost`: the project's own); the account is the same e2e copy a form login
 * would use (per project and worker slot). Then the page opens `landing`.
 * The login forms themselves are tested with `staffLoginThroughForms` (admin.spec.ts).
 */
export async function staffLogin(page: Page, who: DemoStaff, landing = "/admin") {
  const base = new URL(currentBaseURL());
  const username = loginUsername(who);
  const [staff] = await d1(
    `SELECT s.id, s.agency_id FROM staff s JOIN agency_domains d ON d.agency_id = s.agency_id
      WHERE d.host = ${sql(base.hostname)} AND s.username = ${sql(username)} AND s.status = 'ACTIVE'`,
  );
  if (!staff) throw new Error(`staff session: no active ${username} at ${base.hostname}`);
  const sessionId = randomBytes(32).toString("base64url");
  const now = Date.now();
  const userAgent = test.info().project.use.userAgent?.slice(0, 300) ?? null;
  await d1(
    `INSERT INTO staff_sessions (id_hash, agency_id, staff_id, stage, created_at, last_seen_at, expires_at, user_agent, ip)
     VALUES (${sql(createHash("sha256").update(sessionId).digest("hex"))}, ${sql(String(staff.agency_id))}, ${sql(String(staff.id))}, 'FULL',
             ${now}, ${now}, ${now + STAFF_ABSOLUTE_MS}, ${sql(userAgent)}, '127.0.0.1')`,
  );
  await d1(`UPDATE staff SET last_login_at = ${sql(new Date(now).toISOString())} WHERE id = ${sql(String(staff.id))}`);
  await page.context().addCookies([
    {
      name: "staff",
      // in createCookie's encoding (decision 072), as the portal writes it
      value: encodeURIComponent(btoa(JSON.stringify(sessionId))),
      url: `${base.origin}/`,
      httpOnly: true,
      secure: false,
      sameSite: "Strict",
      expires: Math.floor((now + STAFF_ABSOLUTE_MS) / 1000),
    },
  ]);
  await page.goto(landing);
  await expect(page).not.toHaveURL(/\/admin\/login/);
}

/**
 * Logs in through /admin/login and /admin/login/totp with a fresh code (the tests of the
 * login itself; every other flow takes `staffLogin`). A code of a step
 * this account already used is refused (another test of the same project may just have
 * logged in): then the next step of the window is tried, and at worst the next 30 s step.
 */
export async function staffLoginThroughForms(page: Page, who: DemoStaff, landing = "/admin") {
  await page.goto(`/admin/login${landing === "/admin" ? "" : `?redirectTo=${encodeURIComponent(landing)}`}`);
  if (test.info().project.use.javaScriptEnabled !== false) await page.locator(PAGE_READY).waitFor();
  const form = page.getByTestId("admin-login-form");
  await form.locator('input[name="username"]').fill(loginUsername(who));
  await form.locator('input[name="password"]').fill(who.password);
  await form.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/admin\/login\/totp/);
  const tried = new Set<number>();
  for (let attempt = 0; attempt < 8; attempt++) {
    const now = currentStep();
    const step = [now, now + 1].find((s) => !tried.has(s));
    if (step === undefined) {
      await page.waitForTimeout((now + 1) * PERIOD * 1000 - Date.now() + 100);
      continue;
    }
    tried.add(step);
    const totp = page.getByTestId("admin-totp-form");
    await totp.locator('input[name="code"]').fill(totpAt(who.totpSecret, step));
    const answer = page.waitForResponse((res) => res.request().method() === "POST" && new URL(res.url()).pathname.startsWith("/admin/login/totp"));
    await totp.locator('button[type="submit"]').click();
    const outcome = (await answer).status() === 401 ? "refused" : "in";
    if (outcome === "in") await page.waitForURL((url) => !url.pathname.startsWith("/admin/login"));
    if (outcome === "in") return;
  }
  throw new Error("staff login: every TOTP code was refused");
}

/** An owner (already logged in on this page) creates an operator API token; it is shown once. */
export async function createOperatorToken(page: Page, name: string): Promise<string> {
  await page.goto("/admin/api-tokens");
  if (test.info().project.use.javaScriptEnabled !== false) await page.locator(PAGE_READY).waitFor();
  const form = page.getByTestId("api-token-form");
  await form.getByLabel("ຊື່ໂທເຄັນ").fill(name);
  await form.getByRole("button", { name: "ສ້າງໂທເຄັນ" }).click();
  const value = page.getByTestId("api-token-value");
  await expect(value).toBeVisible();
  await expect(page.getByTestId("api-token-table").locator(`tr[data-name="${name}"]`)).toBeVisible();
  return value.inputValue();
}

/** The owner revokes a token through its confirm step. */
export async function revokeOperatorToken(page: Page, name: string): Promise<void> {
  await page.goto("/admin/api-tokens");
  const row = page.getByTestId("api-token-table").locator(`tr[data-name="${name}"]`);
  await row.getByRole("link", { name: "ຍົກເລີກໂທເຄັນ" }).click();
  const confirm = page.getByTestId("api-token-confirm");
  await expect(confirm).toContainText(name);
  await confirm.getByRole("button", { name: "ຍົກເລີກໂທເຄັນ" }).click();
  await expect(row.getByTestId("api-token-status")).toContainText("ຖືກຍົກເລີກ");
}

/**
 * Opens the back office's menu where it is folded (a phone, decision 056: the summary shows);
 * a desktop shows it as a bar and nothing is clicked. Works with JavaScript off (<details>).
 */
export async function openAdminMenu(page: Page) {
  const summary = page.getByTestId("admin-menu-summary");
  if (!(await summary.isVisible())) return;
  await summary.click();
  await expect(page.getByTestId("admin-menu")).toHaveAttribute("open", "");
}
