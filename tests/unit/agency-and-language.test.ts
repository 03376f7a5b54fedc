import { describe, expect, it } from "vitest";
import { normalizeHost } from "../../workers/core/host";
import { chooseLanguage, isLanguage } from "../../workers/core/languages";
import { isActiveEntry, pathOf, PLAYER_MENU, safeRedirectPath } from "~/lib/menu";

describe("normalizeHost", () => {
  it.each([
    ["localhost", "localhost"],
    ["localhost:5173", "localhost"],
    ["LOCALHOST:5173", "localhost"],
    ["Play.Example.LA.", "play.example.la"],
    ["127.0.0.1:8787", "127.0.0.1"],
    ["[::1]:5173", "[::1]"],
    ["", null],
    [null, null],
    ["evil host", null],
    ["[::1", null],
    ["a/b", null],
  ])("%s -> %s", (input, expected) => expect(normalizeHost(input)).toBe(expected));
});

describe("chooseLanguage: cookie, then agency fallback, then lo", () => {
  it("uses the cookie when it names a supported language", () => {
    expect(chooseLanguage("vn", "cn")).toBe("vn");
    expect(chooseLanguage("lo", "vn")).toBe("lo");
  });
  it("falls back to the agency setting when the cookie is missing or unsupported", () => {
    expect(chooseLanguage(null, "cn")).toBe("cn");
    expect(chooseLanguage("en", "vn")).toBe("vn");
    expect(chooseLanguage("", "cn")).toBe("cn");
  });
  it("falls back to lo when neither helps", () => {
    expect(chooseLanguage(undefined, undefined)).toBe("lo");
    expect(chooseLanguage("th", "fr")).toBe("lo");
  });
  it("knows exactly lo, cn and vn", () => {
    expect(["lo", "cn", "vn", "en", "zh", "vi", 1].map(isLanguage)).toEqual([true, true, true, false, false, false, false]);
  });
});

describe("drawer active entry (query ignored)", () => {
  const [games, deposit] = PLAYER_MENU[0];
  const [account, history] = PLAYER_MENU[1];
  it("marks an entry whose link is the current path", () => {
    expect(isActiveEntry(deposit, "/player/deposit")).toBe(true);
    expect(isActiveEntry(deposit, "/player/deposit/")).toBe(true);
    expect(isActiveEntry(deposit, "/player/deposit?x=1")).toBe(true);
    expect(isActiveEntry(deposit, "/player/deposit/history")).toBe(false);
  });
  it("marks a group when a child's link is the current path, ignoring the child's query", () => {
    expect(isActiveEntry(games, "/player/game/askmebet")).toBe(true);
    expect(isActiveEntry(games, "/player/game/betflix?tab=other")).toBe(true);
    expect(isActiveEntry(games, "/player/game/gclub_live")).toBe(false);
    expect(isActiveEntry(history, "/player/withdraw/history")).toBe(true);
    expect(isActiveEntry(account, "/player/bank/")).toBe(true);
    expect(isActiveEntry(account, "/player/deposit")).toBe(false);
  });
  it("pathOf strips query, hash and trailing slashes", () => {
    expect(pathOf("/a/b/?q#h")).toBe("/a/b");
    expect(pathOf("/")).toBe("/");
    expect(pathOf("")).toBe("/");
  });
});

describe("safeRedirectPath", () => {
  it.each([
    ["/player/deposit?x=1", "/player/deposit?x=1"],
    ["/", "/"],
    ["//evil.example", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["player", "/"],
    ["/a\nb", "/"],
    [null, "/"],
  ])("%s -> %s", (input, expected) => expect(safeRedirectPath(input)).toBe(expected));
});
