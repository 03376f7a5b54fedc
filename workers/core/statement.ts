import { formatAmount } from "./money";
import { vientianeInstant } from "./vientiane";

/**
 * Bank statement import (decision 016): the pure rules that turn the cells of a bank's CSV
 * export (already split into rows by the service's CSV parser) into credit rows the matcher
 * can take, with one clear problem per row that cannot be read. No bank publishes its export
 * columns, so staff map them once per channel; the mapping names columns by their HEADER
 * TEXT (not their position), so a statement with a different preamble or an extra column
 * still reads, and a file whose header lacks a mapped column is refused as a whole.
 *
 * Rules:
 * - Bank time: the date column (plus an optional separate time column, joined with a space)
 *   read with one of DATE_FORMATS, in Vientiane time (UTC+7, no daylight saving). A time of
 *   day is required: without it nobody can say the money arrived within an order's life.
 *   "HH:mm" also accepts seconds, a "T" between date and time, and a trailing AM/PM.
 *   A year above 2400 is a Thai Buddhist-era year (2569 = 2026) and is converted.
 * - Amount: NUMBER_FORMATS says which character groups thousands and which marks decimals:
 *   "1,234.56" (comma groups, dot decimals) or "1.234,56" (dot groups, comma decimals).
 *   Spaces also group. Groups must be of three digits. LAK has 2 minor digits, so "100.037"
 *   read with "1,234.56" is refused as unreadable (3 decimals) instead of being taken as
 *   100 kip: a wrong number format shows up as errors in the preview, never as a wrong amount.
 *   "LAK", "KIP", "₭", "ກີບ" are ignored; "-", a trailing "-", "(...)" or "−" mean negative.
 * - Credit or debit: AMOUNT_MODES: "signed" (one amount column, negative = debit), "indicator"
 *   (one amount column and a column whose value equals the mapped credit value, case and
 *   spaces ignored, for a credit; anything else is a debit), "split" (separate debit and credit
 *   amount columns; a credit row has a credit amount above zero). Debit rows are skipped:
 *   they are not deposits.
 * - Blank rows are ignored. A row whose transaction id already appeared earlier in the file is
 *   refused (the bank listed it twice; it is applied once).
 * - Order reference: an order code (D + 6 digits + 5 code letters) found in the description.
 * - Without a transaction id column the bank transaction id is the SHA-256 (computed by the
 *   service) of `rowKey`: bank time, amount, description and the occurrence of that same
 *   triple in the file, so the same file, or a later export repeating the same rows, gives
 *   the same ids and nothing is applied twice.
 */

export const DATE_FORMATS = ["DD/MM/YYYY HH:mm", "YYYY-MM-DD HH:mm", "DD-MM-YYYY HH:mm", "DD.MM.YYYY HH:mm", "MM/DD/YYYY HH:mm", "YYYY/MM/DD HH:mm"] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const NUMBER_FORMATS = ["1,234.56", "1.234,56"] as const;
export type NumberFormat = (typeof NUMBER_FORMATS)[number];
export const AMOUNT_MODES = ["signed", "indicator", "split"] as const;
type AmountMode = (typeof AMOUNT_MODES)[number];

/** Columns are named by their header text. */
export type StatementMapping = {
  date: string;
  time: string | null;
  dateFormat: DateFormat;
  numberFormat: NumberFormat;
  amountMode: AmountMode;
  amount: string | null; // signed, indicator
  indicator: string | null; // indicator
  creditValue: string | null; // indicator
  credit: string | null; // split
  debit: string | null; // split
  description: string;
  transactionId: string | null;
};

export type MappingProblem =
  | "DATE_REQUIRED"
  | "DATE_FORMAT_REQUIRED"
  | "NUMBER_FORMAT_REQUIRED"
  | "AMOUNT_MODE_REQUIRED"
  | "AMOUNT_REQUIRED"
  | "INDICATOR_REQUIRED"
  | "CREDIT_VALUE_REQUIRED"
  | "CREDIT_REQUIRED"
  | "DEBIT_REQUIRED"
  | "DESCRIPTION_REQUIRED"
  | "SAME_COLUMN_TWICE"
  | "UNKNOWN_COLUMN";

export type FileProblem = "EMPTY" | "NOT_TEXT" | "TOO_LARGE" | "NO_COLUMNS" | "COLUMNS_NOT_FOUND" | "NO_DATA_ROWS";

export type RowProblem = "DATE_UNREADABLE" | "AMOUNT_UNREADABLE" | "ROW_TOO_SHORT" | "REPEATED_ID";

export type StatementRow =
  | {
      row: number;
      kind: "credit";
      bankTime: number;
      amount: string;
      description: string;
      transactionId: string | null;
      reference: string | null;
      key: string;
      raw: string;
    }
  /** A debit row keeps what reconciliation matches withdrawals by (amount null: the bank printed none readable). */
  | { row: number; kind: "debit"; bankTime: number; amount: string | null; description: string; transactionId: string | null; key: string; raw: string }
  | { row: number; kind: "error"; problem: RowProblem; value: string; raw: string };

/** The largest statement accepted (bytes) and rows read from it. */
const MAX_STATEMENT_BYTES = 1_000_000;
const MAX_STATEMENT_ROWS = 2_000;
/** How many rows the header is looked for in (a preamble with the account's details comes first). */
const HEADER_SEARCH_ROWS = 30;

const clean = (text: string | undefined): string => (text ?? "").replace(/[\u00a0\u200b\ufeff]/g, " ").trim();
const norm = (text: string): string => clean(text).replace(/\s+/g, " ").toLowerCase();

/** The header names of a row: an empty cell is named by its position ("#3") so it can still be mapped. */
export function headerNames(row: readonly string[]): string[] {
  return row.map((cell, i) => clean(cell) || `#${i + 1}`);
}

const isBlank = (row: readonly string[]): boolean => row.every((cell) => clean(cell) === "");

/** Decodes the uploaded bytes: UTF-8 (with or without BOM) or UTF-16 with its BOM; anything else is not text we can read. */
export function decodeStatement(bytes: Uint8Array): { ok: true; text: string } | { ok: false; problem: FileProblem } {
  if (bytes.length === 0) return { ok: false, problem: "EMPTY" };
  if (bytes.length > MAX_STATEMENT_BYTES) return { ok: false, problem: "TOO_LARGE" };
  let text: string;
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder("utf-16le", { fatal: true }).decode(bytes.subarray(2));
    else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder("utf-16be", { fatal: true }).decode(bytes.subarray(2));
    else text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, problem: "NOT_TEXT" };
  }
  text = text.replace(/^\ufeff/, "");
  if (text.includes("\u0000")) return { ok: false, problem: "NOT_TEXT" };
  if (text.trim() === "") return { ok: false, problem: "EMPTY" };
  return { ok: true, text };
}

/** The row (0-based) most likely to be the header for a first mapping: the first with as many filled cells as the widest row. */
export function guessHeaderRow(rows: readonly (readonly string[])[]): number {
  const head = rows.slice(0, HEADER_SEARCH_ROWS);
  const filled = head.map((row) => row.filter((cell) => clean(cell) !== "").length);
  const widest = Math.max(0, ...filled);
  return Math.max(0, filled.indexOf(widest));
}

/** The mapped column names of a mapping, each with the field it serves. */
function mappedColumns(m: StatementMapping): string[] {
  const names = [m.date, m.time, m.description, m.transactionId];
  if (m.amountMode === "split") names.push(m.credit, m.debit);
  else names.push(m.amount);
  if (m.amountMode === "indicator") names.push(m.indicator);
  return names.filter((n): n is string => !!n);
}

/** Checks a mapping as staff filled it in (against the header names when given). */
export function checkMapping(
  m: Partial<Record<keyof StatementMapping, string | null | undefined>>,
  header?: readonly string[],
): { ok: true; mapping: StatementMapping } | { ok: false; problems: MappingProblem[] } {
  const problems: MappingProblem[] = [];
  const opt = (v: string | null | undefined): string | null => (v && clean(v) !== "" ? clean(v) : null);
  const date = opt(m.date);
  const dateFormat = (DATE_FORMATS as readonly string[]).includes(m.dateFormat ?? "") ? (m.dateFormat as DateFormat) : null;
  const numberFormat = (NUMBER_FORMATS as readonly string[]).includes(m.numberFormat ?? "") ? (m.numberFormat as NumberFormat) : null;
  const amountMode = (AMOUNT_MODES as readonly string[]).includes(m.amountMode ?? "") ? (m.amountMode as AmountMode) : null;
  const description = opt(m.description);
  if (!date) problems.push("DATE_REQUIRED");
  if (!dateFormat) problems.push("DATE_FORMAT_REQUIRED");
  if (!numberFormat) problems.push("NUMBER_FORMAT_REQUIRED");
  if (!amountMode) problems.push("AMOUNT_MODE_REQUIRED");
  if (!description) problems.push("DESCRIPTION_REQUIRED");
  const mapping: StatementMapping = {
    date: date ?? "",
    time: opt(m.time),
    dateFormat: dateFormat ?? DATE_FORMATS[0],
    numberFormat: numberFormat ?? NUMBER_FORMATS[0],
    amountMode: amountMode ?? "signed",
    amount: amountMode === "split" ? null : opt(m.amount),
    indicator: amountMode === "indicator" ? opt(m.indicator) : null,
    creditValue: amountMode === "indicator" ? opt(m.creditValue) : null,
    credit: amountMode === "split" ? opt(m.credit) : null,
    debit: amountMode === "split" ? opt(m.debit) : null,
    description: description ?? "",
    transactionId: opt(m.transactionId),
  };
  if (amountMode === "signed" || amountMode === "indicator") {
    if (!mapping.amount) problems.push("AMOUNT_REQUIRED");
  }
  if (amountMode === "indicator") {
    if (!mapping.indicator) problems.push("INDICATOR_REQUIRED");
    if (!mapping.creditValue) problems.push("CREDIT_VALUE_REQUIRED");
  }
  if (amountMode === "split") {
    if (!mapping.credit) problems.push("CREDIT_REQUIRED");
    if (!mapping.debit) problems.push("DEBIT_REQUIRED");
  }
  const names = mappedColumns(mapping).map(norm);
  if (new Set(names).size !== names.length) problems.push("SAME_COLUMN_TWICE");
  if (header) {
    const known = new Set(header.map(norm));
    if (names.some((n) => !known.has(n))) problems.push("UNKNOWN_COLUMN");
  }
  return problems.length ? { ok: false, problems } : { ok: true, mapping };
}

/** The header row of a saved mapping: the first of the leading rows that holds every mapped column. */
export function locateHeader(rows: readonly (readonly string[])[], m: StatementMapping): { ok: true; headerIndex: number } | { ok: false; missing: string[] } {
  const wanted = mappedColumns(m);
  let best: string[] = wanted;
  for (let i = 0; i < Math.min(rows.length, HEADER_SEARCH_ROWS); i++) {
    const names = new Set(headerNames(rows[i]).map(norm));
    const missing = wanted.filter((w) => !names.has(norm(w)));
    if (missing.length === 0) return { ok: true, headerIndex: i };
    if (missing.length < best.length) best = missing;
  }
  return { ok: false, missing: best };
}

const DATE_PART: Record<string, string> = { DD: "(?<d>\\d{1,2})", MM: "(?<mo>\\d{1,2})", YYYY: "(?<y>\\d{4})" };

function dateRegex(format: DateFormat): RegExp {
  const [datePart] = format.split(" ");
  const body = datePart.replace(/DD|MM|YYYY|[^A-Z]/g, (token) => DATE_PART[token] ?? `\\${token}`);
  return new RegExp(`^${body}(?:\\s+|T)(?<h>\\d{1,2})[:.](?<mi>\\d{2})(?:[:.](?<s>\\d{2})(?:\\.\\d{1,6})?)?\\s*(?<ampm>[AaPp][Mm])?$`);
}

/** Bank time in ms since the epoch, read in Vientiane time (UTC+7); null when the text does not fit the format or is no real date. */
export function parseBankTime(text: string, format: DateFormat): number | null {
  const match = dateRegex(format).exec(clean(text).replace(/\s+/g, " "));
  if (!match?.groups) return null;
  const g = match.groups;
  let year = Number(g.y);
  if (year > 2400) year -= 543; // Thai Buddhist era
  const month = Number(g.mo);
  const day = Number(g.d);
  let hour = Number(g.h);
  const minute = Number(g.mi);
  const second = g.s ? Number(g.s) : 0;
  if (g.ampm) {
    if (hour < 1 || hour > 12) return null;
    const pm = g.ampm.toUpperCase() === "PM";
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  if (year < 2000 || year > 2200) return null;
  return vientianeInstant(year, month, day, hour, minute, second);
}

/**
 * An amount as the bank writes it, in LAK minor units (signed), or null when it cannot be
 * read with this number format. Empty text is null too.
 */
export function parseStatementAmount(text: string, format: NumberFormat): bigint | null {
  let s = clean(text)
    .replace(/lak|kip|₭|ກີບ/gi, "")
    .replace(/\u2212/g, "-")
    .trim();
  if (s === "") return null;
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  if (s.startsWith("-") || s.startsWith("+")) {
    negative = negative || s.startsWith("-");
    s = s.slice(1).trim();
  } else if (s.endsWith("-")) {
    negative = true;
    s = s.slice(0, -1).trim();
  }
  const [group, decimal] = format === "1,234.56" ? [",", "."] : [".", ","];
  const g = group === "." ? "\\." : group;
  const d = decimal === "." ? "\\." : decimal;
  const match = new RegExp(`^(\\d{1,3}(?:[${g} ]\\d{3})+|\\d+)(?:${d}(\\d+))?$`).exec(s);
  if (!match) return null;
  const whole = match[1].replace(/\D/g, "");
  const fraction = match[2] ?? "";
  if (fraction.length > 2 || whole.length > 15) return null;
  const minor = BigInt(whole) * 100n + BigInt((fraction + "00").slice(0, 2));
  return negative ? -minor : minor;
}

const ORDER_CODE = /(?:^|[^0-9A-Za-z])(D\d{6}[0-9A-HJKMNP-TV-Z]{5})(?![0-9A-Za-z])/i;

/** The order code a bank description carries, if any (upper-cased). */
export function findOrderReference(description: string): string | null {
  const match = ORDER_CODE.exec(description);
  return match ? match[1].toUpperCase() : null;
}

/**
 * Reads the statement rows after the header with a mapping. The header must hold every
 * mapped column (else the file is refused: COLUMNS_NOT_FOUND with the missing names).
 */
export function readStatement(
  rows: readonly (readonly string[])[],
  m: StatementMapping,
  headerIndex?: number,
): { ok: true; headerIndex: number; header: string[]; rows: StatementRow[] } | { ok: false; problem: FileProblem; missing?: string[] } {
  if (rows.length === 0 || rows.every(isBlank)) return { ok: false, problem: "EMPTY" };
  if (rows.length > MAX_STATEMENT_ROWS + HEADER_SEARCH_ROWS) return { ok: false, problem: "TOO_LARGE" };
  let index = headerIndex;
  if (index === undefined) {
    const found = locateHeader(rows, m);
    if (!found.ok) return { ok: false, problem: "COLUMNS_NOT_FOUND", missing: found.missing };
    index = found.headerIndex;
  }
  const header = headerNames(rows[index] ?? []);
  const position = (name: string | null): number => (name ? header.findIndex((h) => norm(h) === norm(name)) : -1);
  const missing = mappedColumns(m).filter((name) => position(name) < 0);
  if (missing.length) return { ok: false, problem: "COLUMNS_NOT_FOUND", missing };
  const col = {
    date: position(m.date),
    time: position(m.time),
    amount: position(m.amount),
    indicator: position(m.indicator),
    credit: position(m.credit),
    debit: position(m.debit),
    description: position(m.description),
    transactionId: position(m.transactionId),
  };
  const needed = Math.max(...Object.values(col)) + 1;
  const out: StatementRow[] = [];
  const seenIds = new Set<string>();
  const occurrences = new Map<string, number>();
  for (let i = index + 1; i < rows.length; i++) {
    const cells = rows[i];
    if (isBlank(cells)) continue;
    const row = i + 1;
    const raw = header
      .map((name, c) => (clean(cells[c]) ? `${name}: ${clean(cells[c])}` : ""))
      .filter(Boolean)
      .join(" | ")
      .slice(0, 1000);
    if (cells.length < needed) {
      out.push({ row, kind: "error", problem: "ROW_TOO_SHORT", value: String(cells.length), raw });
      continue;
    }
    const cell = (c: number): string => (c >= 0 ? clean(cells[c]) : "");
    const dateText = col.time >= 0 ? `${cell(col.date)} ${cell(col.time)}` : cell(col.date);
    const bankTime = parseBankTime(dateText, m.dateFormat);
    if (bankTime === null) {
      out.push({ row, kind: "error", problem: "DATE_UNREADABLE", value: dateText, raw });
      continue;
    }
    let amount: bigint | null;
    let isCredit: boolean;
    let amountText: string;
    if (m.amountMode === "split") {
      const creditText = cell(col.credit);
      const debitText = cell(col.debit);
      const credit = creditText === "" ? null : parseStatementAmount(creditText, m.numberFormat);
      const debit = debitText === "" ? null : parseStatementAmount(debitText, m.numberFormat);
      if ((creditText !== "" && credit === null) || (debitText !== "" && debit === null) || (creditText === "" && debitText === "")) {
        out.push({ row, kind: "error", problem: "AMOUNT_UNREADABLE", value: `${creditText} / ${debitText}`, raw });
        continue;
      }
      isCredit = credit !== null && credit > 0n;
      amount = credit;
      amountText = creditText;
    } else {
      amountText = cell(col.amount);
      const signed = parseStatementAmount(amountText, m.numberFormat);
      if (signed === null) {
        out.push({ row, kind: "error", problem: "AMOUNT_UNREADABLE", value: amountText, raw });
        continue;
      }
      if (m.amountMode === "signed") {
        isCredit = signed > 0n;
        amount = signed;
      } else {
        isCredit = norm(cell(col.indicator)) === norm(m.creditValue ?? "") && signed !== 0n;
        amount = signed < 0n ? -signed : signed;
      }
    }
    if (!isCredit) {
      const debitText = m.amountMode === "split" ? cell(col.debit) : amountText;
      const debitMinor = m.amountMode === "split" ? parseStatementAmount(debitText, m.numberFormat) : amount;
      const positive = debitMinor === null ? null : debitMinor < 0n ? -debitMinor : debitMinor;
      const debitAmount = positive !== null && positive > 0n ? formatAmount(positive, "LAK") : null;
      const description = cell(col.description);
      const triple = `${bankTime}|-${debitAmount ?? "?"}|${description}`;
      const occurrence = (occurrences.get(triple) ?? 0) + 1;
      occurrences.set(triple, occurrence);
      const transactionId = col.transactionId >= 0 ? cell(col.transactionId) || null : null;
      out.push({ row, kind: "debit", bankTime, amount: debitAmount, description, transactionId, key: `statement|${triple}|${occurrence}`, raw });
      continue;
    }
    if (amount === null || amount <= 0n) {
      out.push({ row, kind: "error", problem: "AMOUNT_UNREADABLE", value: amountText, raw });
      continue;
    }
    const transactionId = col.transactionId >= 0 ? cell(col.transactionId) || null : null;
    if (transactionId !== null) {
      if (seenIds.has(transactionId)) {
        out.push({ row, kind: "error", problem: "REPEATED_ID", value: transactionId, raw });
        continue;
      }
      seenIds.add(transactionId);
    }
    const description = cell(col.description);
    const amountString = formatAmount(amount, "LAK");
    const triple = `${bankTime}|${amountString}|${description}`;
    const occurrence = (occurrences.get(triple) ?? 0) + 1;
    occurrences.set(triple, occurrence);
    out.push({
      row,
      kind: "credit",
      bankTime,
      amount: amountString,
      description,
      transactionId,
      reference: findOrderReference(description),
      key: `statement|${triple}|${occurrence}`,
      raw,
    });
  }
  if (out.length === 0) return { ok: false, problem: "NO_DATA_ROWS" };
  return { ok: true, headerIndex: index, header, rows: out };
}

/** Whether the split file can be a statement at all: at least two filled columns in some row, and not too many rows. */
export function checkTable(rows: readonly (readonly string[])[]): FileProblem | null {
  if (!rows.some((row) => row.filter((c) => clean(c) !== "").length >= 2)) return "NO_COLUMNS";
  if (rows.length > MAX_STATEMENT_ROWS + HEADER_SEARCH_ROWS) return "TOO_LARGE";
  return null;
}

const GUESS: Array<[keyof StatementMapping, RegExp]> = [
  ["transactionId", /\bref|txn ?id|transaction ?(id|no)|ເລກອ້າງອີງ|ເລກທຸລະກຳ|เลขที่อ้างอิง|mã giao dịch|số tham chiếu|流水号|交易号/i],
  ["time", /^(time|ເວລາ|เวลา|giờ|thời gian|时间)$/i],
  ["date", /date|ວັນທີ|วันที่|ngày|日期/i],
  ["description", /desc|narrat|detail|memo|remark|particular|ລາຍລະອຽດ|ເນື້ອໃນ|รายละเอียด|รายการ|nội dung|diễn giải|摘要|备注|附言/i],
  ["credit", /credit|deposit|\bcr\b|ເງິນເຂົ້າ|ຝາກ|ฝาก|เงินเข้า|ghi có|收入|贷方/i],
  ["debit", /debit|withdraw|\bdr\b|ເງິນອອກ|ຖອນ|ถอน|เงินออก|ghi nợ|支出|借方/i],
  ["amount", /amount|ຈຳນວນ|จำนวน|số tiền|金额/i],
];
const BALANCE = /balance|ຍອດເຫຼືອ|ຍອດ|คงเหลือ|số dư|余额/i;

/**
 * A first guess of a channel's mapping from header names in English, Lao, Thai, Vietnamese
 * and Chinese (staff check and change it before saving): each field takes the first unused
 * header that looks like it; separate credit and debit columns mean "split", else "signed".
 */
export function guessMapping(header: readonly string[]): Partial<Record<keyof StatementMapping, string>> {
  const used = new Set<string>();
  const out: Partial<Record<keyof StatementMapping, string>> = { dateFormat: DATE_FORMATS[0], numberFormat: NUMBER_FORMATS[0] };
  for (const [key, pattern] of GUESS) {
    const name = header.find((h) => !used.has(h) && pattern.test(h) && !BALANCE.test(h));
    if (name) {
      out[key] = name;
      used.add(name);
    }
  }
  out.amountMode = out.credit && out.debit ? "split" : "signed";
  if (out.amountMode === "split") delete out.amount;
  else {
    delete out.credit;
    delete out.debit;
  }
  return out;
}
