/**
 * Webhook signatures, Stripe/Svix style:
 *   X-Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(WEBHOOK_SECRET, t + "." + rawBody)>
 * The receiver recomputes the HMAC over the raw body it received, compares in constant time,
 * and refuses a t outside its tolerance window (300 s) and a replayed signature.
 */
export const SIGNATURE_HEADER = "X-Sandbox-Signature";

const encoder = new TextEncoder();

async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The header value for `rawBody` signed at `timestamp` (unix seconds). */
export async function signatureHeader(secret: string, rawBody: string, timestamp: number): Promise<string> {
  return `t=${timestamp},v1=${await hmacSha256Hex(secret, `${timestamp}.${rawBody}`)}`;
}

/** Equal-length-independent, constant-time string comparison (compares SHA-256 digests). */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([crypto.subtle.digest("SHA-256", encoder.encode(a)), crypto.subtle.digest("SHA-256", encoder.encode(b))]);
  const x = new Uint8Array(da);
  const y = new Uint8Array(db);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}
