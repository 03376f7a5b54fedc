import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { markupOf } from "../setup/lite-script";
import { createStaff, staffLogin } from "../setup/staff";
import { openOrder, payQr, playerWithBank, postDeposit, pumpDeliveries, qrPayloadOf } from "../setup/money";
import { createPromotion, type PromotionInput } from "../../workers/services/promotions";
import { vientianeDate } from "../../workers/core/report-range";

/**
 * The reports page and its CSV exports through the real Worker (decision 059): the role is
 * enforced on the page's parts and on the CSV links themselves, every export is audited, a
 * CSV carries the BOM, translated headers and the same figures as the page, and formula-like
 * text (a promotion titled "=...") is neutralised.
 */
let owner = "";
let cashier = "";
const today = vientianeDate(new Date());
const query = `from=${today}&to=${today}&grouping=day`;

async function get(path: string, cookie: string) {
  return fetchApp(`http://localhost${path}`, { headers: { Cookie: cookie, "CF-Connecting-IP": "10.88.0.1" } });
}

async function exportsAudited(table: string) {
  const { results } = await env.DB.prepare(
    `SELECT staff_username, target, after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'report.export' AND target = ?1 ORDER BY id`,
  )
    .bind(table)
    .all<{ staff_username: string; target: string; after_json: string }>();
  return results;
}

beforeAll(async () => {
  await seedDemo();
  const o = await createStaff(env, { agencyId: "demo", username: "rep-owner", password: "owner-pass-123", role: "owner" });
  const c = await createStaff(env, { agencyId: "demo", username: "rep-cashier", password: "cashier-pass-123", role: "cashier" });
  owner = await staffLogin(env, { username: "rep-owner", password: "owner-pass-123", totpSecret: o.totpSecret });
  cashier = await staffLogin(env, { username: "rep-cashier", password: "cashier-pass-123", totpSecret: c.totpSecret });

  // One settled deposit today: 60,000 kip -> 100 credit at betflix.
  const p = await playerWithBank();
  expect((await postDeposit(p.cookie, { amount: "60000", provider: "betflix" })).status).toBe(302);
  const order = await openOrder(p.cookie);
  expect((await payQr(await qrPayloadOf(p.wallet, order!.code))).status).toBe(200);
  await pumpDeliveries();
  await p.wallet.runDueWork();
  expect((await p.wallet.getDeposit(order!.code))!.status).toBe("SUCCESS");

  // A promotion whose title a spreadsheet would run as a formula.
  const created = await createPromotion(env.DB, { agencyId: "demo", staffId: null, staffUsername: "rep-owner" }, {
    titleLo: '=HYPERLINK("http://evil.example","x")',
    bonusKind: "FIXED",
    bonusValue: "5",
    creditThreshold: "10",
    turnoverMultiple: "0",
    providers: ["askmebet"],
    status: "ACTIVE",
    sortOrder: "0",
  } as PromotionInput);
  expect(created.ok).toBe(true);

  // Provider figures of today as the daily job stores them: the agency lost 150.25 at gclub
  // (a negative win/loss), and betflix could not be read.
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO provider_daily_stats (agency_id, provider, day, status, turnover_minor, win_loss_minor, reason, collected_at) VALUES ('demo', 'gclub', ?1, 'ok', 1234500, -15025, NULL, ?2)`,
    ).bind(today, new Date().toISOString()),
    env.DB.prepare(
      `INSERT INTO provider_daily_stats (agency_id, provider, day, status, turnover_minor, win_loss_minor, reason, collected_at) VALUES ('demo', 'betflix', ?1, 'unavailable', NULL, NULL, 'timeout', ?2)`,
    ).bind(today, new Date().toISOString()),
  ]);
}, 90_000);

describe("the reports page", () => {
  it("an owner sees money, players, promotions and providers with a chart (SVG) and a table each", async () => {
    const res = await get(`/admin/reports?${query}`, owner);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const part of ["report-money", "report-players", "report-promotions", "report-providers"]) expect(html).toContain(`data-testid="${part}"`);
    expect(html).toContain('data-testid="chart-money"');
    expect(html).toMatch(/<svg[^>]*role="img"/);
    expect(html).toContain('data-testid="table-money"');
    // 60,000 kip in the Lao format, in the table and in a bar's title
    expect(html).toContain("₭60.000");
    expect(html).toContain(`href="/admin/reports/players.csv?${query.replaceAll("&", "&amp;")}"`);
  });

  it("a cashier's page holds the money part only", async () => {
    const html = await (await get(`/admin/reports?${query}`, cashier)).text();
    expect(html).toContain('data-testid="report-money"');
    for (const part of ["report-players", "report-promotions", "report-providers", "players.csv", "promotions.csv", "providers.csv"])
      expect(html).not.toContain(part);
  });

  it("an invalid range is a translated message and the form, no figures", async () => {
    const res = await get("/admin/reports?from=2026-02-30&to=2026-03-01", owner);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-error="RANGE_INVALID"');
    expect(markupOf(html)).toContain("ຊ່ວງວັນທີບໍ່ຖືກຕ້ອງ");
    expect(html).toContain('data-testid="report-range-form"');
    expect(html).not.toContain('data-testid="report-money"');
    const long = await (await get("/admin/reports?from=2026-01-01&to=2026-06-30", owner)).text();
    expect(long).toContain('data-error="RANGE_TOO_LONG"');
  });
});

describe("CSV exports", () => {
  it("money: BOM, CRLF, translated header, the page's figures, an attachment named after the range, audited", async () => {
    const before = (await exportsAudited("money")).length;
    const res = await get(`/admin/reports/money.csv?${query}`, owner);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="money_${today}_${today}.csv"`);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const bytes = new Uint8Array(await res.clone().arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = await res.text();
    const lines = text.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0].split(",").slice(0, 3)).toEqual(["ຊ່ວງເວລາ", "ຈຳນວນການຝາກ", "ຝາກ (ກີບ)"]);
    expect(lines[1]).toMatch(new RegExp(`^${today},1,60000,100\\.00,`));
    expect(lines.at(-2)).toMatch(/^ລວມ,1,60000,100\.00,/);
    expect(lines.at(-1)).toBe("");
    const audited = await exportsAudited("money");
    expect(audited.length).toBe(before + 1);
    expect(audited.at(-1)!.staff_username).toBe("rep-owner");
    expect(JSON.parse(audited.at(-1)!.after_json)).toEqual({ from: today, to: today, grouping: "day", rows: 1 });
  });

  it("money by provider: one row per provider and the total", async () => {
    const text = await (await get(`/admin/reports/money-by-provider.csv?${query}`, cashier)).text();
    const lines = text
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0].startsWith("ຄ່າຍເກມ,")).toBe(true);
    expect(lines.find((l) => l.startsWith("Betflix,"))).toMatch(/^Betflix,1,60000,100\.00,/);
    expect(lines.at(-1)).toMatch(/^ລວມ,1,60000,100\.00,/);
  });

  it("promotions: a formula-like title is neutralised with an apostrophe", async () => {
    const text = await (await get(`/admin/reports/promotions.csv?${query}`, owner)).text();
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")",0,0,0,`);
    expect(text).not.toMatch(/(^|\r\n)=HYPERLINK/);
  });

  it("providers: turnover and a negative win/loss as plain numbers, the day a provider could not be read on the page", async () => {
    const text = await (await get(`/admin/reports/providers.csv?${query}`, owner)).text();
    const lines = text
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe("ຊ່ວງເວລາ,ຄ່າຍເກມ,ເທີນໂອເວີ (ເຄຣດິດ),ໄດ້/ເສຍ (ເຄຣດິດ),ມື້ທີ່ບໍ່ມີຕົວເລກ");
    expect(lines).toContain(`${today},GClub,12345.00,-150.25,`);
    expect(lines).toContain("ລວມ,GClub,12345.00,-150.25,0");
    expect(lines).toContain("ລວມ,Betflix,0.00,0.00,1");
    const html = await (await get(`/admin/reports?${query}`, owner)).text();
    expect(html).toContain('data-testid="chart-providers"');
    expect(html).toContain("-฿150,25");
    expect(html).toContain('data-testid="report-providers-unavailable"');
  });

  it("hourly CSV of one day: 24 periods and '_hourly' in the file name", async () => {
    const res = await get(`/admin/reports/players.csv?from=${today}&to=${today}&grouping=hour`, owner);
    expect(res.headers.get("Content-Disposition")).toContain(`players_${today}_${today}_hourly.csv`);
    const lines = (await res.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(1 + 24 + 1);
    expect(lines[1].startsWith(`${today} 00:00,`)).toBe(true);
  });

  it("a cashier gets 403 for the owner's tables, and nothing is audited for them", async () => {
    for (const table of ["players", "promotions", "providers"]) {
      const before = (await exportsAudited(table)).length;
      const res = await get(`/admin/reports/${table}.csv?${query}`, cashier);
      expect(res.status).toBe(403);
      expect(await exportsAudited(table)).toHaveLength(before);
    }
    expect((await get(`/admin/reports/money.csv?${query}`, cashier)).status).toBe(200);
  });

  it("unknown tables are 404, a bad range 400 with the translated reason, no session -> login", async () => {
    expect((await get(`/admin/reports/secrets.csv?${query}`, owner)).status).toBe(404);
    expect((await get(`/admin/reports/money.json?${query}`, owner)).status).toBe(404);
    const bad = await get("/admin/reports/money.csv?from=2026-13-01", owner);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("ຊ່ວງວັນທີບໍ່ຖືກຕ້ອງ");
    const anonymous = await fetchApp(`http://localhost/admin/reports/money.csv?${query}`, { redirect: "manual" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toContain("/admin/login");
  });
});
