// Creates an agency in one environment's D1 database, in one transaction: the agency row,
// its domain(s), default settings, the first owner staff account (no usable password
// until enrolment), optionally its THB exchange rate, and an audit row. Prints a one-time
// enrolment link. Migrations are applied to that database first.
//
//   npm run agency:create -- --env <local|agency-env> --id <agency-id> --name "<name>" \
//     --domain play.example.com [--domain www.play.example.com] [--owner <username>] \
//     [--thb-buy 580 --thb-sell 600] [--brand-color '#0f4c81'] [--logo logo.png] \
//     [--remote] [--persist-to <dir>]
//
// --env local       the top-level (local) wrangler.toml config, local state .wrangler/state
//                   (the same D1 `npm start` and scripts/seed.mjs use).
// --env <name>      the [env.<name>] block of wrangler.toml; with --remote its real D1,
//                   without it that environment's local D1 (to rehearse).
// --persist-to dir  local state directory (tests use a temporary one).
// --brand-color     the brand's primary colour; the text on it is white or near-black,
//                   whichever contrasts more, and every colour pair must reach 4.5:1
//                   (the same rules as the owner's brand page, workers/core/brand.ts).
// --logo file       the logo (PNG, JPEG, WebP or AVIF; at most 8 KB and 480x160 px),
//                   checked with the same rules, put into that environment's BRAND_ASSETS
//                   bucket (R2; remote with --remote) under agencies/<id>/logo-<hash>.<ext>.
//
// Refuses (exit 1, nothing written) when the agency id exists or a domain already belongs
// to an agency. See docs/decisions/009-settings-and-deployment.md.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSql, ENROL_TTL_MS, enrolToken, fail, linkOrigin, parse, q, Refusal } from "./agency-sql.mjs";
import { brandAsset, brandSql, putBrandObjects } from "./brand-seed.mjs";
import { loadBrandRules } from "./brand-rules.mjs";
import { applyLocalMigrations, OPTIMIZE } from "./local-migrations.mjs";

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

/**
 * The starting brand from --brand-color and --logo, checked with the Worker's own rules
 * before anything is written; null without either flag.
 */
async function startingBrand(opts) {
  if (!opts.brandColor && !opts.logo) return null;
  const rules = await loadBrandRules();
  let colors = null;
  if (opts.brandColor) {
    const neutral = rules.NEUTRAL_BRAND.colors;
    const text = ["#ffffff", "#111827"].sort((a, b) => rules.contrastRatio(b, opts.brandColor) - rules.contrastRatio(a, opts.brandColor))[0];
    const checked = rules.checkBrandColors({ primary: opts.brandColor, primaryText: text, accent: neutral.accent, accentText: neutral.accentText });
    if (!checked.ok)
      fail(`--brand-color ${opts.brandColor}: ${checked.pair ?? checked.field} has contrast ${checked.ratio ?? "?"}:1, below 4.5:1 (choose a darker colour)`);
    colors = checked.colors;
  }
  const assets = [];
  if (opts.logo) {
    try {
      assets.push(await brandAsset(opts.id, "logo", opts.logo, rules));
    } catch (error) {
      fail(`--logo ${error.message} (at most 8 KB and 480x160 px; PNG, JPEG, WebP or AVIF, bytes matching the file's type)`);
    }
  }
  return { colors, assets };
}

export async function main(argv) {
  const opts = parse(argv);
  const brand = await startingBrand(opts);
  if (brand) opts.brand = { colors: brand.colors, logo: brand.assets[0]?.name ?? null };
  const where = opts.remote
    ? `remote D1 of env ${opts.env}`
    : `local D1${opts.env === "local" ? "" : ` of env ${opts.env}`}${opts.persistTo ? ` (${opts.persistTo})` : ""}`;
  console.log(`applying migrations to the ${where}`);
  // a local database in one go (decision 063, PRAGMA optimize included); a remote one through
  // wrangler's own apply, then the planner's statistics for the indexes it added (decision 075)
  if (opts.remote) {
    wrangler(["d1", "migrations", "apply", ...target(opts)]);
    wrangler(["d1", "execute", ...target(opts), "--command", OPTIMIZE]);
  } else applyLocalMigrations(target(opts).slice(1));

  // Refuse before writing; the write below is also guarded by the primary keys, in one transaction.
  // One query for both (each wrangler call starts a runtime: about 3.5 s locally).
  const found = query(
    opts,
    `SELECT 'agency' AS kind, id AS host, id AS agency_id FROM agencies WHERE id = ${q(opts.id)}
     UNION ALL SELECT 'domain', host, agency_id FROM agency_domains WHERE host IN (${opts.domains.map(q).join(", ")})`,
  );
  if (found.some((row) => row.kind === "agency")) fail(`agency ${opts.id} already exists in the ${where}; nothing written`);
  const taken = found.filter((row) => row.kind === "domain");
  if (taken.length > 0) fail(`${taken.map((r) => `${r.host} already belongs to agency ${r.agency_id}`).join("; ")}; nothing written`);

  const staffId = randomUUID();
  const { token, hash } = enrolToken();
  const expiresAt = Date.now() + ENROL_TTL_MS;
  const dir = mkdtempSync(join(tmpdir(), "agency-"));
  const file = join(dir, "agency.sql");
  // The logo's object first (harmless if the write below fails: its name is its hash).
  if (brand?.assets.length) putBrandObjects(brand.assets, { env: opts.env, remote: opts.remote, persistTo: opts.persistTo });
  const sql = buildSql(opts, staffId, hash, expiresAt) + (brand ? `\n${brandSql(opts.id, { colors: brand.colors }, brand.assets, { replace: true })}` : "");
  writeFileSync(file, sql, { mode: 0o600 });
  try {
    wrangler(["d1", "execute", ...target(opts), "--file", file]);
  } catch (error) {
    const detail = String(error.stderr ?? error.message).match(/UNIQUE constraint failed[^\n]*/)?.[0];
    fail(
      detail
        ? `refused by the database (${detail}): the id or a domain was taken meanwhile; nothing written`
        : `the write failed; nothing written\n${error.stderr ?? error.message}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  if (brand)
    console.log(
      `brand: ${brand.colors ? `primary ${brand.colors.primary} (text ${brand.colors.primaryText})` : "neutral colours"}${brand.assets[0] ? `, logo /brand/${brand.assets[0].name} (${brand.assets[0].width}x${brand.assets[0].height})` : ""}`,
    );
  console.log(`created agency ${opts.id} (${opts.name}) with domain(s) ${opts.domains.join(", ")} in the ${where}`);
  console.log(`owner ${opts.owner}: no password until enrolment. One-time enrolment link (valid until ${new Date(expiresAt).toISOString()}):`);
  console.log(`  ${linkOrigin(opts)}/admin/enrol?token=${token}`);
  console.log(`enrolment code (the same token): ${token}`);
  if (!opts.rate) console.log("no exchange rate set: deposits are refused (NO_RATE) until the owner sets THB buy/sell at /admin/settings.");
  console.log("next: add a payment channel at /admin/settings; set the provider credentials there too.");
  return { staffId, token };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await main(process.argv.slice(2));
  } catch (error) {
    if (error instanceof Refusal || error?.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || error?.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      console.error(`agency:create refused: ${error.message}`);
      process.exit(1);
    }
    console.error(error?.stderr ?? error);
    process.exit(2);
  }
}
