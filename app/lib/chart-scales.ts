/**
 * The few scale and path functions the report charts draw with (decision 059), written out
 * instead of bundling d3-scale and d3-shape: the charts use a "nice" linear axis with its ticks,
 * a band scale for bars, a point scale for lines and a polyline path, which is about 15 KB of
 * the Worker's gzip size as d3 and under 1 KB here. Each follows d3's algorithm step by step so
 * an axis reads as it did; tests/unit/chart-scales.test.ts holds them to d3 on random inputs.
 */

const E10 = Math.sqrt(50);
const E5 = Math.sqrt(10);
const E2 = Math.sqrt(2);

/** d3-array's tickSpec: the first and last tick index and the increment (negative: 1/-inc). */
function tickSpec(start: number, stop: number, count: number): [number, number, number] {
  const step = (stop - start) / Math.max(0, count);
  const power = Math.floor(Math.log10(step));
  const error = step / 10 ** power;
  const factor = error >= E10 ? 10 : error >= E5 ? 5 : error >= E2 ? 2 : 1;
  let i1: number;
  let i2: number;
  let inc: number;
  if (power < 0) {
    inc = 10 ** -power / factor;
    i1 = Math.round(start * inc);
    i2 = Math.round(stop * inc);
    if (i1 / inc < start) ++i1;
    if (i2 / inc > stop) --i2;
    inc = -inc;
  } else {
    inc = 10 ** power * factor;
    i1 = Math.round(start / inc);
    i2 = Math.round(stop / inc);
    if (i1 * inc < start) ++i1;
    if (i2 * inc > stop) --i2;
  }
  if (i2 < i1 && 0.5 <= count && count < 2) return tickSpec(start, stop, count * 2);
  return [i1, i2, inc];
}

/** Round values from start to stop, about `count` of them (d3-array `ticks`, start <= stop). */
function ticksOf(start: number, stop: number, count: number): number[] {
  if (!(count > 0)) return [];
  if (start === stop) return [start];
  const [i1, i2, inc] = tickSpec(start, stop, count);
  if (!(i2 >= i1)) return [];
  return Array.from({ length: i2 - i1 + 1 }, (_, i) => (inc < 0 ? (i1 + i) / -inc : (i1 + i) * inc));
}

/** d3-scale's linear `nice(10)`: the domain widened to round ends (kept as it is when no step settles). */
function niceDomain(domain: readonly [number, number]): [number, number] {
  const [low, high] = domain;
  let start = Math.min(low, high);
  let stop = Math.max(low, high);
  let before: number | undefined;
  for (let i = 0; i < 10; i++) {
    const step = tickSpec(start, stop, 10)[2];
    if (step === before) return low <= high ? [start, stop] : [stop, start];
    if (step > 0) {
      start = Math.floor(start / step) * step;
      stop = Math.ceil(stop / step) * step;
    } else if (step < 0) {
      start = Math.ceil(start * step) / step;
      stop = Math.floor(stop * step) / step;
    } else break;
    before = step;
  }
  return [low, high];
}

export type LinearScale = ((value: number) => number) & { ticks(count: number): number[]; domain: [number, number] };

/** A linear scale over a domain made nice (as d3's `scaleLinear().domain(d).nice().range(r)`). */
export function niceLinearScale(domain: readonly [number, number], range: readonly [number, number]): LinearScale {
  const [d0, d1] = niceDomain(domain);
  const [r0, r1] = range;
  const span = d1 - d0;
  const scale = ((value: number) => r0 + (span ? (value - d0) / span : 0.5) * (r1 - r0)) as LinearScale;
  scale.ticks = (count) => (d0 <= d1 ? ticksOf(d0, d1, count) : ticksOf(d1, d0, count).reverse());
  scale.domain = [d0, d1];
  return scale;
}

export type BandScale = { at(index: number): number; bandwidth: number; step: number };

/**
 * `count` bands across the range (as d3's `scaleBand` with the domain 0..count-1, centred):
 * `paddingInner` of a step between bands, `paddingOuter` of a step before the first and after
 * the last. A point scale is a band scale with an inner padding of 1 (bands of no width).
 */
export function bandScale(count: number, [r0, r1]: readonly [number, number], paddingInner: number, paddingOuter: number): BandScale {
  const inner = Math.min(1, paddingInner);
  const step = (r1 - r0) / Math.max(1, count - inner + paddingOuter * 2);
  const start = r0 + (r1 - r0 - step * (count - inner)) * 0.5;
  return { at: (index) => start + step * index, bandwidth: step * (1 - inner), step };
}

/** Points across the range (d3's `scalePoint().padding(padding)` over 0..count-1). */
export function pointScale(count: number, range: readonly [number, number], padding: number): BandScale {
  return bandScale(count, range, 1, padding);
}

/** d3-path's number: at most three decimals. */
function coordinate(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/**
 * An SVG path through the points, broken where a point is missing (d3-shape's `line()` with
 * `defined` and the linear curve): each run starts with M, a run of one point closes with Z.
 * Null when no point is drawn.
 */
export function linePath(points: readonly ([number, number] | null)[]): string | null {
  let path = "";
  let run = 0;
  const end = () => {
    if (run === 1) path += "Z";
    run = 0;
  };
  for (const point of points) {
    if (!point) {
      end();
      continue;
    }
    path += `${run === 0 ? "M" : "L"}${coordinate(point[0])},${coordinate(point[1])}`;
    run++;
  }
  end();
  return path || null;
}
