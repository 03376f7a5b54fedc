import { vientianeDate, vientianeDisplay } from "./vientiane";

/**
 * The credit in the header (decision 081): on a provider's lobby that provider's credit,
 * elsewhere the total over the agency's enabled providers. The same rules make the figure the
 * server renders from the last credits it knows and the one the lite script renders from live
 * answers, so both agree to the last digit. Money is exact decimal text, never a float.
 */

/** A provider's credit as read at `seenAt` (ms): stored, or just answered. */
export type KnownCredit = { provider: string; amount: string; currency: string; seenAt: number };

/** What the chip shows: an amount and when it was read, or null ("—": nothing known yet). */
export type ChipFigure = { amount: string; currency: string; seenAt: number } | null;

const SIGNED_DECIMAL = /^(-)?(\d{1,18})(?:\.(\d{1,12}))?$/;

/** Exact sum of decimal strings ("1.5" + "2.25" = "3.75"); null when one is not a decimal. */
export function sumDecimals(texts: readonly string[]): string | null {
  const parsed = texts.map((text) => SIGNED_DECIMAL.exec(text.trim()));
  if (parsed.some((m) => m === null)) return null;
  const digits = Math.max(0, ...parsed.map((m) => m![3]?.length ?? 0));
  const scale = 10n ** BigInt(digits);
  const total = parsed.reduce((sum, m) => {
    const units = BigInt(m![2]!) * scale + BigInt(((m![3] ?? "") + "0".repeat(digits)).slice(0, digits) || "0");
    return sum + (m![1] ? -units : units);
  }, 0n);
  const negative = total < 0n;
  const abs = negative ? -total : total;
  const fraction = digits ? `.${(abs % scale).toString().padStart(digits, "0")}` : "";
  return `${negative ? "-" : ""}${(abs / scale).toString()}${fraction}`;
}

/**
 * The chip's figure. On a lobby (`provider` given) that provider's known credit. Elsewhere
 * the sum of the known credits of the enabled providers, as old as the oldest of them (a total
 * is only as fresh as its stalest part); a provider never read adds nothing (it was never
 * played: a player's credit there starts at zero). Credits in different currencies have no
 * one total: then, and when nothing is known, null.
 */
export function chipFigure(known: readonly KnownCredit[], enabled: readonly string[], provider: string | null): ChipFigure {
  const parts = known.filter((c) => (provider ? c.provider === provider : enabled.includes(c.provider)));
  if (parts.length === 0) return null;
  const currency = parts[0]!.currency;
  if (parts.some((c) => c.currency !== currency)) return null;
  const amount = sumDecimals(parts.map((c) => c.amount));
  if (amount === null) return null;
  return { amount, currency, seenAt: Math.min(...parts.map((c) => c.seenAt)) };
}

/**
 * When a figure was read, as the chip writes it: `full` in the product's format
 * (DD/MM/YYYY HH:mm:ss, Vientiane), `short` for the narrow header: HH:mm when it is from
 * today in Vientiane, else the date (DD/MM/YYYY).
 */
export function chipTime(seenAt: number, now: number): { full: string; short: string } {
  const full = vientianeDisplay(seenAt);
  return { full, short: vientianeDate(seenAt) === vientianeDate(now) ? full.slice(11, 16) : full.slice(0, 10) };
}
