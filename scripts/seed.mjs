// Applies D1 migrations to local state (.wrangler/state) and seeds the demo agency and
// the demo player. Idempotent: run it as often as you like.
import { execFileSync } from "node:child_process";
import { randomBytes, scryptSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { putLocalBrandObjects, seedBrand } from "./brand-seed.mjs";

/**
 * Demo back-office staff (DEMO DATA ONLY: the TOTP secrets are public, in this file and in
 * tests/e2e/staff.ts). Add them to an authenticator app to log in locally. Each has one
 * copy per Playwright project (boss-phone-js, ...) because a TOTP code is accepted once:
 * parallel e2e projects must not share an account.
 */
export const DEMO_STAFF = [
  { username: "boss", password: "boss-pass-123", role: "owner", totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP" },
  { username: "cashier", password: "cashier-pass-123", role: "cashier", totpSecret: "KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU" },
];
export const E2E_PROJECTS = ["phone-js", "phone-nojs", "desktop-js", "desktop-nojs"];

export const DEMO_PLAYER = { username: "demo", password: "demo-pass-123", displayName: "Demo Player", phone: "02055555555" };

/** Same format and parameters as workers/services/password.ts (scrypt N=2^14, r=8, p=5). */
function hashPassword(password) {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize("NFKC"), salt, 32, { N: 2 ** 14, r: 8, p: 5, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 2 ** 14, 8, 5, salt.toString("base64"), key.toString("base64")].join("$");
}

const wrangler = (...args) => execFileSync("npx", ["wrangler", ...args], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CI: "true" } });

wrangler("d1", "migrations", "apply", "DB", "--local");
wrangler("d1", "execute", "DB", "--local", "--file", "scripts/seed.sql");
const sql = `INSERT OR IGNORE INTO players (id, agency_id, username, display_name, phone, password_hash)
VALUES ('00000000-0000-4000-8000-00000000d3e0', 'demo', '${DEMO_PLAYER.username}', '${DEMO_PLAYER.displayName}', '${DEMO_PLAYER.phone}', '${hashPassword(DEMO_PLAYER.password)}');`;
const file = join(mkdtempSync(join(tmpdir(), "seed-")), "player.sql");
writeFileSync(file, sql);
wrangler("d1", "execute", "DB", "--local", "--file", file);

// Demo staff, enrolled (totp_last_step 1): kept as they are when they already exist.
const staffRows = DEMO_STAFF.flatMap((s) => [s.username, ...E2E_PROJECTS.map((p) => `${s.username}-${p}`)].map((username) => ({ ...s, username })));
const staffSql = staffRows
  .map(
    (s) => `INSERT OR IGNORE INTO staff (id, agency_id, username, password_hash, role, totp_secret, totp_last_step)
VALUES ('demo-staff-${s.username}', 'demo', '${s.username}', '${hashPassword(s.password)}', '${s.role}', '${s.totpSecret}', 1);`,
  )
  .join("\n");
const staffFile = join(mkdtempSync(join(tmpdir(), "seed-")), "staff.sql");
writeFileSync(staffFile, staffSql);
wrangler("d1", "execute", "DB", "--local", "--file", staffFile);
// The demo agency's own brand (issue 15): images into the local BRAND_ASSETS bucket, then
// the records. Kept as they are when the brand row exists (the owner may have changed it).
const brand = await seedBrand("demo");
await putLocalBrandObjects(brand.assets);
const brandFile = join(mkdtempSync(join(tmpdir(), "seed-")), "brand.sql");
writeFileSync(brandFile, brand.sql);
wrangler("d1", "execute", "DB", "--local", "--file", brandFile);
console.log(`seeded the demo agency (localhost, 127.0.0.1) and demo player ${DEMO_PLAYER.username} / ${DEMO_PLAYER.password}`);
console.log(`demo staff (DEMO ONLY, public TOTP secrets): ${DEMO_STAFF.map((s) => `${s.username} / ${s.password} (${s.role}, TOTP ${s.totpSecret})`).join("; ")}; back office at /admin`);
