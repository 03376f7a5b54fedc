import type { Page } from "@playwright/test";
import { accountTest as test, expect, hasJs, isPhone, PAGE_READY, seriousAxeViolations } from "./fixtures";
import { addBankAccount, depositCredit, loggedInPlayerByApi, withdrawForReview as withdraw } from "./player";
import { d1 } from "./d1";
import { currentStep, DEMO_STAFF, openAdminMenu, staffLogin, staffLoginThroughForms, totpAt } from "./staff";

/**
 * The page a message links to starts on a phone's first screen (decision 056): the folded
 * menu leaves the header one row, so the item's heading and its decisions' buttons are in the
 * first 740 px without scrolling.
 */
async function expectItemFirst(page: Page, forms: string[] = []) {
  const heading = await page.locator("main h1").boundingBox();
  expect(heading!.y, "the item's heading is on the first screen").toBeLessThan(740);
  expect(heading!.y, "the header above it is one row").toBeLessThan(160);
  for (const form of forms) {
    const button = await page.getByTestId(form).locator('button[type="submit"]').boundingBox();
    expect(button!.y + button!.height, `${form}'s button is on the first screen`).toBeLessThanOrEqual(740);
  }
}

/** The order appears in the queue once the wallet has projected it (the alarm, right away). */
async function openFromQueue(page: Page, code: string) {
  await expect(async () => {
    await page.goto("/admin/withdrawals");
    await expect(page.locator(`tr[data-code="${code}"]`)).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await page.locator(`tr[data-code="${code}"]`).getByRole("link", { name: code }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/withdrawals/${code}$`));
  await expect(page.getByTestId("withdrawal-status")).toHaveAttribute("data-status", "OPEN");
}

test.describe("back office", () => {
  test.describe.configure({ timeout: 120_000 });

  test("staff log in with password and TOTP, see the navigation, log out", async ({ page, expectHttpError }) => {
    expectHttpError(401, /^\/admin\/login\/totp/);
    await staffLoginThroughForms(page, DEMO_STAFF.boss);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByTestId("admin-nav")).toBeVisible();
    await openAdminMenu(page);
    await expect(page.getByTestId("admin-nav").locator('a[data-section="staff"]')).toBeVisible();
    await expect(page.getByTestId("dash-pending")).toBeVisible();
    await page.getByTestId("admin-logout").click();
    await expect(page).toHaveURL(/\/admin\/login$/);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/login$/);
  });

  test("back-office pages have no serious or critical axe violations", async ({ page, expectHttpError }, info) => {
    test.skip(!hasJs(info), "axe runs as a script in the page; the markup is the same with JavaScript off");
    expectHttpError(401, /^\/admin\/login\/totp/);
    const check = async () => {
      expect(await seriousAxeViolations(page, page.url())).toEqual([]);
    };
    await page.goto("/admin/login");
    await check();
    await staffLogin(page, DEMO_STAFF.boss);
    for (const path of ["/admin", "/admin/withdrawals", "/admin/staff", "/admin/staff/new", "/admin/audit", "/admin/api-tokens"]) {
      await page.goto(path);
      await page.locator(PAGE_READY).waitFor();
      await check();
    }
  });

  test(
    "the owner adds a cashier, who enrols with the one-time link (QR, password, first code) and logs in with a recovery code",
    { tag: "@pair-a" },
    async ({ page, expectHttpError }, info) => {
      expectHttpError(401, /^\/admin\/login\/totp/);
      const username = `e2e${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
      await staffLoginThroughForms(page, DEMO_STAFF.boss, "/admin/staff/new");
      if (hasJs(info)) await page.locator(PAGE_READY).waitFor();
      const form = page.getByTestId("staff-form");
      await form.getByLabel("ຊື່ຜູ້ໃຊ້").fill(username);
      await form.getByLabel("ບົດບາດ").selectOption("cashier");
      await form.getByRole("button", { name: "ສ້າງ ແລະ ອອກລິ້ງລົງທະບຽນ" }).click();
      const link = await page.getByTestId("enrol-link").getByRole("link").getAttribute("href");
      expect(link).toMatch(/\/admin\/enrol\?token=/);
      await page.goto("/admin/staff");
      await expect(page.locator(`tr[data-username="${username}"]`)).toContainText("ລໍຖ້າລົງທະບຽນ");
      await page.getByTestId("admin-logout").click();
      await expect(page).toHaveURL(/\/admin\/login$/);

      await page.goto(link!);
      await expect(page.locator(".qr svg")).toBeVisible();
      const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
      if (hasJs(info)) await page.locator(PAGE_READY).waitFor();
      const enrol = page.getByTestId("admin-enrol-form");
      await enrol.getByLabel("ລະຫັດຜ່ານໃໝ່ (ຢ່າງໜ້ອຍ 12 ຕົວ)").fill("new-cashier-pass-1");
      await enrol.getByLabel("ຢືນຢັນລະຫັດຜ່ານ").fill("new-cashier-pass-1");
      await enrol.getByLabel("ລະຫັດ 6 ຕົວເລກຈາກແອັບ").fill(totpAt(secret, currentStep()));
      await enrol.getByRole("button", { name: "ບັນທຶກ ແລະ ເປີດໃຊ້" }).click();
      const codes = page.getByTestId("recovery-codes").locator("li");
      await expect(codes).toHaveCount(10);
      const recovery = (await codes.first().textContent())!.trim();
      await page.getByRole("link", { name: "ໄປທີ່ລະບົບຫຼັງບ້ານ" }).click();
      await expect(page.getByTestId("admin-who")).toContainText(username);
      await page.getByTestId("admin-logout").click();
      await expect(page).toHaveURL(/\/admin\/login$/);

      // the link worked once
      await page.goto(link!);
      await expect(page.getByTestId("enrol-invalid")).toBeVisible();
      // password + a recovery code instead of the app's code
      await page.goto("/admin/login");
      if (hasJs(info)) await page.locator(PAGE_READY).waitFor();
      await page.getByTestId("admin-login-form").getByLabel("ຊື່ຜູ້ໃຊ້").fill(username);
      await page.getByTestId("admin-login-form").getByLabel("ລະຫັດຜ່ານ").fill("new-cashier-pass-1");
      await page.getByTestId("admin-login-form").getByRole("button").click();
      await expect(page).toHaveURL(/\/admin\/login\/totp$/);
      await page.getByText("ໃຊ້ລະຫັດກູ້ຄືນ", { exact: true }).first().click();
      const recoveryForm = page.getByTestId("admin-recovery-form");
      await recoveryForm.getByLabel("ລະຫັດກູ້ຄືນ").fill(recovery);
      await recoveryForm.getByRole("button", { name: "ໃຊ້ລະຫັດກູ້ຄືນ" }).click();
      await expect(page).toHaveURL(/\/admin$/);
      await expect(page.getByTestId("toast")).toContainText("9");
    },
  );

  test("a cashier is refused staff management (403) and does not see it in the menu", { tag: "@pair-a" }, async ({ page, expectHttpError }) => {
    expectHttpError(401, /^\/admin\/login\/totp/);
    expectHttpError(403, /^\/admin\/staff/);
    await staffLogin(page, DEMO_STAFF.cashier);
    await openAdminMenu(page);
    await expect(page.getByTestId("admin-nav").locator('a[data-section="withdrawals"]')).toBeVisible();
    await expect(page.getByTestId("admin-nav").locator('a[data-section="staff"]')).toHaveCount(0);
    const res = await page.goto("/admin/staff");
    expect(res?.status()).toBe(403);
    await expect(page.getByTestId("admin-error")).toHaveAttribute("data-status", "403");
  });

  test(
    "staff mark one withdrawal paid and reject another: the player sees SUCCESS, and REJECTED with the credit back",
    { tag: "@pair-b" },
    async ({ page, baseURL, expectHttpError }, info) => {
      expectHttpError(401, /^\/admin\/login\/totp/);
      // the player: 12,000 credit, two withdrawals above the automatic threshold (5,000)
      await loggedInPlayerByApi(page, baseURL!);
      await addBankAccount(page);
      await depositCredit(page, "7200000", "฿12.000,00");
      const toPay = await withdraw(page, "5500");
      const toReject = await withdraw(page, "5200");
      await page.goto("/player/withdraw");
      await expect(page.getByTestId("credit-askmebet")).toHaveText("฿1.300,00");

      // staff (their own cookie, in the same browser)
      await staffLogin(page, DEMO_STAFF.cashier, "/admin/withdrawals");
      await expect(page).toHaveURL(/\/admin\/withdrawals$/);

      await openFromQueue(page, toPay);
      if (isPhone(info)) await expectItemFirst(page, ["paid-form", "reject-form"]);
      await expect(page.getByTestId("account-name")).toHaveText("E2E Player");
      await expect(page.getByTestId("account-number")).toHaveText(/^0101\d{9}$/);
      await expect(page.getByTestId("to-pay")).toHaveText("₭3.190.000"); // 5,500 x 580
      if (hasJs(info)) await page.locator(PAGE_READY).waitFor();
      const paid = page.getByTestId("paid-form");
      await paid.getByLabel("ເລກອ້າງອີງທະນາຄານ").fill(`BCEL-${Date.now()}`);
      await paid.getByRole("button", { name: "ໂອນແລ້ວ" }).click();
      await expect(page).toHaveURL(/\/admin\/withdrawals$/);
      await expect(page.getByTestId("toast")).toContainText(toPay);
      await expect(page.locator(`tr[data-code="${toPay}"]`)).toHaveCount(0);

      await openFromQueue(page, toReject);
      const reject = page.getByTestId("reject-form");
      await reject.getByLabel("ເຫດຜົນ").fill("Account name does not match");
      await reject.getByRole("button", { name: "ປະຕິເສດ" }).click();
      await expect(page).toHaveURL(/\/admin\/withdrawals$/);
      await expect(page.getByTestId("toast")).toContainText(toReject);

      // the player sees both outcomes; the rejected credit comes back through the saga
      await expect(async () => {
        await page.goto("/player/withdraw/history");
        await expect(page.locator(`tr[data-code="${toPay}"] [data-status="SUCCESS"]`)).toBeVisible({ timeout: 1000 });
        await expect(page.locator(`tr[data-code="${toPay}"]`).getByTestId("received")).toHaveText("₭3.190.000");
        const rejected = page.locator(`tr[data-code="${toReject}"]`);
        await expect(rejected.locator('[data-status="REJECTED"]')).toBeVisible({ timeout: 1000 });
        await expect(rejected.getByTestId("returned")).toHaveText("฿5.200,00");
      }).toPass({ timeout: 30_000 });
      await page.goto("/player/withdraw");
      await expect(page.getByTestId("credit-askmebet")).toHaveText("฿6.500,00");

      // the decisions are in the audit log: the owner sees them
      await page.goto("/admin");
      await page.getByTestId("admin-logout").click();
      await expect(page).toHaveURL(/\/admin\/login$/);
      await staffLogin(page, DEMO_STAFF.boss, "/admin/audit");
      await expect(page.locator('tr[data-action="withdrawal.paid"]').filter({ hasText: toPay })).toHaveCount(1);
      await expect(page.locator('tr[data-action="withdrawal.rejected"]').filter({ hasText: toReject })).toHaveCount(1);
    },
  );
});

/**
 * Decision 049: a provider that stops answering shows on the dashboard while
 * its deposits are neither failed nor flagged. What the wallets' projection writes during an
 * outage (provider_attempts: timeouts and an error; a deposit PAID for 7 minutes) is seeded in
 * this project's own agency (`<project>.e2e.localhost`) through the server's own D1, and
 * removed after; the workerd integration test (tests/integration/provider-attempts.test.ts)
 * makes the same rows with the sandbox provider's faults.
 */
test.describe("dashboard during a provider outage", () => {
  const port = Number(process.env.E2E_PORT ?? 4173);
  test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
  test.describe.configure({ timeout: 90_000 });

  test("the waiting deposits and the provider's timeouts and errors of the last 15 minutes show", { tag: "@pair-a" }, async ({ page }) => {
    const project = test.info().project.name;
    const agency = `e2e-${project}`;
    const player = `e2e-outage-${project}`;
    const code = `DOUTAGE${project
      .replace(/[^a-z]/g, "")
      .toUpperCase()
      .slice(0, 8)}`;
    await staffLogin(page, DEMO_STAFF.boss);
    const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
    try {
      await d1(
        `INSERT INTO provider_attempts (agency_id, player_id, seq, provider, order_code, reference, op, outcome, error_code, at) VALUES
           ('${agency}', '${player}', 1, 'askmebet', '${code}', '${code}', 'transfer_in', 'timeout', 'TIMEOUT', '${at(6 * 60_000)}'),
           ('${agency}', '${player}', 2, 'askmebet', '${code}', '${code}', 'status', 'timeout', 'TIMEOUT', '${at(4 * 60_000)}'),
           ('${agency}', '${player}', 3, 'askmebet', '${code}', '${code}', 'status', 'error', 'HTTP_502', '${at(2 * 60_000)}'),
           ('${agency}', '${player}', 4, 'askmebet', '${code}', '${code}', 'status', 'timeout', 'TIMEOUT', '${at(60_000)}'),
           ('${agency}', '${player}', 5, 'askmebet', '${code}', '${code}', 'transfer_in', 'timeout', 'TIMEOUT', '${at(20 * 60_000)}')`,
      );
      await d1(
        `INSERT INTO deposit_orders_view (code, agency_id, player_id, provider, amount, credit, status, created_at, updated_at, paid_at, projection_version)
         VALUES ('${code}', '${agency}', '${player}', 'askmebet', '60000.00', '100.00', 'PAID', '${at(8 * 60_000)}', '${at(6 * 60_000)}', '${at(7 * 60_000 + 10_000)}', 1)`,
      );
      await page.goto("/admin");
      await expect(page.getByTestId("dash-provider-outage")).toBeVisible();
      await expect(page.getByTestId("dash-waiting-count")).toHaveText(/^[1-9]\d*$/);
      await expect(page.getByTestId("dash-waiting-oldest")).toContainText("7");
      // the attempt of 20 minutes ago is outside the window: 3 timeouts, 1 error
      const row = page.getByTestId("dash-provider-failures").locator('tr[data-provider="askmebet"]');
      await expect(row.getByTestId("dash-timeouts")).toHaveText("3");
      await expect(row.getByTestId("dash-errors")).toHaveText("1");
      await expect(page.getByTestId("dash-no-provider-failures")).toHaveCount(0);
    } finally {
      await d1(`DELETE FROM provider_attempts WHERE agency_id = '${agency}' AND player_id = '${player}'`);
      await d1(`DELETE FROM deposit_orders_view WHERE agency_id = '${agency}' AND code = '${code}'`);
    }
    // the outage over: nothing waits, no provider failed in the last 15 minutes
    await page.goto("/admin");
    await expect(page.getByTestId("dash-no-provider-failures")).toBeVisible();
    await expect(page.getByTestId("dash-provider-outage")).toHaveCount(0);
  });
});

/**
 * Decision 056: the back office on a cashier's phone. The agency at
 * `queues.e2e.localhost` (scripts/seed-e2e.mjs) has one item waiting on each of its four
 * queues; these tests only read it.
 */
test.describe("the back office on a phone", () => {
  const port = Number(process.env.E2E_PORT ?? 4173);
  test.use({ baseURL: `http://queues.e2e.localhost:${port}` });
  const QUEUES = ["withdrawals", "openDeposits", "payments", "forwarder"] as const;

  test("the menu: folded on a phone with the waiting count, opens without JavaScript, grouped, each queue with its count; a bar on a desktop", async ({
    page,
  }, info) => {
    await staffLogin(page, DEMO_STAFF.cashier, "/admin/withdrawals");
    const nav = page.getByTestId("admin-nav");
    const link = (section: string) => nav.locator(`a[data-section="${section}"]`);
    if (isPhone(info)) {
      await expect(page.getByTestId("admin-menu-summary")).toBeVisible();
      await expect(page.getByTestId("admin-menu-waiting")).toHaveText("ລໍຖ້າ 4");
      await expect(link("withdrawals")).toBeHidden();
      expect((await page.locator(".admin-header").boundingBox())!.height, "the header is one row: name, menu, logout").toBeLessThanOrEqual(64);
      await expectItemFirst(page);
      await openAdminMenu(page);
    } else {
      await expect(page.getByTestId("admin-menu-summary")).toBeHidden();
    }
    await expect(link("withdrawals")).toBeVisible();
    await expect(link("withdrawals")).toHaveAttribute("aria-current", "page");
    await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
    // a cashier's groups, in order: no promotions, no settings
    expect(await nav.locator("[data-group]").evaluateAll((groups) => groups.map((g) => g.getAttribute("data-group")))).toEqual([
      "home",
      "queues",
      "money",
      "players",
    ]);
    await expect(nav.getByRole("group", { name: "ລາຍການລໍຖ້າ" }).locator("a")).toHaveCount(4);
    for (const queue of QUEUES) await expect(nav.getByTestId(`nav-waiting-${queue}`).locator('[aria-hidden="true"]')).toHaveText("1");
    await expect(link("staff")).toHaveCount(0);
    // one click per section; on a phone the next page starts with the menu folded again
    await link("payments").click();
    await expect(page).toHaveURL(/\/admin\/payments$/);
    await expect(link("payments")).toHaveAttribute("aria-current", "page");
    if (isPhone(info)) await expect(link("payments")).toBeHidden();
    if (hasJs(info)) {
      await page.locator(PAGE_READY).waitFor();
      await openAdminMenu(page);
      expect(await seriousAxeViolations(page, "menu")).toEqual([]);
    }
  });

  test("the queues are cards a thumb can use, and the deposit or payment a message links to starts the first screen", async ({ page }, info) => {
    test.skip(!isPhone(info), "cards and the first screen are a phone's; a desktop keeps the tables");
    await staffLogin(page, DEMO_STAFF.cashier, "/admin/withdrawals");
    const queues = [
      { path: "/admin/withdrawals", table: "withdraw-queue", action: 'a[href="/admin/withdrawals/WQUEUES00001"]' },
      { path: "/admin/deposits/open", table: "open-deposits", action: 'button[type="submit"]' },
      { path: "/admin/payments", table: "payments-table", action: 'a[href^="/admin/payments?id="]' },
      { path: "/admin/forwarder", table: "forwarder-holds", action: '[data-testid="hold-confirm"]' },
    ];
    for (const { path, table, action } of queues) {
      await page.goto(path);
      const row = page.getByTestId(table).locator("tbody tr");
      await expect(row).toHaveCount(1);
      // nothing scrolls sideways: not the page, not the table inside its scroll box
      const widths = await page
        .getByTestId(table)
        .evaluate((t) => ({ page: document.scrollingElement!.scrollWidth, table: t.parentElement!.scrollWidth, box: t.parentElement!.clientWidth }));
      expect(widths.page, path).toBeLessThanOrEqual(360);
      expect(widths.table, path).toBeLessThanOrEqual(widths.box);
      const target = (await row.locator(action).boundingBox())!;
      expect(target.height, `${path}: the action is 44 px tall`).toBeGreaterThanOrEqual(44);
      expect(target.x + target.width, path).toBeLessThanOrEqual(360);
      if (hasJs(info) && path === "/admin/deposits/open") {
        await page.locator(PAGE_READY).waitFor();
        expect(await seriousAxeViolations(page, path)).toEqual([]);
      }
    }
    await page.goto("/admin/deposits/DQUEUES00001");
    await expectItemFirst(page);
    await page.goto("/admin/payments?id=e2e-queues-u1");
    const panel = (await page.getByTestId("payment-panel").locator("h2").boundingBox())!;
    expect(panel.y, "the payment's panel is on the first screen").toBeLessThan(740);
  });
});

test.describe("a withdrawal's link on a phone", () => {
  test.describe.configure({ timeout: 90_000 });
  test("opens with the withdrawal first and its decisions usable", async ({ page, baseURL }, info) => {
    test.skip(info.project.name !== "phone-js", "phone-nojs sees a withdrawal's page in the pair-b flow above; one real withdrawal more is enough");
    await loggedInPlayerByApi(page, baseURL!);
    await addBankAccount(page);
    await depositCredit(page, "3600000", "฿6.000,00");
    const code = await withdraw(page, "5500");
    await staffLogin(page, DEMO_STAFF.cashier, `/admin/withdrawals/${code}`);
    await expect(page.getByTestId("withdrawal-status")).toHaveAttribute("data-status", "OPEN");
    await expectItemFirst(page, ["paid-form", "reject-form"]);
    await page.locator(PAGE_READY).waitFor();
    expect(await seriousAxeViolations(page, "withdrawal")).toEqual([]);
    // the demo agency's queue is left as it was
    const reject = page.getByTestId("reject-form");
    await reject.getByLabel("ເຫດຜົນ").fill("test of the phone layout");
    await reject.getByRole("button", { name: "ປະຕິເສດ" }).click();
    await expect(page).toHaveURL(/\/admin\/withdrawals$/);
  });
});
