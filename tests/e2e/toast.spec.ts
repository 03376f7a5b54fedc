import { accountTest as test, expect, hasJs } from "./fixtures";
import { loggedInPlayer } from "./player";

test("toast: one at a time, F8 focuses it, a 50 px swipe dismisses it, it leaves after 5 s", async ({ page, baseURL }, info) => {
  test.skip(!hasJs(info), "F8, swipe and the timer are JavaScript enhancements; without JavaScript the toast is rendered in the page");
  // the 5 s run on Playwright's clock, not waited out
  await page.clock.install();
  await loggedInPlayer(page, baseURL!, "/player/bank");
  const toast = page.getByTestId("toast");
  await expect(toast).toHaveCount(1);
  await expect(toast).toContainText("ເຂົ້າສູ່ລະບົບສຳເລັດ");
  await page.keyboard.press("F8");
  await expect(toast).toBeFocused();
  const box = (await toast.boundingBox())!;
  const y = box.y + box.height / 2;
  // a short drag (30 px) keeps it
  await toast.dispatchEvent("pointerdown", { clientX: box.x + 20, clientY: y });
  await toast.dispatchEvent("pointerup", { clientX: box.x + 50, clientY: y });
  await expect(toast).toBeVisible();
  // 50 px or more dismisses it
  await toast.dispatchEvent("pointerdown", { clientX: box.x + 20, clientY: y });
  await toast.dispatchEvent("pointerup", { clientX: box.x + 75, clientY: y });
  await expect(toast).toHaveCount(0);

  // the next toast goes away by itself after 5000 ms
  await page.goto("/player/sessions");
  await page.getByTestId("end-others").evaluate((b) => b.removeAttribute("disabled"));
  await page.getByTestId("end-others").click();
  await expect(page.getByTestId("toast")).toHaveCount(1);
  await page.clock.runFor(3_000);
  await expect(page.getByTestId("toast"), "still there 3 s later").toHaveCount(1);
  await page.clock.runFor(2_500);
  await expect(page.getByTestId("toast")).toHaveCount(0);
});

test("toast without JavaScript: rendered in the page after a redirect", async ({ page, baseURL }, info) => {
  test.skip(hasJs(info), "the JavaScript case is the test above");
  await loggedInPlayer(page, baseURL!, "/player/bank");
  await expect(page.getByTestId("toast")).toContainText("ເຂົ້າສູ່ລະບົບສຳເລັດ");
  await page.goto("/player/bank");
  await expect(page.getByTestId("toast")).toHaveCount(0); // a flash: shown once
});
