import { env } from "cloudflare:workers";
import { fetchApp } from "./seed";

export const ORIGIN = "http://localhost";

/** A form post as a browser sends it from our own page. */
export function postForm(path: string, fields: Record<string, string>, init: { cookie?: string; host?: string; ip?: string } = {}) {
  const host = init.host ?? "localhost";
  return fetchApp(`http://${host}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      Origin: `http://${host}`,
      "Content-Type": "application/x-www-form-urlencoded",
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...(init.ip ? { "CF-Connecting-IP": init.ip } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

export function postJson(path: string, body: unknown, init: { cookie?: string; host?: string; ip?: string } = {}) {
  const host = init.host ?? "localhost";
  return fetchApp(`http://${host}${path}`, {
    method: "POST",
    headers: {
      Origin: `http://${host}`,
      "Content-Type": "application/json",
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...(init.ip ? { "CF-Connecting-IP": init.ip } : {}),
    },
    body: JSON.stringify(body),
  });
}

let counter = 0;
export function uniqueName(prefix = "p"): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).slice(-5)}${counter}`.toLowerCase().slice(0, 20);
}

export const PASSWORD = "correct-horse-1";

/**
 * A phone of its own for each test player: one phone shared by players links them (decision 093),
 * and a linked player's second claim of a reward is held for staff (decision 094).
 */
export function uniquePhone(): string {
  return `020${String(crypto.getRandomValues(new Uint32Array(1))[0]! % 100_000_000).padStart(8, "0")}`;
}

export async function registerViaForm(username: string, password = PASSWORD, host = "localhost", ip = `10.9.${counter % 250}.${(counter * 7) % 250}`) {
  return postForm(
    "/register",
    { username, password, confirmPassword: password, phone: uniquePhone(), adult: "on", displayName: `Player ${username}` },
    { host, ip },
  );
}

/** The value a cookie (name=value) carries, its createCookie encoding undone (decision 072): a session's id. */
export function cookieValueOf(cookie: string): string {
  return JSON.parse(atob(decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1)))) as string;
}

/** The session cookie (name=value) from a login response. */
export function sessionFrom(res: Response): string | null {
  for (const cookie of res.headers.getSetCookie()) {
    const match = /^(session|__Host-session)=([^;]+)/.exec(cookie);
    if (match) return `${match[1]}=${match[2]}`;
  }
  return null;
}

export async function loginViaForm(username: string, password = PASSWORD, opts: { host?: string; ip?: string; cookie?: string } = {}) {
  return postForm("/login", { username, password }, opts);
}

export async function addAgency(id: string, host: string) {
  await env.DB.batch([
    env.DB.prepare(`INSERT OR IGNORE INTO agencies (id, name, status) VALUES (?1, ?2, 'ACTIVE')`).bind(id, `Agency ${id}`),
    env.DB.prepare(`INSERT OR IGNORE INTO agency_domains (host, agency_id) VALUES (?1, ?2)`).bind(host, id),
    env.DB.prepare(`INSERT OR IGNORE INTO agency_settings (agency_id) VALUES (?1)`).bind(id),
  ]);
}
