/**
 * Launch tokens: the player's browser opens /play/{provider}?token=... without the agent's
 * Basic credentials, so the token carries who may play where, until when, signed by the
 * agent secret.
 *
 *   token   = base64url(JSON payload) "." base64url(HMAC-SHA256(AGENT_SECRET, first part))
 *   payload = { u: username, p: provider, l: language, exp: unix seconds, r?: return URL }
 *
 * `r` is where the game page's "back to the lobby" link leads (the portal's lobby, passed at
 * launch as real providers take a callbackUrl / returnUrl).
 */
export const LAUNCH_TTL_SECONDS = 15 * 60;

export type LaunchClaims = { u: string; p: string; l: string; exp: number; r?: string };

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

export async function signLaunchToken(secret: string, claims: LaunchClaims): Promise<string> {
  const body = base64url(encoder.encode(JSON.stringify(claims)));
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(body)));
  return `${body}.${base64url(signature)}`;
}

/** The claims if the token is well signed, for this provider, and not expired; else null. */
export async function verifyLaunchToken(secret: string, token: string, provider: string, nowMs = Date.now()): Promise<LaunchClaims | null> {
  const parts = token.split(".");
  if (parts.length !== 2 || parts[0]!.length > 2048) return null;
  const [body, sig] = parts as [string, string];
  const signature = fromBase64url(sig);
  if (!signature || signature.length !== 32) return null;
  // crypto.subtle.verify compares in constant time.
  const valid = await crypto.subtle.verify("HMAC", await hmacKey(secret), signature, encoder.encode(body));
  if (!valid) return null;
  const json = fromBase64url(body);
  if (!json) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(json));
  } catch {
    return null;
  }
  if (!claims || typeof claims !== "object") return null;
  const { u, p, l, exp, r } = claims as Record<string, unknown>;
  if (typeof u !== "string" || typeof p !== "string" || typeof l !== "string" || typeof exp !== "number") return null;
  if (p !== provider || exp * 1000 <= nowMs) return null;
  return typeof r === "string" ? { u, p, l, exp, r } : { u, p, l, exp };
}

/**
 * A return URL a launch may carry: an http(s) address or a path of the same site ("/..." but
 * not "//host"), at most 500 characters; anything else is dropped (the page then has no link back).
 */
export function returnUrlOf(value: string | null): string | null {
  if (!value || value.length > 500) return null;
  if (value.startsWith("/")) return value.startsWith("//") || value.startsWith("/\\") ? null : value;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Constant-time equality of two strings (compares their SHA-256 digests). */
export async function safeEqual(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([crypto.subtle.digest("SHA-256", encoder.encode(a)), crypto.subtle.digest("SHA-256", encoder.encode(b))]);
  const x = new Uint8Array(da);
  const y = new Uint8Array(db);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}
