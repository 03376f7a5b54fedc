import { scaleBand, scaleLinear, scalePoint } from "d3-scale";
import { line } from "d3-shape";
import { describe, expect, it } from "vitest";
import { bandScale, linePath, niceLinearScale, pointScale } from "~/lib/chart-scales";
import { seeded } from "../setup/random";

// The charts' own scales against d3's, on random report-like inputs: an axis, a bar or a line
// drawn by them is the one d3 drew (d3 stays a devDependency as this reference).

/** A report figure: kip amounts up to billions, counts, percentages, negatives (net figures). */
function figure(next: () => number): number {
  const kind = Math.floor(next() * 5);
  if (kind === 0) return Math.round(next() * 10 ** Math.floor(next() * 10));
  if (kind === 1) return -Math.round(next() * 10 ** Math.floor(next() * 8));
  if (kind === 2) return Math.round(next() * 40);
  if (kind === 3) return Math.round(next() * 10000) / 100;
  return 0;
}

const RANGE: [number, number] = [264, 16];

describe("chart scales (as d3 draws them)", () => {
  it("a nice linear axis: the same domain, positions and ticks", () => {
    const next = seeded(59).next;
    for (let n = 0; n < 3000; n++) {
      const a = figure(next);
      const b = n % 7 === 0 ? a : figure(next);
      const domain: [number, number] = [Math.min(0, a, b), Math.max(0, a, b, n % 11 === 0 ? 0 : 1)];
      const d3 = scaleLinear().domain(domain).nice().range(RANGE);
      const ours = niceLinearScale(domain, RANGE);
      const label = `domain ${domain.join("..")}`;
      expect(ours.domain, label).toEqual(d3.domain());
      expect(ours.ticks(5), label).toEqual(d3.ticks(5));
      for (const v of [domain[0], domain[1], a, b, 0]) expect(ours(v), `${label} at ${v}`).toBeCloseTo(d3(v), 9);
    }
  });

  it("bands and points: the same offsets, widths and steps", () => {
    const next = seeded(7).next;
    for (let n = 0; n < 500; n++) {
      const count = 1 + Math.floor(next() * 40);
      const range: [number, number] = [Math.round(next() * 160), 600 + Math.round(next() * 400)];
      const d3Band = scaleBand<number>()
        .domain(Array.from({ length: count }, (_, i) => i))
        .range(range)
        .paddingInner(0.2)
        .paddingOuter(0.1);
      const band = bandScale(count, range, 0.2, 0.1);
      const d3Inner = scaleBand<number>()
        .domain(Array.from({ length: count }, (_, i) => i))
        .range([0, d3Band.bandwidth()])
        .padding(0.05);
      const inner = bandScale(count, [0, band.bandwidth], 0.05, 0.05);
      const d3Point = scalePoint<number>()
        .domain(Array.from({ length: count }, (_, i) => i))
        .range(range)
        .padding(0.2);
      const point = pointScale(count, range, 0.2);
      expect(band.bandwidth).toBeCloseTo(d3Band.bandwidth(), 9);
      expect(band.step).toBeCloseTo(d3Band.step(), 9);
      expect(inner.bandwidth).toBeCloseTo(d3Inner.bandwidth(), 9);
      expect(point.step).toBeCloseTo(d3Point.step(), 9);
      for (let i = 0; i < count; i++) {
        expect(band.at(i)).toBeCloseTo(d3Band(i)!, 9);
        expect(inner.at(i)).toBeCloseTo(d3Inner(i)!, 9);
        expect(point.at(i)).toBeCloseTo(d3Point(i)!, 9);
      }
    }
  });

  it("a line broken where a value is missing: the same path text", () => {
    const next = seeded(3).next;
    const d3Line = line<[number, number | null]>()
      .defined(([, v]) => v !== null)
      .x(([i]) => i * 13.37)
      .y(([, v]) => v ?? 0);
    for (let n = 0; n < 500; n++) {
      const values = Array.from({ length: Math.floor(next() * 30) }, () => (next() < 0.25 ? null : next() * 1000 - 200));
      const expected = d3Line(values.map((v, i) => [i, v]));
      expect(linePath(values.map((v, i) => (v === null ? null : [i * 13.37, v]))), JSON.stringify(values)).toBe(expected);
    }
  });
});
