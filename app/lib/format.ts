/** The product's display formats live in workers/core/format.ts: staff alerts write them too. */
export * from "@workers/core/format";

/** A count read up to a bound (decision 077): "1000+" past it. */
export function boundedFigure(total: { count: number; more: boolean }): string {
  return total.more ? `${total.count}+` : String(total.count);
}
