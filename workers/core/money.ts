/**
 * Money on the ledger path: integers in minor units (BigInt), decimal strings at the edges,
 * exchange rates as scaled integers. No floating point anywhere.
 *
 * Rounding (documented and tested):
 * - DEPOSIT  credit = amount / sell, rounded DOWN to the credit's minor unit: a player is
 *   never credited more than was paid (the remainder is below 0.01 of the credit currency).
 * - WITHDRAW payout = credit * buy, rounded DOWN to whole kip: LAK is paid in whole kip.
 * - DEPOSIT_FROM amount = credit * sell, rounded UP to whole kip: the kip needed to buy at
 *   least that credit.
 * - No rate for the currency -> 0, and callers refuse the operation (docs/product.md §9).
 */
const CURRENCIES = ["LAK", "THB", "USD"] as const;
export type Currency = (typeof CURRENCIES)[number];

/** ISO 4217 minor digits. LAK is shown without decimals but stored in att, as ISO says. */
export const MINOR_DIGITS: Record<Currency, number> = { LAK: 2, THB: 2, USD: 2 };
/** LAK minor units (att) per kip. LAK is paid in whole kip. */
export const KIP = 10n ** BigInt(MINOR_DIGITS.LAK);
/** Exchange rates carry 6 decimals. */
const RATE_DIGITS = 6;
const RATE_SCALE = 10n ** BigInt(RATE_DIGITS);

export function isCurrency(value: unknown): value is Currency {
  return typeof value === "string" && (CURRENCIES as readonly string[]).includes(value);
}

/** "1234.5" -> 123450n (THB). Refuses signs, exponents, too many decimals and garbage. */
export function parseAmount(text: string, currency: Currency): bigint | null {
  return parseScaled(text, MINOR_DIGITS[currency]);
}

/** "-12.50" -> -1250n (a signed amount: a provider's win/loss, a transfer-out in a history), or null. */
export function parseSignedAmount(text: string, currency: Currency): bigint | null {
  const negative = text.startsWith("-");
  const minor = parseAmount(negative ? text.slice(1) : text, currency);
  return minor === null ? null : negative ? -minor : minor;
}

/**
 * The canonical form of a positive amount: "60000", "60000.0" and "60000.00" are the same
 * kip, "60000.00"; "100" credit is "100.00". null when the text is no positive amount.
 */
export function canonicalAmount(text: string | null | undefined, currency: Currency): string | null {
  if (!text) return null;
  const minor = parseAmount(text, currency);
  return minor === null || minor <= 0n ? null : formatAmount(minor, currency);
}

/** canonicalAmount in kip: how a bank's, a gateway's or staff's kip amount is stored and compared. */
export function canonicalLak(text: string | null | undefined): string | null {
  return canonicalAmount(text, "LAK");
}

/** 123450n -> "1234.50" (THB). */
export function formatAmount(minor: bigint, currency: Currency): string {
  return formatScaled(minor, MINOR_DIGITS[currency]);
}

/** "590.123456" -> 590123456n. */
export function parseRate(text: string): bigint | null {
  const rate = parseScaled(text, RATE_DIGITS);
  return rate !== null && rate > 0n ? rate : null;
}

export function formatRate(rate: bigint): string {
  return formatScaled(rate, RATE_DIGITS);
}

export type Rate = { currency: Currency; buy: bigint; sell: bigint };

/** DEPOSIT: LAK paid -> credit at the provider (in the credit currency's minor units). */
export function depositCredit(amountMinor: bigint, rate: Rate | null): bigint {
  if (!rate || rate.sell <= 0n) return 0n;
  // amount and credit both have 2 minor digits, so the scales cancel: credit = amount / sell.
  return (amountMinor * RATE_SCALE) / rate.sell; // BigInt division truncates: round down
}

/** WITHDRAW: credit -> LAK paid out, whole kip, rounded down. */
export function withdrawPayout(creditMinor: bigint, rate: Rate | null): bigint {
  if (!rate || rate.buy <= 0n) return 0n;
  const lakMinor = (creditMinor * rate.buy) / RATE_SCALE;
  return roundDownTo(lakMinor, KIP);
}

/** DEPOSIT_FROM: the LAK needed for a credit, whole kip, rounded up. */
export function depositFrom(creditMinor: bigint, rate: Rate | null): bigint {
  if (!rate || rate.sell <= 0n) return 0n;
  const lakMinor = ceilDiv(creditMinor * rate.sell, RATE_SCALE);
  return roundUpTo(lakMinor, KIP);
}

// ---------------------------------------------------------------- amount rules (docs/product.md §5)
// The form schemas (app/lib/schemas, the same ones in the browser) read and bound a typed
// amount with these; the layers after a schema take its minor units (depositSchema, withdrawSchema).

export function isWholeKip(minor: bigint): boolean {
  return minor % KIP === 0n;
}

/**
 * A kip amount as a player types it: digit groups may be separated by a space, a dot or a
 * comma ("100.000", "100,000", "100 000"); what remains must be 1 to 15 digits
 * (WHOLE_AMOUNT_DIGITS), a deposit limit 1 to 12 digits and not 0 (KIP_LIMIT_DIGITS). The
 * deposit form's schema, its credit preview and the limits form read kip by this one rule.
 */
export function stripDigitGrouping(text: string): string {
  return text.replace(/[\s.,](?=\d{3}(\D|$))/g, "").trim();
}
const WHOLE_AMOUNT_DIGITS = /^\d{1,15}$/;
export const KIP_LIMIT_DIGITS = /^[1-9]\d{0,11}$/;

/** "100.000" -> 10000000n (LAK minor units), or null when it is not a whole kip amount. */
export function parseWholeKip(text: string): bigint | null {
  const digits = stripDigitGrouping(text);
  return WHOLE_AMOUNT_DIGITS.test(digits) ? parseAmount(digits, "LAK") : null;
}

/**
 * Credit as a player types it (the withdraw form): digit groups by the kip rule above
 * ("1,000,000", "1.000", "1 000": stripDigitGrouping), then spaces dropped and a decimal comma
 * read as a point ("1 234,5" -> "1234.5", "1,50" -> "1.50"); what remains must be 1 to 12
 * digits and at most 2 decimals (CREDIT_DIGITS). A separator before exactly 3 digits is a
 * group's, never a decimal point: credit has 2 decimals.
 */
export function normalizeTypedCredit(text: string): string {
  return stripDigitGrouping(text).replace(/\s/g, "").replace(/,/g, ".");
}
const CREDIT_DIGITS = /^\d{1,12}(\.\d{1,2})?$/;

/** "1,000" -> 100000n (THB minor units), or null when it is no credit amount as typed (the withdraw form's schema). */
export function parseTypedCredit(text: string): bigint | null {
  const digits = normalizeTypedCredit(text);
  return CREDIT_DIGITS.test(digits) ? parseAmount(digits, "THB") : null;
}

/**
 * The deposit form's credit preview: what a typed kip amount buys at a sell rate (scaled),
 * or null while the text is no positive whole kip amount. The server render and the lite
 * script (app/lib/lite/form-validators.ts) show the same figure.
 */
export function previewCredit(typed: string, sell: bigint): bigint | null {
  const minor = parseWholeKip(typed);
  if (minor === null || minor <= 0n) return null;
  return depositCredit(minor, { currency: "THB", buy: 1n, sell });
}

/** An agency's bounds of an amount, as its settings store them (decimal strings). */
export type AmountLimits = { min: string; max: string };
export type AmountError = "AMOUNT_INVALID" | "AMOUNT_TOO_LOW" | "AMOUNT_TOO_HIGH";

/**
 * Within the agency's minimum and maximum, both included (docs/product.md §5); a minimum that cannot be
 * read is 0 and a maximum that cannot be read is no maximum.
 */
export function limitError(minor: bigint, limits: AmountLimits, currency: Currency): "AMOUNT_TOO_LOW" | "AMOUNT_TOO_HIGH" | null {
  const min = parseAmount(limits.min, currency) ?? 0n;
  const max = parseAmount(limits.max, currency);
  if (minor < min) return "AMOUNT_TOO_LOW";
  if (max !== null && minor > max) return "AMOUNT_TOO_HIGH";
  return null;
}

/**
 * docs/product.md §5 deposit amount, in LAK minor units: a positive whole kip amount within the agency's
 * deposit limits, or why not. The deposit form's schema (app/lib/schemas/deposit.ts, the same
 * one in the browser) applies it to the amount it has just read; no layer after reads it again.
 */
export function depositAmountError(minor: bigint, limits: AmountLimits): AmountError | null {
  if (minor <= 0n || !isWholeKip(minor)) return "AMOUNT_INVALID";
  return limitError(minor, limits, "LAK");
}

/**
 * docs/product.md §5 withdraw amount, in credit minor units (THB satang): positive and within the
 * agency's withdraw limits (in credit), or why not. The withdraw form's schema
 * (app/lib/schemas/withdraw.ts, the same one in the browser) applies it to the amount it has just
 * read; "all credit" is bounded by core/withdraw.ts once the provider's credit is known.
 */
export function withdrawAmountError(minor: bigint, limits: AmountLimits): AmountError | null {
  if (minor <= 0n) return "AMOUNT_INVALID";
  return limitError(minor, limits, "THB");
}

/** Is this text (a gateway's or a bank's report) exactly this many LAK minor units? "50000", "50000.0", "50000.00" all are 5000000n. */
export function isLakAmount(text: string, minor: bigint): boolean {
  return parseAmount(text, "LAK") === minor;
}

function parseScaled(text: string, digits: number): bigint | null {
  const match = /^(\d{1,18})(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const [, whole, fraction = ""] = match;
  if (fraction.length > digits) {
    // "100.50" for LAK-as-kip style inputs is fine if the extra digits are zeros
    if (!/^0*$/.test(fraction.slice(digits))) return null;
  }
  const padded = (fraction + "0".repeat(digits)).slice(0, digits);
  return BigInt(whole) * 10n ** BigInt(digits) + (digits ? BigInt(padded) : 0n);
}

function formatScaled(value: bigint, digits: number): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const scale = 10n ** BigInt(digits);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(digits, "0");
  return (negative ? "-" : "") + whole.toString() + (digits ? "." + fraction : "");
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

function roundDownTo(value: bigint, step: bigint): bigint {
  return (value / step) * step;
}

function roundUpTo(value: bigint, step: bigint): bigint {
  return ceilDiv(value, step) * step;
}
