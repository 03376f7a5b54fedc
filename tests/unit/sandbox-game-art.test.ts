import { describe, expect, it } from "vitest";
import { catalogueGames } from "@workers/sandbox/provider/games";
import { gameDrawing } from "@workers/sandbox/provider/game-art";
import { GAME_PICTURES } from "@workers/sandbox/provider/game-pictures";

/** The RIFF chunks of a WebP file, by their four-letter names. */
function chunksOf(webp: Buffer): string[] {
  const names: string[] = [];
  for (let at = 12; at + 8 <= webp.length; ) {
    const size = webp.readUInt32LE(at + 4);
    names.push(webp.toString("ascii", at, at + 4));
    at += 8 + size + (size % 2);
  }
  return names;
}

describe("the sandbox games' pictures", () => {
  it("every game of the catalogue has a scene of its own, titled with its name", () => {
    for (const game of catalogueGames()) {
      const drawing = gameDrawing(game);
      expect(drawing, game.code).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="320" height="240"/);
      expect(drawing, game.code).toContain(`>${game.name.replace(/&/g, "&amp;")}</text></svg>`);
    }
    expect(gameDrawing({ code: "no-such-game", name: "None" })).toBeNull();
  });

  it("each is rendered (npm run render:demo-images): a small WebP without a colour profile", () => {
    expect(Object.keys(GAME_PICTURES).sort()).toEqual(
      catalogueGames()
        .map((g) => g.code)
        .sort(),
    );
    for (const [code, base64] of Object.entries(GAME_PICTURES)) {
      const webp = Buffer.from(base64, "base64");
      expect(webp.toString("ascii", 0, 4) + webp.toString("ascii", 8, 12), code).toBe("RIFFWEBP");
      expect(webp.readUInt32LE(4) + 8, code).toBe(webp.length);
      expect(chunksOf(webp), code).not.toContain("ICCP");
      // a lobby's first screen holds four: within the player page's budget (decision 082)
      expect(webp.length, code).toBeLessThanOrEqual(4.5 * 1024);
    }
  });
});
