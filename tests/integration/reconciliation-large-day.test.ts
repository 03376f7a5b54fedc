import { beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { seedOwnAccountChannel } from "../setup/own-account";
import { createStaff, staffLogin } from "../setup/staff";
import type { AuditActor } from "../../workers/db/audit";
import { CSV_CHUNK_LINES, reconciliationCsv } from "../../workers/services/bank-in";

/**
 * A large bank day (decision 074) against real D1 in workerd, through the page and the CSV as
 * staff get them: a day of 800 transfers (credits applied, staff only, not credited, refunded,
 * one credited twice; debits matched to withdrawals marked paid, debits and withdrawals
 * without each other) written straight into the tables the derivation writes. The summary's
 * counts are the plan's; the pages, followed by their plain links, list every line once,
 * differences first; a filter lists one reason; the page stays small; a note sent from a later
 * page comes back to it; the CSV holds every line and is written a chunk of lines at a time.
 */

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const CHANNEL = "OWN-BIG";
const DAY = "2025-03-10";
const START = Date.parse(`${DAY}T00:00:00+07:00`);
const owner: AuditActor = { agencyId: "demo", staffId: "staff-big-owner", staffUsername: "big-owner", ip: "10.210.0.9", userAgent: "vitest" };

type Fate = "applied" | "staffOnly" | "noCredit" | "refunded" | "twice";
/** The plan of the day: what each credit transfer is, and how many debits and withdrawals meet or miss each other. */
const CREDITS = 700;
const fateOf = (i: number): Fate => (i === 5 ? "twice" : ((["noCredit", "staffOnly", "refunded"] as const)[i % 10] ?? "applied"));
const PAIRED = 90;
const DEBIT_ONLY = 10;
const WITHDRAWAL_ONLY = 10;
const count = (fate: Fate) => Array.from({ length: CREDITS }, (_, i) => fateOf(i)).filter((f) => f === fate).length;
const expected = {
  NO_CREDIT: count("noCredit"),
  STAFF_ONLY: count("staffOnly"),
  CREDITED_TWICE: 1,
  DEBIT_NO_WITHDRAWAL: DEBIT_ONLY,
  WITHDRAWAL_NO_DEBIT: WITHDRAWAL_ONLY,
  matchedCredits: CREDITS - count("noCredit") - count("staffOnly"),
  matchedDebits: PAIRED,
};
const totalLines = Object.values(expected).reduce((a, b) => a + b, 0);

/** The statements that put the plan in D1: what the derivation and the projections would have written. */
function seedStatements(): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  const iso = (ms: number) => new Date(ms).toISOString();
  for (let i = 0; i < CREDITS; i++) {
    const fate = fateOf(i);
    const id = `BIG${String(i).padStart(4, "0")}`;
    const at = START + 60_000 + i * 100_000;
    const amount = `${100_000 + i}.00`;
    const code = `DBIG${i}`;
    const credited = fate === "applied" || fate === "staffOnly" || fate === "twice";
    const queued = fate === "noCredit" || fate === "refunded";
    const source = fate === "staffOnly" ? "staff" : "statement";
    out.push(
      env.DB.prepare(
        `INSERT INTO bank_transactions (agency_id, channel_code, bank_transaction_id, direction, amount, bank_time, source, raw, outcome, order_code, recorded_at, credits, queue_id)
         VALUES ('demo', ?1, ?2, 'credit', ?3, ?4, ?5, ?6, ?7, ?8, ?4, ?9, ?10)`,
      ).bind(
        CHANNEL,
        id,
        amount,
        at,
        source,
        `BCEL ${id} +${amount}`,
        credited ? "APPLIED" : "NO_ORDER",
        credited ? code : null,
        fate === "twice" ? 2 : credited ? 1 : 0,
        queued ? `Q${id}` : null,
      ),
      env.DB.prepare(
        `INSERT INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, raw, link, recorded_at) VALUES ('demo', ?1, ?2, ?3, ?3, ?4, ?5, ?6, 'key', ?5)`,
      ).bind(CHANNEL, source, id, amount, at, `BCEL ${id} +${amount}`),
    );
    if (queued)
      out.push(
        env.DB.prepare(
          `INSERT INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount, status, channel_code, source, bank_time) VALUES (?1, 'demo', 'NO_ORDER', ?2, ?3, ?4, ?5, ?6, 'statement', ?7)`,
        ).bind(`Q${id}`, id, `demo:${CHANNEL}:${id}`, amount, fate === "refunded" ? "REFUNDED" : "OPEN", CHANNEL, at),
      );
    if (credited) {
      out.push(
        env.DB.prepare(
          `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, created_at, updated_at, channel_code, paid_minor, credit_minor, paid_at, projection_version)
           VALUES (?1, 'demo', 'big-player', 'betflix', ?2, '16.60', 'SUCCESS', ?3, ?3, ?4, ?5, 1660, ?3, 1)`,
        ).bind(code, amount, iso(at + 30_000), CHANNEL, (100_000 + i) * 100),
        env.DB.prepare(
          `INSERT INTO bank_credits (agency_id, code, kind, channel_code, source, witness_id, amount, for_order, credited_at) VALUES ('demo', ?1, 'order', ?2, ?3, ?4, ?5, ?1, ?6)`,
        ).bind(code, CHANNEL, source, id, amount, at + 30_000),
      );
      if (fate === "twice")
        out.push(
          env.DB.prepare(
            `INSERT INTO bank_credits (agency_id, code, kind, channel_code, source, witness_id, amount, credited_at) VALUES ('demo', ?1, 'hand', ?2, ?3, ?4, ?5, ?6)`,
          ).bind(`${code}M`, CHANNEL, source, id, amount, at + 60_000),
        );
    }
  }
  // withdrawals marked paid, each of its own amount; the first PAIRED with their debit a minute later
  for (let i = 0; i < PAIRED + WITHDRAWAL_ONLY; i++) {
    const marked = START + 120_000 + i * 600_000;
    const code = `WBIG${i}`;
    const amount = `${(i + 1) * 10_000}.00`;
    out.push(
      env.DB.prepare(
        `INSERT INTO withdraw_reviews (code, agency_id, decision, state, staff_username, decided_at) VALUES (?1, 'demo', 'PAID', 'DONE', 'big-owner', ?2)`,
      ).bind(code, marked),
      env.DB.prepare(
        `INSERT INTO withdraw_orders_view (code, agency_id, player_id, provider, credit, received, status, review, created_at, updated_at, credit_minor, paid_at, projection_version)
         VALUES (?1, 'demo', 'big-player', 'betflix', '10.00', ?2, 'SUCCESS', 'MANUAL', ?3, ?4, 1000, ?4, 1)`,
      ).bind(code, amount, iso(marked - 600_000), iso(marked)),
    );
    if (i < PAIRED)
      out.push(
        env.DB.prepare(
          `INSERT INTO bank_transactions (agency_id, channel_code, bank_transaction_id, direction, amount, bank_time, source, raw, outcome, recorded_at) VALUES ('demo', ?1, ?2, 'debit', ?3, ?4, 'statement', 'BCEL out', 'DEBIT', ?4)`,
        ).bind(CHANNEL, `OUT${i}`, amount, marked + 60_000),
      );
  }
  for (let i = 0; i < DEBIT_ONLY; i++)
    out.push(
      env.DB.prepare(
        `INSERT INTO bank_transactions (agency_id, channel_code, bank_transaction_id, direction, amount, bank_time, source, raw, outcome, recorded_at) VALUES ('demo', ?1, ?2, 'debit', '5.00', ?3, 'statement', 'ATM', 'DEBIT', ?3)`,
      ).bind(CHANNEL, `ATM${i}`, START + 3_600_000 + i * 60_000),
    );
  out.push(
    env.DB.prepare(
      `INSERT INTO statement_imports (id, agency_id, channel_code, file_name, bank_time_from, bank_time_to, credit_rows, debit_rows, imported_at) VALUES ('big-import', 'demo', ?1, 'bcel.csv', ?2, ?3, ?4, ?5, ?3)`,
    ).bind(CHANNEL, START, START + 86_399_000, CREDITS, PAIRED + DEBIT_ONLY),
  );
  return out;
}

let cashier = "";
let ownerCookie = "";

beforeAll(async () => {
  await seedDemo();
  await seedOwnAccountChannel("demo", CHANNEL, "derived");
  const o = await createStaff(env, { agencyId: "demo", username: "big-owner", password: "owner-pass-123", role: "owner" });
  const c = await createStaff(env, { agencyId: "demo", username: "big-cashier", password: "cashier-pass-123", role: "cashier" });
  ownerCookie = await staffLogin(env, { username: "big-owner", password: "owner-pass-123", totpSecret: o.totpSecret });
  cashier = await staffLogin(env, { username: "big-cashier", password: "cashier-pass-123", totpSecret: c.totpSecret });
  const statements = seedStatements();
  for (let i = 0; i < statements.length; i += 500) await env.DB.batch(statements.slice(i, i + 500));
});

const page = async (query: string, cookie = cashier) => {
  const res = await fetchApp(`http://localhost/admin/reconciliation?${query}`, { headers: { Cookie: cookie } });
  expect(res.status).toBe(200);
  return res.text();
};
const unescapeHref = (href: string) => href.replaceAll("&amp;", "&");
/** The page's lines in order: difference cards and the tables' rows, each with its kind. */
const linesOf = (html: string) => [...html.matchAll(/<(li|tr)[^>]*? data-key="([^"]+)"/g)].map((m) => ({ key: m[2]!, difference: m[1] === "li" }));
const nextOf = (html: string) => /data-testid="next-page"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*data-testid="next-page"/.exec(html);
const groupsOf = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/data-testid="group" data-kind="([^"]+)" data-reason="([^"]*)" data-direction="([^"]+)" data-n="(\d+)"/g)].map((m) => [
      m[2] || `${m[1]}-${m[3]}`,
      Number(m[4]),
    ]),
  );

describe("a bank day of 800 transfers", () => {
  it("summarises the day first: its lines by kind and reason are the plan's", async () => {
    const html = await page(`day=${DAY}`);
    expect(groupsOf(html)).toEqual({
      CREDITED_TWICE: expected.CREDITED_TWICE,
      NO_CREDIT: expected.NO_CREDIT,
      STAFF_ONLY: expected.STAFF_ONLY,
      DEBIT_NO_WITHDRAWAL: expected.DEBIT_NO_WITHDRAWAL,
      WITHDRAWAL_NO_DEBIT: expected.WITHDRAWAL_NO_DEBIT,
      "matched-credit": expected.matchedCredits,
      "matched-debit": expected.matchedDebits,
    });
    expect(html).toMatch(new RegExp(`data-testid="summary-bankCredits"[^>]*>.*?<td[^>]*>${CREDITS}</td>`));
    expect(html.indexOf('data-testid="reconciliation-groups"')).toBeLessThan(html.indexOf('id="lines"'));
    // one page of lines, not the day: small for a phone. Against the same page of a day without a line (the layout and
    // the translations every admin page carries), the 50 lines and the summary add about 60 KB, whatever the day's size
    expect(linesOf(html)).toHaveLength(50);
    const quiet = await page("day=2025-03-01");
    expect(linesOf(quiet)).toHaveLength(0);
    expect(html.length - quiet.length).toBeLessThan(80_000);
  });

  it("lists every line once over its pages, differences first, by its plain links", async () => {
    let html = await page(`day=${DAY}`);
    const seen: { key: string; difference: boolean }[] = [];
    for (let pages = 1; ; pages++) {
      const lines = linesOf(html);
      expect(lines.length).toBeLessThanOrEqual(50);
      seen.push(...lines);
      const next = nextOf(html);
      if (!next) break;
      expect(pages).toBeLessThan(40);
      html = await page(
        unescapeHref(next[1] ?? next[2]!)
          .split("?")[1]!
          .split("#")[0]!,
      );
    }
    expect(seen).toHaveLength(totalLines);
    expect(new Set(seen.map((l) => l.key)).size).toBe(totalLines);
    const firstMatched = seen.findIndex((l) => !l.difference);
    expect(seen.slice(firstMatched).every((l) => !l.difference)).toBe(true);
    expect(firstMatched).toBe(totalLines - expected.matchedCredits - expected.matchedDebits);
  });

  it("lists one reason through its summary link", async () => {
    const html = await page(`day=${DAY}&show=DEBIT_NO_WITHDRAWAL`);
    const lines = linesOf(html);
    expect(lines).toHaveLength(DEBIT_ONLY);
    expect(lines.every((l) => l.key.startsWith(`debit:${CHANNEL}:ATM`))).toBe(true);
    expect(html).toContain('data-testid="lines-filter"');
    expect(nextOf(html)).toBeNull();
  });

  it("a note sent from a later page comes back to that page", async () => {
    const first = await page(`day=${DAY}`, ownerCookie);
    const next = unescapeHref((nextOf(first)![1] ?? nextOf(first)![2])!);
    const after = new URLSearchParams(next.split("?")[1]!.split("#")[0]).get("after")!;
    const second = await page(`day=${DAY}&after=${encodeURIComponent(after)}`, ownerCookie);
    const line = linesOf(second).find((l) => l.difference)!;
    const res = await fetchApp("http://localhost/admin/reconciliation", {
      method: "POST",
      body: new URLSearchParams({ day: DAY, lineKey: line.key, note: "checked against the bank", after }),
      headers: { Cookie: ownerCookie, Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(new URLSearchParams(res.headers.get("Location")!.split("?")[1]).get("after")).toBe(after);
    expect(await page(`day=${DAY}&after=${encodeURIComponent(after)}`, ownerCookie)).toMatch(
      new RegExp(`data-key="${line.key}" data-reason="[A-Z_]+" data-noted="yes"`),
    );
  });

  it("exports every line as CSV, written a chunk of lines at a time", async () => {
    const res = await fetchApp(`http://localhost/admin/reconciliation/${DAY}.csv`, { headers: { Cookie: cashier } });
    expect(res.status).toBe(200);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
    const rows = text.slice(1).trim().split("\r\n");
    expect(rows).toHaveLength(totalLines + 1);
    for (const id of ["BIG0000", "BIG0699", "OUT89", "ATM9", "WBIG99"]) expect(text).toContain(id);
    // each credit line carries its transfer's raw text, read with its chunk
    expect(rows.filter((r) => /BCEL BIG\d{4} \+/.test(r))).toHaveLength(CREDITS + expected.CREDITED_TWICE);

    const stream = await reconciliationCsv(env.DB, owner, DAY, (key) => key);
    const reader = stream.getReader();
    const chunks: string[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(new TextDecoder().decode(read.value));
    // the header, then one chunk per CSV_CHUNK_LINES lines
    expect(chunks).toHaveLength(1 + Math.ceil(totalLines / CSV_CHUNK_LINES));
    expect(chunks.slice(1).map((c) => c.split("\r\n").length - 1)).toEqual([CSV_CHUNK_LINES, totalLines - CSV_CHUNK_LINES]);
  });
});
