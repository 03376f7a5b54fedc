import { accountTest as test, expect } from "./fixtures";
import { loggedInPlayerByApi } from "./player";

/**
 * Lobbies that look like lobbies: every game shows its picture (the sandbox
 * provider's small SVGs, served under our origin), lazy, with fixed dimensions so nothing
 * shifts while pictures arrive; tabs and a search that work with JavaScript on and off.
 */
test.describe("game lobby pictures", () => {
  test.describe.configure({ timeout: 60_000 });

  test("each game has its picture with width, height and loading=lazy; tabs and search keep them", async ({ page, baseURL }) => {
    await loggedInPlayerByApi(page, baseURL!, "/player/bank");
    await page.goto("/player/game/askmebet?tab=Slot");
    const games = page.getByTestId("games");
    await expect(games.getByRole("listitem")).toHaveCount(3);
    const imgs = games.getByTestId("game-img");
    await expect(imgs).toHaveCount(3);
    for (const img of await imgs.all()) {
      await expect(img).toHaveAttribute("width", "160");
      await expect(img).toHaveAttribute("height", "120");
      await expect(img).toHaveAttribute("loading", "lazy");
      await expect(img).toHaveAttribute("src", /^\/sandbox\/provider\/img\/amb-[a-z-]+\.webp$/);
    }
    // The first picture really arrives (the policy admits it) and fills its reserved box.
    const first = imgs.first();
    await first.scrollIntoViewIfNeeded();
    await expect.poll(() => first.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    const box = await first.boundingBox();
    expect(box!.width).toBeGreaterThan(0);
    expect(Math.round((box!.height / box!.width) * 100)).toBe(75); // 4:3, as reserved before it loaded

    // Category tabs are links: another tab, another set of games, each with its picture.
    await page.getByRole("link", { name: "FISHING" }).click();
    await expect(games).toContainText("Fish Hunter");
    await expect(games.getByTestId("game-img")).toHaveCount(1);

    // Search (a GET form): works without JavaScript too.
    await page.goto("/player/game/askmebet?tab=Slot");
    await page.getByRole("searchbox").fill("mekong");
    await page.getByRole("button", { name: "ຄົ້ນຫາ" }).click();
    await expect(games.getByRole("listitem")).toHaveCount(1);
    await expect(games).toContainText("Mekong Fortune");
    await expect(games.getByTestId("game-img")).toHaveAttribute("loading", "lazy");
  });
});
