import { COUNT_BOUND, type ListAsk } from "../core/keyset";

/**
 * The SQL of one keyset page (decision 077) over an index ending in (time column, id column):
 * the row-value term that starts after the cursor, the ORDER BY in the direction read, and
 * the LIMIT (one row more than the page: it says whether there is more). SQLite uses a row
 * value `(a, b) < (?, ?)` as a range of an index on (…, a, b), so a page reads its own rows.
 */
export function keysetSql(
  columns: { at: string; id: string },
  order: "DESC" | "ASC",
  ask: ListAsk,
  param: (value: unknown) => string,
): { where: string | null; orderBy: string; limit: number } {
  // reading backwards (the previous page) flips both the comparison and the order
  const forward = ask.step === "next";
  const descending = (order === "DESC") === forward;
  const where = ask.from ? `(${columns.at}, ${columns.id}) ${descending ? "<" : ">"} (${param(ask.from.at)}, ${param(ask.from.id)})` : null;
  const direction = descending ? "DESC" : "ASC";
  return { where, orderBy: `ORDER BY ${columns.at} ${direction}, ${columns.id} ${direction}`, limit: Math.floor(ask.pageSize) + 1 };
}

/** A count that stops at COUNT_BOUND + 1 rows: `from` is "FROM … WHERE …". */
export function boundedCountSql(from: string): string {
  return `SELECT COUNT(*) AS n FROM (SELECT 1 ${from} LIMIT ${COUNT_BOUND + 1})`;
}

/** Bindings numbered as they are added: `param(value)` keeps the value and answers its placeholder ("?2"). */
export function numberedParams(...first: unknown[]): { params: unknown[]; param: (value: unknown) => string } {
  const params = [...first];
  return {
    params,
    param: (value) => {
      params.push(value);
      return `?${params.length}`;
    },
  };
}
