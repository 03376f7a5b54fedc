// The demo agency (scripts/seed.sql), the demo player, the demo staff (enrolled), the demo
// brand and the staff alerts to the sandbox Telegram, in local state (.wrangler/state, or
// PORTAL_STATE_DIR: scripts/local-dirs.mjs), after the D1 migrations. Idempotent: run it as
// often as you like. The SQL goes in with the other seeds' in one wrangler call (local-seed.mjs).
import { readFileSync } from "node:fs";
import { alertsSeedSql } from "./alerts-seed.mjs";
import { seedBrand } from "./brand-seed.mjs";
import { DEMO_STAFF, hashPassword, staffSql } from "./demo-staff.mjs";

export const DEMO_PLAYER = { username: "demo", password: "demo-pass-123", displayName: "Demo Player", phone: "02055555555" };

/** The demo agency's rows and its brand images. */
export async function seed() {
  const player = `INSERT OR IGNORE INTO players (id, agency_id, username, display_name, phone, password_hash)
VALUES ('00000000-0000-4000-8000-00000000d3e0', 'demo', '${DEMO_PLAYER.username}', '${DEMO_PLAYER.displayName}', '${DEMO_PLAYER.phone}', '${hashPassword(DEMO_PLAYER.password)}');`;
  // Demo staff, enrolled: kept as they are when they already exist. Their e2e copies are
  // seeded by seed-e2e.mjs.
  const staff = staffSql("demo", Object.values(DEMO_STAFF));
  // The demo agency's own brand (issue 15): kept as it is when the brand row exists (the owner
  // may have changed it).
  const brand = await seedBrand("demo");
  // Staff alerts to the sandbox Telegram (issue 34): /sandbox/telegram shows them.
  const alerts = await alertsSeedSql("demo");
  const seedSql = readFileSync(new URL("./seed.sql", import.meta.url), "utf8");
  return { sql: [seedSql, player, staff, brand.sql, alerts].join("\n"), assets: brand.assets };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // imported here, not above: local-seed.mjs imports this module when it runs as a script
  const { seedLocal } = await import("./local-seed.mjs");
  await seedLocal([seed]);
  console.log(`seeded the demo agency (localhost, 127.0.0.1) and demo player ${DEMO_PLAYER.username} / ${DEMO_PLAYER.password}`);
  console.log(
    `demo staff (DEMO ONLY, public TOTP secrets): ${Object.values(DEMO_STAFF)
      .map((s) => `${s.username} / ${s.password} (${s.role}, TOTP ${s.totpSecret})`)
      .join("; ")}; back office at /admin`,
  );
}
