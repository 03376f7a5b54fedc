/**
 * Decimal strings for forms (client-safe, no floats): validation and comparison of
 * amounts as scaled BigInts, the same way workers/core/money.ts does on the server.
 */
export function decimalPattern(maxDecimals: number, maxWhole = 13): RegExp {
  return maxDecimals === 0 ? new RegExp(`^\\d{1,${maxWhole}}$`) : new RegExp(`^\\d{1,${maxWhole}}(\\.\\d{1,${maxDecimals}})?$`);
}

/** "12.5" at 2 decimals -> 1250n; null when the text is not such a decimal. */
export function scaled(text: string | undefined | null, decimals: number): bigint | null {
  if (typeof text !== "string") return null;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match || (match[2]?.length ?? 0) > decimals) return null;
  return BigInt(match[1]) * 10n ** BigInt(decimals) + BigInt(((match[2] ?? "") + "0".repeat(decimals)).slice(0, decimals) || "0");
}

/** The canonical spelling stored in D1: no leading zeros, no trailing fractional zeros. */
export function canonicalDecimal(text: string): string {
  const [whole, fraction = ""] = text.trim().split(".");
  const w = whole.replace(/^0+(?=\d)/, "");
  const f = fraction.replace(/0+$/, "");
  return f ? `${w}.${f}` : w;
}
