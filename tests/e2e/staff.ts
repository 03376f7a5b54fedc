import { createHmac } from "node:crypto";
import { test, type Page } from "@playwright/test";
import { DEMO_STAFF, E2E_COPIES_PER_SLOT, E2E_WORKER_SLOTS, e2eStaffUsername } from "../../scripts/demo-staff.mjs";
import { expect, PAGE_READY } from "./fixtures";

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

/**
 * Logs in through /admin/login and /admin/login/totp with a fresh code. A code of a step
 * this account already used is refused (another test of the same project may just have
 * logged in): then the next step of the window is tried, and at worst the next 30 s step.
 */
export async function staffLogin(page: Page, who: DemoStaff, landing = "/admin") {
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
