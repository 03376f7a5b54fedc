import { beforeAll, describe, expect, it } from "vitest";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { fundProvider, playerWithBank, sandboxProvider } from "../setup/money";
import { lobby, LOBBY_FRESH_MS } from "../../workers/services/providers";
import { env } from "cloudflare:workers";
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
    // tabs in the player's language by kind; a brand's tab by its own name, tidied
    const tabs = (html: string) => [...html.matchAll(/<a[^>]*class="tab"[^>]*>([^<]+)<\/a>/g)].map((m) => m[1]);
    expect(tabs(slot)).toEqual(["ສະລັອດ", "ຍິງປາ", "ເກມໄພ່"]);
    expect(tabs(betflix)).toEqual(["PP", "ກິລາ"]);
    const cn = await (
      await fetchApp("http://localhost/player/game/askmebet?tab=Slot", {
        headers: { Cookie: `${p.cookie}; lng=${encodeURIComponent(btoa(JSON.stringify("cn")))}` },
      })
    ).text();
    expect(tabs(cn)).toEqual(["老虎机", "捕鱼", "棋牌"]);
    expect((await fetchApp("http://localhost/player/game/nope", { headers: { Cookie: p.cookie } })).status).toBe(404);
  });

  it("without credit the game does not open; with credit it opens the provider's game page", async () => {
    const p = await playerWithBank();
    const refused = await postForm("/player/game/gclub", { game: "gc-baccarat" }, { cookie: p.cookie });
    expect(refused.status).toBe(409);
    expect(await shownOf(refused)).toContain("ບໍ່ສາມາດເປີດເກມໄດ້, ກະລຸນາຝາກເງິນ.");
    await fundProvider("gclub", p.username, "50.00");
    const opened = await postForm("/player/game/gclub", { game: "gc-baccarat", tab: "Casino" }, { cookie: p.cookie });
    expect(opened.status).toBe(302);
    const location = opened.headers.get("Location")!;
    expect(location).toMatch(/^\/sandbox\/provider\/play\/gclub\?token=/);
    const page = await fetchApp(`http://localhost${location}`, { headers: { Cookie: p.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("50.00");
    // the game page leads back to the lobby the game was opened from (the launch's return URL)
    expect(html).toContain('<a class="back" href="http://localhost/player/game/gclub?tab=Casino" data-lobby-link>← ກັບໄປໜ້າລວມເກມ</a>');
  });

  it("game lists are cached: fresh 5 minutes, then asked again; askmebet's is never stale; a stale list beats none", async () => {
    const fault = (count: number) =>
      sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify({ provider: "*", op: "games", mode: "error-before", count }) });
    const now = Date.now();
    expect((await lobby(env, "demo", "alphabet", null, now))?.games.length).toBeGreaterThan(0);
    expect((await lobby(env, "demo", "askmebet", "Fishing", now))?.games.length).toBeGreaterThan(0);
    await fault(1000);
    try {
      // within 5 minutes nobody asks the provider (it is down and the lists still come)
      expect(await lobby(env, "demo", "alphabet", null, now + LOBBY_FRESH_MS - 1)).not.toBeNull();
      // after 5 minutes the provider is asked; down -> the stale copy still answers
      const listed = (await (await sandboxProvider("/sandbox/faults")).json()) as { data: { count: number }[] };
      const before = listed.data[0].count;
      expect(await lobby(env, "demo", "alphabet", null, now + LOBBY_FRESH_MS + 1)).not.toBeNull();
      const after = ((await (await sandboxProvider("/sandbox/faults")).json()) as { data: { count: number }[] }).data[0].count;
      expect(after).toBe(before - 1); // one call reached the provider
      // askmebet: a week later, still served without asking
      expect(await lobby(env, "demo", "askmebet", "Fishing", now + 7 * 24 * 3600 * 1000)).not.toBeNull();
      const unchanged = ((await (await sandboxProvider("/sandbox/faults")).json()) as { data: { count: number }[] }).data[0].count;
      expect(unchanged).toBe(after);
      // never cached and the provider down: no list
      expect(await lobby(env, "demo", "gclub", "never-seen-tab", now)).toBeNull();
    } finally {
      await sandboxProvider("/sandbox/faults", { method: "DELETE" });
    }
  });
});
