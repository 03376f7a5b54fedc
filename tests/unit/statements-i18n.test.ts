import { describe, expect, it } from "vitest";
import lo from "../../locales/lo/admin.json";
import cn from "../../locales/cn/admin.json";
import vn from "../../locales/vn/admin.json";
import { AMOUNT_MODES, type FileProblem, type MappingProblem, type RowProblem } from "../../workers/core/statement";

function flat(value: unknown, prefix = ""): Record<string, string> {
  if (typeof value === "string") return { [prefix]: value };
  return Object.assign({}, ...Object.entries(value as Record<string, unknown>).map(([k, v]) => flat(v, prefix ? `${prefix}.${k}` : k)));
}

const ROW: RowProblem[] = ["DATE_UNREADABLE", "AMOUNT_UNREADABLE", "ROW_TOO_SHORT", "REPEATED_ID"];
const FILE: (FileProblem | "UNKNOWN_CHANNEL")[] = ["EMPTY", "NOT_TEXT", "TOO_LARGE", "NO_COLUMNS", "COLUMNS_NOT_FOUND", "NO_DATA_ROWS", "UNKNOWN_CHANNEL"];
const MAPPING: MappingProblem[] = [
  "DATE_REQUIRED",
  "DATE_FORMAT_REQUIRED",
  "NUMBER_FORMAT_REQUIRED",
  "AMOUNT_MODE_REQUIRED",
  "AMOUNT_REQUIRED",
  "INDICATOR_REQUIRED",
  "CREDIT_VALUE_REQUIRED",
  "CREDIT_REQUIRED",
  "DEBIT_REQUIRED",
  "DESCRIPTION_REQUIRED",
  "SAME_COLUMN_TWICE",
  "UNKNOWN_COLUMN",
];

describe("statement import translations", () => {
  const [flo, fcn, fvn] = [lo, cn, vn].map((file) => flat((file as Record<string, unknown>).statements, "statements"));
  it("have the same keys in lo, cn and vn, in each language's script", () => {
    expect(Object.keys(fcn).sort()).toEqual(Object.keys(flo).sort());
    expect(Object.keys(fvn).sort()).toEqual(Object.keys(flo).sort());
    for (const [key, value] of Object.entries(flo)) expect(value, key).toMatch(/[\u0E80-\u0EFF]/);
    for (const [key, value] of Object.entries(fcn)) expect(value, key).toMatch(/[\u4E00-\u9FFF]/);
    for (const [key, value] of Object.entries(fvn)) expect(value, key).not.toBe(flo[key]);
  });
  it("name every row, file and mapping problem and every credit/debit mode", () => {
    for (const p of ROW) expect(flo[`statements.rowProblems.${p}`], p).toBeTruthy();
    for (const p of FILE) expect(flo[`statements.fileProblems.${p}`], p).toBeTruthy();
    for (const p of MAPPING) expect(flo[`statements.mappingProblems.${p}`], p).toBeTruthy();
    for (const m of AMOUNT_MODES) expect(flo[`statements.amountModes.${m}`], m).toBeTruthy();
  });
});
