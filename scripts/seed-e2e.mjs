// Agencies of their own for e2e tests that change agency-wide settings (exchange rate,
// promotions): one per Playwright project, so parallel projects and other spec files never
// see each other's changes. Host `<project>.e2e.localhost` (Chromium resolves *.localhost
// to this machine), agency `e2e-<project>`, the demo channel and rate, and the e2e copies of
// the demo owner (`boss-<project>-<n>`, scripts/demo-staff.mjs; DEMO DATA ONLY). Also the
// demo agency's copies of the demo staff, per project. Idempotent; run by
// scripts/e2e-server.mjs after scripts/seed.mjs.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { putLocalBrandObjects, seedBrand } from "./brand-seed.mjs";
import { DEMO_STAFF, E2E_PROJECTS, e2eCopies, staffSql } from "./demo-staff.mjs";
import { crc16, field } from "./seed-e2e-own-account.mjs";
import { stateArgs } from "./local-dirs.mjs";

/** statements.spec's channel: the agency's static LAO QR (receiver token mchE2E0000001). */
const E2E_STATIC_QR = (() => {
  const account = field("00", "A005266284662577") + field("01", "27710418") + field("02", "002") + field("03", "mchE2E0000001");
  const body = field("00", "01") + field("01", "11") + field("38", account) + field("52", "5999") + field("53", "418") + field("58", "LA") + field("59", "E2E AGENCY") + field("60", "VIENTIANE") + "6304";
  return body + crc16(body);
})();

const sql = E2E_PROJECTS.map((p) => {
  const id = `e2e-${p}`;
  return `INSERT OR IGNORE INTO agencies (id, name, status) VALUES ('${id}', 'E2E ${p}', 'ACTIVE');
INSERT OR IGNORE INTO agency_domains (host, agency_id) VALUES ('${p}.e2e.localhost', '${id}');
INSERT OR IGNORE INTO agency_settings (agency_id) VALUES ('${id}');
-- parallel projects log in and fail on purpose: the agency-wide budget of strangers' failures
-- (decision 011) is relaxed here so it never trips an e2e run
UPDATE agency_settings SET login_failure_budget = 100000 WHERE agency_id = '${id}';
INSERT OR IGNORE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, gateway)
VALUES ('${id}', 'BCEL-QR', 'DEMO0001', 'BCEL OnePay (LAO QR)', 'LAK', 'BCEL', '27710418', 'E2E AGENCY', 'VIENTIANE', 'sandbox');
INSERT OR IGNORE INTO exchange_rates (agency_id, currency, buy, sell) VALUES ('${id}', 'THB', '580', '600');
${staffSql(id, [DEMO_STAFF.boss], e2eCopies([p]))}
-- own-account channels of forwarder.spec (inactive, so this agency's players never see it) and
-- statements.spec: written here, before the server starts, never by a spec while it runs (a
-- second process on the SQLite file made the server's D1 fail with SQLITE_BUSY)
INSERT OR IGNORE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, gateway, active)
VALUES ('${id}', 'OWN-FWD', 'mch19B73F61B9E', 'BCEL own account', 'LAK', 'BCEL', '27710418', 'E2E AGENCY', 'VIENTIANE', 'own_account', 0);
INSERT OR IGNORE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, gateway, active, static_qr, qr_mode)
VALUES ('${id}', 'OWN-E2E', 'mchE2E0000001', 'BCEL (own account)', 'LAK', 'BCEL', '27710418', 'E2E AGENCY', 'VIENTIANE', 'own_account', 1, '${E2E_STATIC_QR}', 'derived');`;
}).join("\n");
const demoAgencyCopies = staffSql("demo", Object.values(DEMO_STAFF), e2eCopies(E2E_PROJECTS));

if (import.meta.url === `file://${process.argv[1]}`) {
  // Each e2e agency its own brand (issue 15): name, colours, logo, icon, hero.
  const brands = await Promise.all(E2E_PROJECTS.map((p) => seedBrand(`e2e-${p}`)));
  await putLocalBrandObjects(brands.flatMap((b) => b.assets));
  const file = join(mkdtempSync(join(tmpdir(), "seed-e2e-")), "e2e.sql");
  writeFileSync(file, `${sql}\n${demoAgencyCopies}\n${brands.map((b) => b.sql).join("\n")}`);
  execFileSync("npx", ["wrangler", "d1", "execute", "DB", ...stateArgs(), "--file", file], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CI: "true" } });
  console.log(`seeded e2e agencies: ${E2E_PROJECTS.map((p) => `${p}.e2e.localhost`).join(", ")}`);
}
