import QRCode from "qrcode";
import { oneProofText } from "../integration/fixtures/one-proof";
import { d1 } from "./d1";
import { accountTest as test, expect, hasJs, isPhone, loginByApi, newPlayer, registerByApi, switchLanguage, waitForHydration } from "./fixtures";
import { bankTimeInput, creditedTwice, openOwnOrder, ownAgency, OWN_CHANNEL, pastDay, shownTime } from "./one-payment";
import { playerPages } from "./pages";
import { DEMO_STAFF, openAdminMenu, staffLogin } from "./staff";
import { allKeys, bundle, rawKeysOn, type Tree } from "./translated";

/**
 * Translations per page (decision 032): a player page inlines only the key groups
 * its routes declare, and a client navigation fetches the next page's groups before it renders.
 * Here, on a phone with JavaScript on and off, in lo, cn and vn: no player page shows a raw
 * key (a key it renders but did not ship would show as "deposit.amount"), none logs a
 * hydration mismatch (the fixtures fail a test on any console error), and navigations between
 * the player pages (JavaScript on) show every page translated: a client navigation between
 * pages that hydrate, a document load into a lite page (decision 034; its `clientLoader`).
 */

const LANGS = [
  ["lo", "lo"],
  ["cn", "zh-CN"],
  ["vn", "vi"],
] as const;

test.describe("translations per page", () => {
  test.describe.configure({ timeout: 300_000 });

  test("every player page shows no raw key and hydrates cleanly, in lo, cn and vn", async ({ page, clientIp }, info) => {
    test.skip(!isPhone(info), "the phone projects (JavaScript on and off) cover it; the strings do not depend on the viewport");
    const keys = allKeys(info);
    const player = newPlayer();
    await registerByApi(page.request, player, clientIp);
    await loginByApi(page, player, clientIp);
    const found: string[] = [];
    for (const [lng, htmlLang] of LANGS) {
      await page.goto("/player/sessions");
      if (lng !== "lo") await switchLanguage(page, htmlLang);
      for (const path of playerPages(info)) {
        await page.goto(path);
        await waitForHydration(page);
        await expect(page.locator("html")).toHaveAttribute("lang", htmlLang);
        for (const key of await rawKeysOn(page, keys)) found.push(`${lng} ${path}: ${key}`);
        if (hasJs(info)) {
          // the page inlines its own groups, not whole namespaces
          const groups = await page.evaluate(() => JSON.parse(document.getElementById("i18n-resources")?.textContent ?? "{}").groups);
          expect(Array.isArray(groups) && groups.length > 0, `${path} inlines key groups`).toBe(true);
        }
      }
    }
    expect(found).toEqual([]);
  });

  test("navigation between player pages renders each page translated: client navigation between pages that hydrate, a document load into a lite page", async ({
    page,
    clientIp,
  }, info) => {
    test.skip(!isPhone(info) || !hasJs(info), "client navigation needs JavaScript");
    const keys = allKeys(info);
    const player = newPlayer();
    await registerByApi(page.request, player, clientIp);
    await loginByApi(page, player, clientIp);
    const keyRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/locales/")) keyRequests.push(new URL(request.url()).pathname + new URL(request.url()).search);
    });
    type Router = { navigate: (to: string) => Promise<void>; state: { navigation: { state: string } } };
    const mode = () => page.locator("html").getAttribute("data-scripts");
    const found: string[] = [];
    const seen = { client: 0, document: 0 };
    for (const [lng, htmlLang] of [LANGS[0], LANGS[2]]) {
      await page.goto("/player/sessions");
      if (lng !== "lo") await switchLanguage(page, htmlLang);
      await waitForHydration(page);
      // a real link first (the bottom bar's deposit)
      await page.getByTestId("bottom-bar").getByRole("link").first().click();
      await expect(page).toHaveURL(/\/player\/deposit/);
      await expect(page.getByTestId("deposit-form").or(page.getByTestId("bank-required"))).toBeVisible();
      await waitForHydration(page);
      for (const key of await rawKeysOn(page, keys)) found.push(`${lng} /player/deposit (link): ${key}`);
      for (const path of [...playerPages(info).filter((p) => p !== "/player/sessions"), "/player/sessions"]) {
        const from = await mode();
        // a document load would lose this mark
        await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
        // from a page that hydrates: the router, as a link would use it; from a lite page a link is a document load
        if (from === "app")
          await page.evaluate((to) => void (window as unknown as { __reactRouterDataRouter: Router }).__reactRouterDataRouter.navigate(to), path);
        else await page.goto(path);
        await expect(page).toHaveURL(new RegExp(`${path.replace(/[/?.]/g, "\\$&")}$`));
        await waitForHydration(page);
        const to = await mode();
        if (from === "app" && to === "app") {
          await expect
            .poll(() => page.evaluate(() => (window as unknown as { __reactRouterDataRouter: Router }).__reactRouterDataRouter.state.navigation.state))
            .toBe("idle");
          expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), `${path}: no document load`).toBe(true);
          seen.client++;
        } else {
          // a lite page never renders with React: reached from a page that hydrates, its clientLoader loads it as a document
          expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), `${path}: a document load`).toBeUndefined();
          seen.document++;
        }
        await expect(page.locator("main#main")).toBeVisible();
        for (const key of await rawKeysOn(page, keys)) found.push(`${lng} ${path}: ${key}`);
      }
    }
    expect(found).toEqual([]);
    // every navigation was checked (since decision 034 every player page is lite: document loads)
    expect(seen.client + seen.document).toBeGreaterThan(0);
    // a page that hydrates fetched the groups it lacked in small answers (keys.json), never whole namespaces
    expect(
      keyRequests.every((url) => url.includes("/keys.json?")),
      keyRequests.join("\n"),
    ).toBe(true);
    if (seen.client > 0) expect(keyRequests.length).toBeGreaterThan(0);
  });
});

/**
 * The back office's messages of one payment, one credit (decision 069) in cn and vn, on a phone with JavaScript
 * on and off (the flows themselves run in lo: one-payment.spec.ts, reconciliation.spec.ts): the
 * refusal of "mark paid" at a bank time outside the order's life with the order's times, its
 * "record anyway" button and answer, the hand credit's confirm step of an order's pay amount, and
 * a transfer credited twice on the reconciliation page with its settlement form and answer. Each
 * text is the language's own (locales/<lng>/admin.json, its values put in), and no page shows a
 * raw key. The states are made before, in lo: an open order per language, and a past day with
 * two transfers credited twice (one settled in each language).
 */
test.describe("the back office's messages of one payment, one credit", () => {
  const port = Number(process.env.E2E_PORT ?? 4173);
  test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.own.localhost:${port}`) });
  test.describe.configure({ timeout: 300_000 });

  /** A message of the admin namespace with its values put in, as i18next does. */
  const text = (tree: Tree, key: string, values: Record<string, string | number> = {}) => {
    const template = key.split(".").reduce<unknown>((node, part) => (node as Tree)[part], tree);
    expect(typeof template, key).toBe("string");
    return (template as string).replace(/\{\{(\w+)\}\}/g, (_all, name: string) => String(values[name]));
  };

  test("mark paid outside an order's life, the hand credit of an order's pay amount and a transfer credited twice, in cn and vn", async ({
    page,
    expectHttpError,
  }, info) => {
    test.skip(!isPhone(info), "the phone projects (JavaScript on and off) cover it; the strings do not depend on the viewport");
    const keys = allKeys(info, ["common", "admin"]);
    const orders = { cn: await openOwnOrder(page, "64000"), vn: await openOwnOrder(page, "65000") };
    expectHttpError(401, /^\/admin\/login\/totp/);
    expectHttpError(409, /^\/admin\/deposits\/open/);
    await staffLogin(page, DEMO_STAFF.boss, "/admin/deposits/open");
    const day = pastDay();
    const doubles = [await creditedTwice(page, day, orders.cn.username), await creditedTwice(page, day, orders.cn.username)];

    const found: string[] = [];
    for (const [lng, htmlLang] of [
      ["cn", "zh-CN"],
      ["vn", "vi"],
    ] as const) {
      const admin = bundle(info, lng, "admin");
      const order = orders[lng];
      const txn = `FT${order.code}`;
      const mistyped = order.createdAt - 3600_000;
      await page.goto("/admin/deposits/open");
      await openAdminMenu(page);
      await page.getByTestId("admin-menu").locator(`.admin-languages button[lang="${htmlLang}"]`).click();
      await expect(page.locator("html")).toHaveAttribute("lang", htmlLang);

      // "mark paid" at an hour before the order opened: refused with the order's life, "record anyway" offered
      const row = page.locator(`tr[data-code="${order.code}"]`);
      await waitForHydration(page);
      await row.locator('input[name="bankTransactionId"]').fill(txn);
      await row.locator('input[name="bankTime"]').fill(bankTimeInput(mistyped));
      await row.getByRole("button", { name: text(admin, "openDeposits.markPaid"), exact: true }).click();
      await expect(row.getByTestId("mark-paid-error")).toHaveText(
        text(admin, "openDeposits.errors.BANK_TIME_OUTSIDE_ORDER", { from: shownTime(order.createdAt), to: shownTime(order.expiresAt) }),
        { timeout: 30_000 },
      );
      await expect(row.getByTestId("mark-paid-outside")).toHaveText(text(admin, "openDeposits.recordOutside"));
      for (const key of await rawKeysOn(page, keys)) found.push(`${lng} /admin/deposits/open: ${key}`);
      await waitForHydration(page);
      await row.getByTestId("mark-paid-outside").click();
      await expect(page.getByTestId("toast")).toContainText(text(admin, "openDeposits.recordedQueued", { code: order.code }), { timeout: 30_000 });

      // the payment queued with the order's pay amount: the confirm step says it pays that order
      const [queued] = await d1(`SELECT id FROM unmatched_payments WHERE transaction_id = '${ownAgency()}:${OWN_CHANNEL}:${txn}'`);
      expect(queued).toBeTruthy();
      await page.goto(`/admin/payments?id=${queued.id}`);
      await waitForHydration(page);
      const form = page.getByTestId("credit-form");
      await form.locator('input[name="username"]').fill(order.username);
      await form.locator('select[name="provider"]').selectOption("askmebet");
      await form.locator('button[value="credit-review"]').click();
      await expect(page.getByTestId("credit-to-order")).toHaveText(text(admin, "payments.toOrder", { code: order.code, username: order.username }));
      for (const key of await rawKeysOn(page, keys)) found.push(`${lng} /admin/payments: ${key}`);

      // the day with transfers credited twice: the count, the line, its hint and the settlement form; one settled
      const left = lng === "cn" ? 2 : 1;
      await page.goto(`/admin/reconciliation?day=${day}`);
      await expect(page.getByTestId("credited-twice")).toHaveText(text(admin, "reconciliation.twiceNotEmpty", { count: left }));
      // the summary of the day's lines and the lines' heading (decision 074)
      await expect(page.getByTestId("reconciliation-groups").locator("caption")).toHaveText(text(admin, "reconciliation.linesByKind"));
      await expect(page.locator("#lines")).toHaveText(text(admin, "reconciliation.lines"));
      const lines = page.locator('[data-testid="difference"][data-reason="CREDITED_TWICE"]');
      await expect(lines).toHaveCount(left);
      const line = lines.first();
      await expect(line.locator("strong").first()).toHaveText(text(admin, "reconciliation.reasons.CREDITED_TWICE"));
      await expect(line.getByTestId("money-hint")).toHaveText(text(admin, "reconciliation.moneyHintTwice"));
      const settle = line.getByTestId("settle-form");
      await expect(settle.getByRole("heading")).toHaveText(text(admin, "reconciliation.settle.title"));
      await expect(settle.locator("legend")).toHaveText(text(admin, "reconciliation.settle.how"));
      for (const key of ["credit", "reason", "loss"])
        await expect(settle.getByText(text(admin, `reconciliation.settle.${key}`), { exact: true })).toBeVisible();
      for (const key of await rawKeysOn(page, keys)) found.push(`${lng} /admin/reconciliation: ${key}`);
      // the surplus offered first: the hand credit
      const code = await settle.locator('select[name="code"]').inputValue();
      expect(doubles.map((d) => d.handCredit)).toContain(code);
      await waitForHydration(page);
      await settle.getByLabel(text(admin, "reconciliation.settle.reversed")).check();
      await settle.locator('textarea[name="reason"]').fill(`taken back at the provider (${lng})`);
      await settle.getByRole("button", { name: text(admin, "reconciliation.settle.submit") }).click();
      await expect(page.getByTestId("toast")).toContainText(text(admin, "reconciliation.settle.done", { code }), { timeout: 30_000 });
    }
    expect(found).toEqual([]);
  });
});

/**
 * The player's transfer slip (decision 087) in cn and vn, on a phone with JavaScript on and off
 * (the flow runs in lo: deposit-slip.spec.ts): the slip form on the deposit page, its refusal of a
 * file that is no picture, and the slip page's "received, being checked"; each text the
 * language's own (locales/<lng>/player.json), no raw key shown.
 */
test.describe("the player's slip", () => {
  const port = Number(process.env.E2E_PORT ?? 4173);
  test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.own.localhost:${port}`) });
  test.describe.configure({ timeout: 300_000 });

  const text = (tree: Tree, key: string) => {
    const template = key.split(".").reduce<unknown>((node, part) => (node as Tree)[part], tree);
    expect(typeof template, key).toBe("string");
    return template as string;
  };

  test("the slip form, its refusal and the slip received, in cn and vn", async ({ page, expectHttpError }, info) => {
    test.skip(!isPhone(info), "the phone projects (JavaScript on and off) cover it; the strings do not depend on the viewport");
    const keys = allKeys(info);
    expectHttpError(400, /^\/player\/deposit\/[^/]+\/slip$/);
    const found: string[] = [];
    for (const [lng, htmlLang] of [
      ["cn", "zh-CN"],
      ["vn", "vi"],
    ] as const) {
      const player = bundle(info, lng, "player");
      const order = await openOwnOrder(page, lng === "cn" ? "66000" : "67000");
      await page.goto("/player/deposit");
      await switchLanguage(page, htmlLang);
      await page.goto("/player/deposit");
      await waitForHydration(page);
      const form = page.getByTestId("slip-form");
      await expect(form.getByRole("heading")).toHaveText(text(player, "depositSlip.add"));
      for (const key of await rawKeysOn(page, keys)) found.push(`${lng} /player/deposit: ${key}`);
      await form
        .getByLabel(text(player, "depositSlip.picture"))
        .setInputFiles({ name: "slip.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
      await form.getByRole("button", { name: text(player, "depositSlip.send") }).click();
      await expect(page.getByTestId("slip-error")).toHaveText(text(player, "depositSlip.errors.SLIP_NOT_IMAGE"));
      for (const key of await rawKeysOn(page, keys)) found.push(`${lng} slip refused: ${key}`);

      const slip = oneProofText({ ticket: `${Date.now()}`, reference: `FT${lng}${Date.now()}` });
      const png = await QRCode.toBuffer(slip, { type: "png", errorCorrectionLevel: "M", margin: 4, scale: 6 });
      await page
        .getByTestId("slip-form")
        .getByLabel(text(player, "depositSlip.picture"))
        .setInputFiles({ name: "slip.png", mimeType: "image/png", buffer: png });
      await page
        .getByTestId("slip-form")
        .getByRole("button", { name: text(player, "depositSlip.send") })
        .click();
      await expect(page).toHaveURL(new RegExp(`/player/deposit/${order.code}/slip$`));
      await expect(page.locator("h1")).toHaveText(text(player, "depositSlip.title"));
      await expect(page.getByTestId("slips").locator('[data-state="checking"] .card-title')).toHaveText(text(player, "depositSlip.state.checking"));
      for (const key of await rawKeysOn(page, keys)) found.push(`${lng} slip page: ${key}`);
      // back to Lao: the next order is opened through the Lao forms (tests/e2e/player.ts)
      await switchLanguage(page, "lo");
    }
    expect(found).toEqual([]);
  });
});
