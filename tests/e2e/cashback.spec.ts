import { d1 } from "./d1";
import type { Page } from "@playwright/test";
import { accountTest as test, expect, hasJs, playerSessionByApi, submitLogin, waitForHydration } from "./fixtures";
import { DEMO_STAFF, staffLogin } from "./staff";

/**
 * Weekly cashback (decision 029), end to end on the 4 projects (phone and
 * desktop, JavaScript on and off): the owner sets the rules on /admin/cashback; a player whose
 * last week at the providers is in player_provider_daily (what the hourly collection writes,
 * seeded here in the e2e server's local D1 like the other specs seed their data) sees each
 * provider's net loss and cashback, why a line cannot be claimed, claims one, sees it credited
 * in the reward history and refused the second time; the owner sees the claim in the report.
 * Each project works in its own agency (`<project>.e2e.localhost`, owners `boss-<project>-<n>`).
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
// in order: both tests change this agency's cashback rules (and the local D1 is written from here)
test.describe.configure({ mode: "default", timeout: 150_000 });

/** The days of last Monday–Sunday week in Vientiane (UTC+7), as workers/core/reward-period.ts counts them. */
function lastWeekDays(now = Date.now()): string[] {
  const DAY = 86_400_000;
  const today = new Date(new Date(now + 7 * 3_600_000).toISOString().slice(0, 10) + "T00:00:00Z").getTime();
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY - 7 * DAY;
  return Array.from({ length: 7 }, (_, i) => new Date(monday + i * DAY).toISOString().slice(0, 10));
}

test("owner sets cashback; a player sees last week per provider, claims once, sees it in the history; the owner sees the claim", { tag: "@pair-b" }, async ({
  page,
}) => {
  const agency = `e2e-${test.info().project.name}`;

  // the owner's rules: 10 %, at most 50.00 a claim, 1x turnover, not with a promotion
  await staffLogin(page, DEMO_STAFF.boss, "/admin/cashback");
  await expect(page).toHaveURL(/\/admin\/cashback/);
  await waitForHydration(page);
  const form = page.getByTestId("cashback-settings-form");
  await form.locator('input[name="enabled"]').check();
  await form.locator('input[name="percent"]').fill("10");
  await form.locator('input[name="cap"]').fill("50");
  await form.locator('input[name="min"]').fill("1");
  await form.locator('input[name="turnoverMultiple"]').fill("1");
  await form.locator('input[name="combinable"]').uncheck();
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId("toast")).toContainText("ບັນທຶກການຕັ້ງຄ່າເງິນຄືນແລ້ວ");
  await expect(page.getByTestId("cashback-settings-form").locator('input[name="percent"]')).toHaveValue("10");
  await page.context().clearCookies();

  // a player with last week's figures: lost 100.00 a day at askmebet (700.00 -> 70.00, capped 50.00),
  // a day missing at betflix, won at gclub
  const player = await playerSessionByApi(page, { prefix: "cb" });
  const [row] = await d1(`SELECT id FROM players WHERE agency_id = '${agency}' AND username = '${player.username}'`);
  const playerId = String(row!.id);
  const days = lastWeekDays();
  const values = [
    ...days.map((d) => `('${agency}', '${playerId}', 'askmebet', '${d}', 50000, 10000, '${new Date().toISOString()}')`),
    ...days.slice(1).map((d) => `('${agency}', '${playerId}', 'betflix', '${d}', 50000, 10000, '${new Date().toISOString()}')`),
    ...days.map((d) => `('${agency}', '${playerId}', 'gclub', '${d}', 20000, -5000, '${new Date().toISOString()}')`),
  ];
  await d1(`INSERT INTO player_provider_daily (agency_id, player_id, provider, day, turnover_minor, win_loss_minor, collected_at) VALUES ${values.join(", ")}`);

  await page.goto("/player/cashback");
  await waitForHydration(page);
  const askmebet = page.getByTestId("cashback-askmebet");
  await expect(askmebet.getByTestId("net-loss")).toContainText(/700[.,]00/);
  await expect(askmebet.getByTestId("cashback-amount")).toContainText(/50[.,]00/);
  await expect(page.getByTestId("cashback-betflix").getByTestId("refusal")).toHaveAttribute("data-refusal", "CASHBACK_PERIOD_INCOMPLETE");
  await expect(page.getByTestId("cashback-gclub").getByTestId("refusal")).toHaveAttribute("data-refusal", "CASHBACK_NOTHING_LOST");
  await expect(page.getByTestId("reward-history-empty")).toBeVisible();

  await askmebet.getByTestId("claim").click();
  await expect(page.getByTestId("toast")).toContainText(/50[.,]00/);
  await expect(page.getByTestId("cashback-askmebet").getByTestId("refusal")).toHaveAttribute("data-refusal", "CASHBACK_ALREADY_CLAIMED");
  const history = page.getByTestId("reward-history");
  await expect(history.getByTestId("reward-amount")).toContainText(/50[.,]00/);
  await expect(history.locator('[data-status="SUCCESS"]')).toHaveCount(1);
  // 50.00 x 1 to play before a withdrawal from askmebet: nothing played yet
  await expect(history.getByTestId("reward-turnover")).toContainText(/ຍອດຫຼິ້ນ .*0[.,]00 \/ .*50[.,]00/);

  // the claims report (copied to D1 by the wallet's alarm)
  await page.context().clearCookies();
  await staffLogin(page, DEMO_STAFF.boss, "/admin/cashback");
  await expect(async () => {
    await page.goto("/admin/cashback");
    await expect(page.getByTestId("cashback-claims").locator("tr", { hasText: player.username })).toContainText(/50[.,]00/, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
});

/**
 * The owner switches one provider's adapter on /admin/settings/providers: the screen forgets the
 * setup the portal keeps for 30 s (decision 033), so the very next credit uses the new one; a
 * row written behind the portal's back (wrangler d1) would reach it only 30 s later.
 */
async function ownerSetsAdapter(page: Page, provider: string, adapter: "disabled" | "sandbox") {
  await page.context().clearCookies();
  await staffLogin(page, DEMO_STAFF.boss, "/admin/settings/providers");
  await expect(page).toHaveURL(/\/admin\/settings\/providers/);
  if (hasJs(test.info())) await waitForHydration(page);
  const card = page.getByTestId(`setup-${provider}`);
  await card.locator('select[name="adapter"]').selectOption(adapter);
  await card.locator('input[name="baseUrl"]').fill("");
  await card.locator('input[name="productCode"]').fill("");
  await card.getByRole("button").click();
  // the saved setup as the page reads it back ("ປິດ": off)
  await expect(page.getByTestId(`setup-${provider}-current`)).toContainText(adapter === "sandbox" ? "Sandbox" : "ປິດ", { timeout: 15_000 });
}

test("a credit the provider refused: the owner retries it from the claims list, once; the player sees it credited", { tag: "@pair-b" }, async ({ page }) => {
  const agency = `e2e-${test.info().project.name}`;
  // gclub_live switched off for this agency by the owner: its credit is refused (the adapter
  // of an unconfigured provider); switched back below before the retry
  await ownerSetsAdapter(page, "gclub_live", "disabled");
  await page.context().clearCookies();
  const player = await playerSessionByApi(page, { prefix: "cr" });
  const days = lastWeekDays();
  // the rules of the test above without a turnover requirement (a credit is then sent at
  // once, no turnover read first), and last week's loss at gclub_live
  // one statement per call: a batch of several against the running server's D1 fails in the e2e run
  await d1(`INSERT INTO cashback_settings (agency_id, enabled, percent_hundredths, cap_minor, min_minor, turnover_multiple, combinable, updated_at)
      VALUES ('${agency}', 1, 1000, 5000, 100, '0', 0, '${new Date().toISOString()}')
      ON CONFLICT (agency_id) DO UPDATE SET enabled = 1, percent_hundredths = 1000, cap_minor = 5000, min_minor = 100, turnover_multiple = '0', combinable = 0`);
  const [row] = await d1(`SELECT id FROM players WHERE agency_id = '${agency}' AND username = '${player.username}'`);
  await d1(`INSERT INTO player_provider_daily (agency_id, player_id, provider, day, turnover_minor, win_loss_minor, collected_at)
      VALUES ${days.map((d) => `('${agency}', '${String(row!.id)}', 'gclub_live', '${d}', 50000, 10000, '${new Date().toISOString()}')`).join(", ")}`);
  try {
    await page.goto("/player/cashback");
    await waitForHydration(page);
    await page.getByTestId("cashback-gclub_live").getByTestId("claim").click();
    await expect(page.getByTestId("toast")).toContainText("ຄ່າຍເກມບໍ່ຮັບເຄຣດິດ");
    await expect(page.getByTestId("reward-history").locator('[data-status="FAILED"]')).toHaveCount(1);
  } finally {
    await ownerSetsAdapter(page, "gclub_live", "sandbox");
  }

  // the owner retries it from the claims list (copied to D1 by the wallet's alarm)
  await page.goto("/admin/cashback");
  const line = page.getByTestId("cashback-claims").locator("tr", { hasText: player.username });
  await expect(async () => {
    await page.goto("/admin/cashback");
    await expect(line.getByTestId("reward-retry")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await waitForHydration(page);
  await line.getByTestId("reward-retry").getByRole("button").click();
  await expect(page.getByTestId("toast")).toContainText("ລອງໃໝ່ແລ້ວ: ສະຖານະ ສຳເລັດ");
  await expect(line.locator('[data-status="SUCCESS"]')).toHaveCount(1);
  await expect(line.getByTestId("reward-retry")).toHaveCount(0);

  // the player: the same reward, credited once, nothing to play through
  await page.context().clearCookies();
  await page.goto("/login?redirectTo=%2Fplayer%2Fcashback");
  await submitLogin(page, player);
  await expect(page).toHaveURL(/\/player\/cashback$/);
  await waitForHydration(page);
  const history = page.getByTestId("reward-history");
  await expect(history.locator('[data-status="SUCCESS"]')).toHaveCount(1);
  await expect(history.locator('[data-status="FAILED"]')).toHaveCount(0);
  await expect(history.getByTestId("reward-turnover")).toHaveText("ຄົບແລ້ວ");
  await expect(page.getByTestId("cashback-gclub_live").getByTestId("refusal")).toHaveAttribute("data-refusal", "CASHBACK_ALREADY_CLAIMED");
});
