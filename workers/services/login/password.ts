import { scrypt, timingSafeEqual, randomBytes } from "node:crypto";

/**
 * Password storage: scrypt, at OWASP's Password Storage Cheat Sheet minimum that fits a
 * Worker's 128 MB: N=2^14 (16 MiB), r=8, p=5. PBKDF2 is capped at 100,000 iterations in
 * workerd, below OWASP's 600,000 for SHA-256, so it is not used. The parameters are stored
 * with each hash so they can be raised later (needsRehash) without breaking old hashes.
 * Cost measured in workerd: see tests/bench/password.bench.ts and the issue notes.
 */
const PRODUCTION_SCRYPT_N = 2 ** 14;
/**
 * Defined by vitest.config.ts for the tests inside workerd, never for a build or a benchmark:
 * their hashes cost a sixteenth (N=2^10), as a test settings file swaps in a fast hasher. The
 * throttling tests check a few hundred passwords each; at the production cost scrypt was a
 * fifth of the tests' time (decision 064). The stored parameters travel with each hash, so a
 * production hash still verifies at its own cost.
 */
declare const __TEST_SCRYPT_N__: number | undefined;
const SCRYPT_PARAMS = {
  N: typeof __TEST_SCRYPT_N__ === "number" ? __TEST_SCRYPT_N__ : PRODUCTION_SCRYPT_N,
  r: 8,
  p: 5,
  keyLength: 32,
  saltLength: 16,
} as const;
const MAX_MEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, keyLength, { N, r, p, maxmem: MAX_MEM }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** "scrypt$N$r$p$salt$hash" (base64). */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength, saltLength } = SCRYPT_PARAMS;
  const salt = randomBytes(saltLength);
  const key = await derive(password, salt, N, r, p, keyLength);
  return ["scrypt", N, r, p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every(Number.isInteger)) return false;
  const salt = Buffer.from(parts[4], "base64");
  const expected = Buffer.from(parts[5], "base64");
  const actual = await derive(password, salt, N, r, p, expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function needsRehash(stored: string): boolean {
  const [scheme, N, r, p] = stored.split("$");
  return scheme !== "scrypt" || Number(N) < SCRYPT_PARAMS.N || Number(r) !== SCRYPT_PARAMS.r || Number(p) < SCRYPT_PARAMS.p;
}

/**
 * A hash of a random password, computed once: verifying against it when the username does
 * not exist costs the same time as a real check, so timing does not reveal which
 * usernames exist.
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
}
