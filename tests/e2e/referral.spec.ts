import { d1 } from "./d1";
import type { Page } from "@playwright/test";
import { accountTest as test, expect, hasJs, PAGE_READY, playerSessionByApi, submitLogin, switchLanguage, waitForHydration } from "./fixtures";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * Referral (decision 030) on the 4 projects (phone/desktop x JavaScript
 * on/off): the owner turns it on; a player reads their link and code; a newcomer opens the
 * link (an invalid code is told, the valid one carried in a hidden field) and registers; the
 * newcomer's provider figures of last week are put in D1 (the scheduled collection's table)
 * and the tie moved back into that week; the referrer sees last week's share, claims it to a
 * provider, and finds it in the history; the owner sees it in the report. Each project works
 * in its own agency (`<project>.e2e.localhost`, scripts/seed-e2e.mjs), so settings never meet.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
test.describe.configure({ timeout: 180_000 });

/** Last week's Monday and Sunday in Vientiane (UTC+7), and an instant inside it. */
function lastWeek() {
  const DAY = 86400_000;
  const local = new Date(Date.now() + 7 * 3600_000);
  const monday = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - ((local.getUTCDay() + 6) % 7) * DAY - 7 * DAY;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { start: day(monday), end: day(monday + 6 * DAY), inside: new Date(monday - 7 * 3600_000 + 3600_000).toISOString() };
}

let lastNewcomer = "";

/** A code that is not valid is told, and the form is still there (the referrer's browser, logged out). */
async function registerNewcomerChecks(page: Page, code: string) {
  await page.goto("/register?ref=BAD2345X");
  await expect(page.getByTestId("referral-invalid")).toContainText("BAD2345X");
  await expect(page.getByTestId("register-form")).toBeVisible();
  await expect(page.locator('input[name="ref"]')).toHaveCount(0);
  await page.goto(`/register?ref=${code.toLowerCase()}`);
  await expect(page.getByTestId("referral-invited")).toContainText(code);
}

/** The newcomer opens the link: "invited by", the code in a hidden field, and registers. */
async function registerNewcomer(page: Page, code: string, password: string) {
  await page.goto(`/register?ref=${code}`);
  if (hasJs(test.info())) await page.locator(PAGE_READY).waitFor();
  await expect(page.getByTestId("referral-invited")).toContainText(code);
  await expect(page.locator('input[type="hidden"][name="ref"]')).toHaveValue(code);
  lastNewcomer = `nc${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`.slice(0, 20);
  const form = page.getByTestId("register-form");
  await form.locator('input[name="username"]').fill(lastNewcomer);
  await form.locator('input[name="phone"]').fill("02055556666");
  await form.locator('input[name="password"]').fill(password);
  await form.locator('input[name="confirmPassword"]').fill(password);
  await form.locator('input[name="adult"]').check();
  await form.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/login/, { timeout: 30_000 });
}

async function ready(page: Page) {
  if (hasJs(test.info())) await page.locator(PAGE_READY).waitFor();
}

test("the owner turns referral on; a newcomer joins by the link; the referrer claims last week's share to a provider and sees it in the history", {
  tag: "@pair-a",
}, async ({ page, browser, expectHttpError }) => {
  expectHttpError(400, /^\/admin\/referrals/);
  const agency = `e2e-${test.info().project.name}`;
  const week = lastWeek();

  // 1. the owner's settings (audited like other admin settings)
  await staffLogin(page, DEMO_STAFF.boss, "/admin/referrals");
  await page.goto("/admin/referrals");
  await ready(page);
  const settings = page.getByTestId("referral-settings");
  await settings.locator('input[name="enabled"]').check();
  await settings.locator('select[name="mode"]').selectOption("net_loss");
  await settings.locator('input[name="percentBp"]').fill("abc");
  await settings.getByTestId("referral-save").click();
  await expect(settings).toContainText("ເປີເຊັນ 0.01 ຫາ 50");
  await settings.locator('input[name="percentBp"]').fill("10");
  await settings.locator('input[name="weeklyCapMinor"]').fill("");
  await settings.locator('input[name="turnoverMultiplier"]').fill("2");
  await settings.getByTestId("referral-save").click();
  await expect(page.getByTestId("toast")).toContainText("ບັນທຶກການຕັ້ງຄ່າແນະນຳໝູ່ແລ້ວ");
  await expect(page.getByTestId("referral-settings").locator('input[name="percentBp"]')).toHaveValue("10");
  await page.context().clearCookies();

  // 2. the referrer's link and code; the link is plain selectable text, the copy button needs JavaScript
  const referrer = await playerSessionByApi(page, { prefix: "rr" });
  await page.goto("/player/referral");
  await ready(page);
  const code = (await page.getByTestId("referral-code").textContent())!.trim();
  expect(code).toMatch(/^[2-9A-HJKMNP-TV-Z]{8}$/);
  await expect(page.getByTestId("referral-link")).toHaveText(new RegExp(`/register\\?ref=${code}$`));
  await expect(page.getByTestId("referral-copy")).toBeVisible({ visible: hasJs(test.info()) });
  await expect(page.getByTestId("referral-counts")).toHaveText("ນັບ: 0 · ບໍ່ນັບ: 0");
  await page.context().clearCookies();

  // 3. the newcomer, on another device (this browser is the referrer's: with JavaScript its
  // registration fingerprint would match the referrer's and the tie would not count, decision 030).
  const info = test.info();
  const device = await browser.newContext({
    baseURL: `http://${info.project.name}.e2e.localhost:${port}`,
    javaScriptEnabled: hasJs(info),
    viewport: info.project.use.viewport,
    userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
    extraHTTPHeaders: { "CF-Connecting-IP": `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.9` },
  });
  const other = await device.newPage();
  await registerNewcomer(other, code, referrer.password);
  await device.close();
  await registerNewcomerChecks(page, code);
  const newcomer = lastNewcomer;

  // 4. the newcomer lost 1,000.00 credit last week (the provider report's table), tied inside that week
  const ids = await d1(`SELECT id, username FROM players WHERE agency_id = '${agency}' AND username IN ('${referrer.username}', '${newcomer}')`);
  const newcomerId = ids.find((r) => r.username === newcomer)!.id as string;
  await d1(`UPDATE referrals SET created_at = '${week.inside}' WHERE agency_id = '${agency}' AND referred_player_id = '${newcomerId}'`);
  await d1(
    `INSERT INTO player_provider_daily (agency_id, player_id, provider, day, turnover_minor, win_loss_minor, collected_at)
     VALUES ('${agency}', '${newcomerId}', 'askmebet', '${week.start}', 500000, 100000, '${week.inside}')
     ON CONFLICT (agency_id, player_id, provider, day) DO UPDATE SET win_loss_minor = 100000`,
  );

  // 5. the referrer claims it (10 % = 100.00) to a provider of their choice
  await page.goto("/login?redirectTo=%2Fplayer%2Freferral");
  await waitForHydration(page);
  await submitLogin(page, referrer);
  await expect(page).toHaveURL(/\/player\/referral$/);
  await ready(page);
  await expect(page.getByTestId("referral-counts")).toHaveText("ນັບ: 1 · ບໍ່ນັບ: 0");
  await expect(page.getByTestId("referral-referred")).toContainText("ນັບ");
  const card = page.locator(`[data-testid="referral-week"][data-week="${week.start}"]`);
  await expect(card).toContainText("ລາຍໄດ້: ฿100,00");
  await card.locator('select[name="provider"]').selectOption("betflix");
  await card.getByTestId("referral-claim").click();
  await expect(page.getByTestId("toast")).toContainText("ໄດ້ຮັບ");
  await expect(page.getByTestId("toast")).toContainText("฿200,00"); // turnover 2x
  const history = page.getByTestId("referral-history");
  // the week's first day as DD/MM/YYYY, as every date on the page (decision 083)
  await expect(history).toContainText(week.start.split("-").reverse().join("/"));
  await expect(history).toContainText("ສຳເລັດ");
  // the share's turnover so far, in the words of a promotion's (nothing played yet of 200.00)
  await expect(history.getByTestId("reward-turnover")).toHaveText(/ຍອດຫຼິ້ນ ฿0,00 \/ ฿200,00/);
  // once per week: the card no longer offers a claim
  await expect(page.locator(`[data-testid="referral-week"][data-week="${week.start}"]`).getByTestId("referral-claim")).toHaveCount(0);
  await expect(page.locator(`[data-testid="referral-week"][data-week="${week.start}"]`).getByTestId("referral-week-claimed")).toBeVisible();

  // the page in Chinese and Vietnamese
  await switchLanguage(page, "zh-CN");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("推荐好友");
  await expect(page.getByTestId("referral-history").getByTestId("reward-turnover")).toContainText("流水");
  await switchLanguage(page, "vi");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Giới thiệu bạn bè");
  await expect(page.getByTestId("referral-history").getByTestId("reward-turnover")).toContainText("Doanh số cược");
  await switchLanguage(page, "lo");

  // 6. the owner's report of that week
  await page.context().clearCookies();
  await staffLogin(page, DEMO_STAFF.boss, `/admin/referrals?week=${week.start}`);
  await page.goto(`/admin/referrals?week=${week.start}`);
  const row = page.getByTestId("referral-report").locator(`tr[data-referrer="${referrer.username}"]`);
  await expect(row).toContainText("฿100,00");
  await expect(row).toContainText("ສຳເລັດ");
});
