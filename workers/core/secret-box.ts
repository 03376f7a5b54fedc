/**
 * Secrets stored in D1 (provider credentials): AES-256-GCM with the Worker secret
 * CREDENTIALS_KEY (base64, 32 bytes), a fresh 96-bit IV per value, and associated data
 * naming the row (agency + provider) so a ciphertext copied to another row or agency
 * does not decrypt. Stored as "v1.<iv base64>.<ciphertext+tag base64>".
 */
const VERSION = "v1";

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

async function importKey(keyBase64: string | undefined): Promise<CryptoKey> {
  if (!keyBase64) throw new Error("CREDENTIALS_KEY is not set");
  const raw = fromBase64(keyBase64.trim());
  if (raw.length !== 32) throw new Error("CREDENTIALS_KEY must be 32 bytes, base64");
  return crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
}

export async function sealSecret(keyBase64: string | undefined, plaintext: string, associatedData: string): Promise<string> {
  const key = await importKey(keyBase64);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(associatedData) },
    key,
    new TextEncoder().encode(plaintext),
  );
  return [VERSION, toBase64(iv), toBase64(new Uint8Array(sealed))].join(".");
}

/** The plaintext, or null when the value was not sealed with this key for this row. */
export async function openSecret(keyBase64: string | undefined, sealed: string, associatedData: string): Promise<string | null> {
  const [version, iv, data] = sealed.split(".");
  if (version !== VERSION || !iv || !data) return null;
  const key = await importKey(keyBase64);
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64(iv), additionalData: new TextEncoder().encode(associatedData) },
      key,
      fromBase64(data),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
