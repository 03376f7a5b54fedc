/**
 * Random secrets and their SHA-256. Session ids, enrolment links, recovery codes and API
 * tokens are high-entropy, so a plain SHA-256 is enough to store them: only the hash is
 * kept, and the raw value exists only in the holder's cookie, link or system.
 */

/** `bytes` random bytes (256 bits by default), base64url without padding. */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** SHA-256, lowercase hex. */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
