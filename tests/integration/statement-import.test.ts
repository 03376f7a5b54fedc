import { beforeAll, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { afterRedirect, fetchApp, seedDemo, shownOf } from "../setup/seed";
import { playerWithBank, postDeposit, providerBalance } from "../setup/money";
import { seedOwnAccountChannel } from "../setup/own-account";
import { createStaff, staffLogin } from "../setup/staff";
import type { AuditActor } from "../../workers/db/audit";
import { applyStatement, saveStatementMapping, statementPage, tryStatementMapping, uploadStatement, type MappingFields } from "../../workers/services/bank-in";
import lo from "../../locales/lo/admin.json";

/**
 * Statement import (decision 016) against real D1 and real wallets in workerd: papaparse
 * reading a bank's CSV (BOM, ";" separator, quoted fields, Lao and Thai text, a preamble),
 * the first import's mapping and preview, the matcher's review, confirm, the same file
 * again (nothing twice), malformed and debit rows, an unmappable file, and the route's
 * multipart form (JavaScript off).
 */

// the first test builds the wallets and the sandboxes: slow on a loaded machine
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const CHANNEL = "OWN-BCEL";
const cashier: AuditActor = { agencyId: "demo", staffId: "staff-st", staffUsername: "cashier-st", ip: "10.201.0.1", userAgent: "vitest" };
const enc = (s: string) => new TextEncoder().encode(s);

beforeAll(async () => {
  await seedDemo();
  await seedOwnAccountChannel("demo", CHANNEL, "derived");
  await seedOwnAccountChannel("demo", "OWN-LDB", "static");
});

/** A bank time as a Lao bank writes it (DD/MM/YYYY HH:mm:ss, Vientiane time). */
function bankDate(ms: number): string {
  const d = new Date(ms + 7 * 3600_000);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** "100037.00" -> "100,037.00" */
const grouped = (amount: string) => amount.replace(/\B(?=(\d{3})+(?!\d))(?=.*\.)/g, ",");

async function openOwnOrder(amount: string) {
  const p = await playerWithBank();
  const res = await postDeposit(p.cookie, { channelCode: CHANNEL, amount, provider: "betflix" });
  expect(res.status).toBe(302);
  const order = (await p.wallet.openDepositOrder(Date.now()))!;
  expect(order.payAmount).toBeTruthy();
  return { ...p, order };
}

const SPLIT: MappingFields = {
  date: "ວັນທີ",
  description: "ລາຍລະອຽດ",
  amountMode: "split",
  debit: "ຖອນ",
  credit: "ຝາກ",
  dateFormat: "DD/MM/YYYY HH:mm",
  numberFormat: "1,234.56",
};

function statementCsv(payAmount: string, now: number): string {
  const at = bankDate(now + 2000);
  return (
    "\ufeff" +
    [
      `"BCEL One; ບັນຊີ 0101000123456";;;;`,
      `ວັນທີ;ລາຍລະອຽດ;ຖອນ;ຝາກ;ຍອດເຫຼືອ`,
      `${at};"ໂອນເງິນຈາກ ທ້າວ ສົມ; ""BCEL One""";;"${grouped(payAmount)}";"1,000,000.00"`,
      `${at};"โอนเงิน จาก นาย ก";;"7,777.00";"1,007,777.00"`,
      `${at};ATM;"50,000.00";;"957,777.00"`,
      `32/13/2026 10:00;ວັນທີຜິດ;;"1,000.00";`,
      `${at};ຈຳນວນຜິດ;;"100.037";`,
      ``,
    ].join("\r\n")
  );
}

describe("statement import: first import of a channel", () => {
  let upload = "";
  let player: Awaited<ReturnType<typeof openOwnOrder>>;
  let csv = "";

  it("keeps the upload and asks for the mapping, showing the first rows as they are (papaparse: BOM, ;, quotes, Lao/Thai)", async () => {
    player = await openOwnOrder("100000");
    csv = statementCsv(player.order.payAmount!, Date.now());
    const done = await uploadStatement(env.DB, cashier, { channelCode: CHANNEL, fileName: "bcel.csv", bytes: enc(csv) });
    expect(done).toMatchObject({ ok: true, mapped: false });
    upload = done.ok ? done.id : "";
    const page = await statementPage(env, "demo", upload, { remap: false, headerRow: null });
    expect(page?.step).toBe("map");
    if (page?.step !== "map") return;
    expect(page.headerRow).toBe(1);
    expect(page.header).toEqual(["ວັນທີ", "ລາຍລະອຽດ", "ຖອນ", "ຝາກ", "ຍອດເຫຼືອ"]);
    expect(page.rows[0][0]).toBe("BCEL One; ບັນຊີ 0101000123456");
    expect(page.rows[2][1]).toBe('ໂອນເງິນຈາກ ທ້າວ ສົມ; "BCEL One"');
    expect(page.saved).toBe(false);
  });

  it("reads a preview with the mapping as filled in, with a clear problem per bad row; nothing saved", async () => {
    const incomplete = await tryStatementMapping(env.DB, "demo", upload, { ...SPLIT, credit: null }, 1);
    expect(incomplete).toEqual({ ok: false, mappingProblems: ["CREDIT_REQUIRED"] });
    const tried = await tryStatementMapping(env.DB, "demo", upload, SPLIT, 1);
    expect(tried.ok).toBe(true);
    if (!tried.ok) return;
    expect(tried.rows.map((r) => (r.kind === "error" ? r.problem : r.kind))).toEqual(["credit", "credit", "debit", "DATE_UNREADABLE", "AMOUNT_UNREADABLE"]);
    expect(tried.rows[1]).toMatchObject({ kind: "credit", amount: "7777.00", description: "โอนเงิน จาก นาย ก" });
    expect((await statementPage(env, "demo", upload, { remap: false, headerRow: null }))?.step).toBe("map");
  });

  it("saves the mapping (audited), then shows which order each credit row matches, writing nothing", async () => {
    expect((await saveStatementMapping(env.DB, cashier, upload, SPLIT, 1)).ok).toBe(true);
    const audit = await env.DB.prepare(`SELECT after_json FROM audit_log WHERE action = 'statement.mapping' AND target = ?1`)
      .bind(CHANNEL)
      .first<{ after_json: string }>();
    expect(JSON.parse(audit!.after_json)).toMatchObject({ date: "ວັນທີ", credit: "ຝາກ", amountMode: "split" });
    const page = await statementPage(env, "demo", upload, { remap: false, headerRow: null });
    expect(page?.step).toBe("review");
    if (page?.step !== "review") return;
    expect(page.applied).toBe(false);
    const outcomes = page.rows.map((r) => (r.kind === "credit" ? r.outcome : r.kind === "error" ? r.problem : r.kind));
    expect(outcomes).toEqual([
      { kind: "match", orderCode: player.order.code, username: player.username },
      { kind: "none", reason: "NO_ORDER" },
      "debit",
      "DATE_UNREADABLE",
      "AMOUNT_UNREADABLE",
    ]);
    const recorded = await env.DB.prepare(`SELECT COUNT(*) AS n FROM bank_transactions WHERE agency_id = 'demo'`).first<{ n: number }>();
    expect(recorded!.n).toBe(0);
  });

  it("confirm applies the match (the deposit turns SUCCESS), queues the credit that matched nothing, skips debit and bad rows; audited", async () => {
    const done = await applyStatement(env, cashier, upload);
    expect(done).toEqual({ ok: true, summary: { applied: 1, duplicate: 0, unmatched: 1, debit: 1, errors: 2 } });
    await player.wallet.runDueWork();
    expect((await player.wallet.getDeposit(player.order.code))!.status).toBe("SUCCESS");
    expect(await providerBalance("betflix", player.username)).not.toBe("0.00");
    const queued = await env.DB.prepare(`SELECT amount FROM unmatched_payments WHERE agency_id = 'demo' AND amount = '7777.00'`).first<{ amount: string }>();
    expect(queued).toBeTruthy();
    // the debit row is kept as a bank debit, and the import's bank-time range is recorded (for reconciliation, decision 047)
    const debits = await env.DB.prepare(`SELECT source, outcome FROM bank_transactions WHERE agency_id = 'demo' AND channel_code = ?1 AND direction = 'debit'`)
      .bind(CHANNEL)
      .all();
    expect(debits.results).toEqual([{ source: "statement", outcome: "DEBIT" }]);
    const range = await env.DB.prepare(
      `SELECT channel_code, credit_rows, debit_rows, bank_time_from <= bank_time_to AS ordered FROM statement_imports WHERE id = ?1`,
    )
      .bind(upload)
      .first();
    expect(range).toEqual({ channel_code: CHANNEL, credit_rows: 2, debit_rows: 1, ordered: 1 });
    const audit = await env.DB.prepare(`SELECT staff_username, after_json FROM audit_log WHERE action = 'statement.import' AND target = ?1`)
      .bind(CHANNEL)
      .first<{ staff_username: string; after_json: string }>();
    expect(audit!.staff_username).toBe("cashier-st");
    expect(JSON.parse(audit!.after_json)).toMatchObject({ file: "bcel.csv", applied: 1, unmatched: 1, debit: 1, errors: 2 });
    const page = await statementPage(env, "demo", upload, { remap: false, headerRow: null });
    expect(page?.step === "review" && page.applied).toBe(true);
    expect(page?.step === "review" && page.rows[0].kind === "credit" && page.rows[0].outcome).toEqual({ kind: "applied", orderCode: player.order.code });
  });

  it("the same file imported again uses the saved mapping and applies nothing twice (duplicates shown as such)", async () => {
    const balance = await providerBalance("betflix", player.username);
    const again = await uploadStatement(env.DB, cashier, { channelCode: CHANNEL, fileName: "bcel-again.csv", bytes: enc(csv) });
    expect(again).toMatchObject({ ok: true, mapped: true });
    const id = again.ok ? again.id : "";
    const page = await statementPage(env, "demo", id, { remap: false, headerRow: null });
    expect(page?.step === "review" && page.rows.filter((r) => r.kind === "credit").map((r) => r.kind === "credit" && r.outcome.kind)).toEqual([
      "duplicate",
      "duplicate",
    ]);
    expect(await applyStatement(env, cashier, id)).toEqual({ ok: true, summary: { applied: 0, duplicate: 2, unmatched: 0, debit: 1, errors: 2 } });
    await player.wallet.runDueWork();
    expect(await providerBalance("betflix", player.username)).toBe(balance);
    const queued = await env.DB.prepare(`SELECT COUNT(*) AS n FROM unmatched_payments WHERE agency_id = 'demo' AND amount = '7777.00'`).first<{ n: number }>();
    expect(queued!.n).toBe(1);
  });

  it("staff can change the mapping: the map step shows the saved one", async () => {
    const page = await statementPage(env, "demo", upload, { remap: true, headerRow: null });
    expect(page?.step === "map" && page.saved && page.fields).toMatchObject({ credit: "ຝາກ", debit: "ຖອນ" });
  });
});

describe("statement import: two staff confirm the same statement at once", () => {
  it("one outcome: the order is applied once, the other confirm sees it as a duplicate", async () => {
    const p = await openOwnOrder("300000");
    const csv = statementCsv(p.order.payAmount!, Date.now());
    const a = await uploadStatement(env.DB, cashier, { channelCode: CHANNEL, fileName: "a.csv", bytes: enc(csv) });
    const b = await uploadStatement(
      env.DB,
      { ...cashier, staffId: "staff-st2", staffUsername: "owner-st" },
      { channelCode: CHANNEL, fileName: "b.csv", bytes: enc(csv) },
    );
    const [ra, rb] = await Promise.all([
      applyStatement(env, cashier, a.ok ? a.id : ""),
      applyStatement(env, { ...cashier, staffId: "staff-st2", staffUsername: "owner-st" }, b.ok ? b.id : ""),
    ]);
    const summaries = [ra, rb].map((r) => (r.ok ? r.summary : null));
    // the order's row: applied by exactly one of them; the 7,777 row: queued by one, duplicate for the other
    expect(summaries.reduce((n, s) => n + (s?.applied ?? 0), 0)).toBe(1);
    expect(summaries.reduce((n, s) => n + (s?.duplicate ?? 0), 0) + summaries.reduce((n, s) => n + (s?.unmatched ?? 0), 0)).toBe(3);
    await p.wallet.runDueWork();
    expect((await p.wallet.getDeposit(p.order.code))!.status).toBe("SUCCESS");
    const recorded = await env.DB.prepare(`SELECT COUNT(*) AS n FROM bank_transactions WHERE agency_id = 'demo' AND amount = ?1`)
      .bind(p.order.payAmount)
      .first<{ n: number }>();
    expect(recorded!.n).toBe(1);
  });
});

describe("statement import: files that cannot be mapped", () => {
  it("refuses an empty, a binary and a one-column file, and an unknown channel; stores nothing", async () => {
    const before = await env.DB.prepare(`SELECT COUNT(*) AS n FROM statement_uploads`).first<{ n: number }>();
    expect(await uploadStatement(env.DB, cashier, { channelCode: CHANNEL, fileName: "x.csv", bytes: new Uint8Array() })).toEqual({
      ok: false,
      problem: "EMPTY",
    });
    expect(await uploadStatement(env.DB, cashier, { channelCode: CHANNEL, fileName: "x.xlsx", bytes: new Uint8Array([0x50, 0x4b, 3, 4, 0xff, 0, 1]) })).toEqual(
      { ok: false, problem: "NOT_TEXT" },
    );
    expect(await uploadStatement(env.DB, cashier, { channelCode: CHANNEL, fileName: "x.csv", bytes: enc("hello\nworld\n") })).toEqual({
      ok: false,
      problem: "NO_COLUMNS",
    });
    expect(await uploadStatement(env.DB, cashier, { channelCode: "NOPE", fileName: "x.csv", bytes: enc("a,b\n1,2") })).toEqual({
      ok: false,
      problem: "UNKNOWN_CHANNEL",
    });
    const after = await env.DB.prepare(`SELECT COUNT(*) AS n FROM statement_uploads`).first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });

  it("a file lacking the saved mapping's columns is not applied: the map step names the missing columns", async () => {
    const done = await uploadStatement(env.DB, cashier, {
      channelCode: CHANNEL,
      fileName: "other.csv",
      bytes: enc("Date,Memo,Amount\n24/11/2026 10:00,x,100\n"),
    });
    expect(done).toMatchObject({ ok: true, mapped: false });
    const id = done.ok ? done.id : "";
    const page = await statementPage(env, "demo", id, { remap: false, headerRow: null });
    expect(page?.step === "map" && page.missing).toEqual(["ວັນທີ", "ລາຍລະອຽດ", "ຝາກ", "ຖອນ"]);
    expect(await applyStatement(env, cashier, id)).toEqual({ ok: false, problem: "NOT_MAPPED" });
    expect(await tryStatementMapping(env.DB, "demo", id, { ...SPLIT, date: "Date" }, 0)).toEqual({ ok: false, mappingProblems: ["UNKNOWN_COLUMN"] });
  });

  it("a bank transaction id column is used as the id; another agency cannot see an upload", async () => {
    const p = await openOwnOrder("200000");
    const at = bankDate(Date.now() + 2000);
    const csv = `Txn Date,Ref No,Narration,Amount,Dr/Cr\n${at},FT26112400001,transfer ${p.order.code},${p.order.payAmount},CR\n`;
    const done = await uploadStatement(env.DB, cashier, { channelCode: "OWN-LDB", fileName: "ldb.csv", bytes: enc(csv) });
    const id = done.ok ? done.id : "";
    expect(await statementPage(env, "other", id, { remap: false, headerRow: null })).toBeNull();
    const fields: MappingFields = {
      date: "Txn Date",
      transactionId: "Ref No",
      description: "Narration",
      amount: "Amount",
      indicator: "Dr/Cr",
      creditValue: "CR",
      amountMode: "indicator",
      dateFormat: "DD/MM/YYYY HH:mm",
      numberFormat: "1,234.56",
    };
    expect((await saveStatementMapping(env.DB, cashier, id, fields, 0)).ok).toBe(true);
    const page = await statementPage(env, "demo", id, { remap: false, headerRow: null });
    // the order is of channel OWN-BCEL: on OWN-LDB this amount matches no order
    expect(page?.step === "review" && page.rows[0]).toMatchObject({ kind: "credit", bankTransactionId: "FT26112400001", reference: p.order.code });
  });
});

describe("statement import: the route (multipart form, JavaScript off)", () => {
  it("a cashier uploads, reviews and confirms through plain forms", async () => {
    await createStaff(env, { agencyId: "demo", username: "st-cashier", password: "cashier-pass-123", role: "cashier" });
    const s = await createStaffLogin();
    const p = await openOwnOrder("150000");
    const form = new FormData();
    form.set("intent", "upload");
    form.set("channel", CHANNEL);
    form.set("file", new File([statementCsv(p.order.payAmount!, Date.now())], "route.csv", { type: "text/csv" }));
    const res = await fetchApp("http://localhost/admin/deposits/import", {
      method: "POST",
      body: form,
      headers: { Cookie: s, Origin: "http://localhost" },
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    expect(location).toMatch(/^\/admin\/deposits\/import\?upload=/);
    const page = await fetchApp(`http://localhost${location}`, { headers: { Cookie: s } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-step="review"');
    expect(html).toContain(p.order.code);
    const upload = new URL(location, "http://localhost").searchParams.get("upload")!;
    const apply = await fetchApp("http://localhost/admin/deposits/import", {
      method: "POST",
      body: new URLSearchParams({ intent: "apply", upload }),
      headers: { Cookie: s, Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    expect(apply.status).toBe(302);
    await p.wallet.runDueWork();
    expect((await p.wallet.getDeposit(p.order.code))!.status).toBe("SUCCESS");
  });

  it("an unmappable upload answers 400 with the message, and no staff session means the login page", async () => {
    const s = await createStaffLogin();
    const form = new FormData();
    form.set("intent", "upload");
    form.set("channel", CHANNEL);
    form.set("file", new File(["just one column\n"], "bad.csv", { type: "text/csv" }));
    const res = await fetchApp("http://localhost/admin/deposits/import", {
      method: "POST",
      body: form,
      headers: { Cookie: s, Origin: "http://localhost" },
      redirect: "manual",
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('data-testid="statement-error"');
    const anonymous = await fetchApp("http://localhost/admin/deposits/import", { redirect: "manual" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toContain("/admin/login");
  });
});

async function createStaffLogin(): Promise<string> {
  const row = await env.DB.prepare(`SELECT totp_secret FROM staff WHERE agency_id = 'demo' AND username = 'st-cashier'`).first<{ totp_secret: string }>();
  return staffLogin(env, { username: "st-cashier", password: "cashier-pass-123", totpSecret: row!.totp_secret });
}

describe("statement import page: each step as the cashier sees it", () => {
  const FRESH = "OWN-ST3";
  const PAGE = "http://localhost/admin/deposits/import";
  let cookie = "";
  let upload = "";
  let freshCsv = "";
  let player: Awaited<ReturnType<typeof playerWithBank>> & { order: { code: string; payAmount?: string } };

  beforeAll(async () => {
    await seedOwnAccountChannel("demo", FRESH, "derived");
    const s = await createStaff(env, { agencyId: "demo", username: "st-page", password: "cashier-pass-456", role: "cashier" });
    cookie = await staffLogin(env, { username: "st-page", password: "cashier-pass-456", totpSecret: s.totpSecret });
  }, 120_000);

  const get = (query: string) => fetchApp(`${PAGE}${query}`, { headers: { Cookie: cookie }, redirect: "manual" });
  // the forms post to the page they are on (its ?upload=...), whose loader renders the answer
  const postFields = (fields: Record<string, string>) =>
    fetchApp(fields.upload ? `${PAGE}?upload=${encodeURIComponent(fields.upload)}` : PAGE, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { Cookie: cookie, Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
  const postFile = (channel: string, file: File) => {
    const form = new FormData();
    form.set("intent", "upload");
    form.set("channel", channel);
    form.set("file", file);
    return fetchApp(PAGE, { method: "POST", body: form, headers: { Cookie: cookie, Origin: "http://localhost" }, redirect: "manual" });
  };
  const landing = (res: Response) => afterRedirect(res, cookie);
  const mapping = (fields: MappingFields, extra: Record<string, string> = {}) =>
    Object.fromEntries([...Object.entries(fields).filter(([, v]) => v !== null && v !== undefined), ...Object.entries(extra)]) as Record<string, string>;
  const rowsOf = (html: string) => [...html.matchAll(/data-row="(\d+)" data-kind="(\w+)" data-outcome="(\w+)"/g)].map((m) => `${m[2]}:${m[3]}`);

  it("the upload step lists every own-account channel, saying which already has a mapping", async () => {
    const html = await shownOf(await get(""));
    expect(html).toContain('data-step="upload"');
    const option = (code: string) => new RegExp(`<option value="${code}"[^>]*>.*?</option>`).exec(html)?.[0] ?? "";
    expect(option(CHANNEL)).toContain(lo.statements.mapped);
    expect(option(FRESH)).toContain(lo.statements.notMappedYet);
  });

  it("an empty file or a channel that is not an own account is refused with the reason; nothing kept", async () => {
    const before = await env.DB.prepare(`SELECT COUNT(*) AS n FROM statement_uploads`).first<{ n: number }>();
    const empty = await postFile(FRESH, new File([], "empty.csv", { type: "text/csv" }));
    expect(empty.status).toBe(400);
    expect(await shownOf(empty)).toContain(lo.statements.fileProblems.EMPTY);
    const unknown = await postFile("BCEL-QR", new File(["a,b\n1,2\n"], "x.csv", { type: "text/csv" }));
    expect(unknown.status).toBe(400);
    expect(await shownOf(unknown)).toContain(lo.statements.fileProblems.UNKNOWN_CHANNEL);
    expect((await env.DB.prepare(`SELECT COUNT(*) AS n FROM statement_uploads`).first<{ n: number }>())!.n).toBe(before!.n);
  });

  it("a first import asks for the mapping: the rows as they are, the header row marked, no saved mapping to keep", async () => {
    const p = await playerWithBank();
    expect((await postDeposit(p.cookie, { channelCode: FRESH, amount: "110000", provider: "betflix" })).status).toBe(302);
    player = { ...p, order: (await p.wallet.openDepositOrder(Date.now()))! };
    freshCsv = statementCsv(player.order.payAmount!, Date.now());
    const res = await postFile(FRESH, new File([freshCsv], "fresh.csv", { type: "text/csv" }));
    const { location, html } = await landing(res);
    upload = new URL(location, "http://localhost").searchParams.get("upload")!;
    expect(html).toContain('data-step="map"');
    expect(html).toContain('data-testid="statement-raw"');
    // row 2 of the file (index 1) is its header row
    expect(/<tr data-header="true"><th scope="row"[^>]*>(\d+)<\/th>/.exec(html)?.[1]).toBe("2");
    expect(html).not.toContain(lo.statements.keepMapping);
    expect(html).not.toContain('data-testid="statement-missing"');
  });

  it("confirming before any mapping sends the cashier back to map the columns; nothing applied", async () => {
    const { location, html } = await landing(await postFields({ intent: "apply", upload }));
    expect(location).toBe(`/admin/deposits/import?upload=${upload}&remap=1`);
    expect(html).toContain(lo.statements.notMapped);
    const recorded = await env.DB.prepare(`SELECT COUNT(*) AS n FROM bank_transactions WHERE channel_code = ?1`).bind(FRESH).first<{ n: number }>();
    expect(recorded!.n).toBe(0);
  });

  it("trying an incomplete mapping names what is missing (400); a complete one shows each row as read", async () => {
    const incomplete = await postFields(mapping({ ...SPLIT, credit: null, date: null }, { intent: "try", upload, headerRow: "1" }));
    expect(incomplete.status).toBe(400);
    const problems = await shownOf(incomplete);
    expect(problems).toContain('data-testid="mapping-errors"');
    expect(problems).toContain(lo.statements.mappingProblems.CREDIT_REQUIRED);
    expect(problems).toContain(lo.statements.mappingProblems.DATE_REQUIRED);
    expect(problems).not.toContain('data-testid="mapping-preview"');

    const tried = await postFields(mapping(SPLIT, { intent: "try", upload, headerRow: "1" }));
    expect(tried.status).toBe(200);
    const html = await shownOf(tried);
    expect(html).toContain('data-testid="mapping-preview"');
    expect(html).toContain(lo.statements.readTitle.replace("{{count}}", "5"));
    expect(rowsOf(html)).toEqual(["credit:read", "credit:read", "debit:debit", "error:error", "error:error"]);
    expect(html).toContain(lo.statements.debitSkipped);
    expect(html).toContain(lo.statements.readOk);
    // trying saves nothing: the upload still asks for its mapping
    expect(await shownOf(await get(`?upload=${upload}`))).toContain('data-step="map"');
  });

  it("saving the mapping leads to the review: the order's row matches it, the other credit matches nothing", async () => {
    const refused = await postFields(mapping({ ...SPLIT, debit: "ຝາກ" }, { intent: "save", upload, headerRow: "1" }));
    expect(refused.status).toBe(400);
    expect(await shownOf(refused)).toContain(lo.statements.mappingProblems.SAME_COLUMN_TWICE);

    const { location, html } = await landing(await postFields(mapping(SPLIT, { intent: "save", upload, headerRow: "1" })));
    expect(location).toBe(`/admin/deposits/import?upload=${upload}`);
    expect(html).toContain(lo.statements.mappingSaved);
    expect(html).toContain('data-step="review"');
    expect(rowsOf(html)).toEqual(["credit:match", "credit:none", "debit:debit", "error:error", "error:error"]);
    expect(html).toContain(lo.statements.outcomes.match.replace("{{code}}", player.order.code).replace("{{username}}", player.username));
    expect(html).toContain(lo.statements.outcomes.none.replace("{{reason}}", lo.statements.reasons.NO_ORDER));
    expect(html).toContain('data-testid="statement-apply"');
  });

  it("changing the mapping shows the saved one with a way to keep it; another header row can be chosen", async () => {
    const remap = await shownOf(await get(`?upload=${upload}&remap=1`));
    expect(remap).toContain('data-step="map"');
    expect(remap).toContain(lo.statements.keepMapping);
    const other = await shownOf(await get(`?upload=${upload}&remap=1&header=0`));
    expect(/<tr data-header="true"><th scope="row"[^>]*>(\d+)<\/th>/.exec(other)?.[1]).toBe("1");
  });

  it("confirming applies the match and queues the rest; the page then shows what was done, with no second confirm", async () => {
    const { html } = await landing(await postFields({ intent: "apply", upload }));
    expect(html).toContain(
      lo.statements.appliedSummary
        .replace("{{applied}}", "1")
        .replace("{{duplicate}}", "0")
        .replace("{{unmatched}}", "1")
        .replace("{{debit}}", "1")
        .replace("{{errors}}", "2"),
    );
    expect(html).toContain(lo.statements.appliedIntro.replace("{{file}}", "fresh.csv").replace("{{channel}}", FRESH));
    expect(rowsOf(html)).toEqual(["credit:applied", "credit:unmatched", "debit:debit", "error:error", "error:error"]);
    expect(html).toContain(`href="/admin/deposits/${player.order.code}"`);
    expect(html).toContain(lo.statements.outcomes.unmatched.replace("{{reason}}", lo.statements.reasons.NO_ORDER));
    expect(html).not.toContain('data-testid="statement-apply"');
    await player.wallet.runDueWork();
    expect((await player.wallet.getDeposit(player.order.code))!.status).toBe("SUCCESS");
  });

  it("the same file again: every credit row shown as already recorded", async () => {
    const { html } = await landing(await postFile(FRESH, new File([freshCsv], "again.csv", { type: "text/csv" })));
    expect(html).toContain('data-step="review"');
    expect(rowsOf(html)).toEqual(["credit:duplicate", "credit:duplicate", "debit:debit", "error:error", "error:error"]);
    expect(html).toContain(lo.statements.outcomes.duplicate);
  });

  it("a file lacking the saved mapping's columns names them; a header row with no rows after it is refused", async () => {
    const { location, html } = await landing(
      await postFile(FRESH, new File(["Date,Memo,Amount\n24/11/2026 10:00,x,100\n"], "other.csv", { type: "text/csv" })),
    );
    expect(html).toContain('data-testid="statement-missing"');
    const id = new URL(location, "http://localhost").searchParams.get("upload")!;
    const unknownColumn = await postFields(mapping(SPLIT, { intent: "try", upload: id, headerRow: "0" }));
    expect(unknownColumn.status).toBe(400);
    expect(await shownOf(unknownColumn)).toContain(lo.statements.mappingProblems.UNKNOWN_COLUMN);
    const headerOnly = await landing(await postFile(FRESH, new File(["ວັນທີ;ລາຍລະອຽດ;ຖອນ;ຝາກ;ຍອດເຫຼືອ\n"], "header.csv", { type: "text/csv" })));
    const headerId = new URL(headerOnly.location, "http://localhost").searchParams.get("upload")!;
    const noRows = await postFields(mapping(SPLIT, { intent: "try", upload: headerId, headerRow: "0" }));
    expect(noRows.status).toBe(400);
    expect(await shownOf(noRows)).toContain(lo.statements.fileProblems.NO_DATA_ROWS);
  });

  it("an upload of no one, or an unknown request, is not found / refused", async () => {
    expect((await get("?upload=no-such-upload")).status).toBe(404);
    expect((await postFields(mapping(SPLIT, { intent: "try", upload: "no-such-upload", headerRow: "1" }))).status).toBe(404);
    expect((await postFields({ intent: "apply", upload: "no-such-upload" })).status).toBe(404);
    expect((await postFields({ intent: "delete-everything", upload })).status).toBe(400);
  });
});
