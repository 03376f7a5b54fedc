import QRCode from "qrcode";
import { d1 } from "./d1";
import { accountTest as test, expect, hasJs, isPhone, seriousAxeViolations, waitForHydration } from "./fixtures";
import { agencyRequest, openOwnOrder, ownAgency } from "./one-payment";
import { breaksInsideWords, smallTargets } from "./polish";
import { DEMO_STAFF, staffLogin } from "./staff";
import { oneProofText } from "../integration/fixtures/one-proof";

/**
 * The player's transfer slip (decision 087), in each project's own-account agency
 * (`<project>.own.localhost`, scripts/seed-e2e-own-account.mjs):
 * - on a phone, JavaScript on and off: the player adds the slip from the deposit page's QR step
 *   (a file that is no picture is refused with its message, nothing stored), then the slip page
 *   says "slip received, being checked"; the history's "add slip" leads there;
 * - on a desktop with JavaScript: the cashier sees the slip first in the open deposits queue,
 *   with its reference and its picture (staff only), and takes it off as checked.
 * The slip is a PNG the `qrcode` package renders from a OneProof text of the public shape.
 * Its cn and vn texts: tests/e2e/translations.spec.ts.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
test.use({ baseURL: async ({}, use, info) => use(`http://${info.project.name}.own.localhost:${port}`) });
test.describe.configure({ timeout: 150_000 });

const RECEIVED = "ໄດ້ຮັບສະລິບແລ້ວ, ກຳລັງກວດສອບ";
const NOT_IMAGE = "ໄຟລ໌ນີ້ບໍ່ແມ່ນຮູບ: ສົ່ງພາບໜ້າຈໍສະລິບເປັນ PNG ຫຼື JPEG";

/** A slip of its own: a OneProof QR drawn as a PNG, as a screenshot of the bank app holds it. */
async function slipPng() {
  const reference = `FT${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const text = oneProofText({ ticket: `${Date.now()}`, reference });
  return { reference, buffer: await QRCode.toBuffer(text, { type: "png", errorCorrectionLevel: "M", margin: 4, scale: 6 }) };
}

test("the player adds the bank's slip to an open order: a non-picture refused, the slip received and being checked", async ({
  page,
  expectHttpError,
}, info) => {
  test.skip(!isPhone(info), "the player's flow runs on the phones, JavaScript on and off; the cashier's on the desktop");
  const order = await openOwnOrder(page, String(71000 + Math.floor(Math.random() * 9) * 1000));
  expectHttpError(400, /^\/player\/deposit\/[^/]+\/slip$/);

  await page.goto("/player/deposit");
  await waitForHydration(page);
  const form = page.getByTestId("slip-form");
  await expect(form.getByLabel("ຮູບສະລິບ")).toBeVisible();
  // a file that is no picture: refused with its message, the form again, nothing kept
  await form.getByLabel("ຮູບສະລິບ").setInputFiles({ name: "slip.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 not a picture") });
  await form.getByTestId("slip-submit").click();
  await expect(page.getByTestId("slip-error")).toHaveText(NOT_IMAGE);
  expect(await d1(`SELECT id FROM deposit_slips WHERE agency_id = '${ownAgency()}' AND order_code = '${order.code}'`)).toEqual([]);

  // the slip itself: received, being checked (its page, the toast)
  const slip = await slipPng();
  await page.getByTestId("slip-form").getByLabel("ຮູບສະລິບ").setInputFiles({ name: "slip.png", mimeType: "image/png", buffer: slip.buffer });
  await page.getByTestId("slip-form").getByTestId("slip-submit").click();
  await expect(page).toHaveURL(new RegExp(`/player/deposit/${order.code}/slip$`));
  await expect(page.getByTestId("slips").locator('[data-state="checking"]')).toContainText(RECEIVED);
  await expect(page.getByTestId("toast")).toContainText(RECEIVED);
  expect(await d1(`SELECT reference, conflict FROM deposit_slips WHERE agency_id = '${ownAgency()}' AND order_code = '${order.code}'`)).toEqual([
    { reference: slip.reference, conflict: 0 },
  ]);
  if (hasJs(info)) expect(await seriousAxeViolations(page, "slip page")).toEqual([]); // axe runs as a script in the page

  // the polish rules of decision 083: 44 px targets on the QR step with its slip form, the slip page and the history's "add slip"; the slip page's Lao
  // broken only between words (the QR step's order code at 320 px is the deposit page's own, outside this flow)
  for (const path of ["/player/deposit", `/player/deposit/${order.code}/slip`, "/player/deposit/history"]) {
    await page.goto(path);
    for (const width of [320, 360]) {
      await page.setViewportSize({ width, height: 740 });
      if (path.endsWith("/slip")) expect.soft(await page.evaluate(breaksInsideWords, "lo"), `${path} at ${width} px: lines broken inside a word`).toEqual([]);
      if (width === 360) expect.soft(await page.evaluate(smallTargets), `${path}: small touch targets`).toEqual([]);
    }
  }

  // the history leads to the same page from the order's row
  await page.goto("/player/deposit/history");
  await page.getByTestId("add-slip").first().click();
  await expect(page).toHaveURL(new RegExp(`/player/deposit/${order.code}/slip$`));
  await expect(page.getByTestId("slips")).toContainText(slip.reference);
});

test("the cashier sees the slip first in the open deposits queue, with its reference and picture, and takes it off as checked", async ({ page }, info) => {
  test.skip(info.project.name !== "desktop-js", "the cashier's side runs once, on a desktop with JavaScript");
  const order = await openOwnOrder(page, String(81000 + Math.floor(Math.random() * 9) * 1000));
  const slip = await slipPng();
  await page.goto(`/player/deposit/${order.code}/slip`);
  await page.getByTestId("slip-form").getByLabel("ຮູບສະລິບ").setInputFiles({ name: "slip.png", mimeType: "image/png", buffer: slip.buffer });
  await page.getByTestId("slip-form").getByTestId("slip-submit").click();
  await expect(page.getByTestId("slips")).toContainText(RECEIVED);
  const [kept] = await d1(`SELECT id FROM deposit_slips WHERE agency_id = '${ownAgency()}' AND order_code = '${order.code}'`);

  await staffLogin(page, DEMO_STAFF.cashier, "/admin/deposits/open");
  const card = page.locator(`[data-slip="${kept.id}"]`);
  await expect(card.getByTestId("slip-reference")).toHaveText(slip.reference);
  await expect(card.getByTestId("slip-amount")).toBeVisible();
  await expect(card.getByTestId("slip-candidates")).toBeVisible(); // the channel's reference is not confirmed: shown beside the candidates
  // the queue of slips comes before the open orders
  const slipTop = (await page.getByTestId("slip-queue").boundingBox())!.y;
  const ordersTop = (await page.getByTestId("open-deposits").boundingBox())!.y;
  expect(slipTop).toBeLessThan(ordersTop);
  // the picture, for staff
  const picture = await agencyRequest(page, `/admin/slips/${kept.id}`);
  expect(picture.status()).toBe(200);
  expect(picture.headers()["content-type"]).toBe("image/png");
  expect(Buffer.from(await picture.body()).equals(slip.buffer)).toBe(true);
  expect(await seriousAxeViolations(page, "open deposits with a slip")).toEqual([]);

  await waitForHydration(page);
  await card.getByTestId("slip-checked").click();
  await expect(page.getByTestId("toast")).toContainText("ເອົາສະລິບອອກຈາກລາຍການແລ້ວ.");
  await expect(page.locator(`[data-slip="${kept.id}"]`)).toHaveCount(0);
});
