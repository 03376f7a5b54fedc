/**
 * The signature of "SmsForwarder" (github.com/pppscn/SmsForwarder), the Android app that
 * forwards a bank's SMS or app notifications to our URL. Its webhook sender
 * (app/src/main/kotlin/cn/ppps/forwarder/utils/sender/WebhookUtils.kt; the former
 * doc/POST_WEB.md, "sign 校验规则") posts the form fields `from`, `content`, `timestamp` (ms)
 * and, when a secret is set, `sign` = urlEncode(Base64(HmacSHA256(key = secret,
 * message = timestamp + "\n" + secret))), UTF-8. The doc advises refusing a timestamp more
 * than an hour off; we allow FORWARDER_TOLERANCE_MS either way.
 *
 * The app URL-encodes the Base64 itself and its HTTP client form-encodes the field again,
 * so after one form decoding we may hold "abc%2B%2F%3D" (or, from other senders, the plain
 * Base64, whose "+" a form decoder may have turned into a space): all three are accepted.
 *
 * What the signature does NOT cover: the message. It proves the caller knows the secret at
 * that timestamp; the message it came with is bound to it by the replay record (one
 * timestamp+sign, one message) and the owner's cap on what one message credits alone.
 */

export const FORWARDER_TOLERANCE_MS = 15 * 60 * 1000;

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The Base64 signature SmsForwarder computes for this timestamp (before its URL encoding). */
export async function smsForwarderSignature(secret: string, timestamp: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}\n${secret}`));
  return toBase64(new Uint8Array(mac));
}

/** The `sign` field as SmsForwarder sends it (URL-encoded, as Java's URLEncoder writes it). */
export async function smsForwarderSign(secret: string, timestamp: string): Promise<string> {
  return encodeURIComponent(await smsForwarderSignature(secret, timestamp));
}

function normalizeSign(sign: string): string | null {
  let value = sign.trim();
  if (value.includes("%")) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return value.replace(/ /g, "+");
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export type ForwarderVerdict = { ok: true; timestamp: number; signature: string } | { ok: false; reason: "MALFORMED" | "STALE" | "BAD_SIGNATURE" };

/** A post's `timestamp` and `sign` checked against the secret at `now` (ms). */
export async function verifySmsForwarder(secret: string, timestamp: string, sign: string, now: number): Promise<ForwarderVerdict> {
  if (!/^\d{10,16}$/.test(timestamp) || sign.length === 0 || sign.length > 200) return { ok: false, reason: "MALFORMED" };
  const ms = Number(timestamp);
  if (Math.abs(now - ms) > FORWARDER_TOLERANCE_MS) return { ok: false, reason: "STALE" };
  const given = normalizeSign(sign);
  const expected = await smsForwarderSignature(secret, timestamp);
  if (given === null || !constantTimeEqual(given, expected)) return { ok: false, reason: "BAD_SIGNATURE" };
  return { ok: true, timestamp: ms, signature: expected };
}
