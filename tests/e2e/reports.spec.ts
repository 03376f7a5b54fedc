import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { accountTest as test, expect, hasJs, isPhone, waitForHydration, seriousAxeViolations } from "./fixtures";
import { DEMO_STAFF, openAdminMenu, staffLogin } from "./staff";

/**
 * Reports (decision 059) on the demo agency, read-only: an owner sees money, players, promotions
 * and providers as SVG charts with a table each, picks ranges by preset links and by the GET
 * form, and downloads a CSV (BOM, translated header); a cashier sees the money part only and
 * gets 403 for an owner's CSV. Phone and desktop, JavaScript on and off.
 */
test.describe.configure({ timeout: 120_000 });

const DAY_MS = 24 * 60 * 60 * 1000;
/** The Vientiane day (UTC+7) `daysAgo` days before today, 'YYYY-MM-DD'. */
function vientianeDay(daysAgo = 0): string {
  return new Date(Date.now() + 7 * 60 * 60 * 1000 - daysAgo * DAY_MS).toISOString().slice(0, 10);
}
/** A day as staff type it into the range form's text fields, DD/MM/YYYY (decision 088). */
const typedDay = (iso: string) => iso.split("-").reverse().join("/");

async function openReports(page: Page, path = "/admin/reports") {
  await page.goto(path);
  await waitForHydration(page);
}

/** The CSV behind a download link, as the browser saved it. */
async function download(page: Page, testId: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
  return { name: file.suggestedFilename(), bytes: await readFile((await file.path())!) };
}

test.describe("reports", () => {
  test("the owner sees every part as a chart and a table, picks presets and a range, downloads a CSV", async ({ page, expectHttpError }, info) => {
    expectHttpError(401, /^\/admin\/login\/totp/);
    await staffLogin(page, DEMO_STAFF.boss);
    const link = page.getByTestId("admin-nav").locator('a[data-section="reports"]');
    await openAdminMenu(page);
    await expect(link).toHaveText("ລາຍງານ");
    await link.click();
    await expect(page).toHaveURL(/\/admin\/reports$/);
    await waitForHydration(page);

    // Today by default, by the hour: 24 periods and a total row.
    const range = page.getByTestId("report-range");
    await expect(range).toHaveAttribute("data-from", vientianeDay());
    await expect(range).toHaveAttribute("data-grouping", "hour");
    await expect(page.getByTestId("report-presets").locator('a[data-preset="today"]')).toHaveAttribute("aria-current", "page");
    for (const part of ["report-money", "report-players", "report-promotions", "report-providers"]) await expect(page.getByTestId(part)).toBeVisible();
    await expect(page.getByTestId("chart-money").locator("svg[role=img]")).toBeVisible();
    await expect(page.getByTestId("chart-money").locator("svg title").first()).not.toBeEmpty();
    await expect(page.getByTestId("chart-players").locator("svg circle")).toHaveCount(24 * 3);
    await expect(page.getByTestId("table-money").locator("tbody tr")).toHaveCount(25);
    await expect(page.getByTestId("table-money").locator("tbody tr").last().locator("th")).toHaveText("ລວມ");
    await expect(page.getByTestId("table-players")).toBeVisible();
    await expect(page.getByTestId("table-promotions")).toBeVisible();
    await expect(page.getByTestId("table-providers")).toBeVisible();
    // The axis labels are text in the SVG, readable without JavaScript.
    await expect(page.getByTestId("chart-money").locator("svg text", { hasText: /^00$/ })).toHaveCount(1);

    if (hasJs(info)) {
      // A point's tooltip (pointer on desktop, tap on a phone). The last series is drawn on top
      // (equal values overlap): its point of 05:00.
      const point = page
        .getByTestId("chart-players")
        .locator("circle")
        .nth(2 * 24 + 5);
      if (isPhone(info)) await point.tap();
      else await point.hover();
      await expect(page.getByTestId("chart-players").getByTestId("chart-tip")).toContainText("05:00");
    }

    // Preset: the last 7 days, by day.
    await page.getByTestId("report-presets").locator('a[data-preset="7d"]').click();
    await expect(page).toHaveURL(/preset=7d/);
    await expect(range).toHaveAttribute("data-from", vientianeDay(6));
    await expect(range).toHaveAttribute("data-to", vientianeDay());
    await expect(range).toHaveAttribute("data-grouping", "day");
    await expect(page.getByTestId("table-money").locator("tbody tr")).toHaveCount(7 + 1);
    await expect(page.getByTestId("report-presets").locator('a[data-preset="7d"]')).toHaveAttribute("aria-current", "page");

    // Preset: yesterday, by the hour.
    await page.getByTestId("report-presets").locator('a[data-preset="yesterday"]').click();
    await expect(range).toHaveAttribute("data-from", vientianeDay(1));
    await expect(range).toHaveAttribute("data-grouping", "hour");

    // The plain GET form: three days by day.
    await waitForHydration(page);
    const form = page.getByTestId("report-range-form");
    await form.getByLabel("ຈາກວັນທີ").fill(typedDay(vientianeDay(2)));
    await form.getByLabel("ຫາວັນທີ").fill(typedDay(vientianeDay()));
    await form.getByLabel("ຈັດກຸ່ມຕາມ").selectOption("day");
    await form.getByRole("button", { name: "ສະແດງ" }).click();
    await expect(page).toHaveURL(
      new RegExp(`from=${encodeURIComponent(typedDay(vientianeDay(2)))}&to=${encodeURIComponent(typedDay(vientianeDay()))}&grouping=day`),
    );
    await expect(range).toHaveAttribute("data-from", vientianeDay(2));
    await expect(page.getByTestId("table-money").locator("tbody tr")).toHaveCount(3 + 1);

    // The money CSV of that range: BOM, the translated header, the table's rows.
    const money = await download(page, "csv-money");
    expect(money.name).toBe(`money_${vientianeDay(2)}_${vientianeDay()}.csv`);
    expect([...money.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = money.bytes
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .split("\r\n");
    expect(lines[0]).toMatch(/^ຊ່ວງເວລາ,ຈຳນວນການຝາກ,ຝາກ \(ກີບ\),ຝາກ \(ເຄຣດິດ\),/);
    expect(lines.slice(1, 4).map((l) => l.split(",")[0])).toEqual([vientianeDay(2), vientianeDay(1), vientianeDay()]);
    expect(lines[4]).toMatch(/^ລວມ,\d+,/);
    // The page's total deposit count is the CSV's.
    await expect(page.getByTestId("table-money").locator("tbody tr").last().locator("td").first()).toHaveText(
      lines[4].split(",")[1].replace(/\B(?=(\d{3})+(?!\d))/g, "."),
    );

    const providers = await download(page, "csv-providers");
    expect(providers.bytes.toString("utf8")).toMatch(/^\uFEFFຊ່ວງເວລາ,ຄ່າຍເກມ,ເທີນໂອເວີ \(ເຄຣດິດ\),ໄດ້\/ເສຍ \(ເຄຣດິດ\),ມື້ທີ່ບໍ່ມີຕົວເລກ\r\n/);
  });

  test("an invalid range is a clear message and the page still renders", async ({ page, expectHttpError }) => {
    expectHttpError(401, /^\/admin\/login\/totp/);
    await staffLogin(page, DEMO_STAFF.boss, "/admin/reports?from=2026-02-30&to=2026-03-01");
    await expect(page.getByTestId("report-range-error")).toHaveText(/ຊ່ວງວັນທີບໍ່ຖືກຕ້ອງ/);
    await expect(page.getByTestId("report-money")).toHaveCount(0);
    await waitForHydration(page);
    // From after to, through the form.
    const form = page.getByTestId("report-range-form");
    await form.getByLabel("ຈາກວັນທີ").fill(typedDay(vientianeDay()));
    await form.getByLabel("ຫາວັນທີ").fill(typedDay(vientianeDay(3)));
    await form.getByRole("button", { name: "ສະແດງ" }).click();
    await expect(page.getByTestId("report-range-error")).toHaveAttribute("data-error", "RANGE_INVALID");
    await expect(page.getByTestId("report-range-form")).toBeVisible();
    await expect(page.getByTestId("admin-nav")).toBeVisible();
    // Longer than 92 days.
    await openReports(page, `/admin/reports?from=${vientianeDay(120)}&to=${vientianeDay()}`);
    await expect(page.getByTestId("report-range-error")).toHaveText(/92/);
  });

  test("a cashier sees the money part only and gets 403 for the owner's CSV", async ({ page, expectHttpError }) => {
    expectHttpError(401, /^\/admin\/login\/totp/);
    await staffLogin(page, DEMO_STAFF.cashier, "/admin/reports?preset=7d");
    await openAdminMenu(page);
    await expect(page.getByTestId("admin-nav").locator('a[data-section="reports"]')).toBeVisible();
    await expect(page.getByTestId("report-money")).toBeVisible();
    await expect(page.getByTestId("chart-money").locator("svg")).toBeVisible();
    await expect(page.getByTestId("table-money")).toBeVisible();
    for (const part of ["report-players", "report-promotions", "report-providers", "csv-players"]) await expect(page.getByTestId(part)).toHaveCount(0);
    const money = await download(page, "csv-money");
    expect(money.bytes.toString("utf8").startsWith("\uFEFFຊ່ວງເວລາ,")).toBe(true);
    for (const table of ["players", "promotions", "providers"]) {
      const res = await page.request.get(`/admin/reports/${table}.csv?preset=7d`);
      expect(res.status(), table).toBe(403);
    }
    expect((await page.request.get("/admin/reports/money-by-provider.csv?preset=7d")).status()).toBe(200);
  });

  test("the reports page has no serious or critical axe violations", async ({ page, expectHttpError }, info) => {
    test.skip(!hasJs(info), "axe runs as a script in the page; the markup is the same with JavaScript off");
    expectHttpError(401, /^\/admin\/login\/totp/);
    await staffLogin(page, DEMO_STAFF.boss, "/admin/reports?preset=7d");
    for (const path of ["/admin/reports?preset=7d", "/admin/reports?preset=today", "/admin/reports?from=2026-02-30"]) {
      await openReports(page, path);
      expect(await seriousAxeViolations(page, path)).toEqual([]);
    }
  });
});
