import { beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { fundProvider, playerWithBank } from "../setup/money";
import { createStaff, staffLogin } from "../setup/staff";
import type { AuditActor } from "../../workers/db/audit";
import { vientianeDate } from "../../workers/core/report-range";
import { findAgencyByHost } from "../../workers/services/agency";
import { reconciliationPage } from "../../workers/services/bank-in";
import { confirmWithdraw, decideWithdrawal } from "../../workers/services/withdrawals";
import lo from "../../locales/lo/admin.json";

/**
 * An owner's note on a difference of a bank day follows the rule of every text a person types
 * (workers/core/names.ts, as brand texts do): a control or direction character is refused
 * through the page's action with the translated message, the note is not saved, and what the
 * owner typed is shown again; zero-width characters (U+FEFF) are removed, as from a name.
 */

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const owner: AuditActor = { agencyId: "demo", staffId: "staff-note-owner", staffUsername: "note-owner", ip: "10.211.0.1", userAgent: "vitest" };
const today = () => vientianeDate(Date.now());
let ownerCookie = "";
let lineKey = "";

/** A withdrawal marked paid with no bank debit under a statement covering its time: a difference of today. */
async function withdrawalMarkedPaid(): Promise<string> {
  const p = await playerWithBank();
  await fundProvider("betflix", p.username, "100.00");
  const agency = (await findAgencyByHost(env.DB, "localhost"))!;
  const production = { ...env, SANDBOX_BANK: undefined, SANDBOX_BANK_MERCHANT: undefined, SANDBOX_BANK_SECRET: undefined } as unknown as Env;
  const input = { provider: "betflix", amountMinor: 10_000n, idempotencyKey: crypto.randomUUID() }; // 100 credit
  const confirmed = await confirmWithdraw(production, agency, { id: p.playerId, username: p.username, displayName: p.username }, input, "http://localhost");
  if (!confirmed.ok) throw new Error("withdrawal refused");
  await p.wallet.runDueWork();
  const code = confirmed.order.code;
  expect((await decideWithdrawal(env, "demo", code, { action: "paid", bankReference: `BCEL-OUT-${code}` }, { ...owner, via: "back-office" })).ok).toBe(true);
  await p.wallet.runDueWork();
  // a statement of the hour around it was imported (its rows are not needed: no debit is the point)
  const now = Date.now();
  await env.DB.prepare(
    `INSERT INTO statement_imports (id, agency_id, channel_code, file_name, bank_time_from, bank_time_to, credit_rows, debit_rows, imported_by, imported_at)
     VALUES ('notes-import', 'demo', 'OWN-NOTES', 'bcel.csv', ?1, ?2, 0, 0, 'note-owner', ?3)`,
  )
    .bind(now - 3600_000, now + 3600_000, now)
    .run();
  return code;
}

/** As the note form posts it: to the page of its day. */
const post = (fields: Record<string, string>) =>
  fetchApp(`http://localhost/admin/reconciliation?day=${fields.day}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: ownerCookie, Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });

const notes = async () =>
  (await env.DB.prepare(`SELECT note FROM reconciliation_notes WHERE agency_id = 'demo' AND line_key = ?1`).bind(lineKey).all<{ note: string }>()).results;

beforeAll(async () => {
  await seedDemo();
  const o = await createStaff(env, { agencyId: "demo", username: "note-owner", password: "owner-pass-123", role: "owner" });
  ownerCookie = await staffLogin(env, { username: "note-owner", password: "owner-pass-123", totpSecret: o.totpSecret });
  lineKey = `withdrawal:${await withdrawalMarkedPaid()}`;
  const line = (await reconciliationPage(env.DB, "demo", today())).lines.find((l) => l.key === lineKey);
  expect(line?.kind).toBe("difference");
});

describe("a note with a character no typed text may hold", () => {
  for (const [what, char] of [
    ["NUL", "\u0000"],
    ["U+202E (right-to-left override)", "\u202E"],
  ] as const) {
    it(`${what}: refused with the translated message, nothing saved, the typed text shown again`, async () => {
      const typed = `paid twice ${char}by the bank`;
      const res = await post({ day: today(), lineKey, note: typed });
      expect(res.status).toBe(400);
      const html = await shownOf(res);
      expect(html).toContain(lo.reconciliation.errors.NOTE_CHARACTERS);
      expect(html).toContain(`>${typed}</textarea>`);
      expect(await notes()).toEqual([]);
    });
  }

  it("U+FEFF (byte-order mark): removed like a zero-width character, the note saved without it and exported without it", async () => {
    const res = await post({ day: today(), lineKey, note: "\uFEFFpaid from the\uFEFF second account" });
    expect(res.status).toBe(302);
    expect(await notes()).toEqual([{ note: "paid from the second account" }]);
    const csv = new TextDecoder("utf-8", { ignoreBOM: true }).decode(
      await (await fetchApp(`http://localhost/admin/reconciliation/${today()}.csv`, { headers: { Cookie: ownerCookie } })).arrayBuffer(),
    );
    expect(csv.slice(1)).not.toContain("\uFEFF");
    expect(csv).toContain("paid from the second account");
  });

  it("line breaks typed in the note box are kept as spaces (not refused as control characters)", async () => {
    expect((await post({ day: today(), lineKey, note: "paid in two parts:\r\nfirst 50, then 50" })).status).toBe(302);
    expect(await notes()).toEqual([{ note: "paid in two parts: first 50, then 50" }]);
  });
});
