import { beforeAll, describe, expect, it } from "vitest";
import { fetchApp, seedDemo } from "../setup/seed";
import { playerWithBank, postDeposit } from "../setup/money";
import { litePartsIn, markupOf } from "../setup/lite-script";
import { PART_MARKUP, pageHasHook } from "../../app/lib/lite/hooks";
import type { LitePartName } from "../../app/lib/lite/parts";

beforeAll(seedDemo);

/**
 * Every part a lite page runs finds the markup it needs (decision 066): the hooks of
 * app/lib/lite/hooks.ts PART_MARKUP, in the page as the server renders it. A route that
 * renames or drops a hook its parts look for fails here, where before the part silently did
 * nothing. Each case is a page in the state where its parts' markup shows (the deposit page's
 * QR step runs the polling and the countdown; its form, the validation and the preview).
 */
type Case = { path: string; player: boolean; state?: (cookie: string) => Promise<void>; parts: LitePartName[] };

const CASES: Case[] = [
  { path: "/", player: false, parts: ["public", "carousel"] },
  { path: "/register", player: false, parts: ["public"] },
  { path: "/", player: true, parts: ["public", "menus", "creditChip", "passwordDialog", "pending"] },
  { path: "/player/deposit", player: true, parts: ["validate", "creditPreview", "quickAmount", "menus", "creditChip", "passwordDialog", "pending"] },
  {
    path: "/player/deposit",
    player: true,
    state: async (cookie) => {
      expect((await postDeposit(cookie, { amount: "60000" })).status).toBe(302);
    },
    parts: ["depositStatus", "countdown", "copy", "selectOnFocus", "saveQr"],
  },
  { path: "/player/withdraw", player: true, parts: ["validate"] },
  { path: "/player/bank", player: true, parts: ["validate"] },
  { path: "/player/password", player: true, parts: ["validate"] },
  { path: "/player/limits", player: true, parts: ["validate"] },
  { path: "/player/referral", player: true, parts: ["copy"] },
];

describe("the lite pages carry the markup of the parts they run (decision 066)", () => {
  for (const c of CASES) {
    it(`${c.path}${c.player ? " (player)" : ""}${c.state ? " (after a deposit)" : ""}: ${c.parts.join(", ")}`, async () => {
      const headers: Record<string, string> = {};
      if (c.player) {
        const p = await playerWithBank();
        headers.Cookie = p.cookie;
        await c.state?.(p.cookie);
      }
      const html = await (await fetchApp(`http://localhost${c.path}`, { headers })).text();
      const runs = litePartsIn(html);
      const markup = markupOf(html);
      for (const part of c.parts) {
        expect(runs, `${c.path} runs ${part}`).toContain(part);
        for (const hook of PART_MARKUP[part]) expect(pageHasHook(markup, hook), `${c.path}: ${part} needs ${hook.selector}`).toBe(true);
      }
    });
  }

  it("every part that needs markup is checked on some page", () => {
    const checked = new Set(CASES.flatMap((c) => c.parts));
    const needing = (Object.keys(PART_MARKUP) as LitePartName[]).filter((part) => PART_MARKUP[part].length > 0);
    expect(needing.filter((part) => !checked.has(part))).toEqual([]);
  });

  it("a page without a part's markup fails the check (the check can fail)", () => {
    const page = '<div data-testid="qr-status" hidden></div>';
    expect(PART_MARKUP.depositStatus.every((hook) => pageHasHook(page, hook))).toBe(false);
    expect(pageHasHook('<p data-copy="x" data-copied="y">', PART_MARKUP.copy[0]!)).toBe(true);
    expect(pageHasHook('<p data-copyright="x">', PART_MARKUP.copy[0]!)).toBe(false);
  });
});
