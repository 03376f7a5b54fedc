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
 * - No rate for the currency -> 0, and callers refuse the operation (SPEC §9).
 */
const CURRENCIES = ["LAK", "THB", "USD"] as const;
export type Currency = (typeof CURRENCIES)[number];

/** ISO 4217 minor digits. LAK is shown without decimals but stored in att, as ISO says. */
export const MINOR_DIGITS: Record<Currency, number> = { LAK: 2, THB: 2, USD: 2 };
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

/**
 * A whole kip amount as a player types it: digit groups may be separated by a space, a dot
 * or a comma ("100.000", "100 000"); what remains must be 1 to 15 digits. The deposit
 * form's schema and its live credit preview both read the amount by this one rule.
 */
export function stripDigitGrouping(text: string): string {
  return text.replace(/[\s.,](?=\d{3}(\D|$))/g, "").trim();
}
export const WHOLE_AMOUNT_DIGITS = /^\d{1,15}$/;

/** "100.000" -> 10000000n (LAK minor units), or null when it is not a whole kip amount. */
export function parseWholeKip(text: string): bigint | null {
  const digits = stripDigitGrouping(text);
  return WHOLE_AMOUNT_DIGITS.test(digits) ? parseAmount(digits, "LAK") : null;
}

/** "60000" and "60000.00" are the same kip: the canonical string, or null when it is no positive amount. */
export function canonicalLak(text: string | null | undefined): string | null {
  if (!text) return null;
  const minor = parseAmount(text, "LAK");
  return minor === null || minor <= 0n ? null : formatAmount(minor, "LAK");
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
  return roundDownTo(lakMinor, 10n ** BigInt(MINOR_DIGITS.LAK));
}

/** DEPOSIT_FROM: the LAK needed for a credit, whole kip, rounded up. */
export function depositFrom(creditMinor: bigint, rate: Rate | null): bigint {
  if (!rate || rate.sell <= 0n) return 0n;
  const lakMinor = ceilDiv(creditMinor * rate.sell, RATE_SCALE);
  return roundUpTo(lakMinor, 10n ** BigInt(MINOR_DIGITS.LAK));
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
