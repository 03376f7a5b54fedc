import { d1 } from "./d1";
import { accountTest as test, expect, hasJs, isPhone, playerSessionByApi, seriousAxeViolations, switchLanguage, waitForHydration } from "./fixtures";
import { DEMO_STAFF, staffLogin } from "./staff";
import { allKeys, bundle, rawKeysOn, textOf } from "./translated";

/**
 * Daily check-in and the deposit streak (decision 095). The owner's settings form and the
 * player's page are screens (all four projects); the check-in itself and the pause are a flow,
 * once per JavaScript mode (@pair-a), with the words checked in lo, cn and vn from the locale
 * files. Each project works in its own agency (`<project>.e2e.localhost`).
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
// in order: the player's flow reads the settings the owner saved
test.describe.configure({ mode: "default", timeout: 120_000 });

test("the owner turns check-in and the streak on at /admin/checkin; a wrong day count is refused; the player's page offers both", async ({
  page,
  expectHttpError,
}, info) => {
  await staffLogin(page, DEMO_STAFF.boss, "/admin/checkin");
  await expect(page).toHaveURL(/\/admin\/checkin/);
  await waitForHydration(page);
  const admin = bundle(info, "lo", "admin");
  const form = page.getByTestId("checkin-settings-form");
  const fill = async (fields: Record<string, string>) => {
    for (const [name, value] of Object.entries(fields)) await form.locator(`input[name="${name}"]`).fill(value);
  };
  await form.locator('input[name="checkinEnabled"]').check();
  await form.locator('input[name="streakEnabled"]').check();
  await fill({ checkinAmount: "5", checkinMultiple: "0", streakDays: "40", streakAmount: "20", streakMultiple: "1" });
  // 40 days: refused on the field (in the browser with JavaScript, by the server without)
  expectHttpError(400, /^\/admin\/checkin/);
  await form.locator('button[type="submit"]').click();
  await expect(form).toContainText(textOf(admin, "checkin.validation.days"));
  await fill({ streakDays: "3" });
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId("toast")).toContainText(textOf(admin, "checkin.saved"));
  await expect(page.getByTestId("checkin-settings-form").locator('input[name="streakDays"]')).toHaveValue("3");
  if (hasJs(info)) expect(await seriousAxeViolations(page, "/admin/checkin")).toEqual([]);
  await page.context().clearCookies();

  // the player's page: today's check-in with its provider choice, the streak at 0 of 3
  const player = bundle(info, "lo", "player");
  await playerSessionByApi(page, { prefix: "ck" });
  await page.goto("/player/checkin");
  await waitForHydration(page);
  await expect(page.getByTestId("checkin-form").locator('select[name="provider"]')).toBeVisible();
  await expect(page.getByTestId("streak-progress")).toHaveText(textOf(player, "checkin.streakProgress", { days: 0, of: 3 }));
  await expect(page.getByTestId("streak-refusal")).toHaveAttribute("data-refusal", "STREAK_NOT_REACHED");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
  if (isPhone(info)) expect((await page.getByTestId("checkin-submit").boundingBox())!.height).toBeGreaterThanOrEqual(44);
  if (hasJs(info)) expect(await seriousAxeViolations(page, "/player/checkin")).toEqual([]);
});

test(
  "a player checks in once a day, sees it in the history in lo, cn and vn; on a break only that offers are paused",
  { tag: "@pair-a" },
  async ({ page }, info) => {
    const agency = `e2e-${info.project.name}`;
    const player = await playerSessionByApi(page, { prefix: "ci" });
    await page.goto("/player/checkin");
    await waitForHydration(page);
    const form = page.getByTestId("checkin-form");
    await form.locator('select[name="provider"]').selectOption("gclub");
    await form.getByTestId("checkin-submit").click();
    await expect(page.getByTestId("toast")).toContainText("ເຊັກອິນສຳເລັດ");
    await expect(page.getByTestId("checkin-refusal")).toHaveAttribute("data-refusal", "CHECKIN_ALREADY_TODAY");
    await expect(page.getByTestId("checkin-form")).toHaveCount(0);
    await expect(page.getByTestId("reward-history").locator('[data-kind="CHECKIN"]')).toHaveCount(1);
    await expect(page.getByTestId("reward-history").locator('[data-status="SUCCESS"]')).toHaveCount(1);

    // the same page in Chinese and Vietnamese: the locale files' words, no raw key
    const keys = allKeys(info);
    for (const [lang, lng] of [
      ["zh-CN", "cn"],
      ["vi", "vn"],
    ] as const) {
      await switchLanguage(page, lang);
      const words = bundle(info, lng, "player");
      await expect(page.locator("h1")).toHaveText(textOf(words, "checkin.title"));
      await expect(page.getByTestId("reward-history")).toContainText(textOf(words, "checkin.kind.CHECKIN"));
      expect(await rawKeysOn(page, keys)).toEqual([]);
    }
    await switchLanguage(page, "lo");

    // a cooling-off (breaks are append-only: written as the limits page's form would): only why, no form, no streak
    const [row] = await d1(`SELECT id FROM players WHERE agency_id = '${agency}' AND username = '${player.username}'`);
    const now = Date.now();
    await d1(
      `INSERT INTO player_breaks (agency_id, player_id, kind, starts_at, ends_at, created_at) VALUES ('${agency}', '${row!.id}', 'cooling_off', ${now - 1000}, ${now + 86_400_000}, ${now})`,
    );
    await page.goto("/player/checkin");
    await expect(page.getByTestId("offers-paused")).toHaveAttribute("data-reason", "COOLING_OFF");
    await expect(page.getByTestId("checkin-today")).toHaveCount(0);
    await expect(page.getByTestId("streak")).toHaveCount(0);
    await expect(page.getByTestId("reward-history")).toBeVisible(); // what was paid before stays
    // the limits page names check-in and streak rewards among what is paused, in each language
    await page.goto("/player/limits");
    for (const [lang, streak] of [
      ["lo", "ລາງວັນຝາກຕໍ່ເນື່ອງ"],
      ["zh-CN", "连续存款奖励"],
      ["vi", "thưởng nạp liên tiếp"],
    ] as const) {
      if (lang !== "lo") await switchLanguage(page, lang);
      await expect(page.getByTestId("offers-paused")).toContainText(streak);
    }
  },
);
