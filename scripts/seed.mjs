// Applies D1 migrations to local state (.wrangler/state) and seeds the demo agency and
// the demo player. Idempotent: run it as often as you like.
import { execFileSync } from "node:child_process";
import { randomBytes, scryptSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
console.log(`seeded the demo agency (localhost, 127.0.0.1) and demo player ${DEMO_PLAYER.username} / ${DEMO_PLAYER.password}`);
