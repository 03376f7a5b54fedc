import { describe, expect, it } from "vitest";
import { categoryLinks, lobbyHref, tabKind, tidyTabName } from "@workers/core/game-categories";
import { PROVIDERS } from "@workers/core/providers";
import { gamesOf } from "@workers/sandbox/provider/games";

describe("a lobby tab's kind", () => {
  it("reads the providers' own spellings", () => {
    expect(tabKind("Slot")).toBe("slot");
    expect(tabKind("SLOT")).toBe("slot");
    expect(tabKind("Fishing")).toBe("fishing");
    expect(tabKind("FISH")).toBe("fishing");
    expect(tabKind("Card")).toBe("card");
    expect(tabKind("sport.txt")).toBe("sport");
    expect(tabKind("Live Casino")).toBe("casino");
    expect(tabKind("Chicken")).toBe("chicken");
    expect(tabKind("cock-fight")).toBe("chicken");
  });

  it("is no kind for a brand file or an unknown word", () => {
    expect(tabKind("pp.txt")).toBeNull();
    expect(tabKind("pg.txt")).toBeNull();
    expect(tabKind("Dragon")).toBeNull();
    expect(tabKind("")).toBeNull();
  });

  it("an unknown tab shows its own name, tidied", () => {
    expect(tidyTabName("pp.txt")).toBe("PP");
    expect(tidyTabName("jili")).toBe("JILI");
    expect(tidyTabName("pgsoft.txt")).toBe("Pgsoft");
    expect(tidyTabName("red_tiger")).toBe("Red Tiger");
    expect(tidyTabName("Red Tiger")).toBe("Red Tiger");
    expect(tidyTabName("  ")).toBe("  ");
  });
});

describe("the landing's categories", () => {
  it("each category opens the provider and tab that hold it", () => {
    expect(categoryLinks(PROVIDERS)).toEqual([
      { category: "slot", provider: "askmebet", tab: "Slot" },
      { category: "sport", provider: "betflix", tab: "sport.txt" },
      { category: "casino", provider: "gclub", tab: "Casino" },
      { category: "fish", provider: "askmebet", tab: "Fishing" },
      { category: "card", provider: "askmebet", tab: "Card" },
      { category: "chicken", provider: "alphabet", tab: "Chicken" },
    ]);
  });

  it("every tab named is one the sandbox provider's lobby has, and it holds games of that category's kind", () => {
    for (const link of categoryLinks(PROVIDERS)) {
      const list = gamesOf(link.provider, link.tab);
      expect(list.tabs, `${link.category}: ${link.provider}`).toContain(link.tab);
      expect(list.games.length, `${link.category}: ${link.provider} ${link.tab}`).toBeGreaterThan(0);
    }
  });

  it("a category no enabled provider holds is not shown; another provider takes it when it can", () => {
    const noAmb = categoryLinks(["betflix", "gclub_live", "alphabet"]);
    expect(noAmb.map((l) => l.category)).toEqual(["slot", "sport", "casino", "card", "chicken"]);
    expect(noAmb.find((l) => l.category === "slot")).toEqual({ category: "slot", provider: "betflix", tab: "pp.txt" });
    expect(noAmb.find((l) => l.category === "casino")).toEqual({ category: "casino", provider: "gclub_live", tab: "Live" });
    expect(noAmb.find((l) => l.category === "card")).toEqual({ category: "card", provider: "alphabet", tab: "Card" });
    expect(categoryLinks(["gclub"]).map((l) => l.category)).toEqual(["casino"]);
    expect(categoryLinks([])).toEqual([]);
  });

  it("takes the provider's own spelling when its list is known, and leaves out a provider whose list lacks the kind", () => {
    const links = categoryLinks(["askmebet", "betflix"], { askmebet: ["SLOT", "FISHING", "TABLE"], betflix: ["pg.txt", "pp.txt"] });
    expect(links).toEqual([
      { category: "slot", provider: "askmebet", tab: "SLOT" },
      { category: "fish", provider: "askmebet", tab: "FISHING" },
    ]);
  });

  it("a lobby link carries the tab and the search", () => {
    expect(lobbyHref("betflix", "sport.txt")).toBe("/player/game/betflix?tab=sport.txt");
    expect(lobbyHref("askmebet", "Slot", "Lucky Reels")).toBe("/player/game/askmebet?tab=Slot&q=Lucky+Reels");
    expect(lobbyHref("gclub", null)).toBe("/player/game/gclub");
  });
});
