import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { createStaff, staffLogin } from "../setup/staff";
import { formatDateTime } from "../../app/lib/format";

/**
 * /admin/payments once listed the recording time in its time column, so a
 * statement row of 16:31 imported at 19:31 showed 19:31. The list shows the bank's time, the
 * recording time beneath it.
 */
let cookie = "";
beforeAll(async () => {
  await seedDemo();
  const username = `cpay${Date.now() % 100000}`;
  const staff = await createStaff(env, { agencyId: "demo", username, password: "cashier-pass-1234", role: "cashier" });
  cookie = await staffLogin(env, { username, password: "cashier-pass-1234", totpSecret: staff.totpSecret });
}, 120_000);

describe("the payments queue shows the bank's time", () => {
  it("a statement row of 16:31 imported at 19:31 is listed at 16:31, recorded 19:31 beneath", async () => {
    const recorded = Date.UTC(2026, 10, 26, 12, 31, 0); // 19:31 in Vientiane
    const bankTime = recorded - 3 * 3600_000; // 16:31
    await env.DB.prepare(
      `INSERT INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount, channel_code, source, bank_time, raw, received_at)
       VALUES ('BANKTIME01', 'demo', 'NO_ORDER', 'FTBANKTIME01', 'demo:OWN-BT:FTBANKTIME01', '120003.00', 'OWN-BT', 'statement', ?1, 'row', ?2)`,
    )
      .bind(bankTime, new Date(recorded).toISOString())
      .run();
    const res = await fetchApp("http://localhost/admin/payments", { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const row = html.slice(html.indexOf('data-reference="FTBANKTIME01"'), html.indexOf("</tr>", html.indexOf('data-reference="FTBANKTIME01"')));
    const cell = row.slice(0, row.indexOf("</td>"));
    expect(cell).toContain(formatDateTime(new Date(bankTime)));
    expect(cell.indexOf(formatDateTime(new Date(bankTime)))).toBeLessThan(cell.indexOf(formatDateTime(new Date(recorded))));
  });
});
