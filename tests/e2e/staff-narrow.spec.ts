import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { d1 } from "./d1";
import { accountTest as test, expect, hasJs, isPhone, seriousAxeViolations, waitForHydration } from "./fixtures";
import { adminPages } from "./pages";
import { addBankAccount, depositCredit, loggedInPlayerByApi } from "./player";
import { DEMO_STAFF, openAdminMenu, staffLogin } from "./staff";

/**
 * Every staff screen at 360 px without sideways scroll (decision 088, amending 056). On a phone
 * (phone-js, phone-nojs) the owner visits EVERY back-office page of app/routes.ts, plus a
 * player's and a deposit's page and the hourly report (24 rows x 15 figures), in lo, cn and
 * vn, and the cashier every page in lo; on each, no element is wider inside than its box
 * (scrollWidth <= clientWidth + 1, form fields' own text aside) and no overflow hidden/clip
 * was put on html, body or main to hide it. The lists are not empty: they are the seeded
 * `narrow.e2e.localhost` agency's (scripts/seed-e2e.mjs), whose lists are long and have no
 * staff alerts; a real withdrawal's page (it reads the player's wallet) is visited in the demo
 * agency.
 * On a desktop (desktop-js, desktop-nojs) the changed screens: the page never wider than the
 * window, the tiles, the typed date fields, no serious axe violation. The browser's locale is
 * en-US, under which a native date field shows mm/dd/yyyy: the pages must show DD/MM/YYYY.
 */

test.use({ locale: "en-US" });
test.describe.configure({ timeout: 600_000 });

const LANGS = [
  ["lo", "lo"],
  ["cn", "zh-CN"],
  ["vn", "vi"],
] as const;
const sql = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * The agency whose lists are long (scripts/seed-e2e.mjs `narrowSql`): a player with a long Lao
 * name, 30 deposits and 12 withdrawals over the hours before the seed (every status and
 * provider), three payments that matched no order. Read only.
 */
const NARROW = { playerId: "e2e-narrow-p1", deposit: "DNARROW00001" };
const port = Number(process.env.E2E_PORT ?? 4173);
const narrowAgency = `http://narrow.e2e.localhost:${port}`;

/**
 * A real withdrawal waiting for staff in the demo agency (its page reads the player's wallet,
 * which seeded rows do not reach): a fresh player deposits through the sandbox bank and asks
 * for more than the automatic payout's limit. Its deposit is a real one too (its rate).
 */
async function realWithdrawal(page: Page, baseURL: string): Promise<{ withdrawal: string; deposit: string }> {
  const username = await loggedInPlayerByApi(page, baseURL);
  await addBankAccount(page);
  await depositCredit(page, "3600000", "฿6.000,00");
  await page.goto("/player/withdraw");
  const form = page.getByTestId("withdraw-form");
  await form.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
  await form.getByLabel("ຈຳນວນເຄຣດິດທີ່ຖອນ").fill("5500");
  await form.getByRole("button", { name: "ຕໍ່ໄປ" }).click();
  await page.getByTestId("withdraw-confirm-button").click();
  await expect(page).toHaveURL(/\/player\/withdraw\/history$/);
  const withdrawal = (await page.getByTestId("withdraw-history").locator("tbody tr").first().getAttribute("data-code"))!;
  const [deposit] = await d1(
    `SELECT v.code FROM deposit_orders_view v JOIN players p ON p.id = v.player_id WHERE p.agency_id = 'demo' AND p.username = ${sql(username)}`,
  );
  return { withdrawal, deposit: String(deposit.code) };
}

/** Every staff page, the pages of one record (seeded) and the two report groupings. */
function staffPages(info: TestInfo): string[] {
  return [
    // a promotion's page: the narrow agency's own promotion (ids are unique across agencies)
    ...adminPages(info).map((path) => (/^\/admin\/promotions\/(?!new$)[^/]+$/.test(path) ? "/admin/promotions/narrow-welcome-100" : path)),
    `/admin/players/${NARROW.playerId}`,
    `/admin/deposits/${NARROW.deposit}`,
    "/admin/reports?preset=today",
    "/admin/reports?preset=7d",
  ];
}

/**
 * What is wider than its box on the page: each element whose content is wider than its inside
 * (scrollWidth > clientWidth + 1; an inline element measures 0 and 0), except a form field's own
 * text (it scrolls inside the field) and what is clipped out of sight on purpose (the
 * screen-reader-only texts); then overflow hidden or clip on html, body or main, which would
 * hide a wide page instead of fixing it.
 */
function sidewaysOverflow(): string[] {
  const clipped = (el: Element) => {
    for (let e: Element | null = el; e; e = e.parentElement) {
      const style = getComputedStyle(e);
      if ((style.clip && style.clip !== "auto") || style.clipPath !== "none") return true;
    }
    return false;
  };
  const name = (el: Element) => {
    const id = el.id ? `#${el.id}` : "";
    const testId = el.getAttribute("data-testid") ? `[data-testid=${el.getAttribute("data-testid")}]` : "";
    const cls = typeof el.className === "string" && el.className ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
    return `${el.tagName.toLowerCase()}${id}${testId}${cls} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
  };
  const found: string[] = [];
  for (const el of document.querySelectorAll("body *")) {
    if (["INPUT", "TEXTAREA", "SELECT", "OPTION", "SCRIPT", "STYLE"].includes(el.tagName)) continue;
    if (el instanceof SVGElement && !(el instanceof SVGSVGElement)) continue;
    // not drawn: display none, or inside a closed <details> (its content-visibility is hidden)
    if (!el.checkVisibility() || el.scrollWidth <= el.clientWidth + 1 || clipped(el)) continue;
    found.push(`${name(el)}: ${el.scrollWidth} > ${el.clientWidth}`);
  }
  for (const selector of ["html", "body", "main"]) {
    const el = document.querySelector(selector);
    if (!el) continue;
    const style = getComputedStyle(el);
    for (const value of [style.overflowX, style.overflow]) if (/hidden|clip/.test(value)) found.push(`${selector}: overflow ${value}`);
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) found.push(`the page: ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
  return found;
}

/**
 * What a staff page should not show raw (decision 088): a status or review code, a provider's
 * code, a native date or time field; and the typed date fields' values, which must read
 * DD/MM/YYYY (HH:mm) whatever the browser's locale.
 */
function rawCodes(): string[] {
  const found: string[] = [];
  const main = document.querySelector("main");
  if (!main) return ["no main"];
  // stored texts (a bank message, an audit entry's JSON, a CSV line) are shown as they are
  const parts: string[] = [];
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("pre, code, .raw-text, [data-raw], option, script, style") || !parent.checkVisibility()) continue;
    parts.push(node.textContent ?? "");
  }
  const text = parts.join("\n");
  for (const m of text.matchAll(/\b(OPEN|PAID|SUCCESS|FAILED|CANCELED|REJECTED|MANUAL|APPROVED)\b|\b(askmebet|betflix|gclub_live|gclub|alphabet)\b/g))
    found.push(`raw "${m[0]}"`);
  for (const input of document.querySelectorAll('input[type="date"], input[type="datetime-local"], input[type="time"], input[type="month"]'))
    found.push(`a native ${input.getAttribute("type")} field ${input.getAttribute("name")}`);
  for (const input of document.querySelectorAll<HTMLInputElement>("input[data-typed-date]")) {
    const kind = input.getAttribute("data-typed-date");
    const shape = kind === "day" ? /^\d{2}\/\d{2}\/\d{4}$/ : kind === "dateTime" ? /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/ : /^\d{2}:\d{2}$/;
    if (input.value !== "" && !shape.test(input.value)) found.push(`${input.name} shows "${input.value}"`);
    if (input.getAttribute("inputmode") !== "numeric" || !input.getAttribute("placeholder")) found.push(`${input.name}: no number pad or placeholder`);
  }
  return found;
}

/** Keys of the staff namespaces a page might show raw ("deposits.status"). */
function keysOf(info: TestInfo): Set<string> {
  const keys = new Set<string>();
  const walk = (tree: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(tree)) {
      if (typeof value === "string") keys.add(prefix + key);
      else walk(value as Record<string, unknown>, `${prefix}${key}.`);
    }
  };
  for (const ns of ["common", "admin"]) walk(JSON.parse(readFileSync(join(dirname(info.config.configFile!), `locales/lo/${ns}.json`), "utf8")), "");
  return keys;
}

async function rawKeysOn(page: Page, keys: Set<string>): Promise<string[]> {
  const shown = await page.evaluate(() => {
    // an identifier shown as code (an audit entry's action, "staff.create") is no key left untranslated
    const texts = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      if (node.parentElement && !node.parentElement.closest("pre, code, script, style") && node.parentElement.checkVisibility())
        texts.push(node.textContent ?? "");
    for (const el of document.querySelectorAll("[aria-label],[placeholder],[title]"))
      for (const attr of ["aria-label", "placeholder", "title"]) texts.push(el.getAttribute(attr) ?? "");
    return texts.join("\n");
  });
  return [...new Set(shown.match(/[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+/g) ?? [])].filter((token) => keys.has(token));
}

/** The back office in another language: its own switch, in the menu (a <details>, opened on a phone). */
async function staffLanguage(page: Page, htmlLang: string) {
  await page.goto("/admin");
  await openAdminMenu(page);
  await page.getByTestId("admin-menu").locator(`.admin-languages button[lang="${htmlLang}"]`).click();
  await expect(page.locator("html")).toHaveAttribute("lang", htmlLang);
}

test.describe("staff screens on a narrow phone", () => {
  test.use({ baseURL: narrowAgency });

  test("the owner's every page fits 360 px in lo, cn and vn, statuses and providers in words, dates typed DD/MM/YYYY", async ({ page }, info) => {
    test.skip(!isPhone(info), "a phone's width (the desktop projects run the changed screens below)");
    const keys = keysOf(info);
    await staffLogin(page, DEMO_STAFF.boss);
    const failures: string[] = [];
    for (const [lng, htmlLang] of LANGS) {
      if (lng !== "lo") await staffLanguage(page, htmlLang);
      for (const path of staffPages(info)) {
        const response = await page.goto(path);
        await waitForHydration(page);
        if (response?.status() !== 200) failures.push(`${lng} ${path}: status ${response?.status()}`);
        await expect(page.locator("html")).toHaveAttribute("lang", htmlLang);
        for (const problem of await page.evaluate(sidewaysOverflow)) failures.push(`${lng} ${path}: ${problem}`);
        for (const key of await rawKeysOn(page, keys)) failures.push(`${lng} ${path}: raw key ${key}`);
        if (lng === "lo") for (const problem of await page.evaluate(rawCodes)) failures.push(`${path}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
  });

  test("the lists are cards with the amount and the status first; the dashboard's waiting counts are tiles", async ({ page }, info) => {
    test.skip(!isPhone(info), "a phone's layout");
    await staffLogin(page, DEMO_STAFF.boss, "/admin/deposits");
    const card = page.getByTestId("deposits-table").locator("tbody tr").first();
    await expect(card).toBeVisible();
    // the lead cells (amount, status) are the card's first line, side by side
    const boxes = await card
      .locator("td")
      .evaluateAll((cells) => cells.map((c) => ({ lead: c.hasAttribute("data-lead"), top: Math.round(c.getBoundingClientRect().top) })));
    const top = Math.min(...boxes.map((b) => b.top));
    expect(boxes.filter((b) => b.lead)).toHaveLength(2);
    expect(boxes.filter((b) => b.top === top).every((b) => b.lead)).toBe(true);
    expect(boxes.filter((b) => b.lead).every((b) => b.top === top)).toBe(true);
    await expect(card.locator("td[data-lead] .admin-status")).toHaveText(/ລໍຖ້າ|ຈ່າຍແລ້ວ|ສຳເລັດ|ລົ້ມເຫຼວ|ຍົກເລີກ/);

    // the filter's fields and buttons are one height, 44 px
    const heights = await page
      .getByTestId("deposit-filter")
      .locator("input:not([type=hidden]), select, .button")
      .evaluateAll((controls) => controls.map((c) => Math.round(c.getBoundingClientRect().height)));
    expect(heights.length).toBeGreaterThanOrEqual(9);
    expect(new Set(heights)).toEqual(new Set([44]));

    // the alert settings: a 44 px row per topic, its whole row the label
    await page.goto("/admin/settings/alerts");
    const rows = page.getByTestId("alert-topics").locator("label.admin-check");
    await expect(rows).toHaveCount(6);
    for (const box of await rows.evaluateAll((labels) => labels.map((l) => l.getBoundingClientRect().height))) expect(box).toBeGreaterThanOrEqual(44);

    // the hourly report: 24 hours, each a card; its last figure reachable without sideways scroll
    await page.goto("/admin/reports?preset=today");
    const hours = page.getByTestId("table-money").locator("tbody tr:not([data-total])");
    await expect(hours).toHaveCount(24);
    const last = hours.nth(23).locator("td").last();
    await last.scrollIntoViewIfNeeded();
    const box = await last.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);

    // the waiting counts, first and large
    await page.goto("/admin");
    const tiles = page.getByTestId("dash-pending");
    await expect(tiles.locator(".admin-tile")).toHaveCount(6);
    await expect(page.getByTestId("dash-pending-withdrawals")).toHaveText("6");
    await expect(page.getByTestId("dash-unmatched")).toHaveText(/^[1-9]\d*$/);
    const tile = await tiles.locator(".admin-tile").first().boundingBox();
    expect(tile!.height).toBeGreaterThanOrEqual(44);
    expect(tile!.y).toBeLessThan(400);
    await expect(page.getByTestId("dash-pending-withdrawals")).toHaveCSS("font-size", "36px");

    // the player's history: the provider's name, the status and the review in words
    await page.goto(`/admin/players/${NARROW.playerId}`);
    await expect(page.locator("main").getByText("GClub Live").first()).toBeVisible();
    await expect(page.locator("main").getByText("ລໍຖ້າ · ລໍຖ້າພະນັກງານກວດສອບ").first()).toBeVisible();
  });

  test("the cashier's every page fits 360 px", async ({ page }, info) => {
    test.skip(!isPhone(info), "a phone's width");
    await staffLogin(page, DEMO_STAFF.cashier);
    const failures: string[] = [];
    for (const path of staffPages(info)) {
      await page.goto(path);
      await waitForHydration(page);
      for (const problem of await page.evaluate(sidewaysOverflow)) failures.push(`${path}: ${problem}`);
    }
    expect(failures).toEqual([]);
  });

  test("a day that does not exist is a translated message, and the field keeps what was typed", async ({ page }, info) => {
    test.skip(!isPhone(info), "the form is the same at every width");
    await staffLogin(page, DEMO_STAFF.boss, "/admin/deposits");
    await waitForHydration(page);
    const form = page.getByTestId("deposit-filter");
    await form.getByLabel("ແຕ່ວັນທີ").fill("31/02/2026");
    await form.locator('button[type="submit"]').click();
    await expect(page.getByTestId("f-from-error")).toHaveText(/ວັນທີບໍ່ຖືກຕ້ອງ/);
    await expect(page.getByTestId("deposit-filter").getByLabel("ແຕ່ວັນທີ")).toHaveValue("31/02/2026");
    await expect(page.getByTestId("deposit-filter").getByLabel("ແຕ່ວັນທີ")).toHaveAttribute("aria-invalid", "true");
  });
});

test.describe("a real withdrawal's and deposit's pages on a narrow phone", () => {
  test("fit 360 px; the rate is a plain number", async ({ page, baseURL }, info) => {
    test.skip(!isPhone(info), "a phone's width");
    const real = await realWithdrawal(page, baseURL!);
    await staffLogin(page, DEMO_STAFF.cashier, `/admin/withdrawals/${real.withdrawal}`);
    const failures: string[] = [];
    for (const path of [`/admin/withdrawals/${real.withdrawal}`, `/admin/deposits/${real.deposit}`]) {
      await page.goto(path);
      await waitForHydration(page);
      for (const problem of await page.evaluate(sidewaysOverflow)) failures.push(`${path}: ${problem}`);
      for (const problem of await page.evaluate(rawCodes)) failures.push(`${path}: ${problem}`);
    }
    // scripts/seed.sql: 600 kip per THB
    await expect(page.getByTestId("deposit-rate")).toHaveText("600");
    expect(failures).toEqual([]);
  });
});

test.describe("staff screens on a desktop", () => {
  test.use({ baseURL: narrowAgency });

  test("the changed screens at 1280 px: no page wider than the window, tiles, typed dates, no serious axe violation", async ({ page }, info) => {
    test.skip(isPhone(info), "the phone projects run every page above");
    await staffLogin(page, DEMO_STAFF.boss);
    const failures: string[] = [];
    const changed = [
      "/admin",
      "/admin/deposits",
      `/admin/deposits/${NARROW.deposit}`,
      `/admin/players/${NARROW.playerId}`,
      "/admin/withdrawals",
      "/admin/deposits/open",
      "/admin/payments",
      "/admin/reports?preset=today",
      "/admin/reconciliation",
      "/admin/settings/alerts",
    ];
    for (const path of changed) {
      const response = await page.goto(path);
      await waitForHydration(page);
      if (response?.status() !== 200) failures.push(`${path}: status ${response?.status()}`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wide > 1) failures.push(`${path}: ${wide}px wider than the window`);
      for (const problem of await page.evaluate(rawCodes)) failures.push(`${path}: ${problem}`);
      if (hasJs(info)) failures.push(...(await seriousAxeViolations(page, path)));
    }
    await page.goto("/admin");
    await expect(page.getByTestId("dash-pending").locator(".admin-tile")).toHaveCount(6);
    await page.goto("/admin/deposits?from=2026-12-01");
    await expect(page.getByTestId("deposit-filter").locator('input[name="from"]')).toHaveValue("01/12/2026");
    await page.goto(`/admin/deposits/${NARROW.deposit}`);
    await expect(page.getByTestId("deposit-status")).toHaveAttribute("data-status", "PAID");
    expect(failures).toEqual([]);
  });
});
