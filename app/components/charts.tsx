import { useId, type ReactNode } from "react";
import { bandScale, type LinearScale, linePath, niceLinearScale, pointScale } from "~/lib/chart-scales";
import { CHART, hookProps } from "~/lib/lite/hooks";

/**
 * Report charts (decision 059), drawn as SVG during the server render by d3's scale, tick and
 * line algorithms (lib/chart-scales.ts, written out rather than bundled): no DOM, no canvas, nothing measured in the browser. So a chart
 * is complete without JavaScript: axes with labels, a legend, and a <title> on every bar or
 * point (the browser shows it on hover). With JavaScript the same marks get a small tooltip
 * (pointer or tap) showing that title: the lite script's `chartTips` part (lib/lite/charts.ts,
 * decision 089), no React and no chart library in the browser.
 *
 * The SVG is one image to assistive technology (role="img" with a title); the figures are
 * in the <table> the page puts beside every chart.
 */
export type ChartSeries = { key: string; label: string; values: (number | null)[] };
export type ChartProps = {
  /** Accessible name of the image (and its heading's text). */
  title: string;
  /** Category labels along x: full (titles, tooltips) and short (axis). */
  categories: { label: string; tick: string }[];
  series: ChartSeries[];
  /** Formats a value of the series (axis ticks, titles, tooltips). */
  format: (value: number) => string;
  /** The top of the value axis when every value is 0 (money in minor units: 100, one kip or one credit). */
  emptyMax?: number;
  testId?: string;
};

const WIDTH = 480;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 8, bottom: 30, left: 40 };
/** Series colours: each at least 3:1 against the white plot (WCAG non-text contrast). */
const COLOURS = ["#1f5fbf", "#b4420b", "#2e7d32", "#7b2cbf", "#a3195b"];
const MAX_TICKS = 8;

function domainOf(series: ChartSeries[], emptyMax = 1): [number, number] {
  let min = 0;
  let max = 0;
  for (const s of series) for (const v of s.values) if (v !== null && Number.isFinite(v)) [min, max] = [Math.min(min, v), Math.max(max, v)];
  return min === max ? [0, emptyMax] : [min, max];
}

/** Every n-th category label, so at most MAX_TICKS fit under the axis. */
function tickEvery(count: number): number {
  return Math.max(1, Math.ceil(count / MAX_TICKS));
}

function Frame({ title, testId, kind, legend, children }: { title: string; testId?: string; kind: string; legend: ChartSeries[]; children: ReactNode }) {
  const id = useId();
  return (
    <figure className="chart" data-testid={testId} {...hookProps(CHART, kind)}>
      {/* the tooltip's box: the chartTips part puts it here, over the mark */}
      <div className="chart-frame">
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title`} className="chart-svg" preserveAspectRatio="xMidYMid meet">
          <title id={`${id}-title`}>{title}</title>
          {children}
        </svg>
      </div>
      <figcaption className="chart-legend">
        {legend.map((s, i) => (
          <span key={s.key} className="chart-key">
            <span className="chart-swatch" style={{ background: COLOURS[i % COLOURS.length] }} aria-hidden="true" />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

type Axis = { y: LinearScale; ticks: { value: number; label: string }[]; left: number };

/**
 * The value axis: a "nice" linear scale over the values (0 always in it), whole-value ticks
 * with distinct labels, and the left margin those labels need (at the phone's larger font).
 */
function valueAxis(series: ChartSeries[], format: (v: number) => string, emptyMax?: number): Axis {
  const y = niceLinearScale(domainOf(series, emptyMax), [HEIGHT - MARGIN.bottom, MARGIN.top]);
  const seen = new Set<string>();
  const ticks: Axis["ticks"] = [];
  for (const value of y.ticks(5)) {
    const label = format(value);
    if (!Number.isInteger(value) || seen.has(label)) continue;
    seen.add(label);
    ticks.push({ value, label });
  }
  const longest = Math.max(...ticks.map((t) => t.label.length), 1);
  return { y, ticks, left: Math.min(160, Math.max(MARGIN.left, Math.ceil(longest * 8.5) + 8)) };
}

function YAxis({ axis }: { axis: Axis }) {
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG <g> takes no focus; the axis is hidden because the image has its title and the figures their table
    <g className="chart-axis" aria-hidden="true">
      {axis.ticks.map((tick) => (
        <g key={tick.value} transform={`translate(0,${axis.y(tick.value)})`}>
          <line x1={axis.left} x2={WIDTH - MARGIN.right} className={tick.value === 0 ? "chart-zero" : "chart-grid"} />
          <text x={axis.left - 4} dy="0.32em" textAnchor="end">
            {tick.label}
          </text>
        </g>
      ))}
    </g>
  );
}

/** A label cut to the room it has (about 8.5 units per character at the phone's font). */
function fit(label: string, room: number): string {
  const chars = Math.max(2, Math.floor(room / 8.5));
  return label.length <= chars ? label : `${label.slice(0, chars - 1)}…`;
}

function XAxis({ categories, x, step }: { categories: ChartProps["categories"]; x: (i: number) => number; step: number }) {
  const every = tickEvery(categories.length);
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG <g> takes no focus; the axis is hidden because the image has its title and the figures their table
    <g className="chart-axis" aria-hidden="true">
      {categories.map((c, i) =>
        i % every === 0 ? (
          <text key={i} x={x(i)} y={HEIGHT - MARGIN.bottom + 16} textAnchor="middle">
            {fit(c.tick, step * every)}
          </text>
        ) : null,
      )}
    </g>
  );
}

/** Grouped vertical bars (one group per category, one bar per series); negative values hang below zero. */
export function BarChart({ title, categories, series, format, emptyMax, testId }: ChartProps) {
  const axis = valueAxis(series, format, emptyMax);
  const y = axis.y;
  const band = bandScale(categories.length, [axis.left, WIDTH - MARGIN.right], 0.2, 0.1);
  const inner = bandScale(series.length, [0, band.bandwidth], 0.05, 0.05);
  const zero = y(0);
  return (
    <Frame title={title} testId={testId} kind="bar" legend={series}>
      <YAxis axis={axis} />
      <XAxis categories={categories} x={(i) => band.at(i) + band.bandwidth / 2} step={band.step} />
      {categories.map((c, i) => (
        <g key={i} transform={`translate(${band.at(i)},0)`}>
          {series.map((s, k) => {
            const v = s.values[i];
            if (v === null || !Number.isFinite(v)) return null;
            const text = `${c.label} · ${s.label}: ${format(v)}`;
            const top = Math.min(y(v), zero);
            return (
              <rect
                key={s.key}
                className="chart-mark"
                x={inner.at(k)}
                y={top}
                width={inner.bandwidth}
                height={Math.max(Math.abs(zero - y(v)), v === 0 ? 0 : 1)}
                fill={COLOURS[k % COLOURS.length]}
                data-value={v}
              >
                <title>{text}</title>
              </rect>
            );
          })}
        </g>
      ))}
    </Frame>
  );
}

/** One line per series across the categories (periods), a point with its title on each value. */
export function LineChart({ title, categories, series, format, emptyMax, testId }: ChartProps) {
  const axis = valueAxis(series, format, emptyMax);
  const y = axis.y;
  const x = pointScale(categories.length, [axis.left + 8, WIDTH - MARGIN.right - 8], 0.2);
  const path = (values: readonly (number | null)[]) => linePath(values.map((v, i) => (v !== null && Number.isFinite(v) ? [x.at(i), y(v)] : null)));
  return (
    <Frame title={title} testId={testId} kind="line" legend={series}>
      <YAxis axis={axis} />
      <XAxis categories={categories} x={(i) => x.at(i)} step={x.step} />
      {series.map((s, k) => {
        const colour = COLOURS[k % COLOURS.length];
        return (
          <g key={s.key}>
            <path d={path(s.values) ?? undefined} fill="none" stroke={colour} strokeWidth={2} />
            {s.values.map((v, i) => {
              if (v === null || !Number.isFinite(v)) return null;
              const text = `${categories[i].label} · ${s.label}: ${format(v)}`;
              return (
                <circle key={i} className="chart-mark" cx={x.at(i)} cy={y(v)} r={4} fill={colour} data-value={v}>
                  <title>{text}</title>
                </circle>
              );
            })}
          </g>
        );
      })}
    </Frame>
  );
}
