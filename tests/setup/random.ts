/**
 * The seeded generator of the randomized tests (mulberry32, 32-bit integer steps): a test seeded
 * the same way draws the same values, so a failure names its seed and replays.
 */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, chance: (p: number) => next() < p, pick: <T>(items: readonly T[]): T => items[int(items.length)]! };
}
export type Seeded = ReturnType<typeof seeded>;

/** The list in a seeded random order (a new list; Fisher-Yates from the end). */
export function shuffled<T>(r: Seeded, list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
