import { accountTest as test, expect, hasJs, playerSessionByApi, switchLanguage, waitForHydration, seriousAxeViolations } from "./fixtures";
import { addBankAccount } from "./player";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * The owner's settings reach the players. These tests change agency-wide state, so each
 * Playwright project works in its own agency (scripts/seed-e2e.mjs): `<project>.e2e.localhost`,
 * owners `boss-<project>-<n>`. Nothing here touches the demo agency other spec files use.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
// Several tests of a project log in as the same owner; a TOTP code is accepted once, so a
// login may wait for the next 30 s step (tests/e2e/staff.ts).
test.describe.configure({ timeout: 120_000 });

/** "฿100,00": the Lao formatting of a credit amount given in minor units. */
function credit(minor: bigint): string {
  const whole = (minor / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `฿${whole},${(minor % 100n).toString().padStart(2, "0")}`;
}

test.describe("settings reach the players", () => {
  test.describe.configure({ timeout: 120_000 });

  test("the owner changes the exchange rate -> the player's deposit is priced with it", { tag: "@pair-a" }, async ({ page, expectHttpError }) => {
    expectHttpError(401, /^\/admin\/login\/totp/);
    await staffLogin(page, DEMO_STAFF.boss, "/admin/settings");
    await expect(page).toHaveURL(/\/admin\/settings/);
    const rateForm = page.getByTestId("rate-form");
    const before = await rateForm.locator('input[name="sell"]').inputValue();
    // Sell rates that price 50,000 kip to an exact credit; a different one than now, so a rerun against the same server still proves the change.
    const sell = ["400", "500", "625", "800", "1000", "1250"].filter((s) => s !== before)[Math.floor(Math.random() * 5)];
    await rateForm.locator('select[name="currency"]').selectOption("THB");
    // Buying back above the selling price is refused, in the browser or by the server (400).
    expectHttpError(400, /^\/admin\/settings/);
    await rateForm.locator('input[name="buy"]').fill("9999");
    await rateForm.locator('input[name="sell"]').fill(sell);
    await rateForm.locator('button[type="submit"]').click();
    await expect(page.getByTestId("rate-form").getByText("ລາຄາຊື້ຕ້ອງບໍ່ສູງກວ່າລາຄາຂາຍ")).toBeVisible();
    await expect(page.getByTestId("rates-current")).not.toContainText("9999");
    await rateForm.locator('input[name="buy"]').fill("390");
    await rateForm.locator('input[name="sell"]').fill(sell);
    await rateForm.locator('button[type="submit"]').click();
    await expect(page.getByTestId("toast")).toBeVisible();
    await expect(page.getByTestId("rates-current")).toContainText(sell);
    const latest = page.getByTestId("rates-history").locator("tbody tr").first();
    await expect(latest).toContainText(sell);
    await expect(latest).toContainText(`boss-${test.info().project.name}`);

    await playerSessionByApi(page, { prefix: "s" });
    await addBankAccount(page);
    await page.goto("/player/deposit");
    await waitForHydration(page);
    const form = page.getByTestId("deposit-form");
    const expected = credit((50_000n * 100n * 100n) / (BigInt(sell) * 100n));
    await form.locator('select[name="provider"]').selectOption("askmebet");
    await form.locator('input[name="amount"]').fill("50000");
    if (hasJs(test.info())) {
      // The preview in the browser uses the owner's new rate...
      await expect(page.getByTestId("deposit-credit-preview")).toContainText(expected);
    }
    // ...and so does the order the server opens (the only preview without JavaScript).
    await form.getByRole("button", { name: "ສ້າງ QR ເພື່ອຊຳລະ" }).click();
    await expect(page.getByTestId("qr-step")).toBeVisible();
    await expect(page.getByTestId("qr-step")).toContainText(expected);
  });

  test("the owner creates a promotion in three languages -> the player sees it in each language", { tag: "@pair-b" }, async ({ page, expectHttpError }) => {
    expectHttpError(401, /^\/admin\/login\/totp/);
    await staffLogin(page, DEMO_STAFF.boss, "/admin/promotions/new");
    await expect(page).toHaveURL(/\/admin\/promotions\/new/);
    await waitForHydration(page);
    const tag = Math.random().toString(36).slice(2, 7);
    const titles = { lo: `ໂບນັດພິເສດ ${tag}`, cn: `特别奖金 ${tag}`, vn: `Thưởng đặc biệt ${tag}` };
    const form = page.getByTestId("promotion-form");
    await form.locator('input[name="titleLo"]').fill(titles.lo);
    await form.locator('input[name="titleCn"]').fill(titles.cn);
    await form.locator('input[name="titleVn"]').fill(titles.vn);
    await form.locator('textarea[name="descriptionLo"]').fill("ຮັບໂບນັດ 20 ເຄຣດິດ");
    await form.locator('select[name="bonusKind"]').selectOption("FIXED");
    await form.locator('input[name="bonusValue"]').fill("20");
    await form.locator('input[name="sortOrder"]').fill("0");
    await form.getByRole("button", { name: "ສ້າງໂປຣໂມຊັນ" }).click();
    await expect(page).toHaveURL(/\/admin\/promotions$/);
    await expect(page.getByTestId("toast")).toContainText("ສ້າງໂປຣໂມຊັນແລ້ວ");
    await expect(page.getByTestId("promotions-table")).toContainText(titles.lo);

    await playerSessionByApi(page, { prefix: "s" });
    await page.goto("/player/promotion");
    const list = page.getByTestId("promotion-list");
    await expect(list).toContainText(titles.lo);
    await switchLanguage(page, "zh-CN");
    await expect(list).toContainText(titles.cn);
    await expect(list).not.toContainText(titles.lo);
    await switchLanguage(page, "vi");
    await expect(list).toContainText(titles.vn);
    await switchLanguage(page, "lo");
    await expect(list).toContainText(titles.lo);
  });
});

test.describe("the other settings forms", () => {
  test("owner adds a channel, sets write-only credentials and the social links", { tag: "@pair-b" }, async ({ page, expectHttpError }) => {
    expectHttpError(401, /^\/admin\/login\/totp/);
    await staffLogin(page, DEMO_STAFF.boss, "/admin/settings");
    await waitForHydration(page);
    const tag = Math.random().toString(36).slice(2, 6);

    const channel = page.getByTestId("channel-form-new");
    await channel.locator('input[name="code"]').fill(`ldb-${tag}`);
    await channel.locator('input[name="mid"]').fill(`LDB${tag}`);
    await channel.locator('input[name="displayName"]').fill(`LDB QR ${tag}`);
    await channel.locator('select[name="bankCode"]').selectOption("LDB");
    await channel.locator('input[name="merchantName"]').fill("E2E AGENCY");
    await channel.locator('input[name="merchantCity"]').fill("VIENTIANE");
    await channel.locator('button[type="submit"]').click();
    const card = page.getByTestId(`channel-LDB-${tag.toUpperCase()}`);
    await expect(card).toContainText(`LDB QR ${tag}`);
    await card.getByRole("button", { name: "ປິດ" }).click();
    await expect(page.getByTestId(`channel-LDB-${tag.toUpperCase()}`)).toContainText("ປິດແລ້ວ");

    const secret = `e2e-secret-${tag}-0123456789`;
    const credentials = page.getByTestId("credentials-form");
    await credentials.locator('select[name="provider"]').selectOption("gclub");
    await credentials.locator('input[name="agent"]').fill(`agent${tag}`);
    await credentials.locator('input[name="secret"]').fill(secret);
    await credentials.locator('button[type="submit"]').click();
    await expect(page.getByTestId("credentials-gclub")).toContainText("ຕັ້ງເມື່ອ");
    expect(await page.content()).not.toContain(secret);
    expect(await page.content()).not.toContain(`agent${tag}`);
    await expect(page.getByTestId("credentials-form").locator('input[name="secret"]')).toHaveValue("");

    const profile = page.getByTestId("profile-form");
    await profile.locator('input[name="telegram"]').fill(`https://t.me/e2e_${tag}`);
    await profile.locator('button[type="submit"]').click();
    // the typed value is in the field before the save completes: wait for the save itself
    // (polling the player-facing agency info in a second tab, so the post is not cut short)
    const probe = await page.context().newPage();
    await expect(async () => {
      await probe.goto("/api/v2/agency/info");
      await expect(probe.locator("body")).toContainText(`https://t.me/e2e_${tag}`, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await probe.close();
    await expect(page.getByTestId("profile-form").locator('input[name="telegram"]')).toHaveValue(`https://t.me/e2e_${tag}`);
    // The player-facing agency info carries it (same host, so the same agency).
    await page.goto("/api/v2/agency/info");
    await expect(page.locator("body")).toContainText(`https://t.me/e2e_${tag}`);
  });
});

test.describe("accessibility", () => {
  test("settings, promotions list and editor have no serious or critical axe violations", async ({ page, expectHttpError }, info) => {
    test.skip(!hasJs(info), "axe runs as a script in the page; the markup is the same with JavaScript off");
    expectHttpError(401, /^\/admin\/login\/totp/);
    await staffLogin(page, DEMO_STAFF.boss, "/admin/settings");
    for (const path of ["/admin/settings", "/admin/promotions", "/admin/promotions/new"]) {
      await page.goto(path);
      await waitForHydration(page);
      expect(await seriousAxeViolations(page, path)).toEqual([]);
    }
  });
});

test.describe("owner only", () => {
  test.use({ baseURL: `http://localhost:${port}` });

  // one project with and one without JavaScript are enough (pair B, decision 039)
  test("a cashier sees no settings or promotions link and gets 403 at the settings and promotions", { tag: "@pair-b" }, async ({ page, expectHttpError }) => {
    expectHttpError(401, /^\/admin\/login\/totp/);
    expectHttpError(403, /^\/admin\/(settings|promotions)/);
    await staffLogin(page, DEMO_STAFF.cashier);
    await expect(page.getByTestId("admin-nav").locator('a[data-section="settings"]')).toHaveCount(0);
    await expect(page.getByTestId("admin-nav").locator('a[data-section="promotions"]')).toHaveCount(0);
    await page.goto("/admin/settings");
    await expect(page.getByTestId("admin-error")).toHaveAttribute("data-status", "403");
    await page.goto("/admin/promotions/new");
    await expect(page.getByTestId("admin-error")).toHaveAttribute("data-status", "403");
  });
});
