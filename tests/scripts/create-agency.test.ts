import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** `npm run agency:create` against a temporary local D1 (--persist-to), as an operator runs it. */
const dir = mkdtempSync(join(tmpdir(), "create-agency-test-"));

function createAgency(...args: string[]) {
  const run = spawnSync(process.execPath, ["scripts/create-agency.mjs", "--env", "local", "--persist-to", dir, ...args], {
    encoding: "utf8",
    env: { ...process.env, CI: "true" },
  });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

/**
 * Rows of the local D1 the script wrote, read from its SQLite file (the file wrangler and
 * workerd keep under --persist-to). Each `wrangler d1 execute` here started a runtime of its
 * own, about 3 s: 17 reads were 50 s of this file's time (decision 065).
 */
function sql<T>(command: string): T[] {
  const folder = join(dir, "v3", "d1", "miniflare-D1DatabaseObject");
  const [file] = readdirSync(folder).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  const db = new DatabaseSync(join(folder, file!), { readOnly: true });
  try {
    return db.prepare(command).all() as T[];
  } finally {
    db.close();
  }
}

let first: ReturnType<typeof createAgency>;
const LOGO = "scripts/brand/e2e-phone-js-logo.png";

beforeAll(() => {
  first = createAgency(
    "--id",
    "acme",
    "--name",
    "Acme's Agency",
    "--domain",
    "acme.localhost",
    "--domain",
    "Play.Acme.example",
    "--owner",
    "boss",
    "--thb-buy",
    "580",
    "--thb-sell",
    "600",
    "--brand-color",
    "#0F4C81",
    "--logo",
    LOGO,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm run agency:create", () => {
  it("creates the agency, its domains, default settings, the rate and the owner awaiting enrolment, in one go", () => {
    expect(first.err).not.toContain("refused");
    expect(first.status).toBe(0);
    expect(sql(`SELECT id, name, status FROM agencies WHERE id = 'acme'`)).toEqual([{ id: "acme", name: "Acme's Agency", status: "ACTIVE" }]);
    // the first domain given is the primary one (staff alerts link there)
    expect(sql(`SELECT host, is_primary FROM agency_domains WHERE agency_id = 'acme' ORDER BY host`)).toEqual([
      { host: "acme.localhost", is_primary: 1 },
      { host: "play.acme.example", is_primary: 0 },
    ]);
    expect(sql(`SELECT fallback_language, deposit_min, withdraw_auto_max FROM agency_settings WHERE agency_id = 'acme'`)).toEqual([
      { fallback_language: "lo", deposit_min: "10000", withdraw_auto_max: "5000" },
    ]);
    expect(sql(`SELECT buy, sell FROM exchange_rates WHERE agency_id = 'acme'`)).toEqual([{ buy: "580", sell: "600" }]);
    expect(sql(`SELECT buy, sell, changed_by FROM exchange_rate_history WHERE agency_id = 'acme'`)).toEqual([
      { buy: "580", sell: "600", changed_by: "agency:create" },
    ]);
  });

  it("prints a one-time enrolment link whose token only the SHA-256 of is stored, and no usable password", () => {
    const token = /\/admin\/enrol\?token=([A-Za-z0-9_-]{43})\s/.exec(first.out)?.[1];
    expect(token).toBeDefined();
    expect(first.out).toContain(`http://acme.localhost:5173/admin/enrol?token=${token}`);
    const [staff] = sql<{
      username: string;
      role: string;
      password_hash: string;
      totp_secret: string | null;
      enrol_token_hash: string;
      enrol_expires_at: number;
    }>(`SELECT username, role, password_hash, totp_secret, enrol_token_hash, enrol_expires_at FROM staff WHERE agency_id = 'acme'`);
    expect(staff.username).toBe("boss");
    expect(staff.role).toBe("owner");
    // A scrypt hash of a random password nobody was shown: no login until enrolment.
    expect(staff.password_hash).toMatch(/^scrypt\$16384\$8\$5\$/);
    expect(staff.totp_secret).toBeNull();
    expect(staff.enrol_token_hash).toBe(createHash("sha256").update(token!).digest("hex"));
    expect(staff.enrol_token_hash).not.toContain(token!);
    expect(staff.enrol_expires_at).toBeGreaterThan(Date.now() + 71 * 3600_000);
    const audit = sql<{ action: string; staff_username: string; after_json: string }>(
      `SELECT action, staff_username, after_json FROM audit_log WHERE agency_id = 'acme'`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0].action).toBe("agency.create");
    expect(audit[0].after_json).not.toContain(token!);
  });

  it("starts the brand from --brand-color and --logo: colours checked, the logo in R2 under the agency and recorded", () => {
    const [brand] = sql<{ color_primary: string; color_primary_text: string; logo_name: string }>(
      `SELECT color_primary, color_primary_text, logo_name FROM agency_brand WHERE agency_id = 'acme'`,
    );
    expect(brand).toMatchObject({ color_primary: "#0f4c81", color_primary_text: "#ffffff" });
    const bytes = readFileSync(LOGO);
    const hash = createHash("sha256").update(bytes).digest("hex");
    expect(brand!.logo_name).toBe(`logo-${hash.slice(0, 12)}.png`);
    expect(sql(`SELECT content_type, byte_size, width, height FROM brand_assets WHERE agency_id = 'acme' AND name = '${brand!.logo_name}'`)).toEqual([
      { content_type: "image/png", byte_size: bytes.length, width: 240, height: 64 },
    ]);
    const stored = execFileSync(
      "npx",
      ["wrangler", "r2", "object", "get", `portal-brand/agencies/acme/${brand!.logo_name}`, "--local", "--persist-to", dir, "--pipe"],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, CI: "true" },
      },
    );
    expect(Buffer.compare(stored, bytes)).toBe(0);
  });

  it("refuses a brand colour or a logo the brand rules refuse, before writing anything", () => {
    const light = createAgency("--id", "pale", "--name", "Pale", "--domain", "pale.example", "--brand-color", "#ffff00");
    expect(light.status).toBe(1);
    expect(light.err).toContain("primary-on-surface");
    const big = createAgency("--id", "pale", "--name", "Pale", "--domain", "pale.example", "--logo", "scripts/brand/demo-hero.jpg");
    expect(big.status).toBe(1);
    expect(big.err).toContain("BRAND_IMAGE_TOO_BIG");
    const svg = join(dir, "logo.png");
    writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const mislabelled = createAgency("--id", "pale", "--name", "Pale", "--domain", "pale.example", "--logo", svg);
    expect(mislabelled.status).toBe(1);
    expect(mislabelled.err).toContain("BRAND_IMAGE_MISMATCH");
    expect(sql(`SELECT id FROM agencies WHERE id = 'pale'`)).toEqual([]);
  });

  it("refuses a second run with the same domain, writing nothing", () => {
    const second = createAgency("--id", "other", "--name", "Other", "--domain", "fresh.example", "--domain", "play.acme.example");
    expect(second.status).toBe(1);
    expect(second.err).toContain("play.acme.example already belongs to agency acme");
    expect(sql(`SELECT id FROM agencies WHERE id = 'other'`)).toEqual([]);
    expect(sql(`SELECT host FROM agency_domains WHERE host = 'fresh.example'`)).toEqual([]);
    expect(sql(`SELECT COUNT(*) AS n FROM staff`)).toEqual([{ n: 1 }]);
  });

  it("refuses an existing agency id, and bad input, writing nothing", () => {
    const again = createAgency("--id", "acme", "--name", "Acme again", "--domain", "new.acme.example");
    expect(again.status).toBe(1);
    expect(again.err).toContain("agency acme already exists");
    expect(sql(`SELECT host FROM agency_domains WHERE host = 'new.acme.example'`)).toEqual([]);
    expect(createAgency("--id", "x", "--name", "X", "--domain", "x.example").status).toBe(1);
    expect(createAgency("--id", "okid", "--name", "X", "--domain", "https://x.example/").status).toBe(1);
    expect(createAgency("--id", "okid", "--name", "X").status).toBe(1);
    expect(sql(`SELECT COUNT(*) AS n FROM agencies`)).toEqual([{ n: 1 }]);
  });
});
