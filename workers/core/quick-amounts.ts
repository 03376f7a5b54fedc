import { parseAmount, type AmountLimits } from "./money";

/**
 * The deposit form's quick amounts (decision 080): round kip amounts a player taps instead of
 * typing, from the 1-2-5 series (10.000, 20.000, 50.000, 100.000 ...) within the agency's
 * deposit limits. QUICK_AMOUNT_COUNT consecutive ones, starting at five times the minimum
 * (with the demo's 10.000 minimum: 50.000, 100.000, 200.000, 500.000, the amounts Lao and Thai
 * portals offer), moved down when the maximum leaves too few above it. The minimum itself is
 * in the hint under the field; anything else is typed. Whole kip as decimal strings ("50000"),
 * as the amount field takes them.
 */
const QUICK_AMOUNT_COUNT = 4;
/** Where the series starts: 1.000 kip in LAK minor units (below it nothing is worth a button). */
const SERIES_START = 100_000n;
/** Where it stops (a trillion kip): an agency without a maximum gets no absurd button. */
const SERIES_END = 10n ** 14n;

export function quickAmounts(limits: AmountLimits): string[] {
  const min = parseAmount(limits.min, "LAK") ?? 0n;
  const max = parseAmount(limits.max, "LAK") ?? SERIES_END;
  const inRange: bigint[] = [];
  for (let power = SERIES_START; power <= SERIES_END && power <= max; power *= 10n) {
    for (const step of [1n, 2n, 5n]) {
      const amount = power * step;
      if (amount >= min && amount <= max) inRange.push(amount);
    }
  }
  const fromFiveTimesMin = inRange.findIndex((amount) => amount >= 5n * min);
  const start = Math.max(0, Math.min(fromFiveTimesMin === -1 ? inRange.length : fromFiveTimesMin, inRange.length - QUICK_AMOUNT_COUNT));
  return inRange.slice(start, start + QUICK_AMOUNT_COUNT).map((minor) => (minor / 100n).toString());
}
