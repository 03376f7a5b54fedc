// A large agency for the scale bench (npm run bench:scale): players, their deposit and withdraw
// orders in the read models, the bank's reports of the last days and the transfers derived
// from them, sessions, audit rows and the rest of what the back office reads, written
// straight into a D1 sqlite file with node:sqlite (no wrangler, no sqlite3 CLI). Seeded: the
// same parameters give the same rows (only the demo seed's own rows, made by
// scripts/seed.mjs in the bench's state, differ).
//
// The rows are those the code writes, in its formats: the read models as the wallets project
// them (workers/wallet/projection.ts: amounts as shown, "60000.00", and INTEGER minor units),
// the bank's reports, transfers and credits as the derivation writes them
// (workers/services/bank-in/bank-transactions.ts, migration 0037), times in ms where the
// schema keeps ms and ISO strings where it keeps text. Most of it belongs to the demo agency
// (`npm start`'s, scripts/seed.sql); a second agency a hundredth its size has the same kinds
// of rows (and some of the same usernames), so a query that forgets its agency filter reads
// rows it should not, and shows.
//
// Usage: node scripts/scale-seed.mjs --out /tmp/portal.sqlite [--players 100000]
// [--orders 1000000] [--days 30] [--history-days 180] [--seed text] [--now ISO] [--ready file]
// (SCALE_PLAYERS, SCALE_ORDERS, SCALE_DAYS, SCALE_HISTORY_DAYS, SCALE_SEED, SCALE_NOW too).
// Without --base the file is made from the migrations and the demo agency's SQL; with --base
// <file> the data is added to a copy of a database that has them (the bench's seeded state).
import { createHash, scryptSync } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { migrationFiles, migrationQuery, MIGRATIONS_DIR } from "./local-migrations.mjs";
import { crc16, field } from "./seed-e2e-own-account.mjs";
import { LAO_FAMILY, LAO_GIVEN, OTHER_NAMES, titleCase } from "./scale-names.mjs";

export const SCALE_DEFAULTS = Object.freeze({
  players: 100_000,
  orders: 1_000_000,
  /** days of bank reports and derived transfers (the reconciliation's days) */
  days: 30,
  /** days the orders span (the agency's history); sessions and audit rows follow it */
  historyDays: 180,
  seed: "agency-at-scale",
  /** the data's "now" (ISO); default: this minute */
  now: null,
});

/** Every generated player's password (the bench logs in as one of them). */
export const SCALE_PLAYER_PASSWORD = "scale-pass-123";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const VIENTIANE = 7 * HOUR;
const PROVIDERS = ["askmebet", "betflix", "gclub", "gclub_live", "alphabet"];
const PROVIDER_WEIGHTS = [0.3, 0.3, 0.15, 0.15, 0.1];
const CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** The demo rate (scripts/seed.sql): LAK per THB of credit. */
const SELL = 600;
const BUY = 580;
/** An order's QR lives 15 minutes (workers/services/deposits/deposit.ts). */
const QR_TTL = 15 * MINUTE;
/** PAY_AMOUNT_COOL_DOWN_MS (workers/core/pay-amount.ts). */
const COOL_DOWN = 2 * HOUR;
/** Above this much credit a withdrawal waits for staff (agency_settings.withdraw_auto_max). */
const AUTO_MAX_CREDIT = 5000;
/** provider_attempts older than this are pruned by the 5-minute job (ATTEMPT_RETENTION_MS). */
const ATTEMPT_RETENTION = 7 * DAY;
/** Rows per transaction while generating. */
const CHUNK = 50_000;

// ---- parameters

const int = (value, name) => {
  const n = Number(String(value).replace(/[_,]/g, ""));
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, not ${value}`);
  return n;
};

/** The parameters from the environment (SCALE_*), then `overrides`, over the defaults. */
export function scaleParams(env = process.env, overrides = {}) {
  const fromEnv = {
    players: env.SCALE_PLAYERS,
    orders: env.SCALE_ORDERS,
    days: env.SCALE_DAYS,
    historyDays: env.SCALE_HISTORY_DAYS,
    seed: env.SCALE_SEED,
    now: env.SCALE_NOW,
  };
  const merged = { ...SCALE_DEFAULTS };
  for (const source of [fromEnv, overrides])
    for (const [key, value] of Object.entries(source)) if (value !== undefined && value !== null && value !== "") merged[key] = value;
  const params = {
    players: int(merged.players, "players"),
    orders: int(merged.orders, "orders"),
    days: int(merged.days, "days"),
    historyDays: int(merged.historyDays, "history days"),
    seed: String(merged.seed),
    now: merged.now ? new Date(merged.now).toISOString() : new Date(Math.floor(Date.now() / MINUTE) * MINUTE).toISOString(),
  };
  if (params.players < 1) throw new Error("players must be at least 1");
  if (params.historyDays < 1 || params.days > params.historyDays) throw new Error("days must be between 0 and the history days");
  if (Number.isNaN(Date.parse(params.now))) throw new Error(`now is no time: ${merged.now}`);
  return params;
}

/** The Vientiane day of a time (YYYY-MM-DD), as the portal's reports and reconciliation count days. */
export const vientianeDay = (ms) => new Date(ms + VIENTIANE).toISOString().slice(0, 10);

// ---- seeded randomness

/** A 128-bit seed from text (cyrb128). */
function seedWords(text) {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

/** sfc32: a small, fast generator whose stream is fixed by its seed text. */
function makeRandom(text) {
  let [a, b, c, d] = seedWords(text);
  const next32 = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 15; i++) next32();
  const random = () => next32() / 4294967296;
  random.int = (min, max) => min + Math.floor(random() * (max - min + 1));
  random.pick = (list) => list[Math.floor(random() * list.length)];
  random.weighted = (list, weights) => {
    let u = random();
    for (let i = 0; i < list.length; i++) if ((u -= weights[i]) < 0) return list[i];
    return list[list.length - 1];
  };
  random.hex = (chars) => {
    let out = "";
    while (out.length < chars) out += next32().toString(16).padStart(8, "0");
    return out.slice(0, chars);
  };
  random.digits = (n) => {
    let out = "";
    for (let i = 0; i < n; i++) out += String(Math.floor(random() * 10));
    return out;
  };
  random.code = (n) => {
    let out = "";
    for (let i = 0; i < n; i++) out += CODE_ALPHABET[Math.floor(random() * 32)];
    return out;
  };
  random.uuid = () => {
    const h = random.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${"89ab"[parseInt(h[16], 16) & 3]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  return random;
}

// ---- formats

const iso = (ms) => new Date(ms).toISOString();
/** minor units -> "60000.00" (formatAmount of workers/core/money.ts; both currencies have 2 digits). */
const shown = (minor) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
/** workers/services/deposits/deposit.ts newDepositCode (W for withdrawals, R for rewards). */
const orderCode = (random, letter, ms) => `${letter}${iso(ms).slice(2, 10).replace(/-/g, "")}${random.code(5)}`;
const sha256 = (text) => createHash("sha256").update(text).digest("hex");

/** scripts/demo-staff.mjs hashPassword's format, with a salt from the seed so the file is the same each time. */
function passwordHash(password, saltText) {
  const salt = createHash("sha256").update(saltText).digest().subarray(0, 16);
  const key = scryptSync(password.normalize("NFKC"), salt, 32, { N: 2 ** 14, r: 8, p: 5, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 2 ** 14, 8, 5, salt.toString("base64"), key.toString("base64")].join("$");
}

/** A static LAO QR of an own account (as scripts/seed-e2e-own-account.mjs draws one). */
function staticQr(iin, token, name) {
  const account = field("00", "A005266284662577") + field("01", iin) + field("02", "002") + field("03", token);
  const body =
    field("00", "01") +
    field("01", "11") +
    field("38", account) +
    field("52", "5999") +
    field("53", "418") +
    field("58", "LA") +
    field("59", name) +
    field("60", "VIENTIANE") +
    "6304";
  return body + crc16(body);
}

// ---- writing

/** The columns each generated row fills, in the order the generator gives the values. */
const COLUMNS = {
  agencies: ["id", "name", "status", "created_at"],
  agency_domains: ["host", "agency_id", "is_primary"],
  agency_settings: ["agency_id"],
  exchange_rates: ["agency_id", "currency", "buy", "sell", "updated_at"],
  payment_channels: [
    "agency_id",
    "code",
    "mid",
    "display_name",
    "currency",
    "bank_code",
    "iin",
    "merchant_name",
    "merchant_city",
    "gateway",
    "static_qr",
    "qr_mode",
  ],
  forwarders: ["agency_id", "channel_code", "token_hash", "token_hint", "secret_sealed", "last_message_at", "created_by", "created_at"],
  staff: ["id", "agency_id", "username", "password_hash", "role", "totp_secret", "totp_last_step", "created_at", "last_login_at"],
  staff_sessions: ["id_hash", "agency_id", "staff_id", "stage", "created_at", "last_seen_at", "expires_at", "user_agent", "ip"],
  players: [
    "id",
    "agency_id",
    "username",
    "display_name",
    "phone",
    "password_hash",
    "status",
    "created_at",
    "password_changed_at",
    "last_login_at",
    "locked_reason",
    "first_deposit_at",
  ],
  sessions: ["id_hash", "agency_id", "player_id", "created_at", "last_seen_at", "expires_at", "user_agent", "ip"],
  fingerprints: ["agency_id", "player_id", "fingerprint", "payload", "first_seen_at", "last_seen_at", "seen_count"],
  bank_accounts: ["id", "agency_id", "player_id", "bank_code", "account_number", "account_name", "currency", "owner", "created_at"],
  deposit_refs: ["code", "agency_id", "player_id", "created_at"],
  deposit_orders_view: [
    "code",
    "agency_id",
    "player_id",
    "provider",
    "amount",
    "credit",
    "status",
    "flag",
    "created_at",
    "updated_at",
    "channel_code",
    "amount_minor",
    "paid_minor",
    "credit_minor",
    "bonus_minor",
    "promotion_id",
    "paid_at",
    "projection_version",
  ],
  withdraw_refs: ["code", "agency_id", "player_id", "created_at"],
  withdraw_orders_view: [
    "code",
    "agency_id",
    "player_id",
    "provider",
    "credit",
    "received",
    "status",
    "review",
    "return_state",
    "reason",
    "created_at",
    "updated_at",
    "credit_minor",
    "deducted_minor",
    "paid_lak_minor",
    "promotion_id",
    "paid_at",
    "projection_version",
  ],
  withdraw_reviews: ["code", "agency_id", "decision", "state", "staff_id", "staff_username", "bank_reference", "reason", "decided_at"],
  promotion_usages_view: [
    "id",
    "agency_id",
    "player_id",
    "promotion_id",
    "provider",
    "status",
    "deposit_code",
    "bonus",
    "reason",
    "claimed_at",
    "updated_at",
    "used_at",
    "ended_at",
    "projection_version",
  ],
  gateway_events: ["transaction_id", "code", "received_at"],
  webhook_signatures: ["signature", "received_at", "body_sha256", "answer_status", "answer_json"],
  pay_amount_reservations: [
    "agency_id",
    "channel_code",
    "pay_amount",
    "order_code",
    "player_id",
    "asked_amount",
    "created_at",
    "expires_at",
    "ended_at",
    "held",
  ],
  bank_witnesses: [
    "agency_id",
    "channel_code",
    "source",
    "witness_id",
    "transfer_id",
    "amount",
    "bank_time",
    "reference",
    "raw",
    "link",
    "staff_username",
    "recorded_at",
    "direction",
    "future",
  ],
  bank_transactions: [
    "agency_id",
    "channel_code",
    "bank_transaction_id",
    "direction",
    "amount",
    "bank_time",
    "reference",
    "source",
    "raw",
    "outcome",
    "order_code",
    "player_id",
    "staff_username",
    "recorded_at",
    "credits",
    "queue_id",
  ],
  bank_credits: ["agency_id", "code", "kind", "channel_code", "source", "witness_id", "player_id", "amount", "for_order", "credited_at"],
  bank_derivations: ["agency_id", "channel_code", "direction", "amount", "version"],
  forwarder_deliveries: ["agency_id", "channel_code", "sent_at", "signature", "message_sha256", "received_at", "outcome"],
  statement_imports: [
    "id",
    "agency_id",
    "channel_code",
    "file_name",
    "bank_time_from",
    "bank_time_to",
    "credit_rows",
    "debit_rows",
    "imported_by",
    "imported_at",
  ],
  unmatched_payments: [
    "id",
    "agency_id",
    "kind",
    "reference",
    "transaction_id",
    "amount",
    "order_player_id",
    "received_at",
    "status",
    "resolved_player_id",
    "resolved_provider",
    "credit",
    "rate_sell",
    "manual_code",
    "note",
    "resolved_by",
    "claimed_at",
    "resolved_at",
    "channel_code",
    "source",
    "bank_time",
    "raw",
  ],
  audit_log: ["agency_id", "staff_id", "staff_username", "action", "target", "before_json", "after_json", "ip", "user_agent", "created_at"],
  provider_attempts: ["agency_id", "player_id", "seq", "provider", "order_code", "reference", "op", "outcome", "error_code", "detail", "at"],
  provider_members: ["agency_id", "provider", "player_id", "username", "member", "created_at"],
  provider_daily_stats: ["agency_id", "provider", "day", "status", "turnover_minor", "win_loss_minor", "reason", "collected_at"],
  player_provider_daily: ["agency_id", "player_id", "provider", "day", "turnover_minor", "win_loss_minor", "collected_at"],
  referral_codes: ["agency_id", "player_id", "code", "created_at"],
  referrals: ["agency_id", "referred_player_id", "referrer_player_id", "code", "counts", "created_at"],
  reward_claims: [
    "code",
    "agency_id",
    "player_id",
    "kind",
    "period",
    "provider",
    "amount",
    "amount_minor",
    "status",
    "turnover_target",
    "turnover_met",
    "created_at",
    "settled_at",
    "updated_at",
  ],
  player_limits: ["agency_id", "player_id", "kind", "value", "updated_at"],
  player_breaks: ["agency_id", "player_id", "kind", "starts_at", "ends_at", "created_at"],
  alert_events: ["id", "agency_id", "kind", "facts", "state", "attempts", "delivered_to", "created_at", "updated_at"],
  exchange_rate_history: ["agency_id", "currency", "buy", "sell", "changed_by", "changed_at"],
};

/** Prepared inserts, committed every CHUNK rows, with a count per table. */
class Writer {
  constructor(db) {
    this.db = db;
    this.statements = new Map();
    this.counts = {};
    this.pending = 0;
    db.exec("BEGIN");
  }

  put(table, values) {
    let statement = this.statements.get(table);
    if (!statement) {
      const columns = COLUMNS[table];
      statement = this.db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
      this.statements.set(table, statement);
    }
    statement.run(...values);
    this.counts[table] = (this.counts[table] ?? 0) + 1;
    if (++this.pending >= CHUNK) {
      this.db.exec("COMMIT; BEGIN");
      this.pending = 0;
    }
  }

  done() {
    this.db.exec("COMMIT");
  }
}

// ---- the agencies

const USER_AGENTS = [
  "Mozilla/5.0 (Linux; Android 13; SM-A146B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0 Mobile Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 12; Redmi Note 11) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Linux; Android 14; CPH2591) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36",
];
const STAFF_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
const laoIp = (random) => `${random.pick(["103.43.76", "115.84.96", "183.182.100", "202.137.130"])}.${random.int(1, 254)}`;
const DEPOSIT_KIP = [20_000, 30_000, 50_000, 60_000, 100_000, 100_000, 150_000, 200_000, 200_000, 300_000, 500_000, 1_000_000, 2_000_000];
const WITHDRAW_CREDIT = [100, 150, 200, 300, 500, 500, 1000, 1000, 2000, 3000, 5000, 8000, 10_000, 20_000];
const BANKS = ["BCEL", "BCEL", "BCEL", "LDB", "JDB", "APB", "LVB", "STB"];

/**
 * The agencies: the demo agency (already in the database: scripts/seed.sql) gets own-account
 * channels beside its gateway channel and most of the data; a second agency a hundredth of
 * its size is made here.
 */
function agenciesOf(params) {
  return [
    {
      id: "demo",
      create: false,
      players: params.players,
      orders: params.orders,
      gatewayChannel: "BCEL-QR",
      ownChannels: [
        { code: "BCEL-OWN", bank: "BCEL", iin: "27710418", token: "mchSCALEBCEL01", name: "BCEL One (own account)", share: 0.45 },
        { code: "LDB-OWN", bank: "LDB", iin: "70030418", token: "mchSCALELDB001", name: "LDB (own account)", share: 0.2 },
      ],
      staff: [
        { username: "boss", role: "owner", seeded: true },
        { username: "cashier", role: "cashier", seeded: true },
        ...Array.from({ length: 10 }, (_, i) => ({ username: `cashier${String(i + 1).padStart(2, "0")}`, role: "cashier" })),
        { username: "owner2", role: "owner" },
      ],
    },
    {
      id: "scale-b",
      create: true,
      name: "Second Scale Agency",
      host: "scale-b.localhost",
      players: Math.max(20, Math.ceil(params.players / 100)),
      orders: Math.ceil(params.orders / 100),
      gatewayChannel: "B-BCEL-QR",
      ownChannels: [{ code: "B-OWN", bank: "BCEL", iin: "27710418", token: "mchSCALEB00001", name: "BCEL One (own account)", share: 0.6 }],
      staff: [
        { username: "boss", role: "owner" },
        { username: "cashier", role: "cashier" },
      ],
    },
  ];
}

function writeAgencyRows(w, agency, ctx) {
  const { random } = ctx;
  if (agency.create) {
    w.put("agencies", [agency.id, agency.name, "ACTIVE", iso(ctx.historyStart - 30 * DAY)]);
    w.put("agency_domains", [agency.host, agency.id, 1]);
    w.put("agency_settings", [agency.id]);
    w.put("exchange_rates", [agency.id, "THB", String(BUY), String(SELL), iso(ctx.historyStart)]);
    w.put("payment_channels", [
      agency.id,
      agency.gatewayChannel,
      `${agency.id.toUpperCase()}01`,
      "BCEL OnePay (LAO QR)",
      "LAK",
      "BCEL",
      "27710418",
      agency.name.toUpperCase(),
      "VIENTIANE",
      "sandbox",
      null,
      "derived",
    ]);
  }
  for (const c of agency.ownChannels) {
    w.put("payment_channels", [
      agency.id,
      c.code,
      c.token,
      c.name,
      "LAK",
      c.bank,
      c.iin,
      "SCALE OWN ACCOUNT",
      "VIENTIANE",
      "own_account",
      staticQr(c.iin, c.token, "SCALE OWN ACCOUNT"),
      "derived",
    ]);
    const token = random.hex(32);
    w.put("forwarders", [
      agency.id,
      c.code,
      sha256(token),
      token.slice(0, 6),
      `v1.${random.hex(16)}.${random.hex(64)}`,
      ctx.now - 2 * MINUTE,
      "boss",
      ctx.historyStart,
    ]);
  }
  // the rate changed now and then
  for (let t = ctx.historyStart; t < ctx.now; t += 14 * DAY) {
    w.put("exchange_rate_history", [agency.id, "THB", String(BUY + random.int(-5, 5)), String(SELL + random.int(-5, 5)), `${agency.id}-staff-boss`, iso(t)]);
  }
}

function writeStaff(w, agency, ctx) {
  const staff = agency.staff.map((s) => ({ ...s, id: `${agency.id}-staff-${s.username}` }));
  for (const s of staff) {
    if (s.seeded) continue;
    w.put("staff", [
      s.id,
      agency.id,
      s.username,
      ctx.staffHash,
      s.role,
      "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
      1,
      iso(ctx.historyStart - 10 * DAY),
      iso(ctx.now - HOUR),
    ]);
  }
  return staff;
}

/** Staff work shifts: a login (session, audit row) per working member per day. */
function writeStaffSessions(w, agency, staff, ctx, audit) {
  const { random } = ctx;
  for (let day = ctx.historyStart; day < ctx.now; day += DAY) {
    for (const s of staff) {
      if (random() < 0.35) continue; // a day off
      const shifts = s.role === "owner" ? 1 : random.int(1, 2);
      for (let i = 0; i < shifts; i++) {
        const start = day + random.int(0, 23) * HOUR + random.int(0, 59) * MINUTE;
        if (start >= ctx.now) continue;
        const lastSeen = Math.min(ctx.now, start + random.int(10, 7 * 60) * MINUTE);
        const ip = laoIp(random);
        w.put("staff_sessions", [
          random.hex(64),
          agency.id,
          s.id,
          "FULL",
          start,
          lastSeen,
          Math.min(start + 8 * HOUR, lastSeen + 15 * MINUTE),
          STAFF_AGENT,
          ip,
        ]);
        audit.push({ t: start, staff: s, action: "auth.login", target: `staff:${s.id}`, before: null, after: null, ip });
      }
    }
  }
}

// ---- players

function makePlayers(agency, ctx) {
  const { random } = ctx;
  const usernames = new Set();
  const phones = new Set();
  const players = [];
  const span = ctx.historyStart - 365 * DAY;
  for (let i = 0; i < agency.players; i++) {
    const style = random();
    let display;
    let base;
    if (style < 0.85) {
      const [given, givenRoman] = random.pick(LAO_GIVEN);
      const [family, familyRoman] = random.pick(LAO_FAMILY);
      // most write their name in Lao script, some in Latin letters
      display = style < 0.6 ? `${given} ${family}` : `${titleCase(givenRoman)} ${titleCase(familyRoman)}`;
      base = random() < 0.5 ? givenRoman : `${givenRoman}${familyRoman.slice(0, 1)}`;
    } else {
      [display, base] = random.pick(OTHER_NAMES);
    }
    let username = `${base}${random.int(1, 99)}`;
    while (usernames.has(username)) username = `${base}${random.int(1, 99_999)}`;
    usernames.add(username);
    let phone;
    do phone = `${random() < 0.9 ? "020" : "030"}${random.pick(["2", "5", "7", "9"])}${random.digits(7)}`;
    while (phones.has(phone));
    phones.add(phone);
    // more players joined lately (the agency grows); a fifth joined before the history shown
    const createdAt = Math.floor(span + (ctx.now - span) * Math.sqrt(random()));
    // a heavy tail: most players deposit now and then, a few every day; some never
    const weight = random() < 0.15 ? 0 : Math.min(400, random() ** -0.8);
    const main = random.weighted(PROVIDERS, PROVIDER_WEIGHTS);
    players.push({
      id: random.uuid(),
      username,
      display,
      phone,
      createdAt,
      weight,
      main,
      second: random.pick(PROVIDERS),
      firstDepositAt: null,
      lastLoginAt: null,
      account: null,
      members: new Set(),
      deposits: 0,
      channel: random(),
    });
  }
  players.sort((a, b) => a.createdAt - b.createdAt);
  players.forEach((p, i) => {
    p.seq = i;
  });
  return players;
}

function writePlayers(w, agency, players, ctx) {
  const { random } = ctx;
  for (const p of players) {
    const locked = random() < 0.003;
    w.put("players", [
      p.id,
      agency.id,
      p.username,
      p.display,
      p.phone,
      ctx.playerHash,
      locked ? "SUSPENDED" : "ACTIVE",
      iso(p.createdAt),
      iso(p.createdAt),
      p.lastLoginAt === null ? null : iso(p.lastLoginAt),
      locked ? "staff locked the account" : null,
      p.firstDepositAt === null ? null : iso(p.firstDepositAt),
    ]);
    const fingerprints = random() < 0.2 ? 2 : 1;
    for (let i = 0; i < fingerprints; i++) {
      const agent = random.pick(USER_AGENTS);
      const payload = JSON.stringify({
        ua: agent,
        screen: random.pick(["390x844", "412x915", "360x800", "393x873"]),
        tz: "Asia/Vientiane",
        lang: "lo",
        cores: random.pick([4, 8]),
      });
      w.put("fingerprints", [agency.id, p.id, random.hex(32), payload, iso(p.createdAt), iso(p.lastLoginAt ?? p.createdAt), random.int(1, 40)]);
    }
    if (p.account)
      w.put("bank_accounts", [random.uuid(), agency.id, p.id, p.account.bank, p.account.number, p.account.name, "LAK", "SELF", iso(p.account.createdAt)]);
    writeSessions(w, agency, p, ctx);
  }
}

/** Player sessions: one per login, kept (never pruned) unless the player logged out. */
function writeSessions(w, agency, p, ctx) {
  const { random } = ctx;
  const logins = p.weight === 0 ? 1 : Math.min(40, 1 + Math.ceil(p.deposits / 4));
  const from = Math.max(p.createdAt, ctx.historyStart);
  for (let i = 0; i < logins; i++) {
    const created = i === logins - 1 && p.lastLoginAt ? p.lastLoginAt : Math.floor(from + (ctx.now - from) * random());
    const lastSeen = Math.min(ctx.now, created + random.int(1, 90) * MINUTE);
    w.put("sessions", [
      random.hex(64),
      agency.id,
      p.id,
      created,
      lastSeen,
      Math.min(created + 12 * HOUR, lastSeen + 30 * MINUTE),
      random.pick(USER_AGENTS),
      laoIp(random),
    ]);
  }
}

/** Cumulative activity weights over the players (by sign-up time) for picking who made an order. */
function weightIndex(players) {
  const cumulative = new Float64Array(players.length);
  let sum = 0;
  players.forEach((p, i) => {
    sum += p.weight;
    cumulative[i] = sum;
  });
  return cumulative;
}

function pickPlayer(random, players, cumulative, upTo) {
  const total = cumulative[upTo - 1];
  if (!(total > 0)) return null;
  const target = random() * total;
  let lo = 0;
  let hi = upTo - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] > target) hi = mid;
    else lo = mid + 1;
  }
  return players[lo];
}

// ---- orders

/** Order times over the history, denser lately (the agency grows), ascending. */
function orderTimes(random, count, ctx) {
  const times = new Float64Array(count);
  const span = ctx.now - ctx.historyStart;
  for (let i = 0; i < count; i++) times[i] = Math.floor(ctx.historyStart + span * Math.sqrt(random()));
  return times.sort();
}

/** The agency's promotions of the demo seed a deposit may carry, and the bonus it gives (credit minor units). */
function promotionOf(random, p, provider, kip, creditMinor) {
  if (p.firstDepositAt === null && random() < 0.4) return { id: "welcome-100", bonus: Math.min(creditMinor, 50_000) };
  if (kip === 60_000 && random() < 0.5) return { id: "deposit-60k-bonus-50", bonus: 5000 };
  if ((provider === "askmebet" || provider === "betflix") && random() < 0.06) return { id: "daily-10", bonus: Math.min(Math.floor(creditMinor / 10), 30_000) };
  return null;
}

class AgencyOrders {
  constructor(w, agency, players, staff, ctx) {
    this.w = w;
    this.agency = agency;
    this.players = players;
    this.cashiers = staff;
    this.ctx = ctx;
    this.random = ctx.random;
    // order codes are keys of deposit_refs / withdraw_refs across agencies: one set for all
    this.codes = ctx.codes;
    this.accounts = new Set();
    this.extraKip = new Map();
    this.derivations = new Map();
    this.daily = new Map();
    this.day = null;
    this.audit = [];
    this.alerts = [];
    this.attemptSeq = new Map();
    this.bankIds = 0;
    this.importRows = new Map();
  }

  code(letter, t) {
    let code;
    do code = orderCode(this.random, letter, t);
    while (this.codes.has(code));
    this.codes.add(code);
    return code;
  }

  /** The account's balance after a credit, as a message prints it (also what makes two messages of the same payer and amount differ). */
  balance(minor) {
    this.balanceMinor = (this.balanceMinor ?? 1_000_000_000) + minor;
    return (this.balanceMinor / 100).toLocaleString("en-US");
  }

  /** A bank's transaction id as BCEL/LDB print it. */
  bankId(t) {
    this.bankIds += 1;
    return `FT${iso(t).slice(2, 10).replace(/-/g, "")}${String(this.bankIds).padStart(7, "0")}`;
  }

  derived(channel, direction, amount, reports) {
    const key = `${channel}\u0000${direction}\u0000${amount}`;
    this.derivations.set(key, (this.derivations.get(key) ?? 0) + reports);
  }

  attempt(p, provider, code, op, outcome, t) {
    if (t < this.ctx.now - ATTEMPT_RETENTION) return;
    const seq = (this.attemptSeq.get(p.id) ?? 0) + 1;
    this.attemptSeq.set(p.id, seq);
    this.w.put("provider_attempts", [
      this.agency.id,
      p.id,
      seq,
      provider,
      code,
      `${code}-${op === "transfer_in" ? "in" : "out"}`,
      op,
      outcome,
      outcome === "refused" ? "INSUFFICIENT_BALANCE" : null,
      null,
      iso(t),
    ]);
  }

  cashier() {
    return this.random.pick(this.cashiers);
  }

  /** The players' daily turnover and win/loss at each provider (the hourly job's rows), per day as the orders pass it. */
  play(p, provider, t, creditMinor) {
    // a day is written once: a payment credited just after midnight, before an order made just
    // before it, counts on the later day
    const day = this.day !== null && vientianeDay(t) < this.day ? this.day : vientianeDay(t);
    if (this.day !== null && day !== this.day) this.flushDay();
    this.day = day;
    const key = `${p.id}\u0000${provider}`;
    const row = this.daily.get(key) ?? { turnover: 0, winLoss: 0 };
    row.turnover += creditMinor * this.random.int(3, 12);
    row.winLoss += Math.round(creditMinor * (this.random() * 1.6 - 0.5));
    this.daily.set(key, row);
  }

  flushDay() {
    const collected = iso(Date.parse(`${this.day}T00:00:00Z`) - VIENTIANE + DAY + 17 * MINUTE);
    const totals = new Map(PROVIDERS.map((provider) => [provider, { turnover: 0, winLoss: 0 }]));
    for (const [key, row] of this.daily) {
      const [playerId, provider] = key.split("\u0000");
      this.w.put("player_provider_daily", [this.agency.id, playerId, provider, this.day, row.turnover, row.winLoss, collected]);
      const total = totals.get(provider);
      total.turnover += row.turnover;
      total.winLoss += row.winLoss;
    }
    for (const [provider, total] of totals)
      this.w.put("provider_daily_stats", [this.agency.id, provider, this.day, "ok", total.turnover, total.winLoss, null, collected]);
    this.daily.clear();
  }

  run() {
    const { random, ctx, players } = this;
    const cumulative = weightIndex(players);
    const times = orderTimes(random, this.agency.orders, ctx);
    let eligible = 0;
    for (const t of times) {
      while (eligible < players.length && players[eligible].createdAt <= t) eligible++;
      const p = pickPlayer(random, players, cumulative, Math.max(1, eligible)) ?? players[0];
      p.lastLoginAt = Math.max(p.lastLoginAt ?? 0, t - random.int(1, 10) * MINUTE);
      const withdraw = p.firstDepositAt !== null && p.firstDepositAt < t && random() < 0.22;
      if (withdraw) this.withdraw(p, t);
      else this.deposit(p, t);
    }
    if (this.day !== null) this.flushDay();
    this.unmatched(times.length);
    for (const [key, version] of this.derivations) {
      const [channel, direction, amount] = key.split("\u0000");
      this.w.put("bank_derivations", [this.agency.id, channel, direction, amount, version]);
    }
    this.statementImports();
  }

  channelFor(p) {
    let u = p.channel;
    for (const c of this.agency.ownChannels) if ((u -= c.share) < 0) return c;
    return null;
  }

  deposit(p, t) {
    const { random, ctx, w, agency } = this;
    const provider = random() < 0.8 ? p.main : p.second;
    const own = random() < 0.9 ? this.channelFor(p) : null;
    const channelCode = own ? own.code : agency.gatewayChannel;
    const kip = random() < 0.85 ? random.pick(DEPOSIT_KIP) : random.int(10, 3000) * 1000;
    const amountMinor = kip * 100;
    const creditMinor = Math.floor(amountMinor / SELL);
    const code = this.code("D", t);
    const age = ctx.now - t;
    const payDelay = random.int(20, 6 * 60) * 1000;
    let status;
    let flag = null;
    let paidAt = null;
    let endedAt = null;
    const u = random();
    if (age < QR_TTL) {
      // still in its QR's life: paid already, or waiting
      status = u < 0.6 && t + payDelay <= ctx.now ? "SUCCESS" : "OPEN";
      if (status === "SUCCESS") paidAt = endedAt = t + payDelay;
    } else if (u < 0.79) {
      status = "SUCCESS";
      paidAt = t + payDelay;
      endedAt = paidAt;
    } else if (u < 0.955) {
      status = "CANCELED";
      flag = "EXPIRED";
    } else if (u < 0.985) {
      status = "CANCELED";
      endedAt = t + random.int(1, 10) * MINUTE;
    } else if (u < 0.998) {
      status = "FAILED"; // paid, and the provider refused the credit
      paidAt = t + payDelay;
      endedAt = paidAt;
    } else {
      status = "CANCELED";
      flag = own ? "LATE_PAYMENT" : "AMOUNT_MISMATCH";
    }
    const promotion = status === "OPEN" || status === "SUCCESS" ? promotionOf(random, p, provider, kip, creditMinor) : null;
    const bonusMinor = status === "SUCCESS" && promotion ? promotion.bonus : 0;
    let payMinor = amountMinor;
    if (own) {
      // the unique pay amount: a few kip above the amount asked (decision 016)
      const key = `${own.code}:${kip}`;
      const extra = ((this.extraKip.get(key) ?? 0) % 999) + 1;
      this.extraKip.set(key, extra);
      payMinor = amountMinor + extra * 100;
    }
    const updated = paidAt ?? endedAt ?? (status === "OPEN" ? t : t + QR_TTL);
    w.put("deposit_refs", [code, agency.id, p.id, iso(t)]);
    w.put("deposit_orders_view", [
      code,
      agency.id,
      p.id,
      provider,
      shown(amountMinor),
      shown(creditMinor),
      status,
      flag,
      iso(t),
      iso(Math.min(ctx.now, updated + 2000)),
      channelCode,
      amountMinor,
      paidAt === null ? null : payMinor,
      creditMinor,
      bonusMinor,
      promotion?.id ?? null,
      paidAt === null ? null : iso(paidAt),
      1,
    ]);
    if (promotion) this.usage(p, provider, promotion, code, status, t, paidAt);
    if (own) {
      const end = Math.min(t + QR_TTL, endedAt ?? t + QR_TTL);
      w.put("pay_amount_reservations", [
        agency.id,
        own.code,
        shown(payMinor),
        code,
        p.id,
        shown(amountMinor),
        t,
        t + QR_TTL,
        endedAt,
        end + COOL_DOWN > ctx.now ? 1 : null,
      ]);
    }
    if (paidAt !== null) {
      p.deposits += 1;
      if (status === "SUCCESS" && p.firstDepositAt === null) p.firstDepositAt = paidAt;
      this.attempt(p, provider, code, "transfer_in", status === "SUCCESS" ? "ok" : "refused", paidAt);
      if (status === "SUCCESS") {
        this.play(p, provider, paidAt, creditMinor);
        this.member(p, provider, paidAt);
      }
      if (own && t >= ctx.bankFrom) this.paidOnBank(p, own, code, payMinor, paidAt);
      else if (!own) this.paidByGateway(code, paidAt);
    }
    if (flag === "LATE_PAYMENT" && t >= ctx.bankFrom) this.latePayment(p, own, code, payMinor, t);
    if (flag === "AMOUNT_MISMATCH")
      this.queueItem({ kind: "AMOUNT_MISMATCH", reference: code, amount: shown(amountMinor + 500_000), orderPlayer: p, at: t + payDelay });
  }

  paidByGateway(code, paidAt) {
    const { w, random } = this;
    // the gateway's transaction ids are keys across agencies (gateway_events)
    this.ctx.counters.gatewayTxns += 1;
    w.put("gateway_events", [`BCEL${String(this.ctx.counters.gatewayTxns).padStart(12, "0")}${random.digits(2)}`, code, iso(paidAt)]);
    const body = random.hex(64);
    w.put("webhook_signatures", [`t=${Math.floor(paidAt / 1000)},v1=${random.hex(64)}`, iso(paidAt), body, 200, '{"ok":true}']);
  }

  /** The reports of an own-account payment, the transfer derived from them and its credit. */
  paidOnBank(p, own, code, payMinor, paidAt) {
    const { random } = this;
    const amount = shown(payMinor);
    const bankTime = paidAt - random.int(5, 40) * 1000;
    const bankId = this.bankId(bankTime);
    const reports = [];
    const forwarded = random() < 0.92;
    const sender = p.display.toUpperCase();
    if (forwarded) {
      const carriesId = random() < 0.7;
      const raw = `${own.bank}: +${(payMinor / 100).toLocaleString("en-US")} LAK from ${sender} ${iso(bankTime).slice(0, 16).replace("T", " ")}${carriesId ? ` Ref ${bankId}` : ""} Bal ${this.balance(payMinor)}`;
      reports.push({
        source: "forwarder",
        id: carriesId ? bankId : `sha256:${sha256(raw)}`,
        recordedAt: bankTime + random.int(3, 30) * 1000,
        raw,
        reference: carriesId ? bankId : null,
        staff: null,
      });
    } else if (random() < 0.6) {
      const staff = this.cashier();
      reports.push({ source: "staff", id: bankId, recordedAt: paidAt, raw: null, reference: code, staff: staff.username });
      this.audit.push({
        t: paidAt,
        staff,
        action: "order.mark-paid",
        target: `deposit:${code}`,
        before: { status: "OPEN" },
        after: { status: "PAID", bankTransactionId: bankId },
      });
    }
    const statementAt = this.statementTime(bankTime);
    if (statementAt !== null) {
      const raw = `${iso(bankTime + VIENTIANE)
        .slice(0, 19)
        .replace("T", " ")},${bankId},${sender},${payMinor / 100},,CR`;
      reports.push({ source: "statement", id: bankId, recordedAt: statementAt, raw, reference: null, staff: null });
      this.countImportRow(own.code, bankTime, "credit");
    }
    if (reports.length === 0) {
      // nobody reported it yet: the cashier saw it on the bank's app and marked it paid
      const staff = this.cashier();
      reports.push({ source: "staff", id: bankId, recordedAt: paidAt, raw: null, reference: code, staff: staff.username });
    }
    this.transfer(own, "credit", amount, bankTime, reports, {
      outcome: "APPLIED",
      orderCode: code,
      playerId: p.id,
      credit: { code, kind: "order", forOrder: code, at: paidAt },
    });
  }

  /** Paid after the order expired, within its cool-down: a LATE transfer and its queue item. */
  latePayment(p, own, code, payMinor, t) {
    const bankTime = t + QR_TTL + this.random.int(5, 90) * MINUTE;
    if (bankTime >= this.ctx.now) return;
    const amount = shown(payMinor);
    const reports = this.arrivals(own, payMinor, bankTime, p.display.toUpperCase());
    const item = this.queueItem({
      kind: "LATE_PAYMENT",
      reference: reports[0].id,
      amount,
      orderPlayer: p,
      at: reports[0].recordedAt,
      own,
      source: reports[0].source,
      bankTime,
      raw: reports[0].raw,
    });
    this.transfer(own, "credit", amount, bankTime, reports, {
      outcome: "LATE",
      orderCode: code,
      playerId: p.id,
      queueId: item.id,
      credit: item.manualCode ? { code: item.manualCode, kind: "hand", playerId: item.playerId, forOrder: code, at: item.resolvedAt } : null,
    });
  }

  /** A forwarded message, and the statement row once the day's statement was imported. */
  arrivals(own, payMinor, bankTime, sender) {
    const { random } = this;
    const bankId = this.bankId(bankTime);
    const raw = `${own.bank}: +${(payMinor / 100).toLocaleString("en-US")} LAK from ${sender} ${iso(bankTime).slice(0, 16).replace("T", " ")} Ref ${bankId}`;
    const reports = [{ source: "forwarder", id: bankId, recordedAt: bankTime + random.int(3, 30) * 1000, raw, reference: bankId, staff: null }];
    const statementAt = this.statementTime(bankTime);
    if (statementAt !== null) {
      reports.push({
        source: "statement",
        id: bankId,
        recordedAt: statementAt,
        raw: `${iso(bankTime + VIENTIANE)
          .slice(0, 19)
          .replace("T", " ")},${bankId},${sender},${payMinor / 100},,CR`,
        reference: null,
        staff: null,
      });
      this.countImportRow(own.code, bankTime, "credit");
    }
    return reports;
  }

  /** When the statement holding this bank time was imported (the next morning), or null while it is not yet. */
  statementTime(bankTime) {
    const dayStart = Math.floor((bankTime + VIENTIANE) / DAY) * DAY - VIENTIANE;
    const importedAt = dayStart + DAY + 9 * HOUR + 30 * MINUTE;
    return importedAt <= this.ctx.now ? importedAt : null;
  }

  countImportRow(channel, bankTime, direction) {
    const key = `${channel}\u0000${vientianeDay(bankTime)}`;
    const row = this.importRows.get(key) ?? { credit: 0, debit: 0 };
    row[direction] += 1;
    this.importRows.set(key, row);
  }

  statementImports() {
    const { w, random } = this;
    for (const [key, rows] of this.importRows) {
      const [channel, day] = key.split("\u0000");
      const from = Date.parse(`${day}T00:00:00Z`) - VIENTIANE;
      w.put("statement_imports", [
        random.uuid(),
        this.agency.id,
        channel,
        `statement-${channel}-${day}.csv`,
        from,
        from + DAY - 1,
        rows.credit,
        rows.debit,
        "boss",
        this.statementTime(from),
      ]);
    }
  }

  /**
   * One derived transfer: every report kept (bank_witnesses), the transfer keyed by the
   * strongest source's report (statement, then forwarder, then staff), and the credit it caused,
   * tied to the first report that arrived.
   */
  transfer(own, direction, amount, bankTime, reports, result) {
    const { w, agency } = this;
    const rank = { statement: 0, forwarder: 1, staff: 2 };
    const key = [...reports].sort((a, b) => rank[a.source] - rank[b.source])[0];
    const first = [...reports].sort((a, b) => a.recordedAt - b.recordedAt)[0];
    for (const r of reports) {
      const link = r === key ? "key" : r.id === key.id ? "id" : result.orderCode ? "order" : "window";
      w.put("bank_witnesses", [agency.id, own.code, r.source, r.id, key.id, amount, bankTime, r.reference, r.raw, link, r.staff, r.recordedAt, direction, 0]);
      if (r.source === "forwarder")
        w.put("forwarder_deliveries", [agency.id, own.code, Math.floor(r.recordedAt / 1000) - 1, this.random.hex(64), sha256(r.raw), r.recordedAt, "recorded"]);
    }
    const credit = result.credit ?? null;
    w.put("bank_transactions", [
      agency.id,
      own.code,
      key.id,
      direction,
      amount,
      bankTime,
      key.reference,
      key.source,
      key.raw,
      result.outcome,
      result.orderCode ?? null,
      result.playerId ?? null,
      key.staff,
      first.recordedAt,
      credit ? 1 : 0,
      result.queueId ?? null,
    ]);
    if (credit)
      w.put("bank_credits", [
        agency.id,
        credit.code,
        credit.kind,
        own.code,
        first.source,
        first.id,
        credit.playerId ?? result.playerId ?? null,
        amount,
        credit.forOrder,
        credit.at,
      ]);
    this.derived(own.code, direction, amount, reports.length);
  }

  /** A promotion usage as the wallet projects it. */
  usage(p, provider, promotion, code, status, t, paidAt) {
    const done = status === "SUCCESS";
    const old = this.ctx.now - t > 3 * DAY;
    const usageStatus = !done ? "CLAIMED" : old ? (this.random() < 0.7 ? "SUCCESS" : "CANCELED") : "USED";
    const ended = usageStatus === "SUCCESS" || usageStatus === "CANCELED" ? paidAt + this.random.int(1, 48) * HOUR : null;
    this.w.put("promotion_usages_view", [
      this.random.uuid(),
      this.agency.id,
      p.id,
      promotion.id,
      provider,
      usageStatus,
      code,
      done ? shown(promotion.bonus) : null,
      usageStatus === "CANCELED" ? "TURNOVER_NOT_MET" : null,
      iso(t - 30_000),
      iso(Math.min(this.ctx.now, ended ?? paidAt ?? t)),
      paidAt === null ? null : iso(paidAt),
      ended === null ? null : iso(Math.min(this.ctx.now, ended)),
      1,
    ]);
  }

  member(p, provider, t) {
    if (p.members.has(provider)) return;
    p.members.add(provider);
    // a fixed-width number first: unique whatever the rest
    const username = `sc${p.seq.toString(36).padStart(5, "0")}${p.username.replace(/[^a-z0-9]/g, "").slice(0, 8)}`;
    this.w.put("provider_members", [this.agency.id, provider, p.id, username, provider === "betflix" ? `bfx${username}` : username, iso(t)]);
  }

  withdraw(p, t) {
    const { random, ctx, w, agency } = this;
    const provider = p.main;
    const credit = random.pick(WITHDRAW_CREDIT);
    const creditMinor = credit * 100;
    const receivedMinor = credit * BUY * 100;
    const code = this.code("W", t);
    if (!p.account) {
      const bank = random.pick(BANKS);
      let number;
      do number = `${bank === "BCEL" ? "0101" : "1"}${random.digits(11)}`;
      while (this.accounts.has(`${bank}:${number}`));
      this.accounts.add(`${bank}:${number}`);
      p.account = { bank, number, name: p.display.toUpperCase(), createdAt: t - random.int(1, 20) * MINUTE };
    }
    const manual = credit > AUTO_MAX_CREDIT || random() < 0.35;
    const age = ctx.now - t;
    let status;
    let review = manual ? "MANUAL" : "AUTO";
    let returnState = null;
    let reason = null;
    let decided = null;
    const u = random();
    if (age < MINUTE) status = "PENDING";
    else if (manual && age < 2 * HOUR)
      status = "OPEN"; // the cashiers' queue
    else if (!manual && age < 3 * MINUTE) status = "OPEN";
    else if (u < 0.92) status = "SUCCESS";
    else if (u < 0.97) {
      status = "REJECTED";
      returnState = "DONE";
      reason = random.pick(["ACCOUNT_NAME_MISMATCH", "TURNOVER_NOT_MET", "DUPLICATE_REQUEST"]);
    } else {
      status = "FAILED";
      reason = "PROVIDER_REFUSED";
      review = manual ? "MANUAL" : "AUTO";
    }
    const completedAt = status === "SUCCESS" || status === "REJECTED" ? t + (manual ? random.int(4, 45) * MINUTE : random.int(20, 180) * 1000) : null;
    if (manual && completedAt !== null) decided = completedAt;
    w.put("withdraw_refs", [code, agency.id, p.id, iso(t)]);
    w.put("withdraw_orders_view", [
      code,
      agency.id,
      p.id,
      provider,
      shown(creditMinor),
      shown(receivedMinor),
      status,
      review,
      returnState,
      reason,
      iso(t),
      iso(Math.min(ctx.now, completedAt ?? t + 2000)),
      creditMinor,
      0,
      receivedMinor,
      null,
      status === "SUCCESS" ? iso(completedAt) : null,
      1,
    ]);
    if (status !== "PENDING") this.attempt(p, provider, code, "transfer_out", status === "FAILED" ? "refused" : "ok", t + 2000);
    if (decided !== null) this.decide(p, code, status, receivedMinor, creditMinor, t, decided);
    if (status === "OPEN" && manual && age > 15 * MINUTE)
      this.alerts.push({ id: `withdrawal.waiting:${code}`, kind: "withdrawal.waiting", at: t + 15 * MINUTE, facts: { code, credit: shown(creditMinor) } });
  }

  /** Staff paid (from an own account: the bank's debit reports follow) or rejected a withdrawal under review. */
  decide(p, code, status, receivedMinor, creditMinor, t, decided) {
    const { w, random, agency, ctx } = this;
    const staff = this.cashier();
    const paid = status === "SUCCESS";
    const own = agency.ownChannels[0];
    const bankId = paid ? this.bankId(decided) : null;
    w.put("withdraw_reviews", [
      code,
      agency.id,
      paid ? "PAID" : "REJECTED",
      "DONE",
      staff.id,
      staff.username,
      bankId,
      paid ? null : "account name does not match",
      decided,
    ]);
    this.audit.push({
      t: decided,
      staff,
      action: paid ? "withdrawal.paid" : "withdrawal.rejected",
      target: `withdrawal:${code}`,
      before: { status: "OPEN", review: "MANUAL", credit: shown(creditMinor) },
      after: {
        status: paid ? "SUCCESS" : "REJECTED",
        review: "MANUAL",
        credit: shown(creditMinor),
        ...(paid ? { bankReference: bankId } : {}),
        result: "applied",
      },
    });
    if (!paid || t < ctx.bankFrom) return;
    const bankTime = decided - random.int(1, 5) * MINUTE;
    const amount = shown(receivedMinor);
    const reports = [];
    if (random() < 0.5) {
      const raw = `${own.bank}: -${(receivedMinor / 100).toLocaleString("en-US")} LAK to ${p.account.name} ${iso(bankTime).slice(0, 16).replace("T", " ")} Ref ${bankId}`;
      reports.push({ source: "forwarder", id: bankId, recordedAt: bankTime + random.int(3, 30) * 1000, raw, reference: bankId, staff: null });
    }
    const statementAt = this.statementTime(bankTime);
    if (statementAt !== null) {
      reports.push({
        source: "statement",
        id: bankId,
        recordedAt: statementAt,
        raw: `${iso(bankTime + VIENTIANE)
          .slice(0, 19)
          .replace("T", " ")},${bankId},${p.account.name},,${receivedMinor / 100},DR`,
        reference: null,
        staff: null,
      });
      this.countImportRow(own.code, bankTime, "debit");
    }
    if (reports.length > 0) this.transfer(own, "debit", amount, bankTime, reports, { outcome: "DEBIT" });
  }

  /**
   * A payment for the staff's queue (unmatched_payments) and what staff did with it: waiting
   * when recent, else credited to a player by hand (a MANUAL deposit order) or refunded.
   */
  queueItem({ kind, reference, amount, orderPlayer, at, own = null, source = null, bankTime = null, raw = null }) {
    const { w, random, agency, ctx } = this;
    const id = random.code(16);
    const waiting = ctx.now - at < 2 * DAY ? random() < 0.6 : random() < 0.03;
    const status = waiting ? (random() < 0.05 ? "RESOLVING" : "OPEN") : random() < 0.75 ? "CREDITED" : "REFUNDED";
    const staff = this.cashier();
    const resolvedAt = waiting ? null : at + random.int(5, 600) * MINUTE;
    let manualCode = null;
    let player = orderPlayer;
    if (status === "CREDITED") {
      player = orderPlayer ?? random.pick(this.sample());
      manualCode = this.code("D", resolvedAt);
      const amountMinor = Math.round(Number(amount) * 100);
      const creditMinor = Math.floor(amountMinor / SELL);
      const provider = player.main;
      w.put("deposit_refs", [manualCode, agency.id, player.id, iso(resolvedAt)]);
      w.put("deposit_orders_view", [
        manualCode,
        agency.id,
        player.id,
        provider,
        shown(amountMinor),
        shown(creditMinor),
        "SUCCESS",
        null,
        iso(resolvedAt),
        iso(resolvedAt + 3000),
        "MANUAL",
        amountMinor,
        amountMinor,
        creditMinor,
        0,
        null,
        iso(resolvedAt + 2000),
        1,
      ]);
      this.audit.push({
        t: resolvedAt,
        staff,
        action: "payment.credit",
        target: id,
        before: { status: "OPEN", kind, reference, amount },
        after: { status: "RESOLVING", playerId: player.id },
      });
      this.audit.push({
        t: resolvedAt + 2000,
        staff,
        action: "payment.credited",
        target: id,
        before: { status: "RESOLVING" },
        after: { status: "CREDITED", manualCode },
      });
    } else if (status === "REFUNDED") {
      this.audit.push({
        t: resolvedAt,
        staff,
        action: "payment.refunded",
        target: id,
        before: { status: "OPEN", kind, reference, amount },
        after: { status: "REFUNDED" },
      });
    }
    const credit = manualCode ? shown(Math.floor((Number(amount) * 100) / SELL)) : null;
    w.put("unmatched_payments", [
      id,
      agency.id,
      kind,
      reference,
      own ? `${agency.id}:${own.code}:${reference}` : null,
      amount,
      orderPlayer?.id ?? null,
      iso(at),
      status,
      status === "CREDITED" ? player.id : null,
      status === "CREDITED" ? player.main : null,
      credit,
      manualCode ? String(SELL) : null,
      manualCode,
      status === "REFUNDED" ? "refunded to the sender's account" : null,
      resolvedAt === null ? (status === "RESOLVING" ? staff.username : null) : staff.username,
      status === "RESOLVING" ? ctx.now - MINUTE : null,
      resolvedAt === null ? null : iso(resolvedAt),
      own?.code ?? null,
      source,
      bankTime,
      raw,
    ]);
    if (status !== "CREDITED" && status !== "REFUNDED" && own)
      this.alerts.push({ id: `payment.unmatched:${id}`, kind: "payment.unmatched", at, facts: { amount, channel: own.code } });
    return { id, manualCode, resolvedAt, playerId: status === "CREDITED" ? player.id : null };
  }

  /** A few hundred active players to credit queue payments to. */
  sample() {
    if (!this.sampled) this.sampled = this.players.filter((p) => p.weight > 0).slice(-500);
    return this.sampled;
  }

  /** Money that reached an own account with no order to pay (a player paid the amount without the QR's extra kip). */
  unmatched(orders) {
    const { random, ctx, agency } = this;
    const count = Math.max(5, Math.round(orders * 0.0004));
    for (let i = 0; i < count; i++) {
      const own = random.pick(agency.ownChannels);
      const bankTime = ctx.bankFrom + Math.floor((ctx.now - ctx.bankFrom - MINUTE) * Math.sqrt(random()));
      const kip = random.pick(DEPOSIT_KIP);
      const sender = random.pick(this.sample()).display.toUpperCase();
      const reports = this.arrivals(own, kip * 100, bankTime, sender);
      const amount = shown(kip * 100);
      const item = this.queueItem({
        kind: "NO_ORDER",
        reference: reports[0].id,
        amount,
        orderPlayer: null,
        at: reports[0].recordedAt,
        own,
        source: "forwarder",
        bankTime,
        raw: reports[0].raw,
      });
      this.transfer(own, "credit", amount, bankTime, reports, {
        outcome: "NO_ORDER",
        queueId: item.id,
        credit: item.manualCode ? { code: item.manualCode, kind: "hand", playerId: item.playerId, forOrder: null, at: item.resolvedAt } : null,
      });
    }
  }
}

// ---- the rest of what players and staff leave behind

function writeRewardsAndReferrals(w, agency, players, ctx) {
  const { random } = ctx;
  const active = players.filter((p) => p.firstDepositAt !== null);
  const coded = [];
  for (const p of players) {
    if (random() < 0.25) {
      const code = random.code(8);
      w.put("referral_codes", [agency.id, p.id, code, iso(p.createdAt + HOUR)]);
      coded.push({ p, code });
    }
  }
  for (const p of players) {
    if (coded.length === 0 || random() >= 0.08) continue;
    const referrer = random.pick(coded);
    if (referrer.p === p || referrer.p.createdAt >= p.createdAt) continue;
    w.put("referrals", [agency.id, p.id, referrer.p.id, referrer.code, random() < 0.95 ? 1 : 0, iso(p.createdAt)]);
  }
  // weekly cashback claims of a few percent of the active players
  let claims = 0;
  for (let week = ctx.historyStart; week + 7 * DAY < ctx.now; week += 7 * DAY) {
    const claimed = active.filter((p) => p.firstDepositAt < week && random() < 0.03);
    for (const p of claimed) {
      const at = week + 7 * DAY + random.int(1, 72) * HOUR;
      if (at >= ctx.now) continue;
      const amountMinor = random.int(5, 500) * 100;
      w.put("reward_claims", [
        `${orderCode(random, "R", at)}${agency.id === "demo" ? "" : "B"}${(claims++).toString(36)}`,
        agency.id,
        p.id,
        "CASHBACK",
        vientianeDay(week),
        p.main,
        shown(amountMinor),
        amountMinor,
        "SUCCESS",
        shown(amountMinor),
        1,
        iso(at),
        iso(at + 5000),
        iso(at + 5000),
      ]);
    }
  }
  for (const p of players) {
    if (random() < 0.015)
      w.put("player_limits", [
        agency.id,
        p.id,
        random.pick(["deposit_day", "deposit_week", "deposit_month", "play_day"]),
        random.int(1, 50) * 100_000,
        p.createdAt + DAY,
      ]);
    if (random() < 0.003) {
      const starts = Math.floor(p.createdAt + (ctx.now - p.createdAt) * random());
      w.put("player_breaks", [agency.id, p.id, random() < 0.8 ? "cooling_off" : "self_exclusion", starts, starts + random.int(1, 42) * DAY, starts]);
    }
  }
}

/** Occasional staff actions on players and settings, besides the order decisions and logins. */
function staffActions(players, staff, ctx, audit) {
  const { random } = ctx;
  const owners = staff.filter((s) => s.role === "owner");
  for (const p of players) {
    if (random() < 0.004) {
      const at = Math.max(p.createdAt, ctx.historyStart) + random.int(1, 60) * DAY;
      if (at < ctx.now)
        audit.push({
          t: at,
          staff: random.pick(staff),
          action: random.pick(["player.lock", "player.reset-password", "player.end-sessions", "player.unlock"]),
          target: `player:${p.id}`,
          before: { status: "ACTIVE" },
          after: { status: "ACTIVE", username: p.username },
        });
    }
  }
  for (let day = ctx.historyStart; day < ctx.now; day += DAY) {
    audit.push({
      t: day + 10 * HOUR,
      staff: random.pick(owners),
      action: "report.export",
      target: "reports",
      before: null,
      after: { from: vientianeDay(day - 30 * DAY), to: vientianeDay(day), by: "day" },
    });
    for (let i = random.int(0, 3); i > 0; i--)
      audit.push({
        t: day + random.int(9, 20) * HOUR,
        staff: random.pick(staff),
        action: "reconciliation.note",
        target: vientianeDay(day - DAY),
        before: null,
        after: { note: "checked with the statement" },
      });
    if (random() < 0.1)
      audit.push({
        t: day + 11 * HOUR,
        staff: random.pick(owners),
        action: "settings.rate",
        target: "THB",
        before: { buy: String(BUY), sell: String(SELL) },
        after: { buy: String(BUY), sell: String(SELL) },
      });
  }
}

function writeAudit(w, agency, audit, ctx) {
  audit.sort((a, b) => a.t - b.t);
  for (const a of audit) {
    if (a.t >= ctx.now) continue;
    w.put("audit_log", [
      agency.id,
      a.staff.id,
      a.staff.username,
      a.action,
      a.target,
      a.before === null ? null : JSON.stringify(a.before),
      a.after === null ? null : JSON.stringify(a.after),
      a.ip ?? laoIp(ctx.random),
      STAFF_AGENT,
      iso(a.t),
    ]);
  }
}

function writeAlerts(w, agency, alerts, ctx) {
  for (let day = ctx.historyStart; day < ctx.now; day += DAY)
    alerts.push({ id: `summary:${vientianeDay(day)}`, kind: "summary", at: day + HOUR, facts: { day: vientianeDay(day) } });
  for (const a of alerts) {
    if (a.at >= ctx.now) continue;
    w.put("alert_events", [a.id, agency.id, a.kind, JSON.stringify(a.facts), "delivered", 1, '["-1001000000001"]', iso(a.at), iso(a.at + 1500)]);
  }
}

function generateAgency(w, agency, params, ctx) {
  const random = makeRandom(`${params.seed}:${agency.id}`);
  const local = { ...ctx, random };
  writeAgencyRows(w, agency, local);
  const staff = writeStaff(w, agency, local);
  const audit = [];
  writeStaffSessions(w, agency, staff, local, audit);
  const players = makePlayers(agency, local);
  const orders = new AgencyOrders(w, agency, players, staff, local);
  orders.run();
  writePlayers(w, agency, players, local);
  writeRewardsAndReferrals(w, agency, players, local);
  staffActions(players, staff, local, audit);
  writeAudit(w, agency, [...audit, ...orders.audit], local);
  writeAlerts(w, agency, orders.alerts, local);
  return players;
}

// ---- the database

/** The migrations, as wrangler applies them (its bookkeeping table included), and the demo agency's rows. */
function createSchema(db, params) {
  db.exec(
    `CREATE TABLE IF NOT EXISTS "d1_migrations"(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL);`,
  );
  for (const name of migrationFiles()) db.exec(migrationQuery(name, readFileSync(join(MIGRATIONS_DIR, name), "utf8")));
  db.exec(readFileSync(new URL("./seed.sql", import.meta.url), "utf8"));
  const staffHash = (username, password) => passwordHash(password, `${params.seed}:staff:${username}`);
  db.prepare(
    `INSERT OR IGNORE INTO players (id, agency_id, username, display_name, phone, password_hash) VALUES (?, 'demo', 'demo', 'Demo Player', '02055555555', ?)`,
  ).run("00000000-0000-4000-8000-00000000d3e0", passwordHash("demo-pass-123", `${params.seed}:demo-player`));
  const insertStaff = db.prepare(
    `INSERT OR IGNORE INTO staff (id, agency_id, username, password_hash, role, totp_secret, totp_last_step) VALUES (?, 'demo', ?, ?, ?, ?, 1)`,
  );
  insertStaff.run("demo-staff-boss", "boss", staffHash("boss", "boss-pass-123"), "owner", "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
  insertStaff.run("demo-staff-cashier", "cashier", staffHash("cashier", "cashier-pass-123"), "cashier", "KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU");
}

/**
 * No rollback journal and no syncs while generating (a failed run is thrown away whole), one
 * transaction per chunk. journal_mode = OFF needs the connection out of SQLite's defensive mode
 * (node:sqlite turns it on); the file keeps no trace of either.
 */
function bulkPragmas(db) {
  db.exec("PRAGMA journal_mode = OFF");
  db.exec("PRAGMA synchronous = OFF");
  db.exec("PRAGMA cache_size = -262144");
  db.exec("PRAGMA temp_store = MEMORY");
  db.exec("PRAGMA locking_mode = EXCLUSIVE");
  db.exec("PRAGMA foreign_keys = OFF");
}

/** Row counts of every table of the file (sqlite's own and D1's bookkeeping left out). */
export function tableCounts(db) {
  const tables = db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name`,
    )
    .all()
    .map((r) => r.name);
  return Object.fromEntries(tables.map((t) => [t, Number(db.prepare(`SELECT COUNT(*) AS n FROM "${t}"`).get().n)]));
}

/** A new file with the migrations and the demo agency's rows, without the scale data. */
export function createScaleBase(path, params) {
  rmSync(path, { force: true });
  const db = new DatabaseSync(path);
  try {
    createSchema(db, params);
  } finally {
    db.close();
  }
}

/**
 * Adds the scale data to the database at `path`, which has the migrations and the demo agency
 * (`schema: true` creates them first, in a new file). Returns what was written.
 */
export function generateScaleDatabase(path, params, { schema = false, log = () => {} } = {}) {
  const started = Date.now();
  if (schema) rmSync(path, { force: true });
  const db = new DatabaseSync(path, { defensive: false });
  try {
    bulkPragmas(db);
    if (schema) createSchema(db, params);
    const now = Date.parse(params.now);
    const ctx = {
      // what is unique across agencies (shared by reference with each agency's context)
      codes: new Set(),
      counters: { gatewayTxns: 0 },
      now,
      historyStart: now - params.historyDays * DAY,
      bankFrom: now - params.days * DAY,
      playerHash: passwordHash(SCALE_PLAYER_PASSWORD, `${params.seed}:players`),
      staffHash: passwordHash("cashier-pass-123", `${params.seed}:staff`),
    };
    const w = new Writer(db);
    const players = {};
    for (const agency of agenciesOf(params)) {
      log(`generating ${agency.id}: ${agency.players} players, ${agency.orders} orders`);
      players[agency.id] = generateAgency(w, agency, params, ctx);
    }
    w.done();
    db.exec("PRAGMA locking_mode = NORMAL");
    return { written: w.counts, seconds: (Date.now() - started) / 1000, sample: samplePlayers(players.demo, players["scale-b"]) };
  } finally {
    db.close();
  }
}

/** Players the bench asks for: the busiest, one whose username the second agency also has, a Lao name. */
function samplePlayers(demo, other) {
  const busiest = [...demo].sort((a, b) => b.deposits - a.deposits)[0];
  const otherNames = new Set(other.map((p) => p.username));
  const shared = demo.find((p) => otherNames.has(p.username) && p.deposits > 0) ?? busiest;
  const lao = demo.find((p) => /[\u0e80-\u0eff]/.test(p.display) && p.deposits > 0) ?? busiest;
  return { busiest: busiest.username, sharedUsername: shared.username, phone: busiest.phone, laoName: lao.display.split(" ")[1] ?? lao.display };
}

/** Bytes per table (data and its indexes), from sqlite's dbstat. */
export function bytesPerTable(db) {
  const rows = db.prepare(`SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name`).all();
  const indexes = db.prepare(`SELECT name, tbl_name FROM sqlite_master WHERE type = 'index'`).all();
  const owner = new Map(indexes.map((r) => [r.name, r.tbl_name]));
  const out = {};
  for (const r of rows) {
    const table = owner.get(r.name) ?? r.name;
    out[table] = (out[table] ?? 0) + Number(r.bytes);
  }
  return out;
}

/** The file name a set of parameters is kept under (the bench's cache). */
export function scaleCacheName(params) {
  const migrations = createHash("sha256");
  for (const name of migrationFiles()) migrations.update(name).update(readFileSync(join(MIGRATIONS_DIR, name)));
  const generator = createHash("sha256")
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(readFileSync(new URL("./scale-names.mjs", import.meta.url)))
    .digest("hex")
    .slice(0, 8);
  return `scale-${params.players}p-${params.orders}o-${params.days}d-${params.historyDays}h-${vientianeDay(Date.parse(params.now))}-${migrations.digest("hex").slice(0, 8)}${generator}.sqlite`;
}

/** A copy through SQLite, not of the file: a local D1 keeps its latest writes in its -wal file. */
function copyDatabase(from, to) {
  rmSync(to, { force: true });
  const source = new DatabaseSync(from);
  try {
    source.exec(`VACUUM INTO '${to.replace(/'/g, "''")}'`);
  } finally {
    source.close();
  }
}

/**
 * The scale data on a copy of `base` (a seeded D1 file) at `cacheFile`, made unless it is
 * there already; generated beside it and renamed, so a killed run leaves no half file.
 */
export function ensureScaleCopy(base, cacheFile, params, { log = console.log } = {}) {
  if (existsSync(cacheFile)) return { generated: false, file: cacheFile };
  const partial = `${cacheFile}.partial`;
  copyDatabase(base, partial);
  const result = generateScaleDatabase(partial, params, { log });
  renameSync(partial, cacheFile);
  writeFileSync(`${cacheFile}.json`, JSON.stringify({ params, ...result }, null, 2));
  return { generated: true, file: cacheFile, ...result };
}

// ---- command line

function parseArgs(argv) {
  const names = { "--players": "players", "--orders": "orders", "--days": "days", "--history-days": "historyDays", "--seed": "seed", "--now": "now" };
  const out = { overrides: {}, out: null, base: null, ready: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (names[arg]) out.overrides[names[arg]] = value;
    else if (arg === "--out") out.out = value;
    else if (arg === "--base") out.base = value;
    else if (arg === "--ready") out.ready = value;
    else throw new Error(`unknown argument ${arg}`);
    i++;
  }
  if (!out.out)
    throw new Error(
      "usage: node scripts/scale-seed.mjs --out <file> [--base <seeded D1 file>] [--players n] [--orders n] [--days n] [--history-days n] [--seed text] [--now ISO] [--ready <file>]",
    );
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = parseArgs(process.argv.slice(2));
  const params = scaleParams(process.env, args.overrides);
  if (args.base) copyDatabase(args.base, args.out);
  const result = generateScaleDatabase(args.out, params, { schema: !args.base, log: console.log });
  const db = new DatabaseSync(args.out, { readOnly: true });
  const counts = tableCounts(db);
  db.close();
  const size = statSync(args.out).size;
  const report = [
    `scale database ${args.out}`,
    `parameters: ${JSON.stringify(params)}`,
    `generated in ${result.seconds.toFixed(1)} s; file ${(size / 1e6).toFixed(1)} MB (${size} bytes); no ANALYZE run`,
    `sample: ${JSON.stringify(result.sample)}`,
    "rows per table:",
    ...Object.entries(counts).map(([table, n]) => `  ${table} ${n}`),
  ].join("\n");
  console.log(report);
  if (args.ready) writeFileSync(args.ready, `${report}\n`);
}
