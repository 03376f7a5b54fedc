// Creates an agency in one environment's D1 database, in one transaction: the agency row,
// its domain(s), default settings, the first owner staff account (no usable password
// until enrolment), optionally its THB exchange rate, and an audit row. Prints a one-time
// enrolment link. Migrations are applied to that database first.
//
//   npm run agency:create -- --env <local|agency-env> --id <agency-id> --name "<name>" \
//     --domain play.example.com [--domain www.play.example.com] [--owner <username>] \
//     [--thb-buy 580 --thb-sell 600] [--remote] [--persist-to <dir>]
//
// --env local       the top-level (local) wrangler.toml config, local state .wrangler/state
//                   (the same D1 `npm start` and scripts/seed.mjs use).
// --env <name>      the [env.<name>] block of wrangler.toml; with --remote its real D1,
//                   without it that environment's local D1 (to rehearse).
// --persist-to dir  local state directory (tests use a temporary one).
//
// Refuses (exit 1, nothing written) when the agency id exists or a domain already belongs
// to an agency. See docs/decisions/009-settings-and-deployment.md.
import { execFileSync } from "node:child_process";
import { createHash, randomBytes, randomUUID, scryptSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

/** How long the enrolment link stays valid. */
export const ENROL_TTL_MS = 72 * 60 * 60 * 1000;
/**
 * staff.password_hash until enrolment: the hash of a random password nobody ever sees (same
 * scrypt format as workers/services/password.ts, like the staff screen's new accounts), so
 * logging in is impossible and takes as long as for any account.
 */
function unusablePasswordHash() {
  const salt = randomBytes(16);
  const key = scryptSync(randomBytes(32).toString("base64url"), salt, 32, { N: 2 ** 14, r: 8, p: 5, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 2 ** 14, 8, 5, salt.toString("base64"), key.toString("base64")].join("$");
}

class Refusal extends Error {}

function fail(message) {
  throw new Refusal(message);
}

function parse(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      env: { type: "string" },
      id: { type: "string" },
      name: { type: "string" },
      domain: { type: "string", multiple: true },
      owner: { type: "string", default: "owner" },
      "thb-buy": { type: "string" },
      "thb-sell": { type: "string" },
      remote: { type: "boolean", default: false },
      "persist-to": { type: "string" },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log("usage: npm run agency:create -- --env <local|name> --id <id> --name <name> --domain <host> [--domain <host>] [--owner <username>] [--thb-buy N --thb-sell N] [--remote] [--persist-to dir]");
    process.exit(0);
  }
  const env = values.env ?? fail("--env is required (local, or the name of an [env.<name>] block in wrangler.toml)");
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(env)) fail(`--env ${env}: not an environment name`);
  if (env === "local" && values.remote) fail("--remote needs --env <agency environment>, not local");
  const id = values.id ?? fail("--id is required");
  if (!/^[a-z0-9][a-z0-9-]{1,31}$/.test(id)) fail(`--id ${id}: use 2-32 characters a-z, 0-9 and -`);
  const name = (values.name ?? "").trim() || fail("--name is required");
  if (name.length > 100) fail("--name: at most 100 characters");
  const domains = [...new Set((values.domain ?? []).map(normalizeDomain))];
  if (domains.length === 0) fail("at least one --domain is required");
  const owner = values.owner.trim().toLowerCase();
  if (!/^[a-z0-9_.-]{3,32}$/.test(owner)) fail(`--owner ${owner}: use 3-32 characters a-z, 0-9, _ . -`);
  let rate = null;
  if (values["thb-buy"] !== undefined || values["thb-sell"] !== undefined) {
    const buy = values["thb-buy"] ?? fail("--thb-buy and --thb-sell go together");
    const sell = values["thb-sell"] ?? fail("--thb-buy and --thb-sell go together");
    for (const [flag, v] of [["--thb-buy", buy], ["--thb-sell", sell]]) {
      if (!/^\d{1,9}(\.\d{1,6})?$/.test(v) || Number(v) <= 0) fail(`${flag} ${v}: a positive decimal (LAK per THB, up to 6 decimals)`);
    }
    rate = { buy, sell };
  }
  return { env, id, name, domains, owner, rate, remote: values.remote, persistTo: values["persist-to"] };
}

/** The same rule as workers/core/host.ts: lower case, no port, no trailing dot. */
function normalizeDomain(input) {
  const host = input.trim().toLowerCase().replace(/\.$/, "");
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host)) fail(`--domain ${input}: not a host name (no scheme, no port, no path)`);
  return host;
}

const q = (value) => (value === null || value === undefined ? "NULL" : `'${String(value).replace(/'/g, "''")}'`);

function target(opts) {
  const args = ["DB"];
  if (opts.env !== "local") args.push("--env", opts.env);
  if (opts.remote) args.push("--remote");
  else {
    args.push("--local");
    if (opts.persistTo) args.push("--persist-to", opts.persistTo);
  }
  return args;
}

function wrangler(args, { json = false } = {}) {
  const out = execFileSync("npx", ["wrangler", ...args, ...(json ? ["--json"] : [])], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
    maxBuffer: 16 * 1024 * 1024,
  });
  return json ? JSON.parse(out.slice(out.indexOf("["))) : out;
}

function query(opts, sql) {
  const [result] = wrangler(["d1", "execute", ...target(opts), "--command", sql], { json: true });
  return result.results ?? [];
}

export function enrolToken() {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: createHash("sha256").update(token, "utf8").digest("hex") };
}

function buildSql(opts, staffId, tokenHash, expiresAt) {
  const after = { agency: { id: opts.id, name: opts.name }, domains: opts.domains, owner: opts.owner, rate: opts.rate };
  const lines = [
    // The agency row first: its primary key refuses an existing id before anything else.
    `INSERT INTO agencies (id, name, status) VALUES (${q(opts.id)}, ${q(opts.name)}, 'ACTIVE');`,
    // A host belongs to exactly one agency (primary key): a taken domain aborts the whole file.
    ...opts.domains.map((host) => `INSERT INTO agency_domains (host, agency_id) VALUES (${q(host)}, ${q(opts.id)});`),
    // Defaults of migrations 0001/0006: lo, limits, auto-payout threshold, all providers.
    `INSERT INTO agency_settings (agency_id) VALUES (${q(opts.id)});`,
    `INSERT INTO staff (id, agency_id, username, password_hash, role, status, enrol_token_hash, enrol_expires_at)
     VALUES (${q(staffId)}, ${q(opts.id)}, ${q(opts.owner)}, ${q(unusablePasswordHash())}, 'owner', 'ACTIVE', ${q(tokenHash)}, ${expiresAt});`,
  ];
  if (opts.rate) {
    lines.push(`INSERT INTO exchange_rates (agency_id, currency, buy, sell) VALUES (${q(opts.id)}, 'THB', ${q(opts.rate.buy)}, ${q(opts.rate.sell)});`);
    lines.push(`INSERT INTO exchange_rate_history (agency_id, currency, buy, sell, changed_by) VALUES (${q(opts.id)}, 'THB', ${q(opts.rate.buy)}, ${q(opts.rate.sell)}, 'agency:create');`);
  }
  lines.push(
    `INSERT INTO audit_log (agency_id, staff_id, staff_username, action, target, before_json, after_json)
     VALUES (${q(opts.id)}, NULL, 'agency:create', 'agency.create', ${q(opts.id)}, NULL, ${q(JSON.stringify(after))});`,
  );
  return lines.join("\n");
}

export function main(argv) {
  const opts = parse(argv);
  const where = opts.remote ? `remote D1 of env ${opts.env}` : `local D1${opts.env === "local" ? "" : ` of env ${opts.env}`}${opts.persistTo ? ` (${opts.persistTo})` : ""}`;
  console.log(`applying migrations to the ${where}`);
  wrangler(["d1", "migrations", "apply", ...target(opts)]);

  // Refuse before writing; the write below is also guarded by the primary keys, in one transaction.
  const existing = query(opts, `SELECT id FROM agencies WHERE id = ${q(opts.id)}`);
  if (existing.length > 0) fail(`agency ${opts.id} already exists in the ${where}; nothing written`);
  const taken = query(opts, `SELECT host, agency_id FROM agency_domains WHERE host IN (${opts.domains.map(q).join(", ")})`);
  if (taken.length > 0) fail(`${taken.map((r) => `${r.host} already belongs to agency ${r.agency_id}`).join("; ")}; nothing written`);

  const staffId = randomUUID();
  const { token, hash } = enrolToken();
  const expiresAt = Date.now() + ENROL_TTL_MS;
  const dir = mkdtempSync(join(tmpdir(), "agency-"));
  const file = join(dir, "agency.sql");
  writeFileSync(file, buildSql(opts, staffId, hash, expiresAt), { mode: 0o600 });
  try {
    wrangler(["d1", "execute", ...target(opts), "--file", file]);
  } catch (error) {
    const detail = String(error.stderr ?? error.message).match(/UNIQUE constraint failed[^\n]*/)?.[0];
    fail(detail ? `refused by the database (${detail}): the id or a domain was taken meanwhile; nothing written` : `the write failed; nothing written\n${error.stderr ?? error.message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const scheme = opts.env === "local" && !opts.remote ? "http" : "https";
  const port = scheme === "http" && /^(localhost|127\.0\.0\.1|.*\.localhost)$/.test(opts.domains[0]) ? ":5173" : "";
  console.log(`created agency ${opts.id} (${opts.name}) with domain(s) ${opts.domains.join(", ")} in the ${where}`);
  console.log(`owner ${opts.owner}: no password until enrolment. One-time enrolment link (valid until ${new Date(expiresAt).toISOString()}):`);
  console.log(`  ${scheme}://${opts.domains[0]}${port}/admin/enrol?token=${token}`);
  console.log(`enrolment code (the same token): ${token}`);
  if (!opts.rate) console.log("no exchange rate set: deposits are refused (NO_RATE) until the owner sets THB buy/sell at /admin/settings.");
  console.log("next: add a payment channel at /admin/settings; set the provider credentials there too.");
  return { staffId, token };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    if (error instanceof Refusal || error?.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || error?.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      console.error(`agency:create refused: ${error.message}`);
      process.exit(1);
    }
    console.error(error?.stderr ?? error);
    process.exit(2);
  }
}
