import { generateTOTP } from "@epic-web/totp";
import { hashPassword } from "../../workers/services/login";
import { newTotpSecret, TOTP_PERIOD } from "../../workers/services/staff";
import { postForm } from "./players";

/**
 * Staff helpers for integration tests (inside workerd). A staff member made here is already
 * enrolled (TOTP secret known to the test, first step consumed).
 */
export type TestStaff = { id: string; totpSecret: string };

export async function createStaff(
  env: { DB: D1Database },
  input: { agencyId: string; username: string; password: string; role: "owner" | "cashier" },
): Promise<TestStaff> {
  const id = crypto.randomUUID();
  const totpSecret = await newTotpSecret();
  await env.DB.prepare(`INSERT INTO staff (id, agency_id, username, password_hash, role, totp_secret, totp_last_step) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1)`)
    .bind(id, input.agencyId, input.username, await hashPassword(input.password), input.role, totpSecret)
    .run();
  return { id, totpSecret };
}

/** A valid code for the current 30 s step. */
export async function totpNow(secret: string): Promise<string> {
  return (await generateTOTP({ secret, period: TOTP_PERIOD })).otp;
}

/** The code of any time step (RFC 6238, SHA-1, 6 digits), to test windows and replays. */
export async function totpAt(secret: string, step: number): Promise<string> {
  const key = await crypto.subtle.importKey("raw", base32Decode(secret), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const counter = new Uint8Array(8);
  new DataView(counter.buffer).setBigUint64(0, BigInt(step));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, counter));
  const offset = mac[mac.length - 1] & 0xf;
  const value = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(value % 1_000_000).padStart(6, "0");
}

export const currentTotpStep = () => Math.floor(Date.now() / 1000 / TOTP_PERIOD);

function base32Decode(input: string): Uint8Array<ArrayBuffer> {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const clean = input.replace(/=+$/, "").toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return new Uint8Array(out) as Uint8Array<ArrayBuffer>;
}

/** name=value of the staff cookie in a response, or null. */
export function staffCookieFrom(res: Response): string | null {
  for (const cookie of res.headers.getSetCookie()) {
    const match = /^(staff|__Host-staff)=([^;]*)/.exec(cookie);
    if (match && match[2]) return `${match[1]}=${match[2]}`;
  }
  return null;
}

/**
 * Logs in through the real forms (password, then TOTP) and returns the Cookie header
 * value of the FULL staff session. A code whose step was already used by this staff member
 * is refused (replay), so the helper uses the next unused step of the ±1 window and waits
 * for the next 30 s step only when all three are used.
 */
export async function staffLogin(
  env: { DB: D1Database },
  input: { host?: string; username: string; password: string; totpSecret: string; ip?: string },
): Promise<string> {
  const host = input.host ?? "localhost";
  const ip = input.ip ?? `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const first = await postForm("/admin/login", { username: input.username, password: input.password }, { host, ip });
  const half = staffCookieFrom(first);
  if (first.status !== 302 || !half) throw new Error(`staff password step failed: ${first.status}`);
  for (let attempt = 0; attempt < 6; attempt++) {
    const row = await env.DB.prepare(
      `SELECT totp_last_step AS last FROM staff WHERE username = ?1 AND agency_id = (SELECT agency_id FROM agency_domains WHERE host = ?2)`,
    )
      .bind(input.username.toLowerCase(), host)
      .first<{ last: number }>();
    const now = currentTotpStep();
    const step = Math.max(now - 1, (row?.last ?? 0) + 1);
    if (step > now + 1) {
      await new Promise((r) => setTimeout(r, (now + 1) * TOTP_PERIOD * 1000 - Date.now() + 50));
      continue;
    }
    const second = await postForm("/admin/login/totp", { code: await totpAt(input.totpSecret, step) }, { host, ip, cookie: half });
    const full = staffCookieFrom(second);
    if (second.status === 302 && full) return full;
    if (second.status !== 401) throw new Error(`staff second factor failed: ${second.status}`);
  }
  throw new Error("staff second factor refused every code (wrong secret?)");
}

/** An operator API token of this agency (created as an owner would, at /admin/api-tokens). */
export async function operatorToken(env: { DB: D1Database }, agencyId = "demo", name = `test-${crypto.randomUUID().slice(0, 8)}`): Promise<string> {
  const { createApiToken } = await import("../../workers/services/staff");
  const { token } = await createApiToken(env.DB, { agencyId, staffId: null, staffUsername: "test-owner", ip: "local", userAgent: null }, name);
  return token;
}
