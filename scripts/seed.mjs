// The demo agency (scripts/seed.sql), the demo player, the demo staff (enrolled), the demo
// brand and the staff alerts to the sandbox Telegram: the "demo" seed of scripts/local-seed.mjs,
// which applies it to local state (.wrangler/state, or PORTAL_STATE_DIR: scripts/local-dirs.mjs)
// after the D1 migrations, in one wrangler call with the other seeds' SQL. `npm start` and
// `npm run db:seed` run `node scripts/local-seed.mjs demo`. Idempotent: run it as often as you
// like. This module only builds the seed; it imports nothing that applies one.
import { readFileSync } from "node:fs";
import { alertsSeedSql } from "./alerts-seed.mjs";
import { seedBrand } from "./brand-seed.mjs";
import { DEMO_STAFF, hashPassword, staffSql } from "./demo-staff.mjs";

const DEMO_PLAYER = { username: "demo", password: "demo-pass-123", displayName: "Demo Player", phone: "02055555555" };

/** The demo agency's rows, its brand images, and what to tell whoever seeded it. */
export async function seed() {
  const player = `INSERT OR IGNORE INTO players (id, agency_id, username, display_name, phone, password_hash)
VALUES ('00000000-0000-4000-8000-00000000d3e0', 'demo', '${DEMO_PLAYER.username}', '${DEMO_PLAYER.displayName}', '${DEMO_PLAYER.phone}', '${hashPassword(DEMO_PLAYER.password)}');`;
  // Demo staff, enrolled: kept as they are when they already exist. Their e2e copies are
  // seeded by seed-e2e.mjs.
  const staff = staffSql("demo", Object.values(DEMO_STAFF));
  // The demo agency's own brand (decision 018): kept as it is when the brand row exists (the
  // owner may have changed it).
  const brand = await seedBrand("demo");
  // Staff alerts to the sandbox Telegram (decision 057): /sandbox/telegram shows them.
  const alerts = await alertsSeedSql("demo");
  const seedSql = readFileSync(new URL("./seed.sql", import.meta.url), "utf8");
  const notes = [
    `seeded the demo agency (localhost, 127.0.0.1) and demo player ${DEMO_PLAYER.username} / ${DEMO_PLAYER.password}`,
    `demo staff (DEMO ONLY, public TOTP secrets): ${Object.values(DEMO_STAFF)
      .map((s) => `${s.username} / ${s.password} (${s.role}, TOTP ${s.totpSecret})`)
      .join("; ")}; back office at /admin`,
  ];
  return { sql: [seedSql, player, staff, brand.sql, alerts].join("\n"), assets: brand.assets, notes };
}
