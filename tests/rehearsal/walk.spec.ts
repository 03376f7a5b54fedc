import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { crc16, field, parseFields, parseLaoQr } from "../../workers/core/emvco";
import { currentStep, totpAt } from "../e2e/staff";
import { startProviderFakes, type ProviderFakes } from "./fakes";

/**
 * The production rehearsal's walk, against the Worker that
 * scripts/rehearsal.mjs built for [env.rehearsal] (ENVIRONMENT = "production", no sandbox
 * bindings, secrets generated for the run) and started with `wrangler dev --env rehearsal`.
 * The agency exists (agency:create); its owner has only the one-time enrolment token.
 * Everything else goes through the pages, as an operator and a player would.
 *
 * One story, in steps that depend on each other: a failing step names itself in the report.
 */

const ENROL_TOKEN = process.env.REHEARSAL_ENROL_TOKEN ?? "";
const OWNER = process.env.REHEARSAL_OWNER ?? "owner";
const OWNER_PASSWORD = `rehearsal-owner-${Math.random().toString(36).slice(2, 10)}`;
const PLAYER = {
  username: `p${Date.now().toString(36)}`.slice(0, 20),
  password: `rehearsal-player-${Math.random().toString(36).slice(2, 8)}`,
  displayName: "Rehearsal Player",
  phone: "02055551234",
};
// LAK per 1 THB, as the settings page takes it (buy <= sell).
const RATE = { buy: "590", sell: "600" };

/** The agency's static LAO QR, as its bank app shows it: tag 38 = LAPNet AID, BCEL's IIN, the bank's receiver token. */
const RECEIVER = `mchRH${Date.now().toString(36).toUpperCase()}`;
const TAG38 = field("00", "A005266284662577") + field("01", "27710418") + field("02", "002") + field("03", RECEIVER);
const STATIC_QR = (() => {
  const body =
    field("00", "01") +
    field("01", "11") +
    field("38", TAG38) +
    field("52", "5999") +
    field("53", "418") +
    field("58", "LA") +
    field("59", "REHEARSAL PLAY") +
    field("60", "VIENTIANE") +
    "6304";
  return body + crc16(body);
})();
let channelCode = "";
/** 300,000 LAK at the sell rate 600 = ฿500 of credit. */
const DEPOSIT = { kip: "300000", askedMinor: 30_000_000n, credit: "฿500,00", twice: "฿1.000,00" };

/** A bank time as Lao banks print it: Vientiane time (UTC+7), dd/MM/yyyy HH:mm:ss. */
function vientianeTime(ms: number): string {
  const d = new Date(ms + 7 * 3600_000);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** "300037" (kip, as in tag 54) -> "300,037" as a bank's notification prints it. */
const grouped = (kip: string) => kip.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

let fakes: ProviderFakes;
const pageErrors: string[] = [];

test.beforeAll(async () => {
  fakes = await startProviderFakes();
});
test.afterAll(async () => {
  await fakes?.stop();
});

async function hydrated(page: Page) {
  // a hydrated app page, or a page without React whose inline script ran (decision 021;
  // the same selector as PAGE_READY in tests/e2e/fixtures.ts)
  await page.locator('html[data-hydrated], html[data-scripts="lite"][data-enhanced], html[data-scripts="none"]').waitFor();
}

test("production rehearsal: the owner sets the agency up, a player walks through it", async ({ page, context }) => {
  expect(ENROL_TOKEN, "REHEARSAL_ENROL_TOKEN (printed by agency:create)").not.toBe("");
  page.on("pageerror", (error) => pageErrors.push(error.message));
  // The staff cookie and the player cookie have different names, so one browser context holds both.
  let ownerSecret = "";
  let lastStep = -1;

  /**
   * A TOTP code of a step the owner's account has not used yet: a step is accepted once,
   * and the server accepts the next step too (clock drift window), so the walk waits only
   * when both are spent.
   */
  async function freshCode(): Promise<string> {
    let step = Math.max(currentStep(), lastStep + 1);
    if (step > currentStep() + 1) {
      await page.waitForTimeout((step - 1) * 30_000 - Date.now() + 200);
      step = Math.max(currentStep(), lastStep + 1);
    }
    lastStep = step;
    return totpAt(ownerSecret, step);
  }

  /** The owner's login through the forms (password, then a fresh TOTP code), landing on `landing`. */
  async function ownerLogin(landing: string) {
    await page.goto(`/admin/login?redirectTo=${encodeURIComponent(landing)}`);
    await hydrated(page);
    const form = page.getByTestId("admin-login-form");
    await form.locator('input[name="username"]').fill(OWNER);
    await form.locator('input[name="password"]').fill(OWNER_PASSWORD);
    await form.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(/\/admin\/login\/totp/);
    await page
      .getByTestId("admin-totp-form")
      .locator('input[name="code"]')
      .fill(await freshCode());
    await page.getByTestId("admin-totp-form").locator('button[type="submit"]').click();
    await expect(page).toHaveURL(new RegExp(`${landing.replace(/[/?]/g, "\\$&")}$`));
  }

  /**
   * The owner's next screen. The staff and player cookies have different names, so the owner's
   * session lives beside the player's in this one context, as it would in a cashier's browser:
   * the owner logs in through the forms twice (enrolment, then "logs in again"), and later steps
   * go on with that session. Each further login would spend a TOTP step, and a third code in
   * the same 30 s waits for the next step (up to 30 s each).
   */
  async function asOwner(landing: string) {
    await page.goto(landing);
    if (new URL(page.url()).pathname.startsWith("/admin/login")) await ownerLogin(landing);
  }

  await test.step("the production Worker answers, and the provider fakes run", async () => {
    const info = await page.request.get("/api/v2/agency/info");
    expect(info.status(), await info.text()).toBe(200);
    // A production build: no sandbox pages.
    const sandbox = await page.request.get("/sandbox/bank/pay");
    expect(sandbox.status()).toBe(404);
    for (const url of [fakes.ambUrl, fakes.betflixUrl]) expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  await test.step("the owner enrols with the one-time link: password and TOTP", async () => {
    await page.goto(`/admin/enrol?token=${encodeURIComponent(ENROL_TOKEN)}`);
    await expect(page.locator(".qr svg")).toBeVisible();
    ownerSecret = (await page.getByTestId("totp-secret").textContent())!.trim().replace(/\s+/g, "");
    expect(ownerSecret).toMatch(/^[A-Z2-7]+$/);
    await hydrated(page);
    const enrol = page.getByTestId("admin-enrol-form");
    await enrol.getByLabel("ລະຫັດຜ່ານໃໝ່ (ຢ່າງໜ້ອຍ 12 ຕົວ)").fill(OWNER_PASSWORD);
    await enrol.getByLabel("ຢືນຢັນລະຫັດຜ່ານ").fill(OWNER_PASSWORD);
    await enrol.getByLabel("ລະຫັດ 6 ຕົວເລກຈາກແອັບ").fill(await freshCode());
    await enrol.getByRole("button", { name: "ບັນທຶກ ແລະ ເປີດໃຊ້" }).click();
    await expect(page.getByTestId("recovery-codes").locator("li")).toHaveCount(10);
    await page.getByRole("link", { name: "ໄປທີ່ລະບົບຫຼັງບ້ານ" }).click();
    await expect(page.getByTestId("admin-who")).toContainText(OWNER);
  });

  await test.step("the owner logs in again with password and a TOTP code", async () => {
    await context.clearCookies();
    await ownerLogin("/admin/settings");
  });

  await test.step("the owner sets the THB rate", async () => {
    const rateForm = page.getByTestId("rate-form");
    await hydrated(page);
    await rateForm.locator('select[name="currency"]').selectOption("THB");
    await rateForm.locator('input[name="buy"]').fill(RATE.buy);
    await rateForm.locator('input[name="sell"]').fill(RATE.sell);
    await rateForm.locator('button[type="submit"]').click();
    await expect(page.getByTestId("toast")).toBeVisible();
    await expect(page.getByTestId("rates-current")).toContainText(RATE.sell);
    await expect(page.getByTestId("rates-history").locator("tbody tr").first()).toContainText(OWNER);
  });

  await test.step("the owner sets up the agency's own bank account from its static LAO QR", async () => {
    await page.goto("/admin/settings/channels");
    await hydrated(page);
    const read = page.getByTestId("own-account-read-form");
    await read.locator('textarea[name="qrText"]').fill(STATIC_QR);
    await read.locator('button[type="submit"]').click();
    const confirm = page.getByTestId("own-account-confirm");
    await expect(confirm.getByTestId("read-bank")).toContainText("BCEL");
    await expect(confirm.getByTestId("read-receiver")).toHaveText(RECEIVER);
    await expect(confirm.getByTestId("read-name")).toHaveText("REHEARSAL PLAY");
    await hydrated(page);
    const form = page.getByTestId("own-account-confirm-form");
    channelCode = await form.locator('input[name="code"]').inputValue();
    expect(channelCode).not.toBe("");
    await form.locator('input[name="displayName"]').fill("BCEL Rehearsal Play");
    await form.locator('button[type="submit"]').click();
    await expect(page.getByTestId("toast")).toBeVisible();
    const channel = page.getByTestId(`own-account-${channelCode}`);
    await expect(channel).toContainText(RECEIVER);
    await expect(channel.locator('input[name="mode"][value="derived"]')).toBeChecked();
  });

  await test.step("the owner connects AMB and Betflix by base URL and credentials", async () => {
    const setups = [
      // askmebet through AMB's Super API; its launch host is admitted as the lobby URL (CSP form-action).
      {
        provider: "askmebet",
        adapter: "amb",
        label: "AMB Super API",
        baseUrl: fakes.ambUrl,
        productCode: fakes.ambCredentials.productId,
        lobbyUrl: "https://play.example.test",
        agent: fakes.ambCredentials.agent,
        secret: fakes.ambCredentials.key,
      },
      {
        provider: "betflix",
        adapter: "betflix",
        label: "Betflix v4",
        baseUrl: fakes.betflixUrl,
        productCode: "pg",
        lobbyUrl: fakes.betflixEntranceUrl,
        agent: fakes.betflixCredentials.apiCat,
        secret: fakes.betflixCredentials.apiKey,
      },
    ];
    for (const setup of setups) {
      await page.goto("/admin/settings/providers");
      await hydrated(page);
      const card = page.getByTestId(`setup-${setup.provider}`);
      await card.locator('select[name="adapter"]').selectOption(setup.adapter);
      for (const name of ["baseUrl", "productCode", "lobbyUrl", "agent", "secret"] as const) await card.locator(`[name="${name}"]`).fill(setup[name]);
      await card.locator('button[type="submit"]').click();
      await expect(page.getByTestId("toast")).toBeVisible();
      await expect(page.getByTestId(`setup-${setup.provider}-current`)).toContainText(setup.label);
      await expect(page.getByTestId(`setup-${setup.provider}`).locator('[name="baseUrl"]')).toHaveValue(setup.baseUrl);
    }
    // Nothing was sent to the providers by saving the settings.
    expect(fakes.amb.server.requests).toEqual([]);
  });

  await test.step("a player registers and logs in", async () => {
    await page.goto("/register");
    await hydrated(page);
    const form = page.getByTestId("register-form");
    for (const name of ["username", "displayName", "phone", "password"] as const) await form.locator(`input[name="${name}"]`).fill(PLAYER[name]);
    await form.locator('input[name="confirmPassword"]').fill(PLAYER.password);
    await form.locator('input[name="adult"]').check();
    await form.locator('button[type="submit"]').click();
    // the login page carries the new username, already typed (decision 083)
    await expect(page).toHaveURL(new RegExp(`/login\\?username=${PLAYER.username}$`));
    const login = page.getByTestId("login-form");
    await expect(login.locator('input[name="username"]')).toHaveValue(PLAYER.username);
    await login.locator('input[name="password"]').fill(PLAYER.password);
    await login.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("player-menu")).toContainText(PLAYER.displayName);
  });

  await test.step("the player adds a bank account", async () => {
    await page.goto("/player/bank");
    await hydrated(page);
    const form = page.getByTestId("bank-form");
    await form.getByText("ທະນາຄານການຄ້າຕ່າງປະເທດລາວ (BCEL)").click();
    await form.getByLabel("ເລກບັນຊີ").fill(`0101${Date.now().toString().slice(-9)}`);
    await form.getByLabel("ຊື່ບັນຊີ").fill(PLAYER.displayName);
    await form.getByRole("button", { name: "ບັນທຶກບັນຊີ" }).click();
    await expect(page.getByTestId("bank-account")).toBeVisible();
  });

  let forwarder = { path: "", secret: "" };
  await test.step("the owner creates the channel's notification forwarder (URL and secret shown once)", async () => {
    await asOwner("/admin/forwarder");
    await hydrated(page);
    await page.getByTestId("forwarder-channels").locator(`li[data-channel="${channelCode}"]`).getByTestId("forwarder-create").click();
    await expect(page.getByTestId("forwarder-shown")).toBeVisible();
    forwarder = {
      path: new URL(await page.getByTestId("forwarder-url").inputValue()).pathname,
      secret: await page.getByTestId("forwarder-secret").inputValue(),
    };
    expect(forwarder.path).toMatch(/^\/api\/forwarder\/fwd_/);
  });

  /** The player (logged in) opens a deposit; its QR must be the agency's, with the pay amount and the order code. */
  async function deposit(): Promise<{ code: string; payKip: string }> {
    await page.goto("/player/deposit");
    await hydrated(page);
    const form = page.getByTestId("deposit-form");
    await form.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
    await form.getByLabel("ຈຳນວນເງິນ (ກີບ)").fill(DEPOSIT.kip);
    await form.getByRole("button", { name: "ສ້າງ QR ເພື່ອຊຳລະ" }).click();
    await expect(page.getByTestId("qr")).toBeVisible();
    const code = (await page.getByTestId("deposit-code").textContent())!.trim();
    const payload = (await page.getByTestId("qr-payload").inputValue()).trim();
    const parsed = parseLaoQr(payload);
    expect(parsed.ok, `the QR payload reads as a LAO QR with a valid CRC: ${payload}`).toBe(true);
    if (!parsed.ok) throw new Error("not a LAO QR");
    expect(parsed.qr.dynamic).toBe(true);
    expect(parseFields(payload.slice(0, -8))!.get("38"), "tag 38 as in the agency's static QR").toBe(TAG38);
    expect(parsed.qr.currency).toBe("418");
    expect(parsed.qr.billNumber).toBe(code);
    expect(parsed.qr.reference).toBe(code);
    // The pay amount: the asked amount plus a few kip that make it unique among the channel's open orders.
    expect(parsed.qr.amount).toMatch(/^\d+(\.00?)?$/);
    const payKip = String(Math.round(Number(parsed.qr.amount)));
    const payMinor = BigInt(payKip) * 100n;
    expect(payMinor > DEPOSIT.askedMinor && payMinor < DEPOSIT.askedMinor + 100_000n, `pay amount ${payKip}`).toBe(true);
    return { code, payKip };
  }

  /** The player's next screen: the login form only when the player's session is gone. */
  async function asPlayer(landing: string) {
    await page.goto(landing);
    if (new URL(page.url()).pathname !== "/login") return;
    await page.goto(`/login?redirectTo=${encodeURIComponent(landing)}`);
    const login = page.getByTestId("login-form");
    await login.locator('input[name="username"]').fill(PLAYER.username);
    await login.locator('input[name="password"]').fill(PLAYER.password);
    await login.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(new RegExp(`${landing.replace(/[/?]/g, "\\$&")}$`));
  }

  let order = { code: "", payKip: "" };
  await test.step("the player deposits: the QR is a LAO QR for the agency's account, the exact pay amount, the order code", async () => {
    await asPlayer("/player/deposit");
    order = await deposit();
  });

  await test.step("the agency's phone forwards the bank's notification (SmsForwarder's signed form post): the deposit is confirmed", async () => {
    const timestamp = String(Date.now());
    // SmsForwarder: sign = urlencode(base64(HMAC-SHA256(secret, timestamp + "\n" + secret))).
    const sign = encodeURIComponent(createHmac("sha256", forwarder.secret).update(`${timestamp}\n${forwarder.secret}`).digest("base64"));
    const content = `BCEL One: Received ${grouped(order.payKip)} LAK from SOMPHONE on ${vientianeTime(Date.now() - 20_000)} Ref: FT${timestamp.slice(-8)}`;
    const res = await page.request.post(forwarder.path, { form: { from: "BCEL", content, timestamp, sign } });
    expect(res.status(), await res.text()).toBe(200);
  });

  await test.step("the credit arrives at the AMB fake and on the player's page", async () => {
    await expect(async () => {
      await page.goto("/player/withdraw");
      await expect(page.getByTestId("credit-askmebet")).toHaveText(DEPOSIT.credit, { timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    const deposits = [...fakes.amb.txns.values()].filter((t) => t.type === "DEPOSIT" && t.success);
    expect(deposits.map((t) => t.amount)).toEqual([50_000n]);
    const deposited = fakes.amb.server.to("/deposit").map((r) => JSON.parse(r.body) as { transactionRef: string });
    expect(deposited.map((b) => b.transactionRef)).toContain(order.code);
  });

  let second = { code: "", payKip: "" };
  await test.step("a second deposit, confirmed by the owner's import of the bank's CSV statement (first import: map the columns, preview, confirm)", async () => {
    second = await deposit();
    expect(second.payKip).not.toBe(order.payKip);
    const dir = mkdtempSync(join(tmpdir(), "rehearsal-statement-"));
    const file = join(dir, "bcel.csv");
    // As BCEL One exports it: a preamble, ";" separators, Lao headers, grouped amounts, one debit row.
    const at = vientianeTime(Date.now() - 10_000).slice(0, 16);
    writeFileSync(
      file,
      [
        "\ufeffບັນຊີ;0101000123456;;;",
        "ວັນທີ;ລາຍລະອຽດ;ຖອນ;ຝາກ;ຍອດເຫຼືອ",
        `${at};"ໂອນເງິນ; ທ້າວ ສົມ";;"${grouped(second.payKip)}.00";"1,000,000.00"`,
        `${at};ATM;"50,000.00";;"950,000.00"`,
        "",
      ].join("\r\n"),
    );
    try {
      await asOwner("/admin/deposits/import");
      await hydrated(page);
      const upload = page.getByTestId("statement-upload");
      await upload.locator('select[name="channel"]').selectOption(channelCode);
      await upload.locator('input[name="file"]').setInputFiles(file);
      await upload.locator('button[type="submit"]').click();
      await expect(page.getByTestId("statements")).toHaveAttribute("data-step", "map");
      await hydrated(page);
      const mapping = page.getByTestId("statement-mapping");
      await mapping.locator('select[name="amountMode"]').selectOption("split");
      await mapping.locator('select[name="date"]').selectOption("ວັນທີ");
      await mapping.locator('select[name="description"]').selectOption("ລາຍລະອຽດ");
      await mapping.locator('select[name="credit"]').selectOption("ຝາກ");
      await mapping.locator('select[name="debit"]').selectOption("ຖອນ");
      await mapping.locator('select[name="dateFormat"]').selectOption("DD/MM/YYYY HH:mm");
      await mapping.locator('select[name="numberFormat"]').selectOption("1,234.56");
      await page.getByTestId("mapping-try").click();
      await expect(page.getByTestId("mapping-preview").locator('tr[data-kind="credit"]')).toHaveCount(1);
      await page.getByTestId("statement-mapping").getByTestId("mapping-save").click();
      await expect(page.getByTestId("statements")).toHaveAttribute("data-step", "review");
      await hydrated(page);
      const row = page.getByTestId("statement-rows").locator('tr[data-kind="credit"]');
      await expect(row).toHaveAttribute("data-outcome", "match");
      await expect(row).toContainText(second.code);
      await page.getByTestId("statement-apply").click();
      await expect(page.getByTestId("statement-rows").locator('tr[data-kind="credit"]')).toHaveAttribute("data-outcome", "applied");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  await test.step("the second credit arrives at the AMB fake too; the player's deposit history shows both", async () => {
    await asPlayer("/player/withdraw");
    await expect(async () => {
      await page.goto("/player/withdraw");
      await expect(page.getByTestId("credit-askmebet")).toHaveText(DEPOSIT.twice, { timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    const deposited = fakes.amb.server.to("/deposit").map((r) => JSON.parse(r.body) as { transactionRef: string });
    expect(deposited.map((b) => b.transactionRef)).toContain(second.code);
    await page.goto("/player/deposit/history");
    for (const code of [order.code, second.code]) await expect(page.getByRole("main").getByText(code, { exact: true }).first()).toBeVisible();
  });

  await test.step("the player launches a game: the redirect goes to AMB's launch URL", async () => {
    // The launch host of the fake (play.example.test) and its pictures do not exist: the browser gets a stub.
    await page.route(/^https:\/\/(play|img)\.example\.test\//, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>AMB game</title><p>game</p>" }),
    );
    // AMB names its categories in capitals ("SLOT"); the lobby's default tab is the sandbox's "Slot".
    await page.goto("/player/game/askmebet?tab=SLOT");
    await page.getByTestId("games").getByRole("button", { name: "ຫຼິ້ນ" }).first().click();
    await expect(page).toHaveURL(/^https:\/\/play\.example\.test\/launch\?/);
    expect(fakes.amb.server.to("/logIn")).toHaveLength(1);
  });

  let withdrawal = "";
  await test.step("the player withdraws: with no payout gateway it waits in the staff queue", async () => {
    await page.goto("/player/withdraw");
    await hydrated(page);
    const form = page.getByTestId("withdraw-form");
    await form.getByLabel("ຄ່າຍເກມ").selectOption("askmebet");
    await form.getByLabel("ຈຳນວນເຄຣດິດທີ່ຖອນ").fill("200");
    await form.getByRole("button", { name: "ຕໍ່ໄປ" }).click();
    await page.getByTestId("withdraw-confirm-button").click();
    await expect(page).toHaveURL(/\/player\/withdraw\/history$/);
    const row = page.getByTestId("withdraw-history").locator("tbody tr").first();
    await expect(row.locator('[data-status="OPEN"]')).toBeVisible();
    withdrawal = (await row.getAttribute("data-code"))!;
    await expect.poll(() => fakes.amb.server.to("/withdraw").length, { timeout: 30_000 }).toBeGreaterThan(0);
  });

  await test.step("staff mark the withdrawal paid; the back office and the player's history show it", async () => {
    await asOwner("/admin/withdrawals");
    await expect(async () => {
      await page.goto("/admin/withdrawals");
      await expect(page.locator(`tr[data-code="${withdrawal}"]`)).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await page.locator(`tr[data-code="${withdrawal}"]`).getByRole("link", { name: withdrawal }).click();
    await expect(page.getByTestId("withdrawal-status")).toHaveAttribute("data-status", "OPEN");
    await expect(page.getByTestId("to-pay")).toHaveText("₭118.000"); // 200 x 590 (buy rate)
    await hydrated(page);
    const paid = page.getByTestId("paid-form");
    await paid.getByLabel("ເລກອ້າງອີງທະນາຄານ").fill(`BCEL-${Date.now()}`);
    await paid.getByRole("button", { name: "ໂອນແລ້ວ" }).click();
    await expect(page.getByTestId("toast")).toContainText(withdrawal);
    await page.goto(`/admin/withdrawals/${withdrawal}`);
    await expect(page.getByTestId("withdrawal-status")).toHaveAttribute("data-status", "SUCCESS");
    await asPlayer("/player/withdraw/history");
    await expect(async () => {
      await page.goto("/player/withdraw/history");
      await expect(page.locator(`tr[data-code="${withdrawal}"] [data-status="SUCCESS"]`)).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });
  });

  expect(pageErrors, "uncaught errors in the pages").toEqual([]);
});
