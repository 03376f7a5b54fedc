import type { Page } from "@playwright/test";
import { d1 } from "./d1";
import { accountTest as test, expect, hasJs, isPhone, newPlayer, PAGE_READY, seriousAxeViolations, uniqueUsername } from "./fixtures";
import { DEMO_STAFF, openAdminMenu, staffLogin } from "./staff";
import { allKeys, bundle, freshPhone, rawKeysOn, textOf } from "./translated";

/**
 * Linked accounts on the staff player page (decision 093), a flow in pair A (phone-js,
 * desktop-nojs): two players registered through the JSON API with one phone typed two ways are
 * linked "same phone", the score says worth holding with its parts; the owner's unlink asks a
 * reason, then marks the pair unlinked with it and takes it out of the score; the section is axe
 * clean with 44 px targets on a phone; a held claim (decision 094) is listed on the held
 * player's page, for whom and why. Its words in cn and vn as translations.spec.ts reads
 * pages: each text the language's own, no raw key. Each project works in its own agency.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
test.describe.configure({ timeout: 120_000 });

const randomIp = () => `10.${170 + Math.floor(Math.random() * 20)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/**
 * A registration through the JSON API (the fast path for a flow that is not about the form).
 * Node does not resolve *.localhost (the browser does): the request goes to localhost with this
 * project's agency as its Host.
 */
async function registerHere(page: Page, player: ReturnType<typeof newPlayer>) {
  const host = `${test.info().project.name}.e2e.localhost:${port}`;
  const res = await page.request.post(`http://localhost:${port}/api/v2/players/register`, {
    headers: { Host: host, Origin: `http://${host}`, "CF-Connecting-IP": randomIp() },
    data: { ...player, confirmPassword: player.password, adult: true },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** Two players of one phone, the second typing it the international way; their ids. */
async function twoOnOnePhone(page: Page) {
  const phone = freshPhone();
  const first = newPlayer({ username: uniqueUsername("lka"), phone });
  const second = newPlayer({ username: uniqueUsername("lkb"), phone: `+856${phone.slice(1)}` });
  await registerHere(page, first);
  await registerHere(page, second);
  const idOf = async (username: string) => String((await d1(`SELECT id FROM players WHERE username = '${username}'`))[0]!.id);
  return { first: { ...first, id: await idOf(first.username) }, second: { ...second, id: await idOf(second.username) } };
}

async function ready(page: Page) {
  if (hasJs(test.info())) await page.locator(PAGE_READY).waitFor();
}

test("the staff player page shows the linked accounts, why and the score; the owner unlinks a pair with a reason", async ({ page, expectHttpError }, info) => {
  const lo = bundle(info, "lo", "admin");
  const { first, second } = await twoOnOnePhone(page);
  await staffLogin(page, DEMO_STAFF.boss, `/admin/players/${first.id}`);
  await ready(page);

  const section = page.getByTestId("player-linked");
  await expect(section.getByRole("heading", { level: 2 })).toHaveText(textOf(lo, "linked.title"));
  const row = section.locator(`[data-testid="linked-row"][data-player="${second.username}"]`);
  await expect(row).toHaveAttribute("data-state", "linked");
  await expect(row.locator('[data-reason="phone"]')).toContainText(textOf(lo, "linked.reasons.phone"));
  const score = section.getByTestId("linked-score");
  await expect(score).toHaveAttribute("data-held", "yes");
  await expect(score).toHaveAttribute("data-total", "40");
  await expect(score.locator('[data-reason="phone"]')).toHaveText(
    textOf(lo, "linked.part", { reason: textOf(lo, "linked.reasons.phone"), players: 1, points: 40 }),
  );

  if (hasJs(info)) expect(await seriousAxeViolations(page, "/admin/players/:id")).toEqual([]);
  if (isPhone(info)) {
    for (const target of [row.getByTestId("unlink-submit"), row.locator("textarea"), row.getByRole("link")]) {
      const box = (await target.boundingBox())!;
      expect(box.height, await target.evaluate((el) => el.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(44);
    }
  }

  // no reason: refused by the schema (in the browser with JavaScript, by the action without)
  expectHttpError(400, /^\/admin\/players\//);
  await row.getByTestId("unlink-submit").click();
  await expect(row.locator(".field-errors").first()).toHaveText(textOf(lo, "linked.validation.reason"));
  expect(await d1(`SELECT COUNT(*) AS n FROM player_unlinks WHERE player_a IN ('${first.id}', '${second.id}')`)).toEqual([{ n: 0 }]);

  const reason = `brothers ${info.project.name} ${second.username.slice(-6)}`;
  await page.getByTestId("player-linked").locator(`[data-player="${second.username}"] textarea`).fill(reason);
  await page.getByTestId("player-linked").locator(`[data-player="${second.username}"]`).getByTestId("unlink-submit").click();
  await expect(page.getByTestId("toast")).toContainText(textOf(lo, "linked.unlinked"), { timeout: 30_000 });
  const unlinked = page.getByTestId("player-linked").locator(`[data-testid="linked-row"][data-player="${second.username}"]`);
  await expect(unlinked).toHaveAttribute("data-state", "unlinked");
  await expect(unlinked).toContainText(reason);
  await expect(page.getByTestId("linked-score")).toHaveAttribute("data-total", "0");
  await expect(page.getByTestId("linked-score")).toHaveAttribute("data-held", "no");
  expect(await d1(`SELECT COUNT(*) AS n FROM audit_log WHERE action = 'player.unlink' AND target = '${first.id}'`)).toEqual([{ n: 1 }]);

  // the other side: the same pair, unlinked, from the second player's page
  await page
    .getByTestId("player-linked")
    .getByRole("link", { name: new RegExp(second.username) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/players/${second.id}$`));
  await expect(page.getByTestId("player-linked").locator(`[data-player="${first.username}"]`)).toHaveAttribute("data-state", "unlinked");
});

test("a held claim on the held player's staff page: what, its status, for whom and why, and where staff decide it", async ({ page }, info) => {
  const lo = bundle(info, "lo", "admin");
  const { first, second } = await twoOnOnePhone(page);
  // the row "the first claim wins" writes for the second claimant of one promotion (decision 094)
  await d1(
    `INSERT INTO reward_holds (id, agency_id, player_id, kind, reward_key, ref, amount, links_json)
     SELECT 'e2e-hold-${second.id}', agency_id, id, 'PROMOTION', 'PROMOTION:e2e-welcome', 'e2e-usage-${second.id}', '150.00',
       json_array(json_object('playerId', '${first.id}', 'username', '${first.username}', 'key', 'phone:e2e'))
     FROM players WHERE id = '${second.id}'`,
  );
  await staffLogin(page, DEMO_STAFF.boss, `/admin/players/${second.id}`);
  await ready(page);
  const holds = page.getByTestId("player-holds");
  await expect(holds.getByRole("heading", { level: 2 })).toHaveText(textOf(lo, "holds.ofPlayer"));
  const row = holds.locator('tr[data-kind="PROMOTION"]');
  await expect(row).toHaveAttribute("data-status", "HELD");
  await expect(row).toContainText(textOf(lo, "holds.kinds.PROMOTION"));
  await expect(row).toContainText(textOf(lo, "holds.statuses.HELD"));
  await expect(row.locator(`[data-player="${first.username}"]`)).toContainText(textOf(lo, "linked.reasons.phone"));
  await expect(holds.getByRole("link", { name: textOf(lo, "holds.decideThere") })).toHaveAttribute("href", "/admin/holds");
  if (hasJs(info)) expect(await seriousAxeViolations(page, "/admin/players/:id")).toEqual([]);
});

test("the linked accounts in cn and vn: their own words, no raw key", async ({ page }, info) => {
  const keys = allKeys(info, ["common", "admin"]);
  const { first, second } = await twoOnOnePhone(page);
  await staffLogin(page, DEMO_STAFF.boss, `/admin/players/${first.id}`);
  for (const [lng, htmlLang] of [
    ["cn", "zh-CN"],
    ["vn", "vi"],
  ] as const) {
    const admin = bundle(info, lng, "admin");
    await openAdminMenu(page);
    await page.getByTestId("admin-menu").locator(`.admin-languages button[lang="${htmlLang}"]`).click();
    await expect(page.locator("html")).toHaveAttribute("lang", htmlLang);
    const section = page.getByTestId("player-linked");
    await expect(section.getByRole("heading", { level: 2 })).toHaveText(textOf(admin, "linked.title"));
    const row = section.locator(`[data-testid="linked-row"][data-player="${second.username}"]`);
    await expect(row.locator('[data-reason="phone"]')).toContainText(textOf(admin, "linked.reasons.phone"));
    await expect(section.getByTestId("linked-score")).toContainText(textOf(admin, "linked.heldWorthy"));
    await expect(row.locator("label")).toHaveText(textOf(admin, "linked.unlinkReason"));
    await expect(row.getByTestId("unlink-submit")).toHaveText(textOf(admin, "linked.unlink"));
    expect(await rawKeysOn(page, keys)).toEqual([]);
  }
});
