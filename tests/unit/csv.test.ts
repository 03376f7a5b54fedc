import { describe, expect, it } from "vitest";
import { CSV_BOM, csvField, toCsv } from "../../workers/core/csv";

describe("CSV file (UTF-8 BOM, CRLF, RFC 4180)", () => {
  it("starts with the byte-order mark and ends every record with CRLF", () => {
    const csv = toCsv([
      ["period", "count"],
      ["2026-11-24", 3],
    ]);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toBe(`${CSV_BOM}period,count\r\n2026-11-24,3\r\n`);
    // Encoded as UTF-8 the file begins with EF BB BF.
    expect([...new TextEncoder().encode(csv).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it("keeps Lao, Chinese and Vietnamese text as it is", () => {
    expect(toCsv([["ຝາກ 60.000 ກີບ", "存款", "Nạp tiền"]])).toBe(`${CSV_BOM}ຝາກ 60.000 ກີບ,存款,Nạp tiền\r\n`);
  });

  it("an empty table is the BOM alone", () => {
    expect(toCsv([])).toBe(CSV_BOM);
  });

  it.each([
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['"', '""""'],
    ["line1\nline2", '"line1\nline2"'],
    ["line1\r\nline2", '"line1\r\nline2"'],
    ["", ""],
    [" spaced ", " spaced "],
  ])("quotes %j as %j", (input, expected) => expect(csvField(input)).toBe(expected));

  it("null and undefined are empty fields", () => {
    expect(toCsv([[null, undefined, "x"]])).toBe(`${CSV_BOM},,x\r\n`);
  });
});

describe("formula injection", () => {
  it.each([
    ["=1+2", "'=1+2"],
    ["+1", "'+1"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1:A2)", "'@SUM(A1:A2)"],
    ["\tTAB", "'\tTAB"],
    ["\rCR", '"\'\rCR"'],
    ['=HYPERLINK("http://evil","x")', `"'=HYPERLINK(""http://evil"",""x"")"`],
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ["-", "'-"],
    ["- 5", "'- 5"],
    ["-5e3", "'-5e3"],
    ["＝1+1", "'＝1+1"],
    ["＠A1", "'＠A1"],
  ])("neutralises text %j -> %j", (input, expected) => expect(csvField(input)).toBe(expected));

  it("a formula after the first character is plain text (nothing to neutralise)", () => {
    expect(csvField("name=1+2")).toBe("name=1+2");
    expect(csvField("ຜູ້ຫຼິ້ນ@home")).toBe("ຜູ້ຫຼິ້ນ@home");
  });

  it("the neutralised cell is quoted when it also needs quotes", () => {
    expect(csvField("=1,2")).toBe(`"'=1,2"`);
  });
});

describe("numbers are plain", () => {
  it.each([
    [0, "0"],
    [-0, "0"],
    [5, "5"],
    [-5, "-5"],
    [1234567, "1234567"],
    [0.25, "0.25"],
    [1e21, "1000000000000000000000"],
    [12345678901234567890n, "12345678901234567890"],
    [-42n, "-42"],
  ])("number %s -> %s (no grouping, no exponent)", (input, expected) => expect(csvField(input)).toBe(expected));

  it.each(["-5", "-1234.50", "1234.50", "0", "-0.05", "100000"])("a numeric string %j stays a number (not neutralised)", (input) => {
    expect(csvField(input)).toBe(input);
  });

  it("refuses NaN and infinities", () => {
    expect(() => csvField(Number.NaN)).toThrow(RangeError);
    expect(() => csvField(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it("a whole table: text neutralised, numbers (negative too) untouched", () => {
    expect(
      toCsv([
        ["provider", "winLoss"],
        ["=evil()", "-150.25"],
        ["askmebet", -7],
      ]),
    ).toBe(`${CSV_BOM}provider,winLoss\r\n'=evil(),-150.25\r\naskmebet,-7\r\n`);
  });
});
