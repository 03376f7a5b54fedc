import { accountTest as test, expect, isPhone } from "./fixtures";
import { loggedInPlayerByApi } from "./player";

/**
 * Lobbies that look like lobbies (decision 082): the provider's mark in the header, every game
 * its picture (the sandbox provider's WebP game art, served under our origin) in a big tile
 * (2 a row on a phone, 5 at 1280 px), with fixed dimensions so nothing shifts while pictures
 * arrive, the first screen's at once and the rest lazily; tabs in the player's language and a
 * search that work with JavaScript on and off.
 */
test.describe("game lobby pictures", () => {
  test.describe.configure({ timeout: 60_000 });

  test("each game has its picture, sized, in a big tile; tabs in the player's language and search keep them", async ({ page, baseURL }, info) => {
    await loggedInPlayerByApi(page, baseURL!, "/player/bank");
    await page.goto("/player/game/askmebet?tab=Slot");
    // the provider's mark heads the lobby, named by the provider's name
    await expect(page.getByRole("heading", { level: 1, name: "AskMeBet" }).locator("[data-provider-mark=askmebet]")).toBeVisible();
    const games = page.getByTestId("games");
    await expect(games.getByRole("listitem")).toHaveCount(3);
    const imgs = games.getByTestId("game-img");
    await expect(imgs).toHaveCount(3);
    for (const img of await imgs.all()) {
      await expect(img).toHaveAttribute("width", "320");
      await expect(img).toHaveAttribute("height", "240");
      await expect(img).toHaveAttribute("alt", ""); // the name is the text under it
      await expect(img).toHaveAttribute("loading", "eager"); // the first screen's four
      await expect(img).toHaveAttribute("src", /^\/sandbox\/provider\/img\/amb-[a-z-]+\.webp$/);
    }
    // big tiles: two a row on a 360 px phone, five at 1280 px
    const boxes = await games.getByRole("listitem").evaluateAll((items) => items.map((li) => li.getBoundingClientRect().toJSON() as DOMRect));
    const perRow = boxes.filter((b) => b.top === boxes[0]!.top).length;
    expect(perRow).toBe(isPhone(info) ? 2 : 3); // a tab of three games: all three in the desktop's row of five
    expect(boxes[0]!.width).toBeGreaterThan(isPhone(info) ? 150 : 190);
    // The first picture really arrives (the policy admits it) and fills its reserved box.
    const first = imgs.first();
    await first.scrollIntoViewIfNeeded();
    await expect.poll(() => first.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    const box = await first.boundingBox();
    expect(box!.width).toBeGreaterThan(0);
    expect(Math.round((box!.height / box!.width) * 100)).toBe(75); // 4:3, as reserved before it loaded

    // Category tabs are links in the player's language: another tab, another set of games, each with its picture.
    await expect(page.getByRole("navigation", { name: "ໝວດເກມ" }).getByRole("link")).toHaveText(["ສະລັອດ", "ຍິງປາ", "ເກມໄພ່"]);
    await page.getByRole("link", { name: "ຍິງປາ" }).click();
    await expect(games).toContainText("Fish Hunter");
    await expect(games.getByTestId("game-img")).toHaveCount(1);

    // Search (a GET form): works without JavaScript too.
    await page.goto("/player/game/askmebet?tab=Slot");
    await page.getByRole("searchbox").fill("mekong");
    await page.getByRole("button", { name: "ຄົ້ນຫາ" }).click();
    await expect(games.getByRole("listitem")).toHaveCount(1);
    await expect(games).toContainText("Mekong Fortune");
    await expect(games.getByTestId("game-img")).toHaveAttribute("loading", "eager");

    // a provider whose tab is a brand: its own name, tidied ("pp.txt" -> "PP")
    await page.goto("/player/game/betflix?tab=pp.txt");
    await expect(page.getByRole("navigation", { name: "ໝວດເກມ" }).getByRole("link")).toHaveText(["PP", "ກິລາ"]);
  });
});
