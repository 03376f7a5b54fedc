/**
 * CSV for the back office's report exports (decision 059), written for spreadsheets:
 *
 * - UTF-8 with a byte-order mark first, so Excel reads Lao, Chinese and Vietnamese text as
 *   UTF-8 instead of the machine's code page;
 * - RFC 4180: fields separated by commas, records ended by CRLF (the last one too), a field
 *   holding a comma, a double quote, CR or LF is quoted and its quotes doubled;
 * - formula injection (a player's name or a promotion title such as `=HYPERLINK(...)`):
 *   a TEXT cell whose first character a spreadsheet would read as the start of a formula
 *   (`=`, `+`, `-`, `@`, tab, CR, and their full-width forms) gets a leading apostrophe, so
 *   it is shown as text and never evaluated;
 * - numbers are plain: digits, an optional leading minus and a `.` decimal point, no digit
 *   grouping, no currency sign, no exponent.
 *
 * Negative numbers stay numbers (decision 059): the neutralising applies only to cells
 * that are not a plain number. A cell is a plain number when it is a JS number or bigint, or
 * a string matching `-?digits[.digits]` exactly: "-5" and "-1234.50" are left alone (a
 * spreadsheet reads them as negative numbers, which is what they are, and no formula can be
 * written with digits and one minus sign alone), while "-5+A1", "-x" or "- 5" are text and
 * are neutralised. Pure: no I/O.
 */
export type CsvCell = string | number | bigint | null | undefined;

/** The UTF-8 byte-order mark (U+FEFF), the first character of every export. */
export const CSV_BOM = "\uFEFF";

const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;
/** First characters a spreadsheet may start a formula with (ASCII and full-width forms). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** A number as plain digits: no grouping, no exponent. Non-finite numbers are refused. */
function plainNumber(value: number | bigint): string {
  if (typeof value === "bigint") return value.toString();
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  if (Object.is(value, -0)) return "0";
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // Exponent notation (very large or very small): write the digits out.
  return value.toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 20 });
}

/** True when a string cell is a plain number that is written as it is. */
function isPlainNumber(text: string): boolean {
  return PLAIN_NUMBER.test(text);
}

/** One field, neutralised (text only) and quoted as needed. null/undefined -> empty field. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "bigint") return plainNumber(value);
  let text = value;
  if (!isPlainNumber(text) && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, without its line ending. */
function csvRecord(cells: readonly CsvCell[]): string {
  return cells.map(csvField).join(",");
}

/** The whole file: BOM, then every record ended by CRLF. */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return CSV_BOM + rows.map((row) => csvRecord(row) + "\r\n").join("");
}

// ---- reading (a bank's statement export, decision 016) ------------------------------------

/** The separators a bank's export may use, in the order a tie is decided. */
const CSV_SEPARATORS = [",", ";", "\t", "|"] as const;

/**
 * Records and fields of a CSV text with this separator, RFC 4180 as spreadsheets write it: a
 * quoted field may hold the separator, line breaks and doubled quotes; records end at CRLF, LF
 * or CR; a blank line is a record of one empty field, and so is what follows a final line break
 * (as papaparse read it: the statement's rules skip blank records).
 */
export function readCsvWith(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  const endField = () => {
    row.push(field);
    field = "";
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === "") quoted = true;
    else if (c === separator) endField();
    else if (c === "\r" || c === "\n") {
      endRow();
      if (c === "\r" && text[i + 1] === "\n") i++;
    } else field += c;
    i++;
  }
  if (text.length > 0) endRow();
  return rows;
}

/**
 * A statement's cells with its separator guessed among CSV_SEPARATORS: the one that splits the
 * first records (blank ones aside) into the same number of fields most often, more than one
 * field, the more fields the better; none does: a comma. Replaces papaparse (7 KiB of the
 * Worker's gzip, decision 094) with what a bank's export needs.
 */
export function readCsv(text: string): string[][] {
  let best: { separator: string; agreeing: number; fields: number } = { separator: ",", agreeing: 0, fields: 0 };
  for (const separator of CSV_SEPARATORS) {
    const sample = readCsvWith(text.slice(0, 64 * 1024), separator)
      .filter((r) => r.length > 1 || r[0] !== "")
      .slice(0, 10);
    const counts = new Map<number, number>();
    for (const r of sample) counts.set(r.length, (counts.get(r.length) ?? 0) + 1);
    for (const [fields, agreeing] of counts) {
      if (fields < 2) continue;
      if (agreeing > best.agreeing || (agreeing === best.agreeing && fields > best.fields)) best = { separator, agreeing, fields };
    }
  }
  return readCsvWith(text, best.separator);
}
