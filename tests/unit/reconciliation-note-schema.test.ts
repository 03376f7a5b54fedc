import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { NoteSchema } from "../../app/lib/schemas/reconciliation";

/**
 * The note form of the reconciliation page (app/lib/schemas/reconciliation.ts): the note follows
 * the rule of every typed text (workers/core/names.ts, as brand texts do). Control and direction
 * characters are refused with the note's own message; zero-width characters are removed; line
 * breaks of the note box become spaces.
 */
const form = (note: string) => {
  const data = new FormData();
  data.set("day", "2026-11-20");
  data.set("lineKey", "withdrawal:W-1");
  data.set("note", note);
  return data;
};
const parse = (note: string) => parseWithZod(form(note), { schema: NoteSchema });
const CHARACTERS = ["admin:reconciliation.errors.NOTE_CHARACTERS"];

describe("the note of a difference", () => {
  it.each([
    ["NUL", "\u0000"],
    ["a C1 control", "\u0085"],
    ["U+202E (right-to-left override)", "\u202E"],
    ["U+2066 (left-to-right isolate)", "\u2066"],
    ["U+200F (right-to-left mark)", "\u200F"],
    ["a tab", "\t"],
  ])("%s is refused with the note's message", (_what, char) => {
    expect(parse(`paid twice ${char}by the bank`).reply().error).toEqual({ note: CHARACTERS });
  });

  it("U+FEFF (byte-order mark) and the other zero-width characters are removed, as from a name", () => {
    expect(parse("\uFEFFpaid from the\u200B second account\uFEFF")).toMatchObject({
      status: "success",
      value: { note: "paid from the second account" },
    });
  });

  it("line breaks of the note box become spaces; the text is trimmed and NFC", () => {
    expect(parse("  paid in two parts:\r\nfirst 50,\nthen 50 Vie\u0323\u0302t  ")).toMatchObject({
      status: "success",
      value: { note: "paid in two parts: first 50, then 50 Vi\u1EC7t" },
    });
  });

  it("3 to 500 characters, counted after the cleaning", () => {
    expect(parse("ok\uFEFF").reply().error).toEqual({ note: ["admin:reconciliation.errors.NOTE_INVALID"] });
    expect(parse("   ").reply().error).toEqual({ note: ["admin:reconciliation.errors.NOTE_INVALID"] });
    expect(parse("x".repeat(501)).reply().error).toEqual({ note: ["admin:reconciliation.errors.NOTE_INVALID"] });
    expect(parse("x".repeat(500))).toMatchObject({ status: "success" });
  });
});
