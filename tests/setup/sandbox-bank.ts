import { expect } from "vitest";
import { env } from "cloudflare:workers";

// Talking to the sandbox bank Worker from its own tests (tests/integration/sandbox-bank*.test.ts):
// the merchant's JSON API, the tester's /sandbox/* endpoints, per-test reference prefixes and
// faults, and the webhook signature check the portal must make. The bank runs in pool mode
// (vitest.config.ts: DELIVERY_MODE=pull), so callbacks wait for a test to pull them.

/** The demo merchant's HTTP Basic credentials (vitest.config.ts binds the same). */
export const MERCHANT = "Basic " + btoa("DEMO0001:sandbox-bank-secret-demo-0001");
const WEBHOOK_SECRET = "sandbox-webhook-secret-demo-0001";

// biome-ignore lint/suspicious/noExplicitAny: the sandbox's JSON answers, read loosely; the assertions check their shape
export type Json = Record<string, any>;

/** A webhook delivery held by the bank until a test pulls it. */
export type PulledDelivery = { id: number; kind?: string; reference: string; attempt: number; url: string; headers: Record<string, string>; body: string };

export function bank(path: string, init: RequestInit = {}): Promise<Response> {
  return env.SANDBOX_BANK.fetch(`http://sandbox-bank${path}`, init);
}

/** A JSON call; `auth` adds the merchant's credentials (the /api/* endpoints need them). */
export async function call(path: string, method = "GET", body?: unknown, auth = false): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (auth) headers.authorization = MERCHANT;
  const response = await bank(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Json };
}

/** A reference prefix of the test's own: its payments, faults and settings never meet another test's. */
export function prefix(tag: string): string {
  return `${tag}${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
}

let counter = 0;
/** The next reference under a prefix. */
export function ref(prefixText: string): string {
  counter += 1;
  return `${prefixText}-${counter}`;
}

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message)));
  return [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What the portal must do: parse t and v1, recompute the HMAC over t + "." + raw body. */
export async function verify(headers: Record<string, string>, rawBody: string, secret = WEBHOOK_SECRET) {
  const header = headers["x-sandbox-signature"] ?? "";
  const parts = Object.fromEntries(header.split(",").map((part) => part.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  const valid = /^[0-9a-f]{64}$/.test(parts.v1 ?? "") && parts.v1 === (await hmacHex(secret, `${parts.t}.${rawBody}`));
  return { t, valid, ageSeconds: Math.floor(Date.now() / 1000) - t };
}

const faultPrefixes: string[] = [];

/** Arms a fault scoped to `spec.referencePrefix`; clearFaults() (in afterEach) removes it. */
export async function fault(spec: Json) {
  faultPrefixes.push(spec.referencePrefix);
  const created = await call("/sandbox/faults", "POST", spec);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data as Json;
}

/** Removes every fault fault() armed since the last call. */
export async function clearFaults() {
  for (const p of faultPrefixes.splice(0)) await call(`/sandbox/faults?referencePrefix=${p}`, "DELETE");
}
