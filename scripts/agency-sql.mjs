// The pure part of `npm run agency:create` (scripts/create-agency.mjs): argument rules,
// the one-transaction SQL and the enrolment token. No process, no file: the integration
// test (tests/integration/create-agency.test.ts) runs this SQL inside workerd and then uses
// the printed link on the real /admin/enrol page.
import { createHash, randomBytes, scryptSync } from "node:crypto";
import { existsSync } from "node:fs";
import * as util from "node:util";

/** How long the enrolment link stays valid. */
export const ENROL_TTL_MS = 72 * 60 * 60 * 1000;
/**
 * staff.password_hash until enrolment: the hash of a random password nobody ever sees (same
 * scrypt format as workers/services/login/password.ts, like the staff screen's new accounts), so
 * logging in is impossible and takes as long as for any account.
 */
export function unusablePasswordHash() {
  const salt = randomBytes(16);
  const key = scryptSync(randomBytes(32).toString("base64url"), salt, 32, { N: 2 ** 14, r: 8, p: 5, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 2 ** 14, 8, 5, salt.toString("base64"), key.toString("base64")].join("$");
}

export class Refusal extends Error {}

export function fail(message) {
  throw new Refusal(message);
}

export function parse(argv) {
  const { values } = util.parseArgs({
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
      "brand-color": { type: "string" },
      logo: { type: "string" },
      port: { type: "string" },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      "usage: npm run agency:create -- --env <local|name> --id <id> --name <name> --domain <host> [--domain <host>] [--owner <username>] [--thb-buy N --thb-sell N] [--brand-color #rrggbb] [--logo file] [--remote] [--persist-to dir] [--port N]",
    );
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
    for (const [flag, v] of [
      ["--thb-buy", buy],
      ["--thb-sell", sell],
    ]) {
      if (!/^\d{1,9}(\.\d{1,6})?$/.test(v) || Number(v) <= 0) fail(`${flag} ${v}: a positive decimal (LAK per THB, up to 6 decimals)`);
    }
    rate = { buy, sell };
  }
  let brandColor = null;
  if (values["brand-color"] !== undefined) {
    brandColor = values["brand-color"].trim().toLowerCase();
    if (!/^#[0-9a-f]{6}$/.test(brandColor)) fail(`--brand-color ${values["brand-color"]}: a colour as #rrggbb`);
  }
  const logo = values.logo ?? null;
  if (logo !== null && !existsSync(logo)) fail(`--logo ${logo}: no such file`);
  if (values.port !== undefined && !/^\d{1,5}$/.test(values.port)) fail(`--port ${values.port}: the port number a local server answers on`);
  return { env, id, name, domains, owner, rate, brandColor, logo, remote: values.remote, persistTo: values["persist-to"], port: values.port ?? null };
}

/** Names only this machine answers to: a browser reaches them over plain http, at a local server's port. */
const LOOPBACK = /^(localhost|127\.0\.0\.1|.*\.localhost)$/;

/**
 * The origin the printed enrolment link starts with (tests/scripts/enrol-link.test.ts), decided by the DOMAIN, not by
 * --env: a real domain is served by Cloudflare over https on the default port, whichever
 * environment is being created; a loopback name only by a server on this machine, over http,
 * at its port: --port, else 5173 for --env local (`npm start`) and 8787 for another
 * environment (`wrangler dev --env <name>`, wrangler's default port).
 */
export function linkOrigin(opts) {
  const host = opts.domains[0];
  if (!LOOPBACK.test(host)) return `https://${host}`;
  return `http://${host}:${opts.port ?? (opts.env === "local" ? "5173" : "8787")}`;
}

/** The same rule as workers/core/host.ts: lower case, no port, no trailing dot. */
function normalizeDomain(input) {
  const host = input.trim().toLowerCase().replace(/\.$/, "");
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host))
    fail(`--domain ${input}: not a host name (no scheme, no port, no path)`);
  return host;
}

export const q = (value) => (value === null || value === undefined ? "NULL" : `'${String(value).replace(/'/g, "''")}'`);

export function enrolToken() {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: createHash("sha256").update(token, "utf8").digest("hex") };
}

export function buildSql(opts, staffId, tokenHash, expiresAt) {
  const after = {
    agency: { id: opts.id, name: opts.name },
    domains: opts.domains,
    owner: opts.owner,
    rate: opts.rate,
    ...(opts.brand ? { brand: opts.brand } : {}),
  };
  const lines = [
    // The agency row first: its primary key refuses an existing id before anything else.
    `INSERT INTO agencies (id, name, status) VALUES (${q(opts.id)}, ${q(opts.name)}, 'ACTIVE');`,
    // A host belongs to exactly one agency (primary key): a taken domain aborts the whole file.
    // the first domain is the primary one: staff alerts link there (migration 0036)
    ...opts.domains.map((host, i) => `INSERT INTO agency_domains (host, agency_id, is_primary) VALUES (${q(host)}, ${q(opts.id)}, ${i === 0 ? 1 : 0});`),
    // Defaults of migrations 0001/0006: lo, limits, auto-payout threshold, all providers.
    `INSERT INTO agency_settings (agency_id) VALUES (${q(opts.id)});`,
    `INSERT INTO staff (id, agency_id, username, password_hash, role, status, enrol_token_hash, enrol_expires_at)
     VALUES (${q(staffId)}, ${q(opts.id)}, ${q(opts.owner)}, ${q(unusablePasswordHash())}, 'owner', 'ACTIVE', ${q(tokenHash)}, ${expiresAt});`,
  ];
  if (opts.rate) {
    lines.push(`INSERT INTO exchange_rates (agency_id, currency, buy, sell) VALUES (${q(opts.id)}, 'THB', ${q(opts.rate.buy)}, ${q(opts.rate.sell)});`);
    lines.push(
      `INSERT INTO exchange_rate_history (agency_id, currency, buy, sell, changed_by) VALUES (${q(opts.id)}, 'THB', ${q(opts.rate.buy)}, ${q(opts.rate.sell)}, 'agency:create');`,
    );
  }
  lines.push(
    `INSERT INTO audit_log (agency_id, staff_id, staff_username, action, target, before_json, after_json)
     VALUES (${q(opts.id)}, NULL, 'agency:create', 'agency.create', ${q(opts.id)}, NULL, ${q(JSON.stringify(after))});`,
  );
  return lines.join("\n");
}
