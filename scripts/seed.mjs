// Applies D1 migrations to local state (.wrangler/state, or PORTAL_STATE_DIR: scripts/local-dirs.mjs) and seeds the demo agency and
// the demo player. Idempotent: run it as often as you like.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { alertsSeedSql } from "./alerts-seed.mjs";
import { putLocalBrandObjects, seedBrand } from "./brand-seed.mjs";
import { DEMO_STAFF, hashPassword, staffSql } from "./demo-staff.mjs";
import { stateArgs } from "./local-dirs.mjs";
import { applyLocalMigrations } from "./local-migrations.mjs";

export const DEMO_PLAYER = { username: "demo", password: "demo-pass-123", displayName: "Demo Player", phone: "02055555555" };

const wrangler = (...args) => execFileSync("npx", ["wrangler", ...args], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CI: "true" } });

applyLocalMigrations(stateArgs());
wrangler("d1", "execute", "DB", ...stateArgs(), "--file", "scripts/seed.sql");
const sql = `INSERT OR IGNORE INTO players (id, agency_id, username, display_name, phone, password_hash)
VALUES ('00000000-0000-4000-8000-00000000d3e0', 'demo', '${DEMO_PLAYER.username}', '${DEMO_PLAYER.displayName}', '${DEMO_PLAYER.phone}', '${hashPassword(DEMO_PLAYER.password)}');`;
const file = join(mkdtempSync(join(tmpdir(), "seed-")), "player.sql");
writeFileSync(file, sql);
wrangler("d1", "execute", "DB", ...stateArgs(), "--file", file);

// Demo staff, enrolled: kept as they are when they already exist. Their e2e copies are
// seeded by seed-e2e.mjs.
const staffFile = join(mkdtempSync(join(tmpdir(), "seed-")), "staff.sql");
writeFileSync(staffFile, staffSql("demo", Object.values(DEMO_STAFF)));
wrangler("d1", "execute", "DB", ...stateArgs(), "--file", staffFile);
// The demo agency's own brand (issue 15): images into the local BRAND_ASSETS bucket, then
// the records. Kept as they are when the brand row exists (the owner may have changed it).
const brand = await seedBrand("demo");
await putLocalBrandObjects(brand.assets);
const brandFile = join(mkdtempSync(join(tmpdir(), "seed-")), "brand.sql");
writeFileSync(brandFile, brand.sql);
wrangler("d1", "execute", "DB", ...stateArgs(), "--file", brandFile);
// Staff alerts to the sandbox Telegram (issue 34): /sandbox/telegram shows them.
const alertsFile = join(mkdtempSync(join(tmpdir(), "seed-")), "alerts.sql");
writeFileSync(alertsFile, await alertsSeedSql("demo"));
wrangler("d1", "execute", "DB", ...stateArgs(), "--file", alertsFile);
console.log(`seeded the demo agency (localhost, 127.0.0.1) and demo player ${DEMO_PLAYER.username} / ${DEMO_PLAYER.password}`);
console.log(
  `demo staff (DEMO ONLY, public TOTP secrets): ${Object.values(DEMO_STAFF)
    .map((s) => `${s.username} / ${s.password} (${s.role}, TOTP ${s.totpSecret})`)
    .join("; ")}; back office at /admin`,
);
