import { generateTOTP, getTOTPAuthUri, verifyTOTP } from "@epic-web/totp";
import { sha256Hex } from "../../core/tokens";
import { claimTotpStep, countUnusedRecoveryCodes, useRecoveryCode, type StaffRecord } from "../../db/staff";

/**
 * The staff second factor: TOTP codes (RFC 6238, 30 s, SHA-1, 6 digits, as authenticator
 * apps expect) that are never accepted twice, and ten one-time recovery codes stored hashed.
 */

export const TOTP_PERIOD = 30;
/** Codes of the previous, current and next 30 s step are accepted (clock drift). */
const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"; // no 0/o, 1/l/i

/** "xxxxx-xxxxx" (about 49 bits each): high entropy, so a plain SHA-256 is enough to store it. */
export function newRecoveryCode(): string {
  const raw = new Uint8Array(10);
  crypto.getRandomValues(raw);
  const chars = [...raw].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** What is stored of a recovery code. */
export const recoveryCodeHash = (code: string) => sha256Hex(normalizeRecoveryCode(code));

/** Enrolled = a TOTP secret whose first code was accepted (step > 0). */
export const isEnrolled = (staff: StaffRecord) => staff.totpSecret !== null && staff.totpLastStep > 0;

function currentStep(now: number): number {
  return Math.floor(now / 1000 / TOTP_PERIOD);
}

/** A fresh base32 TOTP secret (160 bits, as authenticator apps expect for SHA-1). */
export async function newTotpSecret(): Promise<string> {
  const raw = new Uint8Array(20);
  crypto.getRandomValues(raw);
  const { secret } = await generateTOTP({ secret: base32(raw), period: TOTP_PERIOD });
  return secret;
}

function base32(bytes: Uint8Array): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

export function totpAuthUri(secret: string, accountName: string, issuer: string): string {
  return getTOTPAuthUri({ secret, accountName, issuer, period: TOTP_PERIOD, digits: 6, algorithm: "SHA-1" });
}

/**
 * Checks a 6-digit code against the secret and refuses replays: the time step of the code
 * must be newer than the last accepted step of this staff member. The step is claimed
 * with a conditional UPDATE, so two requests carrying the same code cannot both pass.
 */
export async function acceptTotpCode(db: D1Database, staffId: string, secret: string, code: string): Promise<boolean> {
  const otp = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(otp)) return false;
  // verifyTOTP reads the clock synchronously when called: same step as here.
  const step = currentStep(Date.now());
  const match = await verifyTOTP({ otp, secret, period: TOTP_PERIOD, window: TOTP_WINDOW });
  if (!match) return false;
  return claimTotpStep(db, staffId, step + match.delta);
}

/** A recovery code replaces one TOTP code, once. */
export async function acceptRecoveryCode(db: D1Database, staffId: string, code: string, now: number): Promise<boolean> {
  if (normalizeRecoveryCode(code).length !== 10) return false;
  return useRecoveryCode(db, staffId, await recoveryCodeHash(code), now);
}

export async function unusedRecoveryCodeCount(db: D1Database, staffId: string): Promise<number> {
  return countUnusedRecoveryCodes(db, staffId);
}
