import type { Page } from "@playwright/test";
import { d1 } from "./d1";
import { accountTest as test, expect, hasJs, isPhone, PAGE_READY, seriousAxeViolations, switchLanguage, uniqueUsername } from "./fixtures";
import { DEMO_STAFF, openAdminMenu, staffLogin } from "./staff";
import { allKeys, bundle, freshPhone, rawKeysOn, textOf } from "./translated";

/**
 * The owner's blocklist (decision 090). The page is a screen (all four projects): the owner
 * opens it from the menu, adds an entry through the form, finds it in the list and removes it,
 * and the page is axe clean with targets of 44 px on a phone. The flow (once per JavaScript
 * mode, on a phone: the brief's pair) lists a phone and a visitor's registration from that phone,
 * typed another way, is refused with "contact staff" and no account is made. The refusal and the
 * owner's page are read in cn and vn as translations.spec.ts reads pages: each text the
 * language's own, no raw key. Each project works in its own agency (`<project>.e2e.localhost`),
 * so its entries never meet another spec's players.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.e2e.localhost:${port}`) });
test.describe.configure({ timeout: 120_000 });

async function ready(page: Page) {
  if (hasJs(test.info())) await page.locator(PAGE_READY).waitFor();
}

/** The owner fills the add form and submits it; the toast says it was listed. */
async function addEntry(page: Page, entry: { kind: string; value: string; action?: "refuse" | "flag"; note?: string; bankCode?: string }) {
  await page.goto("/admin/blocklist");
  await ready(page);
  const form = page.getByTestId("blocklist-add-form");
  await form.getByTestId("blocklist-kind").selectOption(entry.kind);
  if (entry.bankCode) await form.locator('select[name="bankCode"]').selectOption(entry.bankCode);
  await form.locator('input[name="value"]').fill(entry.value);
  await form.getByTestId(`blocklist-action-${entry.action ?? "refuse"}`).check();
  if (entry.note) await form.locator('textarea[name="note"]').fill(entry.note);
  await form.getByTestId("blocklist-add").click();
  await expect(page.getByTestId("toast")).toBeVisible({ timeout: 30_000 });
}

/** A visitor's registration form, filled and sent. */
async function register(page: Page, username: string, phone: string) {
  await page.goto("/register");
  await ready(page);
  const form = page.getByTestId("register-form");
  await form.locator('input[name="username"]').fill(username);
  await form.locator('input[name="phone"]').fill(phone);
  await form.locator('input[name="password"]').fill("Passw0rd-blocked");
  await form.locator('input[name="confirmPassword"]').fill("Passw0rd-blocked");
  await form.locator('input[name="adult"]').check();
  await form.locator('button[type="submit"]').click();
}

const playerCount = async (username: string) => Number((await d1(`SELECT COUNT(*) AS n FROM players WHERE username = '${username}'`))[0]?.n ?? 0);

test("the owner's blocklist page: from the menu, add an entry, find it, remove it; axe clean, 44 px targets on a phone", async ({
  page,
  expectHttpError,
}, info) => {
  await staffLogin(page, DEMO_STAFF.boss, "/admin/players");
  await openAdminMenu(page);
  await page
    .getByTestId("admin-menu")
    .getByRole("link", { name: textOf(bundle(info, "lo", "admin"), "blocklist.nav") })
    .click();
  await expect(page).toHaveURL(/\/admin\/blocklist$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(textOf(bundle(info, "lo", "admin"), "blocklist.title"));

  // a phone too short to ever match: refused by the form's schema (in the browser with JavaScript, by the action without)
  expectHttpError(400, /^\/admin\/blocklist/);
  const form = page.getByTestId("blocklist-add-form");
  await ready(page);
  await form.getByTestId("blocklist-kind").selectOption("phone");
  await form.locator('input[name="value"]').fill("12-34");
  await form.getByTestId("blocklist-add").click();
  await expect(form.locator(".field-errors").first()).toHaveText(textOf(bundle(info, "lo", "admin"), "blocklist.validation.phone"));
  expect(await d1(`SELECT COUNT(*) AS n FROM blocklist_entries WHERE match_key LIKE 'phone:1234%'`)).toEqual([{ n: 0 }]);

  const holder = `Screen Holder ${uniqueUsername("h").slice(-8)}`;
  await addEntry(page, { kind: "holder", value: holder, action: "flag", note: `screen ${info.project.name}` });
  const row = page.locator(`[data-testid="blocklist-table"] tr[data-shown="${holder}"]`);
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute("data-kind", "holder");
  await expect(row).toContainText(`screen ${info.project.name}`);
  // the filter, a plain GET form
  await page.locator("#blocklist-show").selectOption("holder");
  await page.getByTestId("blocklist-filter").getByRole("button").click();
  await expect(page).toHaveURL(/show=holder/);
  await expect(page.locator('[data-testid="blocklist-table"] tr[data-kind]:not([data-kind="holder"])')).toHaveCount(0);

  if (hasJs(info)) expect(await seriousAxeViolations(page, "/admin/blocklist")).toEqual([]);
  if (isPhone(info)) {
    for (const target of [
      page.getByTestId("blocklist-add"),
      row.getByRole("button"),
      page.getByTestId("blocklist-export"),
      form.locator("label.admin-check").first(),
    ]) {
      const box = (await target.boundingBox())!;
      expect(box.height, await target.innerText()).toBeGreaterThanOrEqual(44);
    }
  }

  await row.getByRole("button").click();
  await expect(page.getByTestId("toast")).toContainText(holder, { timeout: 30_000 });
  await expect(page.locator(`[data-testid="blocklist-table"] tr[data-shown="${holder}"]`)).toHaveCount(0);
  expect(await d1(`SELECT COUNT(*) AS n FROM audit_log WHERE action IN ('blocklist.add', 'blocklist.remove') AND after_json LIKE '%${holder}%'`)).toEqual([
    { n: 1 },
  ]);
});

test("the owner lists a phone, and a registration from that phone, typed another way, is refused with 'contact staff'", async ({
  page,
  expectHttpError,
}, info) => {
  test.skip(!isPhone(info), "a flow: once per JavaScript mode, on a phone");
  const phone = freshPhone();
  await staffLogin(page, DEMO_STAFF.boss, "/admin/blocklist");
  await addEntry(page, { kind: "phone", value: `+856 ${phone.slice(1, 3)} ${phone.slice(3, 7)}-${phone.slice(7)}`, note: "e2e: a chargeback" });
  await expect(page.locator('[data-testid="blocklist-table"] tr[data-kind="phone"]').first()).toContainText(phone.slice(-4));

  // a visitor: the same browser without the owner's cookie
  await page.context().clearCookies();
  const visitor = page;
  const lo = bundle(info, "lo", "common");
  const username = uniqueUsername("blk");
  expectHttpError(403, /^\/register/);
  await register(visitor, username, phone);
  await expect(visitor.getByTestId("form-error")).toHaveText(textOf(lo, "blocklist.registrationRefused"));
  await expect(visitor).toHaveURL(/\/register/);
  expect(await playerCount(username)).toBe(0);

  // the same words in cn and vn, no raw key, and never the list's name
  const keys = allKeys(info, ["common", "player"]);
  for (const [lng, htmlLang] of [
    ["cn", "zh-CN"],
    ["vn", "vi"],
  ] as const) {
    await visitor.goto("/register");
    await switchLanguage(visitor, htmlLang);
    await register(visitor, username, phone.replace(/^0/, "+856"));
    await expect(visitor.getByTestId("form-error")).toHaveText(textOf(bundle(info, lng, "common"), "blocklist.registrationRefused"));
    expect(await rawKeysOn(visitor, keys)).toEqual([]);
    await expect(visitor.locator("body")).not.toContainText(textOf(bundle(info, lng, "admin"), "blocklist.title"));
  }
  expect(await playerCount(username)).toBe(0);
});

test("the owner's page in cn and vn: its own words, no raw key", async ({ page }, info) => {
  test.skip(!isPhone(info), "the phone projects (JavaScript on and off) cover it; the strings do not depend on the viewport");
  const keys = allKeys(info, ["common", "admin"]);
  await staffLogin(page, DEMO_STAFF.boss, "/admin/blocklist");
  for (const [lng, htmlLang] of [
    ["cn", "zh-CN"],
    ["vn", "vi"],
  ] as const) {
    const admin = bundle(info, lng, "admin");
    await openAdminMenu(page);
    await page.getByTestId("admin-menu").locator(`.admin-languages button[lang="${htmlLang}"]`).click();
    await expect(page.locator("html")).toHaveAttribute("lang", htmlLang);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(textOf(admin, "blocklist.title"));
    await expect(page.getByTestId("blocklist-add")).toHaveText(textOf(admin, "blocklist.add"));
    await expect(page.getByTestId("blocklist-action-refuse")).toBeChecked();
    await expect(page.getByText(textOf(admin, "blocklist.actions.flag"), { exact: true })).toBeVisible();
    expect(await rawKeysOn(page, keys)).toEqual([]);
  }
  await openAdminMenu(page);
  await page.getByTestId("admin-menu").locator('.admin-languages button[lang="lo"]').click();
  await expect(page.locator("html")).toHaveAttribute("lang", "lo");
});
