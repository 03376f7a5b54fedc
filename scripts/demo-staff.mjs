// The demo back-office staff and their e2e copies, in one place for the seed scripts
// (seed.mjs, seed-e2e.mjs, seed-e2e-own-account.mjs) and tests/e2e/staff.ts.
// DEMO DATA ONLY: these TOTP secrets are public. Add them to an authenticator app to log in locally.
import { randomBytes, scryptSync } from "node:crypto";

export const DEMO_STAFF = {
  boss: { username: "boss", password: "boss-pass-123", role: "owner", totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP" },
  cashier: { username: "cashier", password: "cashier-pass-123", role: "cashier", totpSecret: "KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU" },
};

/** The Playwright projects (playwright.config.ts); each has agencies and staff copies of its own. */
export const E2E_PROJECTS = ["phone-js", "phone-nojs", "desktop-js", "desktop-nojs"];

/** Playwright workers (playwright.config.ts): a worker's slot (`parallelIndex`) owns its own copies. */
export const E2E_WORKER_SLOTS = 2;
/**
 * A TOTP code is accepted once per account (replay protection), so one account logs in at most
 * twice per 30 s step (this step's code and the next one's) and a third login waits for the next
 * step, up to 30 s. One worker slot logs in with its copies in turn, so it can log in
 * 2 x COPIES times in a step without waiting (a single copy per project cost about a minute of
 * waiting per project per run: decision 042).
 */
export const E2E_COPIES_PER_SLOT = 3;

/** The username of one copy of a demo staff member: `boss-phone-js-4`. */
export const e2eStaffUsername = (username, project, copy) => `${username}-${project}-${copy}`;

/** Same format and parameters as workers/services/login/password.ts (scrypt N=2^14, r=8, p=5). */
export function hashPassword(password) {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize("NFKC"), salt, 32, { N: 2 ** 14, r: 8, p: 5, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 2 ** 14, 8, 5, salt.toString("base64"), key.toString("base64")].join("$");
}

/**
 * SQL that adds staff to an agency, enrolled (totp_last_step 1), kept as they are when they
 * already exist. `copiesOf` gives the usernames of one member; each password is hashed once.
 */
export function staffSql(agencyId, members, copiesOf = (member) => [member.username]) {
  return members
    .flatMap((member) => {
      const hash = hashPassword(member.password);
      return copiesOf(member).map(
        (username) => `INSERT OR IGNORE INTO staff (id, agency_id, username, password_hash, role, totp_secret, totp_last_step)
VALUES ('${agencyId}-staff-${username}', '${agencyId}', '${username}', '${hash}', '${member.role}', '${member.totpSecret}', 1);`,
      );
    })
    .join("\n");
}

/** Every copy of one member for the given projects (all slots). */
export const e2eCopies = (projects) => (member) =>
  projects.flatMap((project) => Array.from({ length: E2E_WORKER_SLOTS * E2E_COPIES_PER_SLOT }, (_, copy) => e2eStaffUsername(member.username, project, copy)));
