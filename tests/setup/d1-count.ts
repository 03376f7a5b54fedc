/**
 * A D1 that counts what is asked of it: statements run (each statement of a batch counts),
 * round trips (a batch is one), the statements that write (INSERT, UPDATE, DELETE, REPLACE)
 * and the rows D1 says were read and written (`meta.rows_read`, `meta.rows_written`). The
 * scheduled jobs' tests hand it to a job in place of `env.DB`, so a job that creeps back to a
 * statement per item, or to a write that changes nothing, fails its test.
 */
export type D1Count = {
  statements: number;
  roundTrips: number;
  writeStatements: number;
  rowsRead: number;
  rowsWritten: number;
  /** Each statement run, with its bound values (to ask SQLite for its plan afterwards). */
  sql: { text: string; params: unknown[] }[];
};

const WRITE = /^\s*(?:WITH\b[\s\S]*?\)\s*)?(INSERT|UPDATE|DELETE|REPLACE)\b/i;

function note(count: D1Count, sql: string, params: unknown[], meta: Partial<D1Meta> | undefined): void {
  count.statements++;
  count.sql.push({ text: sql.replace(/\s+/g, " ").trim(), params });
  if (WRITE.test(sql)) count.writeStatements++;
  count.rowsRead += meta?.rows_read ?? 0;
  count.rowsWritten += meta?.rows_written ?? 0;
}

class CountedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    readonly sql: string,
    private readonly count: D1Count,
    readonly params: unknown[] = [],
  ) {}

  bind(...values: unknown[]): CountedStatement {
    return new CountedStatement(this.inner.bind(...values), this.sql, this.count, values);
  }

  async run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    const result = await this.inner.run<T>();
    this.count.roundTrips++;
    note(this.count, this.sql, this.params, result.meta);
    return result;
  }

  async all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    const result = await this.inner.all<T>();
    this.count.roundTrips++;
    note(this.count, this.sql, this.params, result.meta);
    return result;
  }

  /** Read through all(), so its rows read are counted too. */
  async first<T = Record<string, unknown>>(column?: string): Promise<T | null> {
    const { results } = await this.all<Record<string, unknown>>();
    const row = results[0];
    if (row === undefined) return null;
    return (column === undefined ? row : (row[column] ?? null)) as T | null;
  }

  async raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[]> {
    this.count.roundTrips++;
    note(this.count, this.sql, this.params, undefined);
    if (options?.columnNames) return (await this.inner.raw({ columnNames: true })) as T[];
    return this.inner.raw<T>();
  }
}

/** `db` wrapped, and the counts it keeps (reset them with `reset()`). */
export function countingD1(db: D1Database): { db: D1Database; count: D1Count; reset: () => void } {
  const count: D1Count = { statements: 0, roundTrips: 0, writeStatements: 0, rowsRead: 0, rowsWritten: 0, sql: [] };
  const counted = {
    prepare: (sql: string) => new CountedStatement(db.prepare(sql), sql, count),
    batch: async <T = unknown>(statements: CountedStatement[]): Promise<D1Result<T>[]> => {
      const results = await db.batch<T>(statements.map((s) => s.inner));
      count.roundTrips++;
      for (const [i, s] of statements.entries()) note(count, s.sql, s.params, results[i]?.meta);
      return results;
    },
    exec: (sql: string) => db.exec(sql),
    withSession: () => {
      throw new Error("countingD1: sessions are not counted");
    },
    dump: () => db.dump(),
  };
  const reset = () => Object.assign(count, { statements: 0, roundTrips: 0, writeStatements: 0, rowsRead: 0, rowsWritten: 0, sql: [] });
  return { db: counted as unknown as D1Database, count, reset };
}

/** SQLite's plan of a statement as run (its bound values again), one line per step. */
export async function planOf(db: D1Database, statement: { text: string; params: unknown[] }): Promise<string[]> {
  const { results } = await db
    .prepare(`EXPLAIN QUERY PLAN ${statement.text}`)
    .bind(...statement.params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail);
}

/**
 * The steps of `statement`'s plan that read a whole table of `tables` (SQLite's "SCAN t", or
 * "SCAN t USING INDEX i" over a full index; t may be the alias the statement gives the table),
 * except scans of the partial indexes `allowed`, which hold only the rows a job is after (open
 * orders, unprojected rows).
 */
export function fullScans(plan: string[], sql: string, tables: readonly string[], allowed: readonly string[] = []): string[] {
  const KEYWORDS = new Set(["WHERE", "ON", "JOIN", "LEFT", "INNER", "CROSS", "GROUP", "ORDER", "LIMIT", "UNION", "USING", "SET", "VALUES"]);
  const names = new Map(tables.map((t) => [t, t]));
  for (const [, table, alias] of sql.matchAll(/\b(?:FROM|JOIN)\s+(\w+)(?:\s+AS)?\s+(\w+)/gi)) {
    if (tables.includes(table) && !KEYWORDS.has(alias.toUpperCase())) names.set(alias, table);
  }
  return plan.filter((step) => {
    const scan = /^SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?/.exec(step);
    if (!scan) return false;
    const [, name, index] = scan;
    return names.has(name) && !(index && allowed.includes(index));
  });
}
