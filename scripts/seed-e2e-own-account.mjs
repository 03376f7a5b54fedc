// Agencies for the own-account e2e test (tests/e2e/own-account.spec.ts, decision 016): one per
// Playwright project, host `<project>.own.localhost`, agency `own-<project>`, ONE payment
// channel of kind own account (the agency's static LAO QR, derived per order), the demo rate,
// and the e2e copies of the demo owner and cashier (`boss-<project>-<n>`, scripts/demo-staff.mjs;
// DEMO DATA ONLY). Nothing here touches the agencies other spec files use.
// Idempotent; seeded by scripts/e2e-server.mjs after the e2e seed (scripts/local-seed.mjs).
import { DEMO_STAFF, E2E_PROJECTS, e2eCopies, staffSql } from "./demo-staff.mjs";

/** EMV field: id + two-digit length + value. */
export const field = (id, value) => `${id}${String(value.length).padStart(2, "0")}${value}`;
/** CRC-16/CCITT-FALSE, as the LAO QR's tag 63. */
export function crc16(text) {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}
/** A static LAO QR like the one BCEL One gives an account holder (receiver token in 38.03). */
function staticQr() {
  const account = field("00", "A005266284662577") + field("01", "27710418") + field("02", "002") + field("03", "mch19B73F61B9E");
  const body =
    field("00", "01") +
    field("01", "11") +
    field("38", account) +
    field("52", "5999") +
    field("53", "418") +
    field("58", "LA") +
    field("59", "E2E OWN ACCOUNT") +
    field("60", "VIENTIANE") +
    "6304";
  return body + crc16(body);
}

const ownAgenciesSql = () =>
  E2E_PROJECTS.map((p) => {
    const id = `own-${p}`;
    return `INSERT OR IGNORE INTO agencies (id, name, status) VALUES ('${id}', 'Own ${p}', 'ACTIVE');
INSERT OR IGNORE INTO agency_domains (host, agency_id) VALUES ('${p}.own.localhost', '${id}');
INSERT OR IGNORE INTO agency_settings (agency_id) VALUES ('${id}');
UPDATE agency_settings SET login_failure_budget = 100000 WHERE agency_id = '${id}';
INSERT OR IGNORE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, gateway, static_qr, qr_mode)
VALUES ('${id}', 'OWN-BCEL', 'mch19B73F61B9E', 'BCEL One (own account)', 'LAK', 'BCEL', '27710418', 'E2E OWN ACCOUNT', 'VIENTIANE', 'own_account', '${staticQr()}', 'derived');
INSERT OR IGNORE INTO exchange_rates (agency_id, currency, buy, sell) VALUES ('${id}', 'THB', '580', '600');
${staffSql(id, Object.values(DEMO_STAFF), e2eCopies([p]))}`;
  }).join("\n");

/** The own-account e2e agencies' rows. */
export async function seed() {
  return { sql: ownAgenciesSql(), assets: [] };
}
