// Agencies of their own for e2e tests that change agency-wide settings (exchange rate,
// promotions): one per Playwright project, so parallel projects and other spec files never
// see each other's changes. Host `<project>.e2e.localhost` (Chromium resolves *.localhost
// to this machine), agency `e2e-<project>`, the demo channel and rate, and the e2e copies of
// the demo owner (`boss-<project>-<n>`, scripts/demo-staff.mjs; DEMO DATA ONLY). Also the
// demo agency's copies of the demo staff, per project. Idempotent; run by
// scripts/e2e-server.mjs after the demo seed (scripts/local-seed.mjs).
import { seedBrand } from "./brand-seed.mjs";
import { DEMO_STAFF, E2E_PROJECTS, e2eCopies, staffSql } from "./demo-staff.mjs";
import { crc16, field } from "./seed-e2e-own-account.mjs";

/** statements.spec's channel: the agency's static LAO QR (receiver token mchE2E0000001). */
const E2E_STATIC_QR = (() => {
  const account = field("00", "A005266284662577") + field("01", "27710418") + field("02", "002") + field("03", "mchE2E0000001");
  const body =
    field("00", "01") +
    field("01", "11") +
    field("38", account) +
    field("52", "5999") +
    field("53", "418") +
    field("58", "LA") +
    field("59", "E2E AGENCY") +
    field("60", "VIENTIANE") +
    "6304";
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
/**
 * The e2e players of one Playwright project are one browser, so one device (the same fingerprint):
 * in the agencies the specs share, holds and the registrations-per-device limit (decision 094)
 * are off, or every spec's second claim would wait for staff. holds.spec keeps the defaults on
 * an agency of its own (holds.e2e.localhost).
 */
const sharedAgencyHoldRules = ["demo", ...E2E_PROJECTS.map((p) => `e2e-${p}`)]
  .map(
    (id) =>
      `INSERT OR REPLACE INTO hold_rules (agency_id, hold_promotions, hold_rewards, hold_withdrawals, registrations_per_device) VALUES ('${id}', 0, 0, 0, 0);`,
  )
  .join("\n");
const demoAgencyCopies = `${staffSql("demo", Object.values(DEMO_STAFF), e2eCopies(E2E_PROJECTS))}\n${sharedAgencyHoldRules}`;
/**
 * The back office on a phone (admin.spec "on a phone", decision 056): an agency whose four
 * queues hold one item each (a withdrawal waiting for staff, an own-account deposit order, a
 * payment that matched no order, a forwarded credit held above the cap), so the menu's counts
 * and the queue cards are known. The specs only read it; its cashier has every project's copies.
 */
const QUEUES = "e2e-queues";
const queuesSql = `INSERT OR IGNORE INTO agencies (id, name, status) VALUES ('${QUEUES}', 'Queues Agency of Vientiane', 'ACTIVE');
INSERT OR IGNORE INTO agency_domains (host, agency_id) VALUES ('queues.e2e.localhost', '${QUEUES}');
INSERT OR IGNORE INTO agency_settings (agency_id) VALUES ('${QUEUES}');
${staffSql(QUEUES, [DEMO_STAFF.cashier], e2eCopies(E2E_PROJECTS))}
INSERT OR IGNORE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, gateway, active)
VALUES ('${QUEUES}', 'OWN-Q', 'mchQUEUES00001', 'BCEL own account', 'LAK', 'BCEL', '27710418', 'E2E QUEUES', 'VIENTIANE', 'own_account', 1);
INSERT OR IGNORE INTO players (id, agency_id, username, display_name, phone, password_hash)
VALUES ('${QUEUES}-p1', '${QUEUES}', 'souksavanh_vongphachanh', 'Souksavanh Vongphachanh', '02055555555', 'x');
INSERT OR IGNORE INTO bank_accounts (id, agency_id, player_id, bank_code, account_number, account_name, currency, owner)
VALUES ('${QUEUES}-b1', '${QUEUES}', '${QUEUES}-p1', 'BCEL', '0101234567890123', 'SOUKSAVANH VONGPHACHANH', 'LAK', 'SELF');
INSERT OR IGNORE INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, created_at, updated_at)
VALUES ('WQUEUES00001', '${QUEUES}', '${QUEUES}-p1', 'askmebet', '6000.00', '3480000.00', 'OPEN', 'MANUAL', '2026-11-01T03:00:00.000Z', '2026-11-01T03:00:00.000Z');
INSERT OR IGNORE INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, created_at, updated_at, channel_code)
VALUES ('DQUEUES00001', '${QUEUES}', '${QUEUES}-p1', 'askmebet', '100037.00', '166.72', 'OPEN', '2026-11-01T03:00:00.000Z', '2026-11-01T03:00:00.000Z', 'OWN-Q');
-- open until 2100: staff may mark it paid whenever the spec runs
INSERT OR IGNORE INTO pay_amount_reservations (agency_id, channel_code, pay_amount, order_code, player_id, asked_amount, created_at, expires_at)
VALUES ('${QUEUES}', 'OWN-Q', '100037.00', 'DQUEUES00001', '${QUEUES}-p1', '100000.00', 1793502000000, 4102444800000);
INSERT OR IGNORE INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount, received_at, status, channel_code, source, bank_time, raw)
VALUES ('${QUEUES}-u1', '${QUEUES}', 'NO_ORDER', 'BCEL-FT2611010001', '${QUEUES}:OWN-Q:FT2611010001', '250000.00', '2026-11-01T03:05:00.000Z', 'OPEN', 'OWN-Q', 'statement', 1793502300000, 'FT2611010001,01/11/2026 10:05,250000,TRANSFER FROM SOUKSAVANH VONGPHACHANH');
INSERT OR IGNORE INTO forwarder_holds (id, agency_id, channel_code, bank_transaction_id, amount, bank_time, reference, sender, raw, received_at)
VALUES ('${QUEUES}-h1', '${QUEUES}', 'OWN-Q', 'FT2611010002', '9000000.00', 1793502600000, NULL, 'BCEL One', 'BCEL One: +9,000,000 LAK to 0101xxxx5678 from SOUKSAVANH V. on 01/11/2026 10:10 Ref FT2611010002', 1793502600000);`;

/**
 * Every staff page at 360 px (staff-narrow.spec, decision 088): an agency whose lists are long
 * and wide enough to find what scrolls sideways (a player with a long Lao name and 30
 * deposits and 12 withdrawals over the hours before the seed, every status and provider, three
 * payments that matched no order). Its own agency, without staff alerts: the demo agency's
 * alerts would announce each waiting item to the sandbox Telegram that alerts.spec reads.
 * Its owner and cashier have every project's copies; the specs only read it.
 */
const NARROW = "e2e-narrow";
const narrowSql = (() => {
  const now = Date.now();
  const at = (i) => new Date(now - i * 47 * 60_000).toISOString();
  const providers = ["askmebet", "betflix", "gclub", "gclub_live", "alphabet"];
  const statuses = ["OPEN", "PAID", "SUCCESS", "FAILED", "CANCELED"];
  const deposits = Array.from({ length: 30 }, (_, i) => {
    const flag = i % 7 === 3 ? "'AMOUNT_MISMATCH'" : i % 7 === 5 ? "'PROVIDER_INSUFFICIENT_BALANCE'" : "NULL";
    return `('DNARROW${String(i).padStart(5, "0")}', '${NARROW}', '${NARROW}-p1', '${providers[i % 5]}', '${(i + 1) * 1234567}.00', '${((i + 1) * 2057.61).toFixed(2)}', '${statuses[i % 5]}', ${flag}, '${at(i)}', '${at(i)}')`;
  });
  const withdrawals = Array.from({ length: 12 }, (_, i) => {
    const [status, review] = i < 6 ? ["OPEN", "MANUAL"] : i < 9 ? ["SUCCESS", "APPROVED"] : ["REJECTED", "MANUAL"];
    return `('WNARROW${String(i).padStart(5, "0")}', '${NARROW}', '${NARROW}-p1', '${providers[i % 5]}', '${(i + 1) * 1500}.00', '${(i + 1) * 870000}.00', '${status}', '${review}', '${at(i + 1)}', '${at(i)}')`;
  });
  const payments = Array.from(
    { length: 3 },
    (_, i) => `('${NARROW}-u${i}', '${NARROW}', 'UNKNOWN_REFERENCE', 'BCEL-FTNARROW${i}', 'TX-NARROW-${i}', '${(i + 1) * 250000}.00', '${at(i)}')`,
  );
  return `INSERT OR IGNORE INTO agencies (id, name, status) VALUES ('${NARROW}', 'ຕົວແທນທົດສອບໜ້າຈໍແຄບ Vientiane', 'ACTIVE');
INSERT OR IGNORE INTO agency_domains (host, agency_id) VALUES ('narrow.e2e.localhost', '${NARROW}');
INSERT OR IGNORE INTO agency_settings (agency_id) VALUES ('${NARROW}');
INSERT OR IGNORE INTO exchange_rates (agency_id, currency, buy, sell) VALUES ('${NARROW}', 'THB', '580', '600');
${staffSql(NARROW, [DEMO_STAFF.boss, DEMO_STAFF.cashier], e2eCopies(E2E_PROJECTS))}
INSERT OR IGNORE INTO players (id, agency_id, username, display_name, phone, password_hash)
VALUES ('${NARROW}-p1', '${NARROW}', 'souksavanh_vongphachanhthavisack', 'ສຸກສະຫວັນ ວົງພະຈັນທະວີສັກ', '02055512345', 'x');
INSERT OR IGNORE INTO bank_accounts (id, agency_id, player_id, bank_code, account_number, account_name, currency, owner)
VALUES ('${NARROW}-b1', '${NARROW}', '${NARROW}-p1', 'BCEL', '0101234567890123', 'SOUKSAVANH VONGPHACHANHTHAVISACK', 'LAK', 'SELF');
INSERT OR IGNORE INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, flag, created_at, updated_at) VALUES
${deposits.join(",\n")};
INSERT OR IGNORE INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, created_at, updated_at) VALUES
${withdrawals.join(",\n")};
INSERT OR IGNORE INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount, received_at) VALUES
${payments.join(",\n")};
INSERT OR IGNORE INTO promotions (id, agency_id, status, title, description, image_url, bonus_kind, bonus_value, bonus_cap, set_amount, first_order_only, credit_threshold, turnover_multiple, max_withdraw_credit, withdraw_all, providers, sort_order)
VALUES ('narrow-welcome-100', '${NARROW}', 'ACTIVE', '{"lo":"ໂບນັດຕ້ອນຮັບສະມາຊິກໃໝ່ທີ່ຝາກຄັ້ງທຳອິດ 100%","cn":"新会员首存 100% 奖金","vn":"Thưởng chào mừng thành viên mới nạp lần đầu 100%"}',
  '{"lo":"ສະມາຊິກໃໝ່ຝາກຄັ້ງທຳອິດ ຮັບໂບນັດ 100% ສູງສຸດ 500 ເຄຣດິດ.","cn":"新会员首次存款可获得 100% 奖金，最高 500 积分。","vn":"Thành viên mới nạp lần đầu nhận thưởng 100%, tối đa 500 điểm."}',
  '/promotions/welcome-100.webp', 'PERCENT', '100', '500', NULL, 1, '10', '5', '3000', 1, '["askmebet","betflix","gclub","gclub_live","alphabet"]', 1);`;
})();

/** The e2e agencies' rows (after the demo seed's) and their brand images. */
export async function seed() {
  const brands = await Promise.all(E2E_PROJECTS.map((p) => seedBrand(`e2e-${p}`)));
  return { sql: `${sql}\n${demoAgencyCopies}\n${queuesSql}\n${narrowSql}\n${brands.map((b) => b.sql).join("\n")}`, assets: brands.flatMap((b) => b.assets) };
}
