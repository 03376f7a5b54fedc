import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { openOrder, playerWithBank, postDeposit } from "../setup/money";
import { createStaff, staffLogin } from "../setup/staff";

/**
 * /admin/deposits/<code> once showed the sell rate as the wallet keeps it, in
 * millionths (600000000 for 600 kip per THB). The page shows it as a plain number, "600"
 * (formatRate, then formatRateNumber: decision 088). (The same
 * screen in Chromium: tests/e2e/admin-ops.spec.ts.)
 */
let cookie: string;

beforeAll(async () => {
  await seedDemo();
  const staff = await createStaff(env, { agencyId: "demo", username: "rate-cashier", password: "rate-cashier-pass-1", role: "cashier" });
  cookie = await staffLogin(env, { username: "rate-cashier", password: "rate-cashier-pass-1", totpSecret: staff.totpSecret });
}, 120_000);

describe("a deposit's page", () => {
  it("shows the sell rate it was priced at as a rate", async () => {
    const player = await playerWithBank();
    await postDeposit(player.cookie, { amount: "60000" });
    const order = await openOrder(player.cookie);
    await player.wallet.runDueWork(); // the order reaches the back office's read model
    const res = await fetchApp(`http://localhost/admin/deposits/${order!.code}`, { headers: { Cookie: cookie } });
    const html = await res.text();
    expect(res.status).toBe(200);
    const facts = /data-testid="deposit-facts">([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? "";
    // scripts/seed.sql: THB sold at 600 kip, shown as a plain number (decision 088)
    expect(/data-testid="deposit-rate">([^<]*)</.exec(facts)?.[1]).toBe("600");
    expect(facts).not.toContain("600000000");
    expect(facts).not.toContain("600.000000");
  }, 60_000);
});
