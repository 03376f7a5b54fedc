/**
 * The sandbox's game round: the win is bet x multiplier, where the multiplier is picked
 * from the transaction ref's hash (FNV-1a, 32 bit). Same ref -> same round, different refs
 * -> varied rounds. The table pays back 7.5/8 = 93.75% of the bets on average.
 */
const MULTIPLIERS: ReadonlyArray<{ numerator: bigint; denominator: bigint; label: string }> = [
  { numerator: 0n, denominator: 1n, label: "0x" },
  { numerator: 0n, denominator: 1n, label: "0x" },
  { numerator: 0n, denominator: 1n, label: "0x" },
  { numerator: 1n, denominator: 2n, label: "0.5x" },
  { numerator: 1n, denominator: 1n, label: "1x" },
  { numerator: 1n, denominator: 1n, label: "1x" },
  { numerator: 2n, denominator: 1n, label: "2x" },
  { numerator: 3n, denominator: 1n, label: "3x" },
];

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export function roundMultiplier(provider: string, ref: string): { numerator: bigint; denominator: bigint; label: string } {
  return MULTIPLIERS[fnv1a(`${provider}:${ref}`) % MULTIPLIERS.length]!;
}
