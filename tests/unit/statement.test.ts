import { describe, expect, it } from "vitest";
import {
  checkMapping,
  decodeStatement,
  findOrderReference,
  guessHeaderRow,
  guessMapping,
  checkTable,
  headerNames,
  locateHeader,
  parseBankTime,
  parseStatementAmount,
  readStatement,
  type StatementMapping,
} from "../../workers/core/statement";

const vientiane = (y: number, mo: number, d: number, h: number, mi: number, s = 0) => Date.UTC(y, mo - 1, d, h - 7, mi, s);

const SPLIT: StatementMapping = {
  date: "Date",
  time: null,
  dateFormat: "DD/MM/YYYY HH:mm",
  numberFormat: "1,234.56",
  amountMode: "split",
  amount: null,
  indicator: null,
  creditValue: null,
  credit: "Credit",
  debit: "Debit",
  description: "Description",
  transactionId: null,
};

describe("bank time (Vientiane, UTC+7)", () => {
  it("reads each date format", () => {
    expect(parseBankTime("24/11/2026 09:05", "DD/MM/YYYY HH:mm")).toBe(vientiane(2026, 11, 24, 9, 5));
    expect(parseBankTime("24/11/2026 09:05:33", "DD/MM/YYYY HH:mm")).toBe(vientiane(2026, 11, 24, 9, 5, 33));
    expect(parseBankTime("2026-11-24 23:59:59", "YYYY-MM-DD HH:mm")).toBe(vientiane(2026, 11, 24, 23, 59, 59));
    expect(parseBankTime("2026-11-24T00:00:01", "YYYY-MM-DD HH:mm")).toBe(vientiane(2026, 11, 24, 0, 0, 1));
    expect(parseBankTime("24-11-2026 9:05", "DD-MM-YYYY HH:mm")).toBe(vientiane(2026, 11, 24, 9, 5));
    expect(parseBankTime("24.11.2026 09.05", "DD.MM.YYYY HH:mm")).toBe(vientiane(2026, 11, 24, 9, 5));
    expect(parseBankTime("11/24/2026 09:05", "MM/DD/YYYY HH:mm")).toBe(vientiane(2026, 11, 24, 9, 5));
    expect(parseBankTime("2026/11/24 09:05", "YYYY/MM/DD HH:mm")).toBe(vientiane(2026, 11, 24, 9, 5));
  });
  it("is seven hours ahead of UTC: midnight in Vientiane is 17:00 UTC the day before", () => {
    expect(new Date(parseBankTime("01/01/2027 00:00", "DD/MM/YYYY HH:mm")!).toISOString()).toBe("2026-12-31T17:00:00.000Z");
  });
  it("reads AM/PM and Thai Buddhist-era years", () => {
    expect(parseBankTime("24/11/2026 02:15 PM", "DD/MM/YYYY HH:mm")).toBe(vientiane(2026, 11, 24, 14, 15));
    expect(parseBankTime("24/11/2026 12:15 AM", "DD/MM/YYYY HH:mm")).toBe(vientiane(2026, 11, 24, 0, 15));
    expect(parseBankTime("24/11/2569 10:00", "DD/MM/YYYY HH:mm")).toBe(vientiane(2026, 11, 24, 10, 0));
  });
  it("refuses dates that do not fit the format or do not exist, and dates without a time", () => {
    for (const text of [
      "24/11/2026",
      "2026-11-24 09:05",
      "31/02/2026 10:00",
      "24/13/2026 10:00",
      "24/11/2026 24:00",
      "24/11/2026 10:60",
      "yesterday",
      "",
      "13:00 PM 24/11/2026",
    ]) {
      expect(parseBankTime(text, "DD/MM/YYYY HH:mm"), text).toBeNull();
    }
    expect(parseBankTime("11/24/2026 09:05", "DD/MM/YYYY HH:mm")).toBeNull();
  });
});

describe("amounts by number format", () => {
  it('"1,234.56": comma groups, dot decimals', () => {
    expect(parseStatementAmount("100,037.00", "1,234.56")).toBe(10003700n);
    expect(parseStatementAmount("100037", "1,234.56")).toBe(10003700n);
    expect(parseStatementAmount("1,000,000.5", "1,234.56")).toBe(100000050n);
    expect(parseStatementAmount("100 037", "1,234.56")).toBe(10003700n);
    expect(parseStatementAmount("LAK 100,037.00", "1,234.56")).toBe(10003700n);
    expect(parseStatementAmount("100,037 ₭", "1,234.56")).toBe(10003700n);
  });
  it('"1.234,56": dot groups, comma decimals', () => {
    expect(parseStatementAmount("100.037", "1.234,56")).toBe(10003700n);
    expect(parseStatementAmount("100.037,00", "1.234,56")).toBe(10003700n);
    expect(parseStatementAmount("1.000.000", "1.234,56")).toBe(100000000n);
    expect(parseStatementAmount("100.037 ກີບ", "1.234,56")).toBe(10003700n);
  });
  it("the wrong number format gives unreadable, never a wrong amount", () => {
    expect(parseStatementAmount("100.037", "1,234.56")).toBeNull(); // 3 decimals of kip
    expect(parseStatementAmount("100,037.00", "1.234,56")).toBeNull();
    expect(parseStatementAmount("1,00,037", "1,234.56")).toBeNull(); // groups of three only
    expect(parseStatementAmount("12.5.2026", "1.234,56")).toBeNull();
  });
  it("reads signs: -, trailing -, (…), unicode minus, +", () => {
    expect(parseStatementAmount("-50,000.00", "1,234.56")).toBe(-5000000n);
    expect(parseStatementAmount("50,000.00-", "1,234.56")).toBe(-5000000n);
    expect(parseStatementAmount("(50,000.00)", "1,234.56")).toBe(-5000000n);
    expect(parseStatementAmount("\u221250000", "1,234.56")).toBe(-5000000n);
    expect(parseStatementAmount("+50000", "1,234.56")).toBe(5000000n);
  });
  it("refuses garbage and empty text", () => {
    for (const text of ["", "abc", "1e5", "12,34", "--5", "5..0", "１００"]) expect(parseStatementAmount(text, "1,234.56"), text).toBeNull();
  });
});

describe("mapping", () => {
  it("accepts a complete mapping of each mode", () => {
    expect(checkMapping({ ...SPLIT }).ok).toBe(true);
    expect(
      checkMapping({ date: "Date", dateFormat: "YYYY-MM-DD HH:mm", numberFormat: "1.234,56", amountMode: "signed", amount: "Amount", description: "Memo" }).ok,
    ).toBe(true);
    const indicator = checkMapping({
      date: "Date",
      dateFormat: "YYYY-MM-DD HH:mm",
      numberFormat: "1,234.56",
      amountMode: "indicator",
      amount: "Amount",
      indicator: "Type",
      creditValue: "CR",
      description: "Memo",
      transactionId: "Ref",
    });
    expect(indicator).toMatchObject({ ok: true, mapping: { indicator: "Type", creditValue: "CR", transactionId: "Ref", credit: null } });
  });
  it("names every missing or wrong part", () => {
    expect(checkMapping({})).toEqual({
      ok: false,
      problems: ["DATE_REQUIRED", "DATE_FORMAT_REQUIRED", "NUMBER_FORMAT_REQUIRED", "AMOUNT_MODE_REQUIRED", "DESCRIPTION_REQUIRED"],
    });
    expect(checkMapping({ ...SPLIT, credit: "" })).toEqual({ ok: false, problems: ["CREDIT_REQUIRED"] });
    expect(checkMapping({ ...SPLIT, amountMode: "indicator", amount: "Credit" })).toEqual({
      ok: false,
      problems: ["INDICATOR_REQUIRED", "CREDIT_VALUE_REQUIRED"],
    });
    expect(checkMapping({ ...SPLIT, amountMode: "signed" })).toEqual({ ok: false, problems: ["AMOUNT_REQUIRED"] });
    expect(checkMapping({ ...SPLIT, description: "Credit" })).toEqual({ ok: false, problems: ["SAME_COLUMN_TWICE"] });
    expect(checkMapping({ ...SPLIT, dateFormat: "DD/MM/YY" })).toEqual({ ok: false, problems: ["DATE_FORMAT_REQUIRED"] });
    expect(checkMapping({ ...SPLIT }, ["Date", "Debit", "Credit", "Memo"])).toEqual({ ok: false, problems: ["UNKNOWN_COLUMN"] });
  });
  it("finds the header after a preamble, by names (case and spaces ignored); names empty header cells by position", () => {
    const rows = [
      ["Account", "0101000123456"],
      ["Period", "01/11/2026 - 24/11/2026"],
      [" date ", "DESCRIPTION", "Debit", "Credit", ""],
      ["24/11/2026 10:00", "x", "", "1"],
    ];
    expect(locateHeader(rows, SPLIT)).toEqual({ ok: true, headerIndex: 2 });
    expect(guessHeaderRow(rows)).toBe(2);
    expect(headerNames(rows[2])).toEqual(["date", "DESCRIPTION", "Debit", "Credit", "#5"]);
    expect(locateHeader([["Date", "Amount"]], SPLIT)).toEqual({ ok: false, missing: ["Description", "Credit", "Debit"] });
  });
});

describe("reading a statement", () => {
  const file = [
    ["BCEL statement"],
    ["Date", "Description", "Debit", "Credit", "Balance"],
    ["24/11/2026 10:01", "ໂອນເງິນ D261124ABCDE ທ້າວ ສົມ", "", "100,037.00", "1,100,037.00"],
    ["24/11/2026 10:02", "ATM withdrawal", "50,000.00", "", "1,050,037.00"],
    ["", "", "", "", ""],
    ["not a date", "x", "", "1,000.00", ""],
    ["24/11/2026 10:03", "โอนเงิน", "", "12.5", ""],
    ["24/11/2026 10:04", "bad amount", "", "100.037", ""],
    ["24/11/2026 10:05", "short"],
    ["24/11/2026 10:01", "ໂອນເງິນ D261124ABCDE ທ້າວ ສົມ", "", "100,037.00", "1,200,074.00"],
    ["24/11/2026 10:06", "both empty", "", "", ""],
  ];
  const read = readStatement(file, SPLIT);

  it("gives one result per non-blank row with the file's row number", () => {
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.headerIndex).toBe(1);
    expect(read.rows.map((r) => [r.row, r.kind, r.kind === "error" ? r.problem : ""])).toEqual([
      [3, "credit", ""],
      [4, "debit", ""],
      [6, "error", "DATE_UNREADABLE"],
      [7, "credit", ""],
      [8, "error", "AMOUNT_UNREADABLE"],
      [9, "error", "ROW_TOO_SHORT"],
      [10, "credit", ""],
      [11, "error", "AMOUNT_UNREADABLE"],
    ]);
  });
  it("reads credits: bank time, canonical LAK amount, Lao/Thai description, the order code, raw text", () => {
    if (!read.ok) throw new Error();
    const first = read.rows[0];
    expect(first).toMatchObject({
      kind: "credit",
      bankTime: vientiane(2026, 11, 24, 10, 1),
      amount: "100037.00",
      description: "ໂອນເງິນ D261124ABCDE ທ້າວ ສົມ",
      reference: "D261124ABCDE",
      transactionId: null,
    });
    expect(first.raw).toContain("Credit: 100,037.00");
    expect(read.rows[3]).toMatchObject({ kind: "credit", amount: "12.50", description: "โอนเงิน", reference: null });
  });
  it("the same date, amount and text twice are two transactions with distinct, stable keys", () => {
    if (!read.ok) throw new Error();
    const [a, b] = [read.rows[0], read.rows[6]];
    if (a.kind !== "credit" || b.kind !== "credit") throw new Error();
    expect(a.key).not.toBe(b.key);
    expect(a.key.endsWith("|1")).toBe(true);
    expect(b.key.endsWith("|2")).toBe(true);
    const again = readStatement(file, SPLIT);
    expect(again.ok && again.rows.map((r) => (r.kind === "credit" ? r.key : r.kind))).toEqual(read.rows.map((r) => (r.kind === "credit" ? r.key : r.kind)));
  });
  it("error rows carry the value that could not be read", () => {
    if (!read.ok) throw new Error();
    expect(read.rows[2]).toMatchObject({ problem: "DATE_UNREADABLE", value: "not a date" });
    expect(read.rows[4]).toMatchObject({ problem: "AMOUNT_UNREADABLE", value: "100.037 / " });
  });

  it("signed amounts: negative is a debit; a separate time column is joined", () => {
    const m: StatementMapping = {
      ...SPLIT,
      amountMode: "signed",
      amount: "Amount",
      credit: null,
      debit: null,
      time: "Time",
      dateFormat: "YYYY-MM-DD HH:mm",
      numberFormat: "1.234,56",
    };
    const r = readStatement(
      [
        ["Date", "Time", "Amount", "Description"],
        ["2026-11-24", "10:01:02", "100.037", "a"],
        ["2026-11-24", "10:02", "-5.000", "b"],
        ["2026-11-24", "", "5.000", "c"],
        ["2026-11-24", "10:04", "0", "d"],
      ],
      m,
    );
    expect(r.ok && r.rows.map((x) => x.kind)).toEqual(["credit", "debit", "error", "debit"]);
    expect(r.ok && r.rows[0]).toMatchObject({ bankTime: vientiane(2026, 11, 24, 10, 1, 2), amount: "100037.00" });
  });
  it("indicator column: the credit value (case and spaces ignored) is a credit, anything else a debit; the id column is kept, a repeated id refused", () => {
    const m: StatementMapping = {
      ...SPLIT,
      amountMode: "indicator",
      amount: "Amount",
      indicator: "Dr/Cr",
      creditValue: "CR",
      credit: null,
      debit: null,
      transactionId: "Ref No",
    };
    const r = readStatement(
      [
        ["Date", "Ref No", "Amount", "Dr/Cr", "Description"],
        ["24/11/2026 10:01", "FT1", "100,037.00", " cr ", "a"],
        ["24/11/2026 10:02", "FT2", "5,000.00", "DR", "b"],
        ["24/11/2026 10:03", "FT1", "100,037.00", "CR", "a"],
        ["24/11/2026 10:04", "", "7,000.00", "CR", "c"],
      ],
      m,
    );
    expect(r.ok && r.rows.map((x) => (x.kind === "error" ? x.problem : x.kind))).toEqual(["credit", "debit", "REPEATED_ID", "credit"]);
    expect(r.ok && r.rows[0]).toMatchObject({ transactionId: "FT1" });
    expect(r.ok && r.rows[3]).toMatchObject({ transactionId: null });
  });

  it("refuses a file whose header lacks a mapped column, an empty file and a file with no data rows", () => {
    expect(
      readStatement(
        [
          ["Date", "Memo", "Amount"],
          ["24/11/2026 10:00", "x", "1"],
        ],
        SPLIT,
      ),
    ).toEqual({ ok: false, problem: "COLUMNS_NOT_FOUND", missing: ["Description", "Credit", "Debit"] });
    expect(readStatement([], SPLIT)).toEqual({ ok: false, problem: "EMPTY" });
    expect(
      readStatement(
        [
          ["Date", "Description", "Debit", "Credit"],
          ["", "", "", ""],
        ],
        SPLIT,
      ),
    ).toEqual({ ok: false, problem: "NO_DATA_ROWS" });
    expect(checkTable([["just one column"], ["x"]])).toBe("NO_COLUMNS");
    expect(checkTable([["a", "b"]])).toBeNull();
    expect(checkTable(Array.from({ length: 2031 }, () => ["a", "b"]))).toBe("TOO_LARGE");
    expect(checkTable(Array.from({ length: 2030 }, () => ["a", "b"]))).toBeNull();
  });
});

describe("decoding the upload", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  it("reads UTF-8 with and without BOM, and UTF-16LE with BOM", () => {
    expect(decodeStatement(enc("\ufeffDate;Amount\n"))).toEqual({ ok: true, text: "Date;Amount\n" });
    expect(decodeStatement(enc("ວັນທີ,ຈຳນວນ"))).toEqual({ ok: true, text: "ວັນທີ,ຈຳນວນ" });
    const text = "Date\tAmount";
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) utf16[2 + i * 2] = text.charCodeAt(i);
    expect(decodeStatement(utf16)).toEqual({ ok: true, text });
  });
  it("refuses empty, binary, non-UTF-8 and too large files", () => {
    expect(decodeStatement(new Uint8Array())).toEqual({ ok: false, problem: "EMPTY" });
    expect(decodeStatement(enc("  \n "))).toEqual({ ok: false, problem: "EMPTY" });
    expect(decodeStatement(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00]))).toEqual({ ok: false, problem: "NOT_TEXT" });
    expect(decodeStatement(new Uint8Array([0x41, 0x00, 0x42]))).toEqual({ ok: false, problem: "NOT_TEXT" });
    expect(decodeStatement(new Uint8Array(1_000_001).fill(0x41))).toEqual({ ok: false, problem: "TOO_LARGE" });
  });
});

describe("order reference in a description", () => {
  it("finds an order code, upper-cased, not inside a longer word", () => {
    expect(findOrderReference("transfer d261124abcde from SOM")).toBe("D261124ABCDE");
    expect(findOrderReference("REF:D261124ABCDE/01")).toBe("D261124ABCDE");
    expect(findOrderReference("XD261124ABCDE")).toBeNull();
    expect(findOrderReference("D261124ABCDEF")).toBeNull();
    expect(findOrderReference("D261124ABCIE")).toBeNull(); // I is no code letter
    expect(findOrderReference("no code")).toBeNull();
  });
});

describe("first guess of a mapping from header names", () => {
  it("Lao headers with separate debit and credit columns (the balance column is never taken)", () => {
    expect(guessMapping(["ວັນທີ", "ລາຍລະອຽດ", "ຖອນ", "ຝາກ", "ຍອດເຫຼືອ"])).toEqual({
      date: "ວັນທີ",
      description: "ລາຍລະອຽດ",
      debit: "ຖອນ",
      credit: "ຝາກ",
      amountMode: "split",
      dateFormat: "DD/MM/YYYY HH:mm",
      numberFormat: "1,234.56",
    });
  });
  it("English headers with one signed amount, a reference and a time column", () => {
    expect(guessMapping(["Txn Date", "Time", "Ref No", "Narration", "Amount", "Balance"])).toMatchObject({
      date: "Txn Date",
      time: "Time",
      transactionId: "Ref No",
      description: "Narration",
      amount: "Amount",
      amountMode: "signed",
    });
  });
  it("a guess is only a start: the guessed mapping still goes through checkMapping", () => {
    expect(checkMapping(guessMapping(["foo", "bar"])).ok).toBe(false);
  });
});
