import { beforeAll, describe, expect, it } from "vitest";
import { fetchApp, seedDemo } from "../setup/seed";
import { fundProvider, playerWithBank } from "../setup/money";
import { postForm } from "../setup/players";

beforeAll(seedDemo);

describe("game lobbies and launch", () => {
  it("lists the provider's games by tab, searches without JavaScript, 404 for an unknown provider", async () => {
    const p = await playerWithBank();
    const slot = await (await fetchApp("http://localhost/player/game/askmebet?tab=Slot", { headers: { Cookie: p.cookie } })).text();
    expect(slot).toContain("Lucky Reels");
    expect(slot).not.toContain("Fish Hunter");
    const search = await (await fetchApp("http://localhost/player/game/askmebet?tab=Slot&q=dragon", { headers: { Cookie: p.cookie } })).text();
    expect(search).toContain("Golden Dragon");
    expect(search).not.toContain("Lucky Reels");
    const betflix = await (await fetchApp("http://localhost/player/game/betflix", { headers: { Cookie: p.cookie } })).text();
    expect(betflix).toContain("Sweet Bonanza"); // default tab pp.txt
    expect((await fetchApp("http://localhost/player/game/nope", { headers: { Cookie: p.cookie } })).status).toBe(404);
  });

  it("without credit the game does not open; with credit it opens the provider's game page", async () => {
    const p = await playerWithBank();
    const refused = await postForm("/player/game/gclub", { game: "gc-baccarat" }, { cookie: p.cookie });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("ບໍ່ສາມາດເປີດເກມໄດ້, ກະລຸນາຝາກເງິນ.");
    await fundProvider("gclub", p.username, "50.00");
    const opened = await postForm("/player/game/gclub", { game: "gc-baccarat" }, { cookie: p.cookie });
    expect(opened.status).toBe(302);
    const location = opened.headers.get("Location")!;
    expect(location).toMatch(/^\/sandbox\/provider\/play\/gclub\?token=/);
    const page = await fetchApp(`http://localhost${location}`, { headers: { Cookie: p.cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("50.00");
  });
});
