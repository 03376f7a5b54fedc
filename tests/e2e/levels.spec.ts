import { d1 } from "./d1";
import { accountTest as test, expect, hasJs, isPhone, playerSessionByApi, seriousAxeViolations, switchLanguage, waitForHydration } from "./fixtures";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * VIP levels and offers paused by the player's limits (decision 091). The owner's levels page
 * is a screen (all four projects); the player's level page and the pause a flow, once per
 * JavaScript mode (@pair-a), in lo, cn and vn. Each project works in its own agency
 * (`<project>.e2e.localhost`).
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
// in order: the player's flow reads the levels the owner saved
test.describe.configure({ mode: "default", timeout: 120_000 });

test("the owner defines levels on /admin/levels: saved, listed, refused when a threshold is taken, accessible", async ({ page, expectHttpError }, info) => {
  await staffLogin(page, DEMO_STAFF.boss, "/admin/levels");
  await expect(page).toHaveURL(/\/admin\/levels/);
  await waitForHydration(page);
  const save = async (fields: Record<string, string>) => {
    const form = page.getByTestId("level-form");
    for (const [name, value] of Object.entries(fields)) await form.locator(`input[name="${name}"]`).fill(value);
    await form.getByTestId("level-save").click();
  };
  // a level from 0 kip holds every player; Gold is the next
  await save({ name: "Member", threshold: "0", cashbackPercent: "5", cashbackCap: "100", withdrawDay: "" });
  await expect(page.getByTestId("toast")).toContainText("ບັນທຶກແລ້ວ");
  await save({ name: "Gold", threshold: "1000000", cashbackPercent: "10", cashbackCap: "0", withdrawDay: "5000" });
  await expect(page.getByTestId("levels-list").locator('[data-level="Gold"]')).toBeVisible();
  await expect(page.getByTestId("levels-list").locator('[data-level="Member"]')).toBeVisible();

  // another level at Gold's threshold: refused on the field, in the owner's language
  expectHttpError(409, /^\/admin\/levels/);
  await save({ name: "Other", threshold: "1000000", cashbackPercent: "1", cashbackCap: "0", withdrawDay: "" });
  await expect(page.getByTestId("level-form")).toContainText("ມີລະດັບອື່ນໃຊ້ຍອດຝາກຂັ້ນຕ່ຳນີ້ແລ້ວ");
  await expect(page.getByTestId("levels-list").locator('[data-level="Other"]')).toHaveCount(0);

  // 44 px targets on a phone; axe clean (axe runs in the page: JavaScript on)
  if (isPhone(info)) expect((await page.getByTestId("level-save").boundingBox())!.height).toBeGreaterThanOrEqual(44);
  if (hasJs(info)) expect(await seriousAxeViolations(page, "/admin/levels")).toEqual([]);
});

test("a player sees their level and the way to the next in lo, cn and vn; on a break, only that offers are paused", { tag: "@pair-a" }, async ({ page }) => {
  const agency = `e2e-${test.info().project.name}`;
  const player = await playerSessionByApi(page, { prefix: "lv" });
  await page.goto("/player/level");
  await waitForHydration(page);
  await expect(page.getByTestId("level-current")).toHaveAttribute("data-level", "Member");
  await expect(page.getByTestId("level-next")).toContainText("Gold");
  await expect(page.getByTestId("level-next")).toContainText(/1[.,]000[.,]000/);
  // the limits page says offers are open
  await page.goto("/player/limits");
  await expect(page.getByTestId("offers-active")).toBeVisible();

  for (const [lang, yourLevel] of [
    ["zh-CN", "您的等级：Member"],
    ["vi", "Cấp của bạn: Member"],
  ] as const) {
    await page.goto("/player/level");
    await switchLanguage(page, lang);
    await expect(page.getByTestId("level-current")).toContainText(yourLevel);
    await expect(page.locator("main")).not.toContainText("levels.");
  }
  await switchLanguage(page, "lo");

  // a cooling-off (breaks are append-only: written as the limits page's form would)
  const [row] = await d1(`SELECT id FROM players WHERE agency_id = '${agency}' AND username = '${player.username}'`);
  const now = Date.now();
  await d1(
    `INSERT INTO player_breaks (agency_id, player_id, kind, starts_at, ends_at, created_at) VALUES ('${agency}', '${row!.id}', 'cooling_off', ${now - 1000}, ${now + 86_400_000}, ${now})`,
  );
  await page.goto("/player/level");
  await expect(page.getByTestId("offers-paused")).toHaveAttribute("data-reason", "COOLING_OFF");
  await expect(page.getByTestId("level-next")).toHaveCount(0);
  await expect(page.locator("main")).not.toContainText("Gold");
  await page.goto("/player/promotion");
  await expect(page.getByTestId("offers-paused")).toBeVisible();
  await expect(page.locator("[data-promotion-id]")).toHaveCount(0);
  await page.goto("/player/limits");
  await expect(page.getByTestId("offers-paused")).toContainText("ຂໍ້ສະເໜີທັງໝົດຢຸດໄວ້");
  await switchLanguage(page, "zh-CN");
  await expect(page.getByTestId("offers-paused")).toContainText("所有优惠已暂停");
  await switchLanguage(page, "vi");
  await expect(page.getByTestId("offers-paused")).toContainText("Mọi ưu đãi đang tạm dừng");
});
