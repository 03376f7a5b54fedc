import { describe, expect, it } from "vitest";
import { cleanName } from "../../workers/core/names";

describe("cleanName (one rule for every typed name)", () => {
  it.each([
    ["NUL", "ab\u0000cd"],
    ["tab", "ab\tcd"],
    ["newline", "ab\ncd"],
    ["DEL", "ab\u007Fcd"],
    ["C1 NEL", "ab\u0085cd"],
    ["C1 CSI", "ab\u009Bcd"],
    ["RLO", "abc\u202Edef"],
    ["LRE", "\u202Aabc"],
    ["PDF", "abc\u202C"],
    ["LRI", "\u2066abc"],
    ["PDI", "abc\u2069"],
    ["RLM", "abc\u200F"],
    ["LRM", "\u200Eabc"],
    ["ALM", "ab\u061Ccd"],
    ["line separator", "ab\u2028cd"],
  ])("refuses %s", (_, raw) => {
    expect(cleanName(raw)).toEqual({ ok: false, error: "NAME_CHARACTERS" });
  });

  it("removes zero-width characters, then trims", () => {
    expect(cleanName("\u200Bສົມ\u200Bໃຈ\u200C \u200Dພົມ\u2060ມະ\uFEFF")).toEqual({ ok: true, value: "ສົມໃຈ ພົມມະ" });
    expect(cleanName(" \u200B Somchai \u200B ")).toEqual({ ok: true, value: "Somchai" });
  });

  it("keeps Lao, Chinese and Vietnamese names as typed, composed to NFC", () => {
    expect(cleanName("ສົມໃຈ ພົມມະວົງ")).toEqual({ ok: true, value: "ສົມໃຈ ພົມມະວົງ" });
    expect(cleanName("王小明")).toEqual({ ok: true, value: "王小明" });
    expect(cleanName("Nguye\u0302\u0303n Va\u0306n A")).toEqual({ ok: true, value: "Nguyễn Văn A" });
  });

  it("a name made only of zero-width characters is empty (the length rules then refuse it)", () => {
    expect(cleanName("\u200B\u200B")).toEqual({ ok: true, value: "" });
  });
});
