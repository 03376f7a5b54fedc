import { vientianeDisplay } from "./vientiane";

/**
 * Display formats of the product (docs/product.md §1). They work on decimal
 * strings, never floats, so a money amount is shown exactly as the ledger holds it, and
 * they do not depend on the ICU data of the runtime (workerd, a cheap phone, Node).
 */

const DEFAULT_CREDIT_CURRENCY = "THB";
export const NOT_AVAILABLE = "N/A";

const GROUP = ".";
const DECIMAL = ",";
const DECIMAL_STRING = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Digits of each currency as players see them: LAK has none in practice. */
const CURRENCY_DIGITS: Record<string, number> = { LAK: 0, THB: 2, USD: 2 };
const CURRENCY_SYMBOL: Record<string, string> = { LAK: "₭", THB: "฿", USD: "$" };

/** "1234567.891" -> "1.234.567,891" (Lao grouping). Invalid input is returned unchanged. */
export function formatNumber(value: string | number | bigint): string {
  const text = typeof value === "number" ? numberToPlainString(value) : String(value);
  const match = DECIMAL_STRING.exec(text.trim());
  if (!match) return text;
  const [, sign = "", whole, fraction] = match;
  const grouped = groupThousands(whole.replace(/^0+(?=\d)/, ""));
  const isZero = /^0+$/.test(whole) && (!fraction || /^0+$/.test(fraction));
  return (isZero ? "" : sign) + grouped + (fraction ? DECIMAL + fraction : "");
}

/**
 * A money amount with its currency's digits, rounded half away from zero on the decimal
 * string: "1234.5" THB -> "฿1.234,50", "1234.5" LAK -> "₭1.235".
 */
export function formatMoney(amount: string | null | undefined, currency: string = DEFAULT_CREDIT_CURRENCY): string {
  const digits = CURRENCY_DIGITS[currency] ?? 2;
  const symbol = CURRENCY_SYMBOL[currency] ?? `${currency} `;
  const rounded = roundDecimalString(amount && DECIMAL_STRING.test(amount.trim()) ? amount.trim() : "0", digits);
  const negative = rounded.startsWith("-");
  return (negative ? "-" : "") + symbol + formatNumber(negative ? rounded.slice(1) : rounded);
}

/** Round a decimal string to `digits` places, half away from zero, without floats. */
export function roundDecimalString(value: string, digits: number): string {
  const match = DECIMAL_STRING.exec(value);
  if (!match) throw new RangeError(`not a decimal string: ${value}`);
  const [, sign = "", whole, fraction = ""] = match;
  const padded = (fraction + "0".repeat(digits + 1)).slice(0, digits + 1);
  let units = BigInt(whole + padded.slice(0, digits));
  if (Number(padded[digits]) >= 5) units += 1n;
  const text = units.toString().padStart(digits + 1, "0");
  const intPart = digits === 0 ? text : text.slice(0, -digits);
  const fracPart = digits === 0 ? "" : "." + text.slice(-digits);
  const isZero = units === 0n;
  return (sign && !isZero ? "-" : "") + intPart + fracPart;
}

/** The zero dates the back end uses for "never" (docs/product.md §1). */
const ZERO_DATES = new Set(["0001-01-01", "0001-01-01T00:00:00Z"]);

/**
 * A date and time without a zone ("2026-11-21 16:05:09", SQLite's datetime(); or a bare date)
 * is UTC. Read by hand because Date.parse takes the space-separated form as local time.
 */
const UTC_WITHOUT_ZONE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;

/**
 * "2026-11-21T16:05:09Z" -> "21/11/2026 23:05:09" (Asia/Vientiane); zero or invalid -> N/A.
 * The clock is vientiane.ts's fixed offset, without a date library: this also runs in the
 * browser (the back office, the player forms' validators), where dayjs cost 4.5 KB brotli
 * (decisions 022 and 071).
 */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (value == null || value === "") return NOT_AVAILABLE;
  if (typeof value === "string" && ZERO_DATES.has(value.trim())) return NOT_AVAILABLE;
  const epoch = toEpochMilliseconds(value);
  if (epoch === null) return NOT_AVAILABLE;
  return vientianeDisplay(epoch);
}

/**
 * A calendar day ("2026-11-23", a reward week's first or last day in Vientiane) -> "23/11/2026":
 * the date part of formatDateTime's DD/MM/YYYY, for values that are days, not instants.
 * Anything else is shown as N/A rather than as the raw text.
 */
export function formatDay(day: string | null | undefined): string {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day?.trim() ?? "");
  return parts ? `${parts[3]}/${parts[2]}/${parts[1]}` : NOT_AVAILABLE;
}

function toEpochMilliseconds(value: string | Date): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  const text = value.trim();
  const parts = UTC_WITHOUT_ZONE.exec(text);
  const epoch = parts
    ? Date.UTC(
        Number(parts[1]),
        Number(parts[2]) - 1,
        Number(parts[3]),
        Number(parts[4] ?? 0),
        Number(parts[5] ?? 0),
        Number(parts[6] ?? 0),
        Number((parts[7] ?? "0").padEnd(3, "0").slice(0, 3)),
      )
    : Date.parse(text);
  return Number.isNaN(epoch) ? null : epoch;
}

function groupThousands(digits: string): string {
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += GROUP;
    out += digits[i];
  }
  return out;
}

function numberToPlainString(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  // Avoid exponent notation for large or tiny numbers.
  return value.toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 20 });
}

/**
 * A rate as staff read it (decision 088): the decimal string of formatRate ("600.000000") as a
 * plain number, its trailing zeros dropped and grouped like every figure ("600", "1.234,5").
 */
export function formatRateNumber(rate: string): string {
  return formatNumber(rate.includes(".") ? rate.replace(/0+$/, "").replace(/\.$/, "") : rate);
}

/** docs/product.md §4 display: colour per order status; REJECTED is shown as cancelled, so coloured as cancelled. */
type StatusColour = "grey" | "red" | "yellow" | "green";
export function statusColour(status: string): StatusColour {
  switch (status) {
    case "CANCELED":
    case "REJECTED":
    case "FAILED":
      return "red";
    case "PAID":
      return "yellow";
    case "SUCCESS":
      return "green";
    default:
      return "grey";
  }
}

/** An ISO day or instant inside a text: "2026-11-26", "2026-11-26T08:00:00.000Z", "2026-11-26 08:00:00". */
const ISO_IN_TEXT = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?Z?)?\b/g;

/**
 * A stored text (an audit entry's before and after, as JSON) with each date in it written the
 * product's way: a day as DD/MM/YYYY, an instant as DD/MM/YYYY HH:mm:ss in Vientiane. Staff read
 * one date format on every page (decision 083); the stored text keeps ISO.
 */
export function withDisplayDates(text: string): string {
  return text.replace(ISO_IN_TEXT, (found) => (found.length === 10 ? formatDay(found) : formatDateTime(found.replace(/Z$/, "").replace(" ", "T"))));
}
